import { InvalidParameterError } from '../errors';
import {
  BROAD_PHASE_NAMES,
  FrameStats,
  GroundScene,
  OrbitScene,
  applySceneMoves,
  createBroadPhase,
  populateBroadPhase,
  switchBroadPhase,
  type BroadPhase,
  type BroadPhaseName,
  type BroadPhaseScene,
} from '../broadphase/index';
import { MASK_ALL, checkFilter } from '../bvh/collisionMasks';
import type { StateHasher } from '../math/hash';
import { CollisionPairFilter } from './collisionPairFilter';
import type { MetricValue, SimSystem } from '../world/simSystem';
import { BROAD_PHASE_SCENES, MAX_CATEGORIES, type BroadPhaseSceneName, type SceneBroadPhase } from './broadPhaseSection';

export { BROAD_PHASE_SCENES, type BroadPhaseSceneName };

export interface BroadPhaseSettings {
  scene: BroadPhaseSceneName;
  strategy: BroadPhaseName;
  /** Boxes in the scene (orbits: all of them; ground: statics + dynamics). */
  count: number;
  /** Orbits: the share of boxes moving each frame; ground: the share of boxes that are dynamic. */
  movingPercent: number;
  /** Motion per frame: orbit time per frame (0.005 in the reference test), or a multiple of the ground walkers' pace. */
  speed: number;
  /** Collision categories (1..32): box i has category bit i mod n and filter filters[i mod n]; 1: no filtering. */
  categories: number;
  /** Per category, the 32-bit filter of its boxes (MASK_ALL where left out). */
  filters: number[];
  seed: number;
}

export const DEFAULT_BROAD_PHASE_SETTINGS: Readonly<BroadPhaseSettings> = Object.freeze({
  scene: 'orbits',
  strategy: 'regions',
  count: 8192,
  movingPercent: 10,
  speed: 0.005,
  categories: 1,
  filters: [],
  seed: 1,
});

/** Frames of scene motion per simulated second: the scenes' speeds are per 60 Hz frame. */
const FRAMES_PER_SECOND = 60;

/**
 * The broad-phase as a part of the world: a moving box scene, the chosen strategy, and what it found.
 * Each step moves the scene by dt worth of frames, hands the moved boxes to the strategy and steps it;
 * the strategy can be switched live (the boxes are carried over, no restart), and every step's time,
 * pair counts and the strategy's own counters are kept for the HUD, the GUI and the headless report.
 */
export class BroadPhaseSystem implements SimSystem {
  readonly name = 'broadphase';
  readonly settings: BroadPhaseSettings;
  scene: BroadPhaseScene;
  broadPhase: BroadPhase;
  /** Milliseconds of update calls plus step, per frame. */
  readonly frameMs = new FrameStats(120);
  pairs = 0;
  created = 0;
  deleted = 0;
  /** Per box: 1 if it overlaps another box in the last step (filled only while `trackOverlaps`). */
  overlapping = new Uint8Array(0);
  trackOverlaps = false;
  /** The categories and filters of the boxes, applied to every strategy's pairs. */
  readonly pairFilter = new CollisionPairFilter();
  /** Pairs the strategy found before the filter (equal to `pairs` without categories). */
  overlappingPairs = 0;
  private counters: Readonly<Record<string, number>> = {};

  constructor(settings: Partial<BroadPhaseSettings> = {}) {
    this.settings = { ...DEFAULT_BROAD_PHASE_SETTINGS, ...settings };
    this.settings.filters = [...this.settings.filters];
    check(this.settings);
    this.scene = this.makeScene();
    this.broadPhase = createBroadPhase(this.settings.strategy);
    this.populate();
  }

  /** Switches strategy, carrying every box over. */
  setStrategy(name: BroadPhaseName): void {
    if (!BROAD_PHASE_NAMES.includes(name)) throw new InvalidParameterError('broadphase.strategy', `one of ${BROAD_PHASE_NAMES.join(', ')}`, name);
    if (name === this.broadPhase.name) return;
    this.broadPhase = switchBroadPhase(this.broadPhase, name);
    this.settings.strategy = name;
    this.frameMs.clear();
  }

  /** Applies changed settings: speed and (for orbits) moving share in place, anything else rebuilds the scene. */
  configure(changes: Partial<BroadPhaseSettings>): void {
    const next = { ...this.settings, ...changes };
    next.filters = [...next.filters];
    check(next);
    const recategorize = next.categories !== this.settings.categories || next.filters.join() !== this.settings.filters.join();
    const rebuild =
      next.scene !== this.settings.scene ||
      next.count !== this.settings.count ||
      next.seed !== this.settings.seed ||
      (next.scene === 'ground' && next.movingPercent !== this.settings.movingPercent);
    Object.assign(this.settings, next);
    if (next.strategy !== this.broadPhase.name) this.setStrategy(next.strategy);
    if (rebuild) {
      this.scene = this.makeScene();
      this.broadPhase = createBroadPhase(this.settings.strategy);
      this.populate();
      return;
    }
    // New categories apply from the next step: pairs whose verdict flips are created or deleted then.
    if (recategorize) this.assignCategories();
    const scene = this.scene;
    if (scene instanceof OrbitScene) {
      scene.movingPercent = next.movingPercent;
      scene.speed = next.speed;
    } else if (scene instanceof GroundScene) {
      scene.speed = next.speed / DEFAULT_BROAD_PHASE_SETTINGS.speed;
    }
  }

  step(dt: number): void {
    if (dt <= 0) return;
    this.scene.advance(dt * FRAMES_PER_SECOND);
    this.run(true);
  }

  hash(hasher: StateHasher): void {
    hasher.value(this.sceneState()).word(this.pairs).word(this.created).word(this.deleted);
  }

  section(): SceneBroadPhase {
    const { scene, strategy, count, movingPercent, speed, categories, filters } = this.settings;
    return { scene, strategy, count, movingPercent, speed, categories, filters: [...filters] };
  }

  metrics(): Record<string, MetricValue> {
    const metrics: Record<string, MetricValue> = {
      strategy: this.broadPhase.name,
      scene: this.scene.name,
      boxes: this.scene.count,
      moved: this.scene.movedCount,
      ms: round(this.frameMs.last),
      msAvg: round(this.frameMs.mean),
      msMin: round(this.frameMs.min),
      msMax: round(this.frameMs.max),
      pairs: this.pairs,
      overlappingPairs: this.overlappingPairs,
      created: this.created,
      deleted: this.deleted,
    };
    for (const [key, value] of Object.entries(this.counters)) metrics[key] = value;
    return metrics;
  }

  saveState(): unknown {
    return { ...this.sceneState(), created: this.created, deleted: this.deleted };
  }

  loadState(state: unknown): void {
    const saved = state as { scene: string; count: number; boxes: Float64Array; clock: Float64Array | number; created: number; deleted: number };
    if (saved.scene !== this.settings.scene || saved.count !== this.scene.count) return;
    this.scene.boxes.set(saved.boxes);
    restoreSceneClock(this.scene, saved.clock);
    this.broadPhase = createBroadPhase(this.settings.strategy);
    this.populate();
    // The fresh broad-phase reports every pair as created; the saved frame reported its own step's changes.
    this.created = saved.created;
    this.deleted = saved.deleted;
  }

  /** The boxes and the scene's clock: what the next steps follow from (and what the hash has always taken). */
  private sceneState(): { scene: string; count: number; boxes: Float64Array; clock: Float64Array | number } {
    return { scene: this.settings.scene, count: this.scene.count, boxes: this.scene.boxes.slice(), clock: sceneClock(this.scene) };
  }

  private makeScene(): BroadPhaseScene {
    const s = this.settings;
    if (s.scene === 'orbits') return new OrbitScene({ count: s.count, movingPercent: s.movingPercent, speed: s.speed, seed: s.seed });
    const dynamics = Math.round((s.count * s.movingPercent) / 100);
    return new GroundScene({ statics: s.count - dynamics, dynamics, seed: s.seed, speed: s.speed / DEFAULT_BROAD_PHASE_SETTINGS.speed });
  }

  private populate(): void {
    this.frameMs.clear();
    const start = performance.now();
    this.pairFilter.clear();
    this.assignCategories();
    populateBroadPhase(this.broadPhase, this.scene);
    this.finish(this.broadPhase.step(), start, false);
  }

  /** Box i: category bit i mod n and that category's filter (every box MASK_ALL with one category). */
  private assignCategories(): void {
    const { categories, filters } = this.settings;
    const pairFilter = this.pairFilter;
    for (let i = 0; i < this.scene.count; i++) {
      const c = i % categories;
      pairFilter.set(i, categories === 1 ? MASK_ALL : (1 << c) >>> 0, filters[c] ?? MASK_ALL);
    }
  }

  private run(timed: boolean): void {
    const start = performance.now();
    applySceneMoves(this.broadPhase, this.scene);
    this.finish(this.broadPhase.step(), start, timed);
  }

  private finish(found: ReturnType<BroadPhase['step']>, start: number, timed: boolean): void {
    this.overlappingPairs = found.pairs.count;
    const result = this.pairFilter.apply(found);
    const ms = performance.now() - start;
    if (timed) this.frameMs.add(ms);
    this.pairs = result.pairs.count;
    this.created = result.created.count;
    this.deleted = result.deleted.count;
    this.counters = this.broadPhase.counters();
    if (!this.trackOverlaps) return;
    if (this.overlapping.length !== this.scene.count) this.overlapping = new Uint8Array(this.scene.count);
    const overlapping = this.overlapping;
    overlapping.fill(0);
    const { a, b, count } = result.pairs;
    for (let i = 0; i < count; i++) {
      overlapping[a[i]!] = 1;
      overlapping[b[i]!] = 1;
    }
  }
}

function check(s: BroadPhaseSettings): void {
  if (!BROAD_PHASE_SCENES.includes(s.scene)) throw new InvalidParameterError('broadphase.scene', `one of ${BROAD_PHASE_SCENES.join(', ')}`, s.scene);
  if (!BROAD_PHASE_NAMES.includes(s.strategy))
    throw new InvalidParameterError('broadphase.strategy', `one of ${BROAD_PHASE_NAMES.join(', ')}`, s.strategy);
  if (!Number.isInteger(s.count) || s.count < 1 || s.count > 262144)
    throw new InvalidParameterError('broadphase.count', 'an integer in [1, 262144]', s.count);
  if (!(s.movingPercent >= 0 && s.movingPercent <= 100))
    throw new InvalidParameterError('broadphase.movingPercent', 'a number in [0, 100]', s.movingPercent);
  if (!(Number.isFinite(s.speed) && s.speed >= 0)) throw new InvalidParameterError('broadphase.speed', 'a finite number ≥ 0', s.speed);
  if (!(Number.isInteger(s.categories) && s.categories >= 1 && s.categories <= MAX_CATEGORIES))
    throw new InvalidParameterError('broadphase.categories', `an integer in [1, ${MAX_CATEGORIES}]`, s.categories);
  if (!Array.isArray(s.filters) || s.filters.length > MAX_CATEGORIES)
    throw new InvalidParameterError('broadphase.filters', `an array of at most ${MAX_CATEGORIES} 32-bit filters`, s.filters);
  s.filters.forEach((filter, i) => checkFilter(filter, `broadphase.filters[${i}]`));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function sceneClock(scene: BroadPhaseScene): Float64Array | number {
  return scene instanceof OrbitScene || scene instanceof GroundScene ? scene.saveClock() : 0;
}

function restoreSceneClock(scene: BroadPhaseScene, clock: Float64Array | number): void {
  if (scene instanceof OrbitScene && clock instanceof Float64Array) scene.loadClock(clock);
  else if (scene instanceof GroundScene && typeof clock === 'number') scene.loadClock(clock);
}
