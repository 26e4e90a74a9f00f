import type GUI from 'lil-gui';
import type { Sandbox, SceneDefinition } from '../core';
import type { AppSettings } from '../ui/settings';
import type { Stage } from '../view/stage';
import type { ShortcutClaims } from './shortcuts';

/**
 * What the app hands a feature (a probe, an overlay, a subsystem's panel) when it is installed.
 * Features never replace the sandbox; they read it, add drawables to the stage and controls to the GUI.
 */
export interface AppContext {
  readonly stage: Stage;
  readonly gui: GUI;
  /** The element the canvas and overlays live in. */
  readonly root: HTMLElement;
  readonly settings: AppSettings;
  /**
   * The page's keyboard: a feature takes keys with `shortcuts.claim({ owner, codes, help, active, down, up })`;
   * while `active()` holds they are its own, before the page's shortcuts and the fly camera (no window
   * key listeners of its own), and the help overlay lists them under the owner.
   */
  readonly shortcuts: ShortcutClaims;
  /** The current sandbox, or null while the first terrain is still building. */
  sandbox(): Sandbox | null;
  /** Shows an error to the user without stopping anything. */
  reportError(message: string): void;
}

/**
 * A pluggable part of the sandbox page. Each later subsystem (BVH overlay, ray probes, broad-phase
 * boxes, particles, wind) is one feature, so the app's boot and frame loop stay the same size.
 */
export interface AppFeature {
  readonly name: string;
  install(context: AppContext): void;
  /**
   * A scene that describes its systems was chosen (before its terrain is built): the feature takes its
   * section's settings and turns on, or turns off when the scene leaves it out. Scenes that name no
   * system do not call this (see describesSystems).
   */
  sceneLoaded?(scene: SceneDefinition): void;
  /** The terrain was (re)built; rebuild whatever depends on it. */
  terrainChanged?(sandbox: Sandbox): void;
  /** The terrain's BVH arrived (built in the worker after the terrain). */
  bvhChanged?(sandbox: Sandbox): void;
  /** Once per frame after the simulation step and before rendering. */
  frame?(dtSeconds: number, sandbox: Sandbox): void;
  /** Extra lines for the timing HUD. */
  hudLines?(): readonly string[];
}
