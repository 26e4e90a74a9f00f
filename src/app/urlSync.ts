import type GUI from 'lil-gui';
import { applyState, encodeState, type CameraView } from './urlState';

/** The camera as URL sync reads and sets it (the stage). */
export interface ViewCamera {
  getView(): CameraView;
  setView(position: readonly number[], target: readonly number[], fov: number): void;
}

/** How long the settings must rest before the hash is rewritten. */
const WRITE_DELAY_MS = 150;
/** The camera moves without a GUI event: its place is written this often. */
const CAMERA_POLL_MS = 1000;

/**
 * Keeps every GUI setting and the camera in the URL hash (`#Terrain/seed=42&…&camera=…`) and the preset
 * in `?scene=`, so a copied link reproduces the view. A hash pasted into the address bar applies at once.
 */
export class UrlSync {
  private writeTimer = 0;
  private lastHash = '';

  constructor(
    private readonly gui: GUI,
    private readonly camera: ViewCamera,
    private readonly host: { report(message: string): void; refresh(): void },
  ) {}

  /** Starts writing the hash after GUI edits and camera moves, and applying hashes pasted into this tab. */
  start(): void {
    this.gui.onFinishChange(() => this.scheduleWrite());
    window.setInterval(() => this.scheduleWrite(), CAMERA_POLL_MS);
    window.addEventListener('hashchange', () => {
      if (location.hash !== this.lastHash) this.restore();
    });
  }

  /** Applies the URL hash's settings through the GUI (as if the user had set them) and its camera. */
  restore(): void {
    if (location.hash.length <= 1) return;
    const state = applyState(this.gui, location.hash, (key) => (key.startsWith('Scene/') ? 0 : 1));
    if (state.camera !== null) this.camera.setView(state.camera.position, state.camera.target, state.camera.fov);
    if (state.problems.length > 0) this.host.report(`Some settings in the link were ignored: ${state.problems.join('; ')}`);
    this.host.refresh();
  }

  scheduleWrite(): void {
    window.clearTimeout(this.writeTimer);
    this.writeTimer = window.setTimeout(() => {
      const hash = encodeState(this.gui, this.camera.getView());
      if (hash === this.lastHash) return;
      this.lastHash = hash;
      history.replaceState(null, '', location.pathname + location.search + hash);
    }, WRITE_DELAY_MS);
  }

  /** Puts the preset's name in `?scene=` (the hash stays). */
  setPreset(name: string): void {
    const url = new URL(location.href);
    url.searchParams.set('scene', name);
    history.replaceState(null, '', url);
  }

  /** A link to the current view with every setting (for recordings and benchmark tables). */
  link(): string {
    return location.origin + location.pathname + location.search + encodeState(this.gui, this.camera.getView());
  }
}
