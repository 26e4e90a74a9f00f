import type GUI from 'lil-gui';
import type { Sandbox, SceneDefinition, SimSystem } from '../core';
import type { BarChart } from '../ui/barChart';
import type { AppSettings } from '../ui/settings';
import type { Legend } from '../view/legend';
import type { Stage } from '../view/stage';
import type { PageRayThreads } from './rayThreads';
import type { Gestures } from './gestures';
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
  /** The page's ray, capsule and particle pools, when they have workers (systems that cast ray batches, sweep capsule batches or move particles may run on them). */
  readonly rayThreads: Pick<PageRayThreads, 'pool' | 'capsulePoolForCrowd' | 'particlePoolForParticles'>;
  /**
   * The page's keyboard: a feature takes keys with `shortcuts.claim({ owner, codes, help, active, down, up })`;
   * while `active()` holds they are its own, before the page's shortcuts and the fly camera (no window
   * key listeners of its own), and the help overlay lists them under the owner.
   */
  readonly shortcuts: ShortcutClaims;
  /**
   * The page's mouse and touch gestures: a feature claims each one it acts on and tests events with the
   * matcher it gets back; a gesture claimed twice throws, and the help overlay lists them all.
   */
  readonly gestures: Gestures;
  /** The current sandbox, or null while the first terrain is still building. */
  sandbox(): Sandbox | null;
  /**
   * A scene was chosen and its systems wait for its terrain: the systems running meanwhile are the
   * previous scene's, so a panel must not take its on/off state from them (the switch already shows the
   * chosen scene's; the systems it names start, and the others stop, when the terrain arrives).
   */
  sceneSwitching(): boolean;
  /** Shows an error to the user without stopping anything. */
  reportError(message: string): void;
  /** The running system of a catalog name (src/systems.ts), or null while it is off or no terrain exists yet. */
  system(name: string): SimSystem | null;
  /**
   * Turns a system on from its scene section (validated exactly like a scene file's; on an error the
   * message is shown, and what ran keeps running) or off with null. Returns the system now running.
   */
  setSystem(name: string, section: object | null): SimSystem | null;
}

/**
 * A pluggable part of the sandbox page: a system's panel folder and its view (the simulation itself is
 * a core system of the catalog, stepped by the sandbox), or a page-only overlay such as the BVH boxes.
 */
export interface AppFeature {
  readonly name: string;
  install(context: AppContext): void;
  /**
   * A scene was chosen (before its terrain is built): the feature takes its section's settings (and its
   * view hints) and turns on, or turns off when the scene leaves it out.
   */
  sceneLoaded?(scene: SceneDefinition): void;
  /** The terrain was (re)built; rebuild whatever depends on it. */
  terrainChanged?(sandbox: Sandbox): void;
  /** The terrain's BVH arrived (built in the worker after the terrain). */
  bvhChanged?(sandbox: Sandbox): void;
  /** Edits moved the ground in `area` (minX, minZ, maxX, maxZ) and the BVH was refitted: redraw what shows either. */
  terrainDeformed?(sandbox: Sandbox, area: Float64Array): void;
  /** Once per frame after the simulation step and before rendering: update the view from the systems. */
  frame?(dtSeconds: number, sandbox: Sandbox): void;
  /** Extra lines for the timing HUD: each shown on one line, the whole of it on hover. */
  hudLines?(): readonly string[];
  /** Bar charts for the timing HUD (an A/B comparison), drawn under the lines. */
  hudCharts?(): readonly BarChart[];
  /** The keys of the colour codings the feature draws right now (none while its drawings are hidden). */
  legends?(): readonly Legend[];
}
