import * as THREE from 'three';
import {
  CRACK_PRECISIONS,
  CrackSystem,
  DEFAULT_CRACKS,
  MISSED_RAY_STRIDE,
  RAY_TRIANGLE_KERNEL_NAMES,
  type CrackSettings,
  type Sandbox,
  type SceneCracks,
  type SceneDefinition,
} from '../../core';
import { ProgressBar } from '../../ui/progressBar';
import type { AppContext, AppFeature } from '../feature';
import { cssColour, type Legend } from '../../view/legend';

/** The misses drawn: rays through a crack of the chosen triangle test. */
const MISS_COLOUR = 0xff2244;
/**
 * Rays the panel fires by default: every triangle test runs them on the main thread (about 10 µs a ray
 * and test under a software renderer), so the default batch answers in about a second; the slider goes
 * to a million for a patient audience.
 */
const PANEL_RAYS = 20_000;
/** Frames between a click on *fire* and the batch: the progress bar is painted before the page is busy. */
const FIRE_DELAY_FRAMES = 2;

/**
 * The crack explorer's panel and view: the settings of the core system (src/cracks) that fires rays
 * exactly through shared edges and vertices of the terrain grid, per triangle test, against the
 * triangles around each target and through the whole BVH. Firing turns the system on with the panel's
 * settings (it runs its batch at the next step); misses of the chosen test are drawn as red rays ending
 * in a dot at the crack.
 */
export class CrackFeature implements AppFeature {
  readonly name = 'cracks';
  private readonly settings: CrackSettings = { ...DEFAULT_CRACKS, rays: PANEL_RAYS };
  private context: AppContext | null = null;
  private progress: ProgressBar | null = null;
  /** Frames until a requested batch starts (−1: none requested). */
  private fireIn = -1;
  private readonly lines: THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly dots: THREE.Points<THREE.BufferGeometry, THREE.PointsMaterial>;
  /** The system and its batch count the view last drew, and for which test. */
  private drawn: { system: CrackSystem | null; runs: number; test: string } = { system: null, runs: -1, test: '' };

  constructor() {
    this.lines = new THREE.LineSegments(
      new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({ color: MISS_COLOUR, transparent: true, opacity: 0.7 }),
    );
    this.dots = new THREE.Points(
      new THREE.BufferGeometry(),
      new THREE.PointsMaterial({ color: MISS_COLOUR, size: 6, sizeAttenuation: false, depthTest: false }),
    );
    this.lines.frustumCulled = this.dots.frustumCulled = false;
    this.lines.visible = this.dots.visible = false;
    this.dots.renderOrder = 4;
  }

  install(context: AppContext): void {
    this.context = context;
    this.progress = new ProgressBar(context.root, 'crack-progress');
    context.stage.scene.add(this.lines, this.dots);
    const folder = context.gui.addFolder('Crack explorer');
    folder.add(this.settings, 'rays', 1000, 1_000_000, 1000).name('rays');
    folder.add(this.settings, 'vertexShare', 0, 1, 0.05).name('share at vertices');
    folder.add(this.settings, 'precision', [...CRACK_PRECISIONS]).name('ray precision');
    folder.add(this.settings, 'doubleSided').name('double-sided');
    folder.add(this.settings, 'seed', 1, 1000, 1);
    folder
      .add(this.settings, 'showMissesOf', [...RAY_TRIANGLE_KERNEL_NAMES])
      .name('draw misses of')
      .onChange(() => {
        // A view choice, kept in the running system's section so a saved scene draws the same.
        const system = this.system;
        if (system !== null) system.settings.showMissesOf = this.settings.showMissesOf;
      })
      .listen();
    folder.add({ run: () => this.fire() }, 'run').name('fire rays through edges and vertices');
    folder.add({ clear: () => context.setSystem('cracks', null) }, 'clear').name('clear');
    folder.close();
  }

  sceneLoaded(scene: SceneDefinition): void {
    const wanted = scene.systems.cracks as SceneCracks | undefined;
    if (wanted !== undefined) Object.assign(this.settings, DEFAULT_CRACKS, wanted);
  }

  frame(_dtSeconds: number, sandbox: Sandbox): void {
    if (this.fireIn > 0) this.fireIn--;
    else if (this.fireIn === 0) {
      this.fireIn = -1;
      this.context?.setSystem('cracks', { ...this.settings, rays: Math.round(this.settings.rays), seed: Math.round(this.settings.seed) });
    }
    const system = this.system;
    // Paused or not, a fired batch runs at once.
    system?.update(sandbox);
    if (this.fireIn < 0 && (system === null || !system.waiting)) this.progress?.finish();
    if (system !== null) this.settings.showMissesOf = system.settings.showMissesOf;
    const test = system?.settings.showMissesOf ?? '';
    const runs = system?.runs ?? -1;
    if (system === this.drawn.system && runs === this.drawn.runs && test === this.drawn.test) return;
    this.drawn = { system, runs, test };
    this.drawMisses(system);
  }

  legends(): readonly Legend[] {
    const system = this.system;
    if (system === null || !this.lines.visible) return [];
    return [
      { title: 'crack explorer', swatches: [{ label: `ray the ${system.settings.showMissesOf} test let through`, colour: cssColour(MISS_COLOUR) }] },
    ];
  }

  hudLines(): readonly string[] {
    const system = this.system;
    if (system === null) return [];
    const { rays, precision } = system.settings;
    if (system.waiting) return [`cracks: ${rays.toLocaleString('en')} ${precision} rays wait for the BVH`];
    const results = [...system.results.entries()];
    return [
      `cracks (${rays.toLocaleString('en')} ${precision} rays): ` +
        results.map(([name, r]) => `${name} ${r.report.misses}${r.bvhMisses >= 0 ? ` (BVH ${r.bvhMisses})` : ''}`).join(' · '),
    ];
  }

  /**
   * Turns the explorer on with the panel's settings: every triangle test runs the batch on the main
   * thread, a few frames from now, after a progress bar saying so has been drawn.
   */
  fire(): void {
    const rays = Math.round(this.settings.rays).toLocaleString('en');
    this.progress?.start(`Crack explorer: ${rays} rays × ${RAY_TRIANGLE_KERNEL_NAMES.length} triangle tests (the page pauses meanwhile)`);
    this.progress?.set(-1, `Crack explorer: ${rays} rays × ${RAY_TRIANGLE_KERNEL_NAMES.length} triangle tests (the page pauses meanwhile)`);
    this.fireIn = FIRE_DELAY_FRAMES;
  }

  private get system(): CrackSystem | null {
    const system = this.context?.system('cracks') ?? null;
    return system instanceof CrackSystem ? system : null;
  }

  private drawMisses(system: CrackSystem | null): void {
    const result = system?.results.get(system.settings.showMissesOf);
    const kept = result?.report.missedRaysKept ?? 0;
    const segments = new Float32Array(kept * 6);
    const targets = new Float32Array(kept * 3);
    const missed = result?.report.missedRays;
    for (let i = 0; i < kept && missed !== undefined; i++) {
      const o = MISSED_RAY_STRIDE * i;
      const [ox, oy, oz, dx, dy, dz] = [missed[o]!, missed[o + 1]!, missed[o + 2]!, missed[o + 3]!, missed[o + 4]!, missed[o + 5]!];
      segments.set([ox, oy, oz, ox + dx, oy + dy, oz + dz], 6 * i);
      targets.set([ox + dx, oy + dy, oz + dz], 3 * i);
    }
    this.lines.geometry.setAttribute('position', new THREE.BufferAttribute(segments, 3));
    this.dots.geometry.setAttribute('position', new THREE.BufferAttribute(targets, 3));
    this.lines.visible = this.dots.visible = kept > 0;
  }
}
