import type { BVH } from '../../bvh/buildBVH';
import { bvhRevision, lastGeometryChange } from '../../bvh/revision';
import { childIndex, childLeafCount } from '../../bvh/childWord';
import { KERNEL_STACK_ENTRY_BYTES } from '../../bvh/layoutSpec';
import { QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32 } from '../../bvh/quantizedLayout';
import { frameMagnitudes, quantizedNodesOf } from '../../bvh/nodeRecords';
import { InvalidParameterError } from '../../errors';
import { alignTo, growMemoryTo } from '../../platform/moduleMemory';
import type { LeafGroups } from './rayLeafGroups';
import { rewriteRayNodePlanes } from './rayNodeRecords';
import { planRayScene, writeRayScene } from './rayScene';
import { RayOrder, type RayOrderExports } from './rayOrder';
import {
  STAGED_RAY_BYTES,
  castsInOrder,
  kernelCast,
  rayOrderScratchAt,
  rayStagingAt,
  stageRays,
  unstageHits,
  type KernelCast,
  type RayStaging,
} from './rayStaging';
import { rayBatchCounters, type QueryCounters } from '../counters';
import type { AllHitsList, RayBatch, RayHits } from './rayTypes';

/** The exports of the compiled ray kernel (src/platform/assembly/rays/castRays.ts). */
interface RayKernelExports extends RayOrderExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  countersNodes(): number;
  countersTriangles(): number;
  countersSubtreesMasked(): number;
  countersTrianglesMasked(): number;
  rayRecordBytes(): number;
  setAllHitsList(at: number, capacity: number): void;
  allHitsCount(): number;
  allHitsDropped(): number;
  castRays(
    nodes: number,
    nodeCount: number,
    magnitude: number,
    triangles: number,
    order: number,
    origins: number,
    directions: number,
    tMaxs: number,
    hitT: number,
    hitTriangle: number,
    count: number,
    stacks: number,
    flags: number,
    masks: number,
    filter: number,
  ): number;
  castRaysBatched(
    nodes: number,
    nodeCount: number,
    magnitude: number,
    triangles: number,
    order: number,
    origins: number,
    directions: number,
    tMaxs: number,
    hitT: number,
    hitTriangle: number,
    count: number,
    records: number,
    arena: number,
    children: number,
    stack: number,
    rayStack: number,
    batchSize: number,
    aloneBelow: number,
    flags: number,
    masks: number,
    filter: number,
  ): number;
}

export interface SimdCastOptions {
  /**
   * 'all': every hit within tMax into `allHits` (each triangle once per ray, in walk order, rays in
   * order; the same set as castRays' reference walk), the closest one in the hits; rays walk alone.
   */
  mode: 'closest' | 'any' | 'all';
  /** Mode 'all': where the hits go (emptied first; hits past its capacity are counted in `dropped`). */
  allHits: AllHitsList;
  doubleSided: boolean;
  /** Cast big batches in the order of where the rays cross the scene (rayOrder.ts); results are the same. */
  reorder: boolean;
  /**
   * 0: each ray walks the tree by itself. n ≥ 1 (or Infinity: the whole cast): the batched walk, n rays
   * down the tree together, each node decoded once for all of them (same hits and t; at an exact tie
   * between two triangles a ray may name the other one).
   */
  batch: number;
  /** Batched walk: a node reached by fewer rays than this lets each of them finish its subtree alone. */
  aloneBelow: number;
  /**
   * Collision filter (collisionMasks.ts), a 32-bit unsigned integer: triangles whose mask misses it are
   * ignored, as by castRays with the same filter. MASK_ALL (the default) keeps everything.
   */
  filter: number;
}

/**
 * Lists shorter than this walk alone. A list of one gains nothing from a shared decode; on the 512
 * terrain (incoherent, camera and segment rays, batches of 64 and 256) thresholds of 2, 4, 8 and 16 were
 * within a few percent of each other, 2 the best on the camera grid.
 */
const DEFAULT_ALONE_BELOW = 2;

const STACK_ENTRY_BYTES = KERNEL_STACK_ENTRY_BYTES;
/** The batched walk's list element (ray slot, entry distance) and stack entry (node, list, length). */
const LIST_ELEMENT_BYTES = 8;
const BATCH_ENTRY_BYTES = 16;

/** Addresses inside the module's memory of the resident BVH and the ray staging area. */
interface Layout {
  stacks: number;
  stackBytes: number;
  magnitude: number;
  nodes: number;
  triangles: number;
  order: number;
  masks: number;
  rays: number;
  rayCapacity: number;
  /** The staging area's addresses for rayCapacity rays (rayStaging.ts). */
  staging: RayStaging;
}

/**
 * The WebAssembly SIMD ray caster over the quantized 4-way BVH: one module instance, its memory laid
 * out as
 *
 *   heapBase → traversal stack (8 B per entry; rays walk one at a time) | the frames' magnitude
 *            bound per axis (3 × f64) | node records (rayNodeRecords.ts, 128 B each: the child boxes as f32
 *            world planes, decoded here once in float64 as the TypeScript walk decodes them, then the
 *            child words) | triangles leaf by leaf in whole groups of four (rayLeafGroups.ts), structure
 *            of arrays (144 B per group: nine f32x4 rows ax … cz) | the caller's triangle id per lane of
 *            each group (i32, −1 unused) | that triangle's collision mask per lane (u32, 0 unused) | ray
 *            staging (rayStaging.ts) for `rayCapacity` rays | a cast's work areas: the batched walk's,
 *            an all-hits list, then a sorted cast's order scratch
 *
 * One BVH is resident at a time: it is copied in once, when first cast against, and stays until another
 * BVH is cast against. Rays are staged per cast (28 B in and 8 B out per ray, next to a walk of tens
 * of nodes; big batches are sorted here by orderRays into the order of where the rays cross the scene,
 * rayOrder.ts, and their hits put back in the caller's order); the walk itself touches only module
 * memory. The memory only grows; every typed view is re-made from memory.buffer after a grow (growing
 * detaches the old buffer).
 */
export class SimdRayKernel {
  private readonly exports: RayKernelExports;
  private layout: Layout | null = null;
  private resident: BVH | null = null;
  /** bvhRevision of the resident BVH when copied in: a refit since makes the copy stale. */
  private residentRevision = -1;
  private residentLeaves: LeafGroups | null = null;
  private readonly rayOrder = new RayOrder();
  /** castOne's views over the whole memory, re-made when a grow replaces the buffer. */
  private viewBuffer: ArrayBufferLike | null = null;
  private f32 = new Float32Array(0);
  private i32 = new Int32Array(0);
  /** castOne's last frozen options, checked (oneCast). */
  private keptCast: (KernelCast & { options: object; bvh: BVH; revision: number; allHits: AllHitsList | null }) | null = null;
  /** The float32 t of castOne's last hit (+∞ for a miss, NaN for an invalid ray). */
  oneT = Infinity;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as RayKernelExports;
  }

  /** Bytes of module memory in use (for the HUD and the benchmark). */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** Copies a BVH into the module's memory now rather than on its first cast. */
  upload(bvh: BVH): void {
    const stacks = alignTo(this.exports.heapBase(), 64);
    // Each level pops one entry and pushes at most four: 3·depth + 1 entries at most, plus slack.
    const stackBytes = STACK_ENTRY_BYTES * (3 * bvh.maxDepth + 8);
    const { leaves, layout: scene } = planRayScene(bvh, stacks + stackBytes);
    const rays = alignTo(scene.end, 64);
    const rayCapacity = this.layout?.rayCapacity ?? 1024;
    this.ensureMemory(rays + STAGED_RAY_BYTES * rayCapacity);
    writeRayScene(bvh, leaves, scene, this.exports.memory.buffer);
    const { magnitude, nodes, triangles, order, masks } = scene;
    this.layout = { stacks, stackBytes, magnitude, nodes, triangles, order, masks, rays, rayCapacity, staging: rayStagingAt(rays, rayCapacity) };
    this.resident = bvh;
    this.residentRevision = bvhRevision(bvh);
    this.residentLeaves = leaves;
  }

  /**
   * Brings the resident copy of `bvh` up to date after one partial refit (revision.ts GeometryChange):
   * the re-encoded nodes' planes and the moved triangles' lanes only. Returns false, changing nothing,
   * when that is not the case (another BVH, a full refit, or more than one refit since the copy).
   */
  private patch(bvh: BVH): boolean {
    const change = lastGeometryChange(bvh);
    const layout = this.layout;
    const leaves = this.residentLeaves;
    if (
      this.resident !== bvh ||
      change === null ||
      change.wholeTree ||
      change.fromRevision !== this.residentRevision ||
      layout === null ||
      leaves === null
    )
      return false;
    const nodes = quantizedNodesOf(bvh);
    const buffer = this.exports.memory.buffer;
    new Float64Array(buffer, layout.magnitude, 3).set(frameMagnitudes(nodes));
    rewriteRayNodePlanes(nodes, buffer, layout.nodes, change.frames, change.nodes, change.nodeCount);
    const grouped = new Float32Array(buffer, layout.triangles, 36 * leaves.groupCount);
    const { positions, indices } = bvh;
    const { groupAt, lanes } = leaves;
    for (let i = 0; i < change.leafSlotCount; i++) {
      const slot = change.leafSlots[i]!;
      const word = nodes.u32[QUANTIZED_NODE_U32 * (slot >> 2) + QUANTIZED_WORDS_U32 + (slot & 3)]!;
      const first = 4 * groupAt[childIndex(word)]!;
      for (let k = first; k < first + childLeafCount(word); k++) {
        const triangle = lanes[k]!;
        const o = 36 * (k >> 2) + (k & 3);
        for (let corner = 0; corner < 3; corner++) {
          const v = 3 * indices[3 * triangle + corner]!;
          grouped[o + 12 * corner] = positions[v]!;
          grouped[o + 12 * corner + 4] = positions[v + 1]!;
          grouped[o + 12 * corner + 8] = positions[v + 2]!;
        }
      }
    }
    this.residentRevision = bvhRevision(bvh);
    return true;
  }

  /**
   * Casts a batch of rays against the BVH's quantized layout: closest or any hit, the conventions of
   * castRays (t and the caller's triangle id per ray; a miss: +∞ and −1; an invalid ray: NaN and −1,
   * counted). Hits, distances and the triangle chosen at ties agree with castRays'.
   */
  cast(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<SimdCastOptions> = {}): QueryCounters {
    const batch = options.batch ?? 0;
    if (!(typeof batch === 'number' && batch >= 0 && (Number.isInteger(batch) || batch === Infinity)))
      throw new InvalidParameterError('batch', 'a whole number ≥ 0 or Infinity', batch);
    const aloneBelow = options.aloneBelow ?? DEFAULT_ALONE_BELOW;
    if (!(typeof aloneBelow === 'number' && Number.isInteger(aloneBelow) && aloneBelow >= 0))
      throw new InvalidParameterError('aloneBelow', 'a whole number ≥ 0', aloneBelow);
    checkBuffers(rays, hits);
    const { flags, filter, nodeCount, rootCut } = kernelCast(bvh, options, true);
    const allHits = options.mode === 'all' ? checkAllHits(options.allHits, batch) : null;
    if ((this.resident !== bvh || this.residentRevision !== bvhRevision(bvh)) && !this.patch(bvh)) this.upload(bvh);
    const count = rays.count;
    let layout = this.layout!;
    if (count > layout.rayCapacity) {
      const rayCapacity = Math.max(count, 2 * layout.rayCapacity);
      this.ensureMemory(layout.rays + STAGED_RAY_BYTES * rayCapacity);
      layout = this.layout = { ...layout, rayCapacity, staging: rayStagingAt(layout.rays, rayCapacity) };
    }
    // The batched walk's work areas follow the staging area (batchWalk.ts): ray records, batch stack,
    // four child lists, then the arena of pending lists; a ray walking alone uses the traversal stack.
    const batchSize = Math.max(1, Math.min(batch, count));
    const pending = layout.stackBytes / STACK_ENTRY_BYTES;
    const records = alignTo(layout.staging.end, 64);
    const batchStack = batch > 0 ? records + this.exports.rayRecordBytes() * batchSize : 0;
    const children = batchStack + BATCH_ENTRY_BYTES * pending;
    const arena = children + 4 * LIST_ELEMENT_BYTES * batchSize;
    const arenaEnd = arena + LIST_ELEMENT_BYTES * batchSize * pending;
    if (batch > 0) this.ensureMemory(arenaEnd);
    // An all-hits list takes the batched walk's place (it walks rays alone): ray, t, triangle per entry.
    if (allHits !== null) {
      this.ensureMemory(records + 12 * allHits.capacity);
      this.exports.setAllHitsList(records, allHits.capacity);
    }
    // A sorted cast's scratch comes last (the list names rays by their staged index: all-hits casts
    // keep the caller's order).
    const sorted = allHits === null && castsInOrder(options.reorder ?? true, count);
    const scratch = sorted ? rayOrderScratchAt(alignTo(batch > 0 ? arenaEnd : records, 64), count) : null;
    if (scratch !== null) this.ensureMemory(scratch.end);
    const staging = layout.staging;
    const { origins, directions, tMaxs, hitT, hitTriangle } = staging;
    const buffer = this.exports.memory.buffer;
    stageRays(this.rayOrder, this.exports, bvh.quantized!.rootFrame, rays, scratch, buffer, staging);
    const invalidRays =
      batch > 0
        ? this.exports.castRaysBatched(
            layout.nodes,
            nodeCount,
            layout.magnitude,
            layout.triangles,
            layout.order,
            origins,
            directions,
            tMaxs,
            hitT,
            hitTriangle,
            count,
            records,
            arena,
            children,
            batchStack,
            layout.stacks,
            batchSize,
            aloneBelow,
            flags,
            layout.masks,
            filter,
          )
        : this.castAlone(layout, nodeCount, staging, count, flags, filter);
    unstageHits(this.exports, scratch, count, buffer, staging, hits);
    if (allHits !== null) copyAllHits(allHits, this.exports.allHitsCount(), this.exports.allHitsDropped(), buffer, records);
    const nodesVisited = this.exports.countersNodes();
    // Masked subtrees: children whose box a ray hit but whose mask misses the filter (inner nodes and
    // whole leaves, so a leaf counts here rather than per triangle), and a cut root once per valid ray.
    const subtreesMasked = this.exports.countersSubtreesMasked() + (rootCut ? count - invalidRays : 0);
    return rayBatchCounters(
      {
        nodesVisited,
        boxesTested: 4 * nodesVisited,
        trianglesTested: this.exports.countersTriangles(),
        subtreesMasked,
        trianglesMasked: this.exports.countersTrianglesMasked(),
      },
      count,
      invalidRays,
      hits.triangle,
    );
  }

  /**
   * One ray, for callers that cast one per call (a three.js raycast): cast() for a batch of one, minus
   * the per-batch work (typed views, staging, counters). Returns the hit triangle (−1: a miss, or an
   * invalid ray), its float32 t in `oneT`; mode 'all' fills options.allHits as cast() does.
   */
  castOne(
    bvh: BVH,
    ox: number,
    oy: number,
    oz: number,
    dx: number,
    dy: number,
    dz: number,
    tMax: number,
    options: Partial<SimdCastOptions> = {},
  ): number {
    if ((this.resident !== bvh || this.residentRevision !== bvhRevision(bvh)) && !this.patch(bvh)) this.upload(bvh);
    const cast = this.oneCast(bvh, options);
    const { flags, filter, nodeCount } = cast;
    const allHits = cast.allHits;
    const layout = this.layout!;
    const staging = layout.staging;
    const list = alignTo(staging.end, 64);
    if (allHits !== null) {
      this.ensureMemory(list + 12 * allHits.capacity);
      this.exports.setAllHitsList(list, allHits.capacity);
    }
    if (this.viewBuffer !== this.exports.memory.buffer) {
      this.viewBuffer = this.exports.memory.buffer;
      this.f32 = new Float32Array(this.viewBuffer);
      this.i32 = new Int32Array(this.viewBuffer);
    }
    const f32 = this.f32;
    const o = staging.origins >> 2;
    const d = staging.directions >> 2;
    f32[o] = ox;
    f32[o + 1] = oy;
    f32[o + 2] = oz;
    f32[d] = dx;
    f32[d + 1] = dy;
    f32[d + 2] = dz;
    f32[staging.tMaxs >> 2] = tMax;
    this.castAlone(layout, nodeCount, staging, 1, flags, filter);
    const e = this.exports;
    const hitT = staging.hitT;
    const hitTriangle = staging.hitTriangle;
    this.oneT = f32[hitT >> 2]!;
    if (allHits !== null) {
      const stored = e.allHitsCount();
      allHits.count = stored;
      allHits.dropped = e.allHitsDropped();
      const i32 = this.i32;
      const at = list >> 2;
      const capacity = allHits.capacity;
      for (let i = 0; i < stored; i++) {
        allHits.ray[i] = 0;
        allHits.t[i] = f32[at + capacity + i]!;
        allHits.triangle[i] = i32[at + 2 * capacity + i]!;
      }
    }
    return this.i32[hitTriangle >> 2]!;
  }

  /**
   * castOne's checked options. A caller casting one ray per call passes the same frozen options object
   * every time, so its check and flags are kept until the options, the tree or the tree's revision (a
   * refit may change the collision masks) change; options that are not frozen are checked every call.
   */
  private oneCast(bvh: BVH, options: Partial<SimdCastOptions>): KernelCast & { allHits: AllHitsList | null } {
    const kept = this.keptCast;
    if (kept !== null && kept.options === options && kept.bvh === bvh && kept.revision === this.residentRevision) return kept;
    const { flags, filter, nodeCount, rootCut } = kernelCast(bvh, options, true);
    const allHits = options.mode === 'all' ? checkAllHits(options.allHits, options.batch ?? 0) : null;
    const cast = { options, bvh, revision: this.residentRevision, flags, filter, nodeCount, rootCut, allHits };
    this.keptCast = Object.isFrozen(options) ? cast : null;
    return cast;
  }

  /** The kernel's one-ray-at-a-time walk over `count` staged rays; returns how many were invalid. */
  private castAlone(layout: Layout, nodeCount: number, staging: RayStaging, count: number, flags: number, filter: number): number {
    const { origins, directions, tMaxs, hitT, hitTriangle } = staging;
    return this.exports.castRays(
      layout.nodes,
      nodeCount,
      layout.magnitude,
      layout.triangles,
      layout.order,
      origins,
      directions,
      tMaxs,
      hitT,
      hitTriangle,
      count,
      layout.stacks,
      flags,
      layout.masks,
      filter,
    );
  }

  private ensureMemory(bytes: number): void {
    growMemoryTo(this.exports.memory, bytes);
  }
}

function checkAllHits(list: AllHitsList | undefined, batch: number): AllHitsList {
  if (batch !== 0) throw new InvalidParameterError('batch', "0 with mode 'all' (all-hits rays walk alone)", batch);
  if (
    list === undefined ||
    !(Number.isInteger(list.capacity) && list.capacity >= 0) ||
    !(list.ray instanceof Int32Array && list.t instanceof Float32Array && list.triangle instanceof Int32Array) ||
    list.ray.length < list.capacity ||
    list.t.length < list.capacity ||
    list.triangle.length < list.capacity
  )
    throw new InvalidParameterError('allHits', "an AllHitsList (createAllHitsList) for mode 'all'", list);
  return list;
}

/** The kernel's list (ray, t, triangle arrays of `capacity` from `at`) into the caller's. */
function copyAllHits(list: AllHitsList, stored: number, dropped: number, buffer: ArrayBufferLike, at: number): void {
  const capacity = list.capacity;
  list.count = stored;
  list.dropped = dropped;
  if (stored === 0) return;
  list.ray.set(new Int32Array(buffer, at, stored));
  list.t.set(new Float32Array(buffer, at + 4 * capacity, stored));
  list.triangle.set(new Int32Array(buffer, at + 8 * capacity, stored));
}

/** Throws InvalidParameterError unless the batch and the hit buffers hold rays.count rays. */
export function checkBuffers(rays: RayBatch, hits: RayHits): void {
  const n = rays.count;
  if (!(Number.isInteger(n) && n >= 0)) throw new InvalidParameterError('rays.count', 'a whole number ≥ 0', n);
  if (!(rays.origins instanceof Float32Array) || rays.origins.length < 3 * n)
    throw new InvalidParameterError('rays.origins', `a Float32Array of at least ${3 * n} numbers`, rays.origins);
  if (!(rays.directions instanceof Float32Array) || rays.directions.length < 3 * n)
    throw new InvalidParameterError('rays.directions', `a Float32Array of at least ${3 * n} numbers`, rays.directions);
  if (!(rays.tMax instanceof Float32Array) || rays.tMax.length < n)
    throw new InvalidParameterError('rays.tMax', `a Float32Array of at least ${n} numbers`, rays.tMax);
  if (!(hits.t instanceof Float32Array) || hits.t.length < n)
    throw new InvalidParameterError('hits.t', `a Float32Array of at least ${n} numbers`, hits.t);
  if (!(hits.triangle instanceof Int32Array) || hits.triangle.length < n)
    throw new InvalidParameterError('hits.triangle', `an Int32Array of at least ${n} numbers`, hits.triangle);
}
