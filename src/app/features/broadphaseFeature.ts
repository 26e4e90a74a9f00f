import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import {
  BROAD_PHASE_NAMES,
  BROAD_PHASE_SCENES,
  BroadPhaseSystem,
  DEFAULT_BROAD_PHASE_SETTINGS,
  type BroadPhaseName,
  type BroadPhaseSceneName,
  type SceneDefinition,
} from '../../core';
import { BROAD_PHASE_LEGEND, BroadPhaseBoxes } from '../../view/broadPhaseView';
import type { Legend } from '../../view/legend';
import type { AppContext, AppFeature } from '../feature';
import { addFocusButton, sphereAround, type FocusTarget } from './focusButton';

interface BroadPhaseFeatureSettings {
  /** Off by default: 8,192 moving boxes are not what the page should start with. */
  enabled: boolean;
  scene: BroadPhaseSceneName;
  strategy: BroadPhaseName;
  count: number;
  movingPercent: number;
  speed: number;
  draw: boolean;
  highlight: boolean;
  /** Height of the scene's origin above the terrain's highest point. */
  lift: number;
}

const COUNTS = [256, 1024, 4096, 8192, 16384, 32768];

/**
 * The broad-phases in the sandbox: a box scene (CDTestFramework orbits, or statics and dynamics on a
 * ground) floating above the terrain, its boxes drawn instanced with the overlapping ones coloured, and
 * the strategy switched live — the boxes are carried over, nothing restarts. Readouts: per-frame ms
 * (now, average, min, max over two seconds), pairs, pairs created and deleted, and the strategy's own
 * counters. The system joins the sandbox only while enabled.
 */
export class BroadPhaseFeature implements AppFeature {
  readonly name = 'broadphase';
  private context: AppContext | null = null;
  private readonly view = new BroadPhaseBoxes();
  private readonly settings: BroadPhaseFeatureSettings = {
    enabled: false,
    scene: DEFAULT_BROAD_PHASE_SETTINGS.scene,
    strategy: DEFAULT_BROAD_PHASE_SETTINGS.strategy,
    count: DEFAULT_BROAD_PHASE_SETTINGS.count,
    movingPercent: DEFAULT_BROAD_PHASE_SETTINGS.movingPercent,
    speed: DEFAULT_BROAD_PHASE_SETTINGS.speed,
    draw: true,
    highlight: true,
    lift: 140,
  };
  private readonly readouts = { now: '—', avg: '—', min: '—', max: '—', pairs: '—', created: '—', deleted: '—', counters: '—' };
  private countersController: Controller | null = null;
  private offset: [number, number, number] = [0, 0, 0];
  private readoutClock = 0;

  install(context: AppContext): void {
    this.context = context;
    this.view.visible = false;
    context.stage.scene.add(this.view.group);
    const folder: GUI = context.gui.addFolder('Broad-phase');
    folder
      .add(this.settings, 'enabled')
      .name('enabled')
      .onChange((on: boolean) => this.setEnabled(on));
    folder
      .add(this.settings, 'strategy', [...BROAD_PHASE_NAMES])
      .name('strategy (live)')
      .onChange((name: BroadPhaseName) => this.guard(() => this.system?.setStrategy(name)));
    folder
      .add(this.settings, 'scene', [...BROAD_PHASE_SCENES])
      .name('scene')
      .onChange(() => this.reconfigure());
    folder
      .add(this.settings, 'count', COUNTS)
      .name('boxes N')
      .onChange(() => this.reconfigure());
    folder
      .add(this.settings, 'movingPercent', 0, 100, 1)
      .name('% moving (dynamic)')
      .onFinishChange(() => this.reconfigure());
    folder
      .add(this.settings, 'speed', 0, 0.05, 0.001)
      .name('speed')
      .onChange(() => this.reconfigure());
    folder
      .add(this.settings, 'draw')
      .name('draw boxes')
      .onChange(() => this.refreshVisibility());
    folder
      .add(this.settings, 'highlight')
      .name('colour overlapping')
      .onChange((on: boolean) => {
        if (this.system !== null) this.system.trackOverlaps = on;
      });
    folder
      .add(this.settings, 'lift', 0, 600, 10)
      .name('height above terrain')
      .onChange(() => this.placeAboveTerrain());
    const stats = folder.addFolder('Per frame');
    stats.add(this.readouts, 'now').name('ms now').disable().listen();
    stats.add(this.readouts, 'avg').name('ms avg').disable().listen();
    stats.add(this.readouts, 'min').name('ms min').disable().listen();
    stats.add(this.readouts, 'max').name('ms max').disable().listen();
    stats.add(this.readouts, 'pairs').name('pairs').disable().listen();
    stats.add(this.readouts, 'created').name('created').disable().listen();
    stats.add(this.readouts, 'deleted').name('deleted').disable().listen();
    this.countersController = stats.add(this.readouts, 'counters').name('strategy').disable().listen();
    addFocusButton(folder, context, () => this.focusTarget(), 'the boxes');
    folder.close();
  }

  sceneLoaded(scene: SceneDefinition): void {
    const wanted = scene.systems.broadphase;
    if (wanted !== undefined) Object.assign(this.settings, wanted);
    this.settings.enabled = wanted !== undefined;
  }

  terrainChanged(): void {
    this.placeAboveTerrain();
    // Turned on before any terrain existed (a link's settings): start now.
    if (this.settings.enabled && this.system === null) this.setEnabled(true);
  }

  frame(dtSeconds: number): void {
    const system = this.system;
    if (this.context?.sceneSwitching() !== true) this.settings.enabled = system !== null;
    this.refreshVisibility();
    if (system === null) return;
    system.trackOverlaps = this.settings.highlight;
    if (this.settings.draw) {
      const scene = system.scene;
      this.view.update(scene.boxes, scene.kinds, this.settings.highlight ? system.overlapping : null, scene.count, this.offset);
    }
    // Text readouts four times a second: the numbers stay readable.
    this.readoutClock -= dtSeconds;
    if (this.readoutClock > 0) return;
    this.readoutClock = 0.25;
    const ms = system.frameMs;
    this.readouts.now = ms.last.toFixed(3);
    this.readouts.avg = ms.mean.toFixed(3);
    this.readouts.min = ms.min.toFixed(3);
    this.readouts.max = ms.max.toFixed(3);
    this.readouts.pairs = system.pairs.toLocaleString('en');
    this.readouts.created = system.created.toLocaleString('en');
    this.readouts.deleted = system.deleted.toLocaleString('en');
    const counters = system.metrics();
    const text = Object.entries(counters)
      .filter(([key]) => !['strategy', 'scene', 'boxes', 'moved', 'ms', 'msAvg', 'msMin', 'msMax', 'pairs', 'created', 'deleted'].includes(key))
      .map(([key, value]) => `${key} ${typeof value === 'number' ? Math.round(value).toLocaleString('en') : value}`)
      .join(' · ');
    this.readouts.counters = text;
    this.countersController?.domElement.setAttribute('title', text);
  }

  private focusTarget(): FocusTarget | null {
    const scene = this.system?.scene;
    const around = scene === undefined ? null : sphereAround(scene.boxes, scene.count, 6);
    if (around === null) return null;
    const [x, y, z] = around.center;
    return { center: [x + this.offset[0], y + this.offset[1], z + this.offset[2]], radius: around.radius };
  }

  legends(): readonly Legend[] {
    return this.view.visible && this.settings.highlight ? [BROAD_PHASE_LEGEND] : [];
  }

  hudLines(): readonly string[] {
    const system = this.system;
    if (system === null) return [];
    const ms = system.frameMs;
    const scene = system.scene;
    return [
      `broad-phase: ${system.broadPhase.name} · ${scene.name} ${scene.count.toLocaleString('en')} boxes, ${scene.movedCount.toLocaleString('en')} moved · ${ms.last.toFixed(2)} ms (avg ${ms.mean.toFixed(2)}, min ${ms.min.toFixed(2)}, max ${ms.max.toFixed(2)})`,
      `broad-phase: ${system.pairs.toLocaleString('en')} pairs (+${system.created} −${system.deleted}) · ${this.readouts.counters}`,
    ];
  }

  /** The running broad-phase system, if any (the scene, or this panel, turned it on). */
  private get system(): BroadPhaseSystem | null {
    const system = this.context?.system('broadphase') ?? null;
    return system instanceof BroadPhaseSystem ? system : null;
  }

  private setEnabled(on: boolean): void {
    const { scene, strategy, count, movingPercent, speed } = this.settings;
    this.context?.setSystem('broadphase', on ? { scene, strategy, count, movingPercent, speed } : null);
    this.placeAboveTerrain();
    this.refreshVisibility();
  }

  private reconfigure(): void {
    const system = this.system;
    if (system === null) return;
    const { scene, count, movingPercent, speed } = this.settings;
    this.guard(() => system.configure({ scene, count, movingPercent, speed }));
  }

  private refreshVisibility(): void {
    this.view.visible = this.system !== null && this.settings.draw;
  }

  private placeAboveTerrain(): void {
    const terrain = this.context?.sandbox()?.terrain;
    this.offset = [0, (terrain?.maxHeight ?? 0) + this.settings.lift, 0];
  }

  /** Runs a change; a bad value is reported and the last good state kept. */
  private guard(change: () => void): void {
    try {
      change();
    } catch (error) {
      this.context?.reportError((error as Error).message);
    }
  }
}
