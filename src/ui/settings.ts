import type { TerrainParams } from '../core';
import type { TerrainColouring } from '../view/terrainColors';
import type { CameraMode } from '../view/stage';

/** The sandbox's whole state as one plain object: the GUI edits it, the app applies it. */
export interface ViewSettings {
  colouring: TerrainColouring;
  wireframe: boolean;
  flatShading: boolean;
  fog: boolean;
  fogAmount: number;
  sunElevation: number;
  sunAzimuth: number;
  camera: CameraMode;
  hud: boolean;
  /** Keep the current camera when switching scenes (presenter mode always uses each scene's camera). */
  keepCamera: boolean;
}

/** How the simulation advances. */
export interface RunSettings {
  /** Simulated seconds per real second (slow motion below 1). */
  timeScale: number;
  /** Step by exactly 1/60 s × timeScale every frame instead of by the frame's real duration. */
  fixedStep: boolean;
  /** Fine-grained per-phase timing (switch off to measure the cost of measuring). */
  timings: boolean;
  /** Frames the benchmark button runs, after its warm-up. */
  benchmarkFrames: number;
  /** Frames the benchmark runs first, unrecorded (compiling hot code, first uploads to the GPU). */
  benchmarkWarmup: number;
}

export interface AppSettings {
  scene: string;
  terrain: TerrainParams;
  view: ViewSettings;
  run: RunSettings;
}

export const DEFAULT_VIEW_SETTINGS: Readonly<ViewSettings> = Object.freeze({
  colouring: 'height+slope',
  wireframe: false,
  flatShading: false,
  fog: true,
  fogAmount: 0.35,
  sunElevation: 38,
  sunAzimuth: 135,
  camera: 'orbit',
  hud: true,
  keepCamera: true,
});

export const DEFAULT_RUN_SETTINGS: Readonly<RunSettings> = Object.freeze({
  timeScale: 1,
  fixedStep: false,
  timings: true,
  benchmarkFrames: 300,
  benchmarkWarmup: 30,
});
