import type { StateHasher } from '../math/hash';
import { KERNEL_LABELS } from '../platform/kernels';
import { castRays } from '../query/rays/castRays';
import { CRACK_TARGET_KINDS, CRACK_RAY_T_MAX, generateCrackRays } from '../query/rayTriangle/crackRays';
import { exploreCracks, type CrackReport } from '../query/rayTriangle/crackExplorer';
import { RAY_TRIANGLE_KERNEL_NAMES, getRayTriangleKernel, type RayTriangleKernelName } from '../query/rayTriangle/registry';
import type { MetricValue, SimSystem, World } from '../world/simSystem';
import { DEFAULT_CRACKS, type CrackSettings, type SceneCracks } from './cracksSection';

export { DEFAULT_CRACKS, type CrackSettings, type SceneCracks } from './cracksSection';

/** One triangle test's result on the batch. */
export interface CrackTestResult {
  readonly report: CrackReport;
  /** Misses of the same rays cast through the whole BVH (float32 rays only), or −1 for float64 rays. */
  readonly bvhMisses: number;
  readonly ms: number;
}

/** Missed rays kept per test for drawing. */
const KEPT_MISSES = 5000;

interface CrackState {
  pending: boolean;
  fired: boolean;
}

/**
 * The crack explorer as a system: a batch of rays aimed exactly through shared edges and vertices of the
 * terrain grid, run with every triangle test against the triangles around each target and, for float32
 * rays, through the whole BVH. It runs when fired (and once when made), at the next step that has the
 * BVH, and keeps each test's report for the view; a new terrain fires it again.
 */
export class CrackSystem implements SimSystem {
  readonly name = 'cracks';
  readonly settings: CrackSettings;
  /** Per test, in RAY_TRIANGLE_KERNEL_NAMES order; empty until the batch ran. */
  readonly results = new Map<RayTriangleKernelName, CrackTestResult>();
  /** Batches run so far: a view redraws when this changes. */
  runs = 0;
  private pending = true;

  constructor(section: SceneCracks) {
    this.settings = { ...DEFAULT_CRACKS, ...section };
  }

  /** Runs the batch again at the next step. */
  fire(): void {
    this.pending = true;
  }

  /** Whether a batch waits for the next step. */
  get waiting(): boolean {
    return this.pending;
  }

  terrainChanged(): void {
    this.results.clear();
    this.runs++;
    this.pending = true;
  }

  /** Runs a waiting batch now (a paused page fires at once); the batch depends on the settings alone. */
  update(world: World): void {
    if (this.pending && world.bvh !== null) this.run(world);
  }

  step(_dt: number, world: World): void {
    // The batch waits for the BVH so the float32 rays are always cast through it too, alike in every run.
    if (this.pending && world.bvh !== null) this.run(world);
  }

  metrics(): Record<string, MetricValue> {
    const metrics: Record<string, MetricValue> = { rays: this.settings.rays, precision: this.settings.precision, kernel: KERNEL_LABELS.typescript };
    if (this.pending) metrics.status = 'waiting for the BVH';
    for (const [name, result] of this.results) {
      metrics[`misses.${name}`] = result.report.misses;
      if (result.bvhMisses >= 0) metrics[`bvhMisses.${name}`] = result.bvhMisses;
      metrics[`ms.${name}`] = Math.round(result.ms * 1000) / 1000;
    }
    return metrics;
  }

  /** Each test's misses, by target kind and through the BVH: what the user reads. */
  hash(hasher: StateHasher): void {
    hasher.boolean(this.pending).word(this.results.size);
    for (const [name, result] of this.results) {
      hasher.string(name).word(result.report.misses).number(result.bvhMisses);
      for (const kind of CRACK_TARGET_KINDS) hasher.word(result.report.byTarget[kind].rays).word(result.report.byTarget[kind].misses);
    }
  }

  section(): CrackSettings {
    return { ...this.settings };
  }

  /** The reports follow from the settings and the terrain, so a state only says whether the batch ran. */
  saveState(): CrackState {
    return { pending: this.pending, fired: this.results.size > 0 };
  }

  loadState(state: unknown): void {
    const saved = state as CrackState;
    if (!saved.fired && this.results.size > 0) {
      this.results.clear();
      this.runs++;
    }
    // A state from after a batch this system no longer holds (a new terrain since) runs it again.
    this.pending = saved.pending || (saved.fired && this.results.size === 0);
  }

  private run(world: World): void {
    const { rays: count, vertexShare, precision, doubleSided, seed } = this.settings;
    const terrain = world.terrain;
    const bvh = world.bvh;
    const rays = generateCrackRays(terrain, count, { seed, vertexFraction: vertexShare, rayPrecision: precision });
    // Through the BVH the rays are float32, so only float32 rays compare like with like.
    const batch =
      bvh !== null && precision === 'float32'
        ? {
            count,
            origins: Float32Array.from(rays.origins),
            directions: Float32Array.from(rays.directions),
            tMax: new Float32Array(count).fill(CRACK_RAY_T_MAX),
          }
        : null;
    const hits = batch === null ? null : { t: new Float32Array(count), triangle: new Int32Array(count) };
    this.results.clear();
    for (const name of RAY_TRIANGLE_KERNEL_NAMES) {
      const start = performance.now();
      const report = exploreCracks(terrain, rays, getRayTriangleKernel(name), { doubleSided, maxMissedRays: KEPT_MISSES });
      let bvhMisses = -1;
      if (bvh !== null && batch !== null && hits !== null) {
        castRays(bvh, batch, hits, { triangleTest: name, doubleSided });
        bvhMisses = 0;
        for (let i = 0; i < count; i++) if (hits.triangle[i]! < 0) bvhMisses++;
      }
      const ms = performance.now() - start;
      this.results.set(name, { report, bvhMisses, ms });
      world.timings.record(`cracks.${name}`, ms);
    }
    this.pending = false;
    this.runs++;
  }
}
