import type { BVH } from '../bvh/buildBVH';
import { REFIT_REBUILD_DEGRADATION, prepareRefit, refitBVH, refitPrepared, type RefitReport } from '../bvh/refit';
import { validateTerrainEdit, type AppliedTerrainEdit, type TerrainEdit } from '../terrain/edits';
import type { SceneDefinition } from '../scene/scene';
import type { TerrainMesh } from '../terrain/heightfield';
import { generateTerrain } from '../terrain/heightfield';
import { ColliderscopeError } from '../errors';
import { StateHasher } from '../math/hash';
import type { MetricValue, SimSystem, WindSampler, World } from '../world/simSystem';
import { StateHistory } from './stateHistory';
import { TerrainEditLog } from './terrainEditLog';

export type { MetricValue, SimSystem } from '../world/simSystem';
import { TimingRing } from '../world/timings';

/** The whole simulation at one frame: what Sandbox.stepBack and Sandbox.restart return to. */
export interface SandboxState {
  frame: number;
  time: number;
  systems: unknown[];
  /** How many of the terrain's timeline edits were applied. */
  terrainEdits: number;
}

export interface SandboxReport {
  frame: number;
  time: number;
  metrics: Record<string, Record<string, MetricValue>>;
}

/** The world: the scene, its terrain, the systems that run on it and their timings. */
export class Sandbox implements World {
  scene: SceneDefinition;
  terrain: TerrainMesh;
  /** The terrain's 4-way BVH; null until built (queries that need it wait for it). */
  bvh: BVH | null = null;
  readonly timings: TimingRing;
  readonly systems: SimSystem[] = [];
  frame = 0;
  time = 0;
  /** Recent states, newest last: one is kept before every step while history.capacity > 0. */
  readonly history: StateHistory<SandboxState>;
  /** The state at frame 0 of the current terrain, for restart (null until a step was taken). */
  private initialState: SandboxState | null = null;
  /** The terrain's edits (craters, sculpting): the scene's, then those made since, each at its frame. */
  readonly terrainEdits = new TerrainEditLog();
  /** What the last refit after an edit did (null before any since the BVH was installed). */
  lastRefit: RefitReport | null = null;
  /**
   * Called when edits have degraded the BVH past REFIT_REBUILD_DEGRADATION: rebuild it over the current
   * positions (at once, or in a worker) and hand it to setBvh. Left null, the refitted tree stays.
   */
  onBvhDegraded: ((sandbox: Sandbox) => void) | null = null;
  /** The degradation (refitted SAH cost over the built one) past which onBvhDegraded is called. */
  rebuildDegradation = REFIT_REBUILD_DEGRADATION;
  /** A rebuild was asked for and has not arrived. */
  private rebuildAsked = false;
  /** minX, minZ, maxX, maxZ of the ground changed since takeDeformedArea (empty: +∞, +∞, −∞, −∞). */
  private readonly deformedArea = new Float64Array([Infinity, Infinity, -Infinity, -Infinity]);

  constructor(scene: SceneDefinition, terrain?: TerrainMesh, timingWindow = 120, historyFrames = 0) {
    this.scene = scene;
    this.timings = new TimingRing(timingWindow);
    this.history = new StateHistory<SandboxState>(historyFrames);
    this.terrain = terrain ?? this.timings.timeEvent('terrain.generate', () => generateTerrain(scene.terrain));
    if (terrain !== undefined) this.timings.recordEvent('terrain.generate', terrain.generationMs);
  }

  get seed(): number {
    return this.scene.seed;
  }

  /** The wind of the first system that blows one (systems stepped after it feel it); null for still air. */
  get wind(): WindSampler | null {
    for (const system of this.systems) if (system.providedWind !== undefined) return system.providedWind;
    return null;
  }

  /** The running system of a catalog name, or undefined when it is off. */
  system(name: string): SimSystem | undefined {
    return this.systems.find((system) => system.name === name);
  }

  /**
   * The determinism hash: the frame, the clock, the terrain and every running system's state, in step order. Two runs
   * of one scene (page or runner, any kernel) that stepped the same fixed steps reach the same hash.
   */
  hash(): string {
    const hasher = this.worldHasher();
    for (const system of this.systems) {
      hasher.string(system.name);
      system.hash(hasher);
    }
    return hasher.digest();
  }

  /** Adds a system, stepped at `index` among the others (last by default; the catalog passes its order). */
  /** The hash's parts, to find which one diverged: the world (frame, clock, terrain) and each system's. */
  hashes(): Record<string, string> {
    const parts: Record<string, string> = { world: this.worldHasher().digest() };
    for (const system of this.systems) {
      const hasher = new StateHasher();
      system.hash(hasher);
      parts[system.name] = hasher.digest();
    }
    return parts;
  }

  /** A hasher that has taken the frame, the clock and the terrain. */
  private worldHasher(): StateHasher {
    return new StateHasher().word(this.frame).number(this.time).array(this.terrain.positions);
  }

  addSystem(system: SimSystem, index = this.systems.length): void {
    this.systems.splice(index, 0, system);
    system.terrainChanged?.(this);
    this.forgetHistory();
  }

  removeSystem(system: SimSystem): void {
    const index = this.systems.indexOf(system);
    if (index < 0) return;
    this.systems.splice(index, 1);
    const name = system.name;
    this.timings.forgetPhases((phase) => phase !== `step.${name}` && !phase.startsWith(`${name}.`));
    this.forgetHistory();
  }

  /** Whether every system can save and load its state (step back and restart need all of them). */
  get rewindable(): boolean {
    return this.systems.every((system) => system.saveState !== undefined && system.loadState !== undefined);
  }

  saveState(): SandboxState {
    return {
      frame: this.frame,
      time: this.time,
      systems: this.systems.map((system) => system.saveState?.()),
      terrainEdits: this.terrainEdits.appliedCount,
    };
  }

  /** Returns to a saved state; false (and nothing changed) when the systems changed since it was saved. */
  loadState(state: SandboxState): boolean {
    if (state.systems.length !== this.systems.length || !this.rewindable) return false;
    // The terrain first: systems that load their state may read it.
    this.terrainChangedBy(this.terrainEdits.undoTo(this.terrain, state.terrainEdits));
    this.systems.forEach((system, i) => system.loadState!(state.systems[i]));
    this.frame = state.frame;
    this.time = state.time;
    return true;
  }

  /** Goes back one step through the history ring; false when there is nothing left to go back to. */
  stepBack(): boolean {
    const state = this.history.pop();
    return state !== undefined && this.loadState(state);
  }

  /** Back to frame 0 of the current terrain with the same seeds: the same steps replay identically. */
  restart(): boolean {
    const state = this.initialState;
    this.history.clear();
    if (state === null) return this.frame === 0;
    return this.loadState(state);
  }

  /** Systems or terrain changed: old states no longer describe this world. */
  private forgetHistory(): void {
    this.history.clear();
    this.initialState = null;
  }

  /** Replaces the terrain (built elsewhere, e.g. in a worker) and tells every system. Its edit timeline starts empty. */
  setTerrain(terrain: TerrainMesh): void {
    this.terrain = terrain;
    this.bvh = null;
    this.lastRefit = null;
    this.rebuildAsked = false;
    this.terrainEdits.reset([]);
    this.timings.recordEvent('terrain.generate', terrain.generationMs);
    for (const system of this.systems) system.terrainChanged?.(this);
    this.forgetHistory();
    this.frame = 0;
    this.time = 0;
  }

  /** Installs the BVH of the current terrain and tells every system. */
  setBvh(bvh: BVH): void {
    if (bvh.positions !== this.terrain.positions || bvh.indices !== this.terrain.indices) {
      throw new RangeError('setBvh: the BVH was built over another mesh than the current terrain');
    }
    this.bvh = bvh;
    this.rebuildAsked = false;
    this.lastRefit = null;
    this.timings.recordEvent('bvh.build', bvh.stats.buildMs);
    // Built from positions taken before the latest edits (a worker's copy, a background rebuild): a full
    // refit makes its boxes hold the terrain as it is now.
    if (this.terrainEdits.appliedCount > 0) this.lastRefit = this.timings.timeEvent('bvh.refit', () => refitBVH(bvh, null));
    for (const system of this.systems) system.bvhChanged?.(this);
  }

  /** Advances every system by `dt` seconds; each system's time goes to the phase `step.<name>`. */
  step(dt: number): void {
    if (!(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`step: dt must be a finite number ≥ 0, got ${dt}`);
    const timings = this.timings;
    this.applyDueEdits();
    if (this.rewindable) {
      if (this.initialState === null && this.frame === 0) this.initialState = this.saveState();
      if (this.history.capacity > 0) this.history.push(this.saveState());
    }
    const start = performance.now();
    for (const system of this.systems) {
      const systemStart = performance.now();
      system.step(dt, this);
      timings.record(`step.${system.name}`, performance.now() - systemStart);
    }
    timings.record('step', performance.now() - start);
    this.frame++;
    this.time += dt;
    this.applyDueEdits();
  }

  /**
   * The scene's edit timeline for the current terrain (edits made since on this terrain are undone
   * first). Edits due at the current frame apply on the next step, or at once with applyDueEdits.
   */
  setTerrainEdits(edits: readonly TerrainEdit[]): void {
    if (edits.length > 0) this.refuseEditsOnMesh();
    for (const [i, edit] of edits.entries()) validateTerrainEdit(edit, this.terrain.params, `terrain.edits[${i}]`);
    this.terrainChangedBy(this.terrainEdits.undoTo(this.terrain, 0));
    this.terrainEdits.reset(edits);
    this.forgetHistory();
  }

  /**
   * Deforms the terrain now (a crater, a sculpt stroke) and records the edit at the current frame, so a
   * saved scene, step back and the runner all replay it. Throws InvalidParameterError (and changes
   * nothing) for an edit out of its domain. The BVH is refitted and every system told before it returns.
   */
  deformTerrain(edit: Omit<TerrainEdit, 'frame'>): AppliedTerrainEdit | null {
    this.refuseEditsOnMesh();
    const timed: TerrainEdit = { ...edit, at: [edit.at[0], edit.at[1]], frame: this.frame };
    validateTerrainEdit(timed, this.terrain.params);
    this.prepareRefitBeforeEdits();
    const applied = this.timings.timeEvent('terrain.edit', () => this.terrainEdits.add(this.terrain, timed));
    this.terrainChangedBy(applied === null ? [] : [applied]);
    return applied;
  }

  /** Edits move the cells of a generated heightfield; a terrain read from a mesh file has none. */
  private refuseEditsOnMesh(): void {
    const source = this.terrain.source;
    if (source !== undefined) {
      throw new ColliderscopeError(
        `terrain edits (craters, sculpting) need a generated heightfield terrain; this one is the mesh ${JSON.stringify(source)}`,
        {
          field: 'terrain.edits',
        },
      );
    }
  }

  /** Applies the timeline's edits due by the current frame (the page calls it after a scene loads). */
  applyDueEdits(): void {
    const edits = this.terrainEdits;
    if (edits.appliedCount === edits.edits.length || edits.edits[edits.appliedCount]!.frame > this.frame) return;
    this.prepareRefitBeforeEdits();
    this.terrainChangedBy(this.timings.timeEvent('terrain.edit', () => edits.applyDue(this.terrain, this.frame)));
  }

  /**
   * The refit's bookkeeping over the tree as built, made before the first edit moves a vertex (its exact
   * boxes must be the ones the packed tree holds), unless the page's terrain worker made it already: so
   * even the first edit refits only what moved, and the page and the runner refit alike.
   */
  private prepareRefitBeforeEdits(): void {
    const bvh = this.bvh;
    if (bvh !== null && !refitPrepared(bvh)) this.timings.timeEvent('bvh.refit.prepare', () => prepareRefit(bvh));
  }

  /** After edits moved terrain vertices: refit the BVH over the moved triangles, then tell every system. */
  private terrainChangedBy(changes: readonly AppliedTerrainEdit[]): void {
    if (changes.length === 0) return;
    const bvh = this.bvh;
    if (bvh !== null) {
      let count = 0;
      for (const change of changes) count += change.triangles.length;
      const moved = new Uint32Array(count);
      count = 0;
      for (const change of changes) {
        moved.set(change.triangles, count);
        count += change.triangles.length;
      }
      const report = refitBVH(bvh, moved, count);
      this.lastRefit = report;
      this.timings.recordEvent('bvh.refit', report.ms);
      if (report.degradation > this.rebuildDegradation && !this.rebuildAsked && this.onBvhDegraded !== null) {
        this.rebuildAsked = true;
        this.onBvhDegraded(this);
      }
    }
    const area = this.deformedArea;
    for (const change of changes) {
      area[0] = Math.min(area[0]!, change.area[0]!);
      area[1] = Math.min(area[1]!, change.area[1]!);
      area[2] = Math.max(area[2]!, change.area[2]!);
      area[3] = Math.max(area[3]!, change.area[3]!);
      for (const system of this.systems) system.terrainDeformed?.(this, change.area, change.triangles);
    }
  }

  /**
   * The ground edits changed (made, replayed or undone) since the last call, as minX, minZ, maxX, maxZ,
   * or null: what a view of the terrain redraws.
   */
  takeDeformedArea(): Float64Array | null {
    const area = this.deformedArea;
    if (!(area[0]! <= area[2]!)) return null;
    const taken = area.slice();
    area.set([Infinity, Infinity, -Infinity, -Infinity]);
    return taken;
  }

  /**
   * Takes back the newest edit on the terrain now (undone, and dropped from the timeline); false when
   * there is none. Earlier states no longer describe this world, so step-back history is cleared.
   */
  undoLastEdit(): boolean {
    const edits = this.terrainEdits;
    if (edits.appliedCount === 0) return false;
    this.terrainChangedBy(edits.dropLastApplied(this.terrain));
    this.forgetHistory();
    return true;
  }

  report(): SandboxReport {
    const metrics: Record<string, Record<string, MetricValue>> = {
      terrain: {
        ...(this.terrain.source !== undefined ? { mesh: this.terrain.source } : {}),
        cells: this.terrain.params.cells,
        vertices: this.terrain.vertexCount,
        triangles: this.terrain.triangleCount,
        generationMs: round(this.terrain.generationMs, 3),
        edits: this.terrainEdits.appliedCount,
      },
    };
    const bvh = this.bvh;
    if (bvh !== null) {
      const s = bvh.stats;
      metrics.bvh = {
        nodes: s.nodes,
        bytes: s.bytes,
        bytesPerTriangle: round(s.bytesPerTriangle, 2),
        depthMin: s.depthMin,
        depthMax: s.depthMax,
        leafFillRate: round(s.leafFillRate, 3),
        sahCost: round(s.sahCost, 2),
        buildMs: round(s.buildMs, 1),
      };
      const refit = this.lastRefit;
      if (refit !== null)
        Object.assign(metrics.bvh, { refitMs: round(refit.ms, 3), refitSahCost: round(refit.sahCost, 2), degradation: round(refit.degradation, 3) });
    }
    for (const system of this.systems) metrics[system.name] = system.metrics();
    return { frame: this.frame, time: this.time, metrics };
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
