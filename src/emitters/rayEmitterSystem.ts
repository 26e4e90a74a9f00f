import { hasBinaryBVH } from '../bvh/binaryBVH';
import type { BVH } from '../bvh/buildBVH';
import type { StateHasher } from '../math/hash';
import { KERNEL_LABELS, type Kernel } from '../platform/kernels';
import { MASK_ALL } from '../bvh/collisionMasks';
import { castRays, wasmSimdRefusal } from '../query/rays/castRays';
import { resolveCastOptions } from '../query/rays/castOptions';
import { prepareRayStrategies } from '../query/rays/castRaysWith';
import { emitRays } from '../query/rays/rayEmitters';
import { createQueryCounters, type QueryCounters } from '../query/counters';
import type { CastOptions, RayBatch, RayHits } from '../query/rays/rayTypes';
import type { RayPool, RayPoolCast } from '../query/rays/rayPool';
import { sampleTerrainHeight } from '../terrain/heightfield';
import type { MetricValue, SimSystem, World } from '../world/simSystem';
import {
  SWEEP_DEGREES_PER_SECOND,
  batchSizeOf,
  resolveRayEmitters,
  type RayEmitterSettings,
  type RayEmitterStrategy,
  type SceneRayEmitters,
} from './rayEmittersSection';
import { createExternalRayCaster, externalRayCasterMissing, type ExternalRayCaster, type ExternalRayCasterName } from './externalRayCasters';

export { DEFAULT_RAY_EMITTERS, type RayEmitterSettings, type RayEmitterStrategy, type SceneRayEmitters } from './rayEmittersSection';

/** One strategy's last trace. */
export interface TraceResult {
  readonly counters: Readonly<QueryCounters>;
  /** The median time of the strategy's recent timed traces (up to RECENT_TRACES, a trace's rays each). */
  readonly ms: number;
  /** This trace's own time. */
  readonly lastMs: number;
  /** Timed traces behind `ms`. */
  readonly samples: number;
  /** Rays that hit a triangle. */
  readonly hits: number;
  /** The kernel that ran. */
  readonly kernel: Kernel;
  /** How it ran, on screen: the kernel and its walk, or why TypeScript ran when SIMD was asked for. */
  readonly walk: string;
  /** The external caster that ran instead of our walk (its counters are then all zero: it does not count); null: ours. */
  readonly external: ExternalRayCasterName | null;
  /** On the ray pool: each thread's busy ms in this trace ([0] the calling thread, then the workers); null: one thread. */
  readonly threadMs: readonly number[] | null;
}

/**
 * How well a pooled trace used its threads: the busy time of all of them over threads × the trace's
 * wall time (1: every thread busy all along).
 */
export function parallelEfficiency(threadMs: readonly number[], wallMs: number): number {
  if (threadMs.length === 0 || !(wallMs > 0)) return 0;
  let busy = 0;
  for (const ms of threadMs) busy += ms;
  return busy / (threadMs.length * wallMs);
}

interface RayEmitterState {
  yaw: number;
  /** The yaw of the rays traced then; null when nothing had been traced yet. */
  tracedYaw: number | null;
  dirty: boolean;
}

/**
 * Untimed traces each strategy runs before its first timed one (and after a new BVH), so the JIT has
 * compiled its walk and the tree is in cache. Then the first result is the median of FIRST_PAIRS timed
 * pairs (A, B, then B, A…), and later ones the median of the last RECENT_TRACES traces: one cold or
 * disturbed trace no longer decides the ratio (cold, the binary tree's first trace took 4× its steady
 * time and the 4-way SIMD walk's 13×; see tests/bench/ab-warmup.ts).
 */
export const WARMUP_TRACES = 2;
export const FIRST_PAIRS = 3;
export const RECENT_TRACES = 9;

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Two traced hits agree when their distances match to float32 rounding (or both missed). */
function sameHit(ta: number, tb: number): boolean {
  return ta === tb || Math.abs(ta - tb) <= 1e-5 * Math.abs(ta) || (ta !== ta && tb !== tb);
}

/**
 * Why the SIMD kernel cannot run a strategy ('' when it can): it walks the 4-way quantized tree with the
 * watertight test, one ray at a time or in batches (its batched walk); node sorting and leaf-triangle
 * choices do not apply to it (its own front-to-back order and packed leaf triangles).
 */
export function simdRefusal(strategy: RayEmitterStrategy, bvh: BVH, filter: number = MASK_ALL): string {
  return wasmSimdRefusal(bvh, resolveCastOptions(castOptionsOf(strategy, filter)));
}

/**
 * Whether a strategy may run on the ray pool: the pool casts with the SIMD kernel's one-ray-at-a-time
 * walk, so it takes the strategies that walk would run (hits bit for bit the same), and no others.
 */
export function poolTakes(strategy: RayEmitterStrategy, bvh: BVH, filter: number = MASK_ALL): boolean {
  return (
    strategy.external === undefined && strategy.kernel === 'wasm-simd' && batchSizeOf(strategy) === 0 && simdRefusal(strategy, bvh, filter) === ''
  );
}

/** castRays' options for a strategy and the emitters' filter. */
function castOptionsOf(strategy: RayEmitterStrategy, filter: number): Partial<CastOptions> {
  return {
    filter,
    kernel: strategy.kernel,
    tree: strategy.tree,
    layout: strategy.layout,
    sorting: strategy.sorting,
    batchSize: batchSizeOf(strategy),
    triangleTest: strategy.triangleTest,
    triangles: strategy.triangles,
  };
}

/**
 * Whether settings would build the binary layout of this BVH on their first trace (prepareRayStrategies
 * builds it beforehand; a page does, after showing a status, since it takes seconds on a big terrain).
 */
export function rayEmittersNeedPreparation(settings: RayEmitterSettings, bvh: BVH): boolean {
  const bIsOurs = settings.ab && settings.b.external === undefined;
  return (settings.a.tree === 'binary' || (bIsOurs && settings.b.tree === 'binary')) && !hasBinaryBVH(bvh);
}

/**
 * Ray emitters on the terrain: a coherent fan, an incoherent spray or a vertical rain of rays, traced
 * through the terrain's BVH with strategy A (and in A/B mode the same rays with strategy B, the hits
 * compared). It traces when its settings or the world changed, or every step with everyFrame or sweep
 * (the fan turning with simulated time). The binary layout a binary-tree strategy needs is built on
 * first need, inside the step (a page prepares it beforehand, see needsPreparation, to show a status).
 */
export class RayEmitterSystem implements SimSystem {
  readonly name = 'rayEmitters';
  readonly settings: RayEmitterSettings;
  rays: RayBatch = { count: 0, origins: new Float32Array(0), directions: new Float32Array(0), tMax: new Float32Array(0) };
  hitsA: RayHits = { t: new Float32Array(0), triangle: new Int32Array(0) };
  hitsB: RayHits = { t: new Float32Array(0), triangle: new Int32Array(0) };
  resultA: TraceResult | null = null;
  resultB: TraceResult | null = null;
  /** Rays whose hit distance differs between A and B in the last A/B trace. */
  differing = 0;
  /** Traces so far: a view redraws when this changes. */
  traces = 0;
  /** Where the last trace's emitter stood (world x, y, z). */
  readonly origin = new Float64Array(3);
  /** What the system waits for, or the last preparation's cost; '' when there is nothing to say. */
  status = '';
  /** The last trace's error (a layout the BVH lacks…), '' when it traced. */
  error = '';
  /** Untimed warm-up traces run so far (WARMUP_TRACES per strategy and BVH). */
  warmupTraces = 0;
  /**
   * A pool of threads to trace on (src/query/rays/rayPool.ts), or null: the calling thread alone. Only
   * strategies the pool's walk serves go to it (poolTakes); the hits, and so the hash, are bit for bit
   * those of one thread. Whoever sets it owns it (creates, resizes, closes it).
   */
  threads: RayPool | null = null;
  /** Strategy B's external caster (made on first need), and whether it must build over the terrain again. */
  private external: ExternalRayCaster | null = null;
  private externalStale = true;
  /** Why strategy B's external caster cannot run here ('' when it can or B is ours). */
  private externalMissing = '';
  /** Whether strategy A, and B, ran their warm-up traces over the current BVH. */
  private readonly warmed = [false, false];
  /** The recent timed traces of A and B (ring buffers) and how many each holds. */
  private readonly recent = [new Float64Array(RECENT_TRACES), new Float64Array(RECENT_TRACES)];
  private readonly recentCount = [0, 0];
  private readonly sorted = new Float64Array(RECENT_TRACES);
  private dirty = true;
  private tracedYaw: number | null = null;
  private world: World | null = null;

  constructor(section: SceneRayEmitters) {
    this.settings = resolveRayEmitters(structuredClone(section));
  }

  /** Whether tracing over this BVH would first build the binary layout (seconds on a big terrain). */
  needsPreparation(bvh: BVH): boolean {
    return rayEmittersNeedPreparation(this.settings, bvh);
  }

  /** Traces again at the next step (e.g. the SIMD kernel finished loading). */
  retrace(): void {
    this.dirty = true;
    // Another kernel may run now: it warms up, and the old kernel's times go.
    this.warmed[0] = this.warmed[1] = false;
    this.recentCount[0] = this.recentCount[1] = 0;
  }

  terrainChanged(world: World): void {
    this.world = world;
    // The emitter stays on the terrain.
    const half = world.terrain.params.worldSize / 2;
    this.settings.x = Math.min(Math.max(this.settings.x, -half), half);
    this.settings.z = Math.min(Math.max(this.settings.z, -half), half);
    this.externalStale = true;
    this.clear();
  }

  /** The ground the rays meet may have moved: trace again on the next step or update. */
  terrainDeformed(): void {
    this.dirty = true;
    this.externalStale = true;
  }

  bvhChanged(world: World): void {
    this.world = world;
    this.dirty = true;
    this.externalStale = true;
    this.warmed[0] = this.warmed[1] = false;
    this.recentCount[0] = this.recentCount[1] = 0;
  }

  /**
   * Traces now if the settings changed since the last trace, so a paused page shows an edit at once.
   * The hits depend on the settings alone, so this changes nothing the next steps compute.
   */
  update(world: World): boolean {
    this.world = world;
    if (!this.dirty) return false;
    this.trace(world);
    return true;
  }

  step(dt: number, world: World): void {
    this.world = world;
    const s = this.settings;
    if (s.sweep) {
      s.yaw = ((s.yaw + SWEEP_DEGREES_PER_SECOND * dt + 540) % 360) - 180;
      this.dirty = true;
    }
    if (this.dirty || s.everyFrame) this.trace(world);
  }

  metrics(): Record<string, MetricValue> {
    const metrics: Record<string, MetricValue> = { rays: this.rays.count, traces: this.traces };
    if (this.status !== '') metrics.status = this.status;
    if (this.error !== '') metrics.error = this.error;
    const add = (prefix: string, result: TraceResult | null): void => {
      if (result === null) return;
      const n = Math.max(this.rays.count, 1);
      metrics[`hits${prefix}`] = result.hits;
      metrics[`ms${prefix}`] = round(result.ms, 3);
      if (result.external !== null) {
        metrics[`kernel${prefix}`] = result.walk;
        return;
      }
      metrics[`nodesPerRay${prefix}`] = round(result.counters.nodesVisited / n, 2);
      metrics[`boxesPerRay${prefix}`] = round(result.counters.boxesTested / n, 2);
      metrics[`trianglesPerRay${prefix}`] = round(result.counters.trianglesTested / n, 2);
      if (this.settings.filter !== MASK_ALL) {
        metrics[`subtreesMaskedPerRay${prefix}`] = round(result.counters.subtreesMasked / n, 2);
        metrics[`trianglesMaskedPerRay${prefix}`] = round(result.counters.trianglesMasked / n, 2);
      }
      metrics[`kernel${prefix}`] = result.walk;
    };
    add('A', this.resultA);
    add('B', this.resultB);
    if (this.resultB !== null) metrics.differing = this.differing;
    if (this.externalMissing !== '' && this.settings.ab) metrics.kernelB = this.externalMissing;
    return metrics;
  }

  /**
   * The yaw (it moves with the sweep) and the last hits a user sees. The strategies and kernels are left
   * out on purpose: they must all give the same hits, so one scene hashes alike whichever traced it.
   * An external B (another library, registered in some processes and not others) is left out too: only
   * our own strategies' hits are hashed, so a runner without it reaches the same hash.
   */
  hash(hasher: StateHasher): void {
    hasher.number(this.settings.yaw).boolean(this.dirty).value(this.tracedYaw);
    const count = this.rays.count;
    hasher.word(count).array(this.hitsA.t, count).array(this.hitsA.triangle, count);
    const ourB = this.resultB !== null && this.resultB.external === null;
    hasher.boolean(ourB);
    if (ourB) hasher.array(this.hitsB.t, count).array(this.hitsB.triangle, count).word(this.differing);
  }

  section(): RayEmitterSettings {
    return structuredClone(this.settings);
  }

  /** Small: the hits follow from the settings and the yaw, so they are traced again rather than copied. */
  saveState(): RayEmitterState {
    return { yaw: this.settings.yaw, tracedYaw: this.tracedYaw, dirty: this.dirty };
  }

  loadState(state: unknown): void {
    const saved = state as RayEmitterState;
    const world = this.world;
    this.settings.yaw = saved.yaw;
    if (saved.tracedYaw === null || world === null) {
      this.clear();
    } else if (saved.tracedYaw !== this.tracedYaw) {
      this.settings.yaw = saved.tracedYaw;
      this.trace(world);
      this.settings.yaw = saved.yaw;
    }
    this.dirty = saved.dirty;
  }

  private clear(): void {
    this.recentCount[0] = this.recentCount[1] = 0;
    this.rays.count = 0;
    this.resultA = this.resultB = null;
    this.differing = 0;
    this.tracedYaw = null;
    this.dirty = true;
    this.traces++;
  }

  private trace(world: World): void {
    const bvh = world.bvh;
    if (bvh === null) {
      this.status = 'waiting for the BVH';
      return;
    }
    const s = this.settings;
    if (this.needsPreparation(bvh)) {
      const ms = prepareRayStrategies(bvh);
      world.timings.recordEvent('rayEmitters.prepare', ms);
      this.status = `binary layout, permutations and packed triangles built in ${ms.toFixed(0)} ms`;
    } else if (this.status === 'waiting for the BVH') {
      this.status = '';
    }
    const terrain = world.terrain;
    const y = s.emitter === 'rain' ? terrain.maxHeight + s.height : sampleTerrainHeight(terrain, s.x, s.z) + s.height;
    try {
      this.rays = emitRays(
        {
          kind: s.emitter,
          x: s.x,
          y,
          z: s.z,
          yaw: s.yaw,
          pitch: s.pitch,
          spread: s.spread,
          count: s.rays,
          length: s.segment > 0 ? s.segment : Infinity,
          seed: s.seed,
        },
        this.rays,
      );
      const count = this.rays.count;
      if (this.hitsA.t.length < count) {
        this.hitsA = { t: new Float32Array(count), triangle: new Int32Array(count) };
        this.hitsB = { t: new Float32Array(count), triangle: new Int32Array(count) };
      }
      // B runs when it is ours, or its external caster is registered here (else the metrics say why not).
      const external = s.ab ? this.externalCaster(world) : null;
      const ab = s.ab && (s.b.external === undefined || external !== null);
      // Both contenders warm up before either is timed; a first result takes several timed pairs.
      const first = !this.warmed[0] || (ab && !this.warmed[1]);
      this.warmUp(bvh, s.a, this.hitsA, 0);
      if (ab) this.warmUp(bvh, s.b, this.hitsB, 1, external);
      this.resultB = null;
      const pairs = first ? FIRST_PAIRS : 1;
      for (let pair = 0; pair < pairs; pair++) {
        if (ab && pair % 2 === 1) this.resultB = this.run(bvh, s.b, this.hitsB, 1, external);
        this.resultA = this.run(bvh, s.a, this.hitsA, 0);
        if (ab && pair % 2 === 0) this.resultB = this.run(bvh, s.b, this.hitsB, 1, external);
      }
      world.timings.record('rayEmitters.A', this.resultA!.lastMs);
      this.differing = 0;
      if (this.resultB !== null) {
        world.timings.record('rayEmitters.B', this.resultB.lastMs);
        const ta = this.hitsA.t,
          tb = this.hitsB.t;
        for (let i = 0; i < count; i++) if (!sameHit(ta[i]!, tb[i]!)) this.differing++;
      }
      this.error = '';
    } catch (error) {
      // A strategy the BVH cannot serve (a layout it was not built with): say so and keep running.
      this.error = error instanceof Error ? error.message : String(error);
      this.rays.count = 0;
      this.resultA = this.resultB = null;
    }
    this.origin[0] = s.x;
    this.origin[1] = y;
    this.origin[2] = s.z;
    this.tracedYaw = s.yaw;
    this.dirty = false;
    this.traces++;
  }

  /**
   * Strategy B's external caster, built over the terrain's triangles when it is new or they changed (a
   * one-off event `ab.NAME.build` in the timings); null when B is ours or the name is not registered here.
   */
  private externalCaster(world: World): ExternalRayCaster | null {
    const name = this.settings.b.external;
    if (name === undefined) return null;
    if (this.external === null || this.external.name !== name) {
      this.external = createExternalRayCaster(name);
      this.externalMissing = externalRayCasterMissing(name);
      this.externalStale = true;
    }
    const caster = this.external;
    if (caster !== null && this.externalStale) {
      const start = performance.now();
      caster.prepare(world.terrain.positions, world.terrain.indices);
      world.timings.recordEvent(`ab.${name}.build`, performance.now() - start);
      this.externalStale = false;
      this.warmed[1] = false;
      this.recentCount[1] = 0;
    }
    return caster;
  }

  /** The strategy's untimed traces over this BVH, once: they write the same hits the timed one will. */
  private warmUp(bvh: BVH, strategy: RayEmitterStrategy, hits: RayHits, which: 0 | 1, external: ExternalRayCaster | null = null): void {
    if (this.warmed[which]) return;
    const options = castOptionsOf(strategy, this.settings.filter);
    for (let k = 0; k < WARMUP_TRACES; k++) {
      if (external !== null) external.cast(this.rays, hits);
      else if (this.castOnThreads(bvh, strategy, hits) === null) castRays(bvh, this.rays, hits, options);
    }
    this.warmupTraces += WARMUP_TRACES;
    this.warmed[which] = true;
  }

  private run(bvh: BVH, strategy: RayEmitterStrategy, hits: RayHits, which: 0 | 1, external: ExternalRayCaster | null = null): TraceResult {
    if (external !== null) return this.runExternal(external, hits, which);
    const batch = batchSizeOf(strategy);
    const start = performance.now();
    const pooled = this.castOnThreads(bvh, strategy, hits);
    const { kernel, fallbackReason, ...counters } =
      pooled === null
        ? castRays(bvh, this.rays, hits, castOptionsOf(strategy, this.settings.filter))
        : { ...pooled.counters, kernel: 'wasm-simd' as const };
    const lastMs = performance.now() - start;
    const samples = this.remember(which, lastMs);
    const ms = this.recentMedian(which);
    let hitCount = 0;
    const triangle = hits.triangle;
    for (let i = 0; i < this.rays.count; i++) if (triangle[i]! >= 0) hitCount++;
    const walk =
      kernel === 'wasm-simd'
        ? `${KERNEL_LABELS['wasm-simd']} ${batch === 0 ? 'one ray at a time' : `batched walk, batch ${strategy.batchSize}`}${pooled === null ? '' : ` on ${pooled.threads} threads`}`
        : fallbackReason === undefined
          ? KERNEL_LABELS.typescript
          : `${KERNEL_LABELS.typescript} (${fallbackReason})`;
    return { counters, ms, lastMs, samples, hits: hitCount, kernel, walk, external: null, threadMs: pooled === null ? null : pooled.busyMs };
  }

  /**
   * Casts the rays on the pool when there is one with workers and it takes the strategy; null when it
   * cast nothing (no pool, no workers, another walk, or a worker of an earlier cast still busy).
   */
  private castOnThreads(bvh: BVH, strategy: RayEmitterStrategy, hits: RayHits): RayPoolCast | null {
    const pool = this.threads;
    if (pool === null || pool.workers === 0 || !poolTakes(strategy, bvh, this.settings.filter)) return null;
    return pool.castNow(bvh, this.rays, hits, { filter: this.settings.filter });
  }

  /** An external caster's timed trace, from its own call site; it counts no nodes or boxes. */
  private runExternal(external: ExternalRayCaster, hits: RayHits, which: 0 | 1): TraceResult {
    const start = performance.now();
    external.cast(this.rays, hits);
    const lastMs = performance.now() - start;
    const samples = this.remember(which, lastMs);
    const ms = this.recentMedian(which);
    let hitCount = 0;
    const triangle = hits.triangle;
    for (let i = 0; i < this.rays.count; i++) if (triangle[i]! >= 0) hitCount++;
    const counters = createQueryCounters();
    return {
      counters,
      ms,
      lastMs,
      samples,
      hits: hitCount,
      kernel: 'typescript',
      walk: external.description,
      external: external.name,
      threadMs: null,
    };
  }

  /** Keeps a timed trace in the strategy's recent ring; returns how many it holds. */
  private remember(which: 0 | 1, ms: number): number {
    const count = this.recentCount[which]!;
    this.recent[which]![count % RECENT_TRACES] = ms;
    this.recentCount[which] = count + 1;
    return Math.min(count + 1, RECENT_TRACES);
  }

  private recentMedian(which: 0 | 1): number {
    const n = Math.min(this.recentCount[which]!, RECENT_TRACES);
    const sorted = this.sorted;
    for (let i = 0; i < n; i++) sorted[i] = this.recent[which]![i]!;
    const window = sorted.subarray(0, n).sort();
    return n % 2 === 1 ? window[n >> 1]! : (window[n / 2 - 1]! + window[n / 2]!) / 2;
  }
}
