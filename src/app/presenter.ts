import { PresenterOverlay } from '../ui/presenterOverlay';
import type { AppSettings } from '../ui/settings';
import type { SceneLoader } from './sceneLoader';
import { presetNames, tourNames } from './scenes';

/** What presenter mode asks of the page. */
export interface PresenterHost {
  readonly settings: AppSettings;
  /** Switches scenes (the slides are the tour's presets, `scenes/tour.json`, in order). */
  readonly scenes: SceneLoader;
  /** Hides (true) or shows the panels around the picture: the GUI, the stats, the control bar. */
  hidePanels(hidden: boolean): void;
  /** Applies the view settings again (the HUD's visibility among them, see `hudVisible`). */
  applyView(): void;
}

/**
 * Presenter mode: panels hidden, the scene's title large, the presets as slides. The timing HUD is
 * hidden on entering and `H` toggles it for the talk; the View → timing HUD setting is never written, so
 * on leaving, the HUD and its checkbox show that setting again (`hudVisible` is the one place that
 * decides what the HUD shows).
 */
export class Presenter {
  presenting = false;
  /** The slide shown (index into the tour), -1 before presenter mode was first entered. */
  slide = -1;
  /** Whether the HUD shows during the talk (H while presenting). */
  private hudWhilePresenting = false;

  private readonly overlay: PresenterOverlay;

  constructor(
    root: HTMLElement,
    private readonly host: PresenterHost,
  ) {
    this.overlay = new PresenterOverlay(root, {
      previous: () => this.changeScene(-1),
      next: () => this.changeScene(1),
      leave: () => this.set(false),
    });
  }

  /** What the timing HUD shows: the View setting, or while presenting, the talk's own choice. */
  hudVisible(viewSetting: boolean): boolean {
    return this.presenting ? this.hudWhilePresenting : viewSetting;
  }

  /** H while presenting: shows or hides the HUD for the talk; false when not presenting (the View setting's turn). */
  toggleHud(): boolean {
    if (!this.presenting) return false;
    this.hudWhilePresenting = !this.hudWhilePresenting;
    this.host.applyView();
    return true;
  }

  toggle(): void {
    this.set(!this.presenting);
  }

  set(on: boolean): void {
    if (on === this.presenting) return;
    this.presenting = on;
    this.hudWhilePresenting = false;
    this.host.hidePanels(on);
    this.overlay.visible = on;
    this.host.applyView();
    // The tour starts at the scene on screen when it is a slide, else at its first slide.
    if (on) this.showSlide(Math.max(0, tourNames().indexOf(this.host.settings.scene)));
  }

  /** The previous (-1) or next (+1) slide of the tour while presenting, else the next preset of the menu. */
  changeScene(offset: number): void {
    if (this.presenting) {
      this.showSlide(this.slide + offset);
      return;
    }
    const names = presetNames();
    const current = Math.max(0, names.indexOf(this.host.settings.scene));
    if (names.length > 0) this.host.scenes.selectPreset(names[(current + offset + names.length) % names.length]!);
  }

  private showSlide(index: number): void {
    const names = tourNames();
    if (names.length === 0) return;
    const i = ((index % names.length) + names.length) % names.length;
    this.slide = i;
    const scenes = this.host.scenes;
    // Each slide shows its scene's own camera.
    if (names[i] !== this.host.settings.scene) scenes.selectPreset(names[i]!, true);
    else scenes.applyCamera();
    const scene = scenes.scene;
    this.overlay.showSlide(scene.title, scene.description, i, names.length);
  }
}
