import { cos, sin } from '../math/trig';
import type { StateHasher } from '../math/hash';
import { KERNEL_LABELS } from '../platform/kernels';
import { EXIT_COUNT, exitKind, isOverlapExit, type ExitKind } from '../query/boxTriangle/exits';
import { simdBoxTriangleKernel, simdBoxTrianglesUnavailableReason } from '../query/boxTriangle/boxTriangleKernel';
import { overlapBoxes } from '../query/boxes/overlapBoxes';
import { createBoxOverlapList, type BoxBatch, type BoxOverlapList, type BoxQueryCounters, type BoxQueryTest } from '../query/boxes/boxTypes';
import { sampleTerrainHeight } from '../terrain/heightfield';
import type { MetricValue, SimSystem, World } from '../world/simSystem';
import { DEFAULT_BOX_PROBE, parseBoxProbe, type BoxProbeSettings, type SceneBoxProbe } from './boxProbeSection';

export { DEFAULT_BOX_PROBE, parseBoxProbe, type BoxProbeSettings, type SceneBoxProbe } from './boxProbeSection';

/** Pairs the overlap list holds at first; it doubles past what a query dropped. */
const INITIAL_CAPACITY = 1 << 14;

/**
 * The box probe as a system: one box (oriented when yawed or tilted) placed on the terrain, queried
 * against the terrain BVH, the overlapped triangles kept for the view with the query's counters. The
 * answer depends only on the settings, the terrain and its BVH, so the system queries again only when
 * one of them changed, or when the leaf test that would run changed (the SIMD kernel has loaded).
 */
export class BoxProbeSystem implements SimSystem {
  readonly name = 'boxProbe';
  /** The box as last queried: its centre on the terrain plus the lift, and its axes (rows) always given. */
  readonly boxes: BoxBatch & { axes: Float32Array } = {
    count: 1,
    centers: new Float32Array(3),
    halfSizes: new Float32Array(3),
    axes: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]),
  };
  /** Every (box, triangle, exit) the last query listed: the overlaps, and the rejected candidates if asked. */
  list: BoxOverlapList = createBoxOverlapList(INITIAL_CAPACITY);
  /** The overlapped triangle ids of the last query, ascending: overlapping[0 .. overlapCount). */
  overlapping = new Int32Array(INITIAL_CAPACITY);
  overlapCount = 0;
  /** The last query's work; null before the first query (no BVH yet). */
  counters: BoxQueryCounters | null = null;
  queryMs = 0;
  /** The leaf test the last query ran; null before the first. */
  ran: BoxQueryTest | null = null;
  /** Queries run since the system was made. */
  queries = 0;
  private current: BoxProbeSettings;
  private dirty = true;

  constructor(section: SceneBoxProbe) {
    this.current = resolve(DEFAULT_BOX_PROBE, section);
  }

  get settings(): Readonly<BoxProbeSettings> {
    return this.current;
  }

  /**
   * Changes some settings, validated like the scene section (an InvalidParameterError naming the field;
   * nothing changes when it throws). The next step, or update(), queries again.
   */
  configure(changes: SceneBoxProbe): void {
    this.current = resolve(this.current, parseBoxProbe(changes, { file: 'settings', field: 'systems.boxProbe' }));
    this.dirty = true;
  }

  // Queried at once when the BVH is there (not at the first step): the answer depends on settings, terrain
  // and BVH alone, so a world restarted at frame 0 shows (and hashes) the same as before its first step.
  terrainChanged(world: World): void {
    this.dirty = true;
    this.update(world);
  }

  bvhChanged(world: World): void {
    this.dirty = true;
    this.update(world);
  }

  /** The triangles under the box may have moved: query again on the next step or update. */
  terrainDeformed(): void {
    this.dirty = true;
  }

  step(_dt: number, world: World): void {
    this.update(world);
  }

  /**
   * Queries when the settings, the terrain, its BVH or the leaf test to run changed since the last query;
   * returns whether it did. The answer is a function of those alone, so calling this between steps (the
   * page does while paused, so the box follows its sliders) changes nothing any later step computes.
   */
  update(world: World): boolean {
    const bvh = world.bvh;
    if (bvh === null || bvh.quantized === null) return false;
    const test = this.testToRun();
    if (!this.dirty && test === this.ran) return false;
    this.dirty = false;
    this.place(world);
    const options = { test, includeRejected: this.current.includeRejected, filter: this.current.filter };
    let start = performance.now();
    let counters = overlapBoxes(bvh, this.boxes, this.list, options);
    if (this.list.dropped > 0) {
      // Grown once to what the query needed, then kept: the same box costs no allocation again.
      this.list = createBoxOverlapList(2 * (this.list.count + this.list.dropped));
      start = performance.now();
      counters = overlapBoxes(bvh, this.boxes, this.list, options);
    }
    this.queryMs = performance.now() - start;
    world.timings.record('boxProbe.query', this.queryMs);
    this.counters = counters;
    this.ran = test;
    this.queries++;
    this.collectOverlapping();
    return true;
  }

  /** The leaf test the next query runs: the SIMD twin of v1 when chosen and loaded, else the TypeScript variant. */
  testToRun(): BoxQueryTest {
    return this.current.kernel === 'wasm-simd' && simdBoxTriangleKernel() !== null ? 'wasm-simd' : this.current.test;
  }

  /** The kernel that ran the last query (or will run the next), and why not the chosen one when they differ. */
  kernelRan(): string {
    const ran = this.ran ?? this.testToRun();
    if (ran === 'wasm-simd') return KERNEL_LABELS['wasm-simd'];
    if (this.current.kernel === 'typescript') return KERNEL_LABELS.typescript;
    const reason = simdBoxTrianglesUnavailableReason() || 'not loaded yet';
    return `${KERNEL_LABELS['wasm-simd']} unavailable (${reason}): ${KERNEL_LABELS.typescript} ran`;
  }

  /** Box–triangle tests of the last query by exit kind (what decided each). */
  exitsByKind(): Map<ExitKind, number> {
    const byKind = new Map<ExitKind, number>();
    const exits = this.list.exitCounts;
    for (let e = 0; e < EXIT_COUNT; e++) if (exits[e]! > 0) byKind.set(exitKind(e), (byKind.get(exitKind(e)) ?? 0) + exits[e]!);
    return byKind;
  }

  metrics(): Record<string, MetricValue> {
    const c = this.counters;
    return {
      kernel: this.kernelRan(),
      test: this.ran ?? this.testToRun(),
      filter: this.current.filter,
      overlaps: c?.hits ?? 0,
      nodesVisited: c?.nodesVisited ?? 0,
      boxesTested: c?.boxesTested ?? 0,
      trianglesTested: c?.trianglesTested ?? 0,
      subtreesMasked: c?.subtreesMasked ?? 0,
      trianglesMasked: c?.trianglesMasked ?? 0,
      invalid: c?.invalid ?? 0,
      queries: this.queries,
      queryMs: Math.round(this.queryMs * 1000) / 1000,
      exits: [...this.exitsByKind()].map(([kind, count]) => `${kind} ${count}`).join(' · '),
    };
  }

  /**
   * The box as queried and the triangles it overlaps, in id order: the same for every kernel and every
   * test that agrees (the exits, which differ between them, and the timings are left out).
   */
  hash(hasher: StateHasher): void {
    hasher.array(this.boxes.centers).array(this.boxes.halfSizes).array(this.boxes.axes);
    hasher.word(this.counters?.invalid ?? -1).array(this.overlapping, this.overlapCount);
  }

  section(): BoxProbeSettings {
    const s = this.current;
    return { ...s, center: [s.center[0], s.center[1]], halfSize: [s.halfSize[0], s.halfSize[1], s.halfSize[2]] };
  }

  /**
   * Nothing a step advances lives here (the answer follows the settings, which only the user changes),
   * so stepping back keeps the probe as it is; the empty state says it can be rewound.
   */
  saveState(): null {
    return null;
  }

  loadState(): void {}

  /** Centre on the terrain plus the lift; axes (rows) from yaw, then tilt about the box's own x axis. */
  private place(world: World): void {
    const { center, lift, halfSize, yaw, tilt } = this.current;
    const [x, z] = center;
    this.boxes.centers[0] = x;
    this.boxes.centers[1] = sampleTerrainHeight(world.terrain, x, z) + lift;
    this.boxes.centers[2] = z;
    this.boxes.halfSizes.set(halfSize);
    const axes = this.boxes.axes;
    if (yaw === 0 && tilt === 0) {
      axes.set(IDENTITY);
      return;
    }
    const y = (yaw * Math.PI) / 180,
      t = (tilt * Math.PI) / 180;
    const cy = cos(y),
      sy = sin(y),
      ct = cos(t),
      st = sin(t);
    axes[0] = cy;
    axes[1] = 0;
    axes[2] = -sy;
    axes[3] = sy * st;
    axes[4] = ct;
    axes[5] = cy * st;
    axes[6] = sy * ct;
    axes[7] = -st;
    axes[8] = cy * ct;
  }

  /** The overlapping entries of the list (rejected ones left out), ids ascending, for the hash and callers. */
  private collectOverlapping(): void {
    const list = this.list;
    if (this.overlapping.length < list.count) this.overlapping = new Int32Array(list.capacity);
    let n = 0;
    for (let i = 0; i < list.count; i++) if (isOverlapExit(list.exit[i]!)) this.overlapping[n++] = list.triangle[i]!;
    this.overlapCount = n;
    this.overlapping.subarray(0, n).sort();
  }
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1] as const;

function resolve(base: Readonly<BoxProbeSettings>, changes: SceneBoxProbe): BoxProbeSettings {
  return {
    center: [...(changes.center ?? base.center)],
    lift: changes.lift ?? base.lift,
    halfSize: [...(changes.halfSize ?? base.halfSize)],
    yaw: changes.yaw ?? base.yaw,
    tilt: changes.tilt ?? base.tilt,
    test: changes.test ?? base.test,
    kernel: changes.kernel ?? base.kernel,
    includeRejected: changes.includeRejected ?? base.includeRejected,
    filter: changes.filter ?? base.filter,
  };
}
