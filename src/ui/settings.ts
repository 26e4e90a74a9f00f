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
}

export interface AppSettings {
  scene: string;
  terrain: TerrainParams;
  view: ViewSettings;
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
});
