import type { BVH } from '../../bvh/buildBVH';
import { nodeMaskIndexAt } from '../../bvh/childWord';
import { MASK_ALL, checkFilter } from '../../bvh/collisionMasks';
import { QUANTIZED_WORDS_U32 } from '../../bvh/quantizedLayout';
import { InvalidParameterError } from '../../errors';
import { filterRejectsSome } from '../walk/maskFilter';
import { alignTo } from '../../platform/moduleMemory';
import { RAY_ORDER_KEYS } from '../../bvh/layoutSpec';
import { RAY_ORDER_PLAN_BYTES, type RayOrder, type RayOrderExports } from './rayOrder';
import type { RayBatch, RayHits } from './rayTypes';

/**
 * How a batch of rays goes into a ray kernel's memory and its hits come back, the same for the
 * single-thread kernel (rayKernel.ts) and the pool (rayPool.ts), so both cast the very same bytes:
 *
 *   origins (3 × f32 per ray) | directions (3 × f32) | tMax (f32) | hit t (f32) | hit triangle (i32)
 *
 * for `capacity` rays from `at`. Big batches are copied into an order scratch (rayOrderScratchAt,
 * placed by the owner past its other work areas, so that small casts never need its memory) and staged
 * from there by the kernel's orderRays, in the order of where the rays cross the scene (rayOrder.ts);
 * their hits are put back in the caller's order by its unorderHits.
 */

/** Bytes per staged ray: origin and direction (3 × f32 each), tMax, hit t, hit triangle. */
export const STAGED_RAY_BYTES = 36;
/** Below this many rays the sort costs more than it saves. */
export const REORDER_MIN_RAYS = 1024;
/** Flag bits of the kernels' casts (src/platform/assembly/rays/rayBatch.ts). */
const FLAG_DOUBLE_SIDED = 1;
const FLAG_ANY_HIT = 2;
const FLAG_FILTERED = 4;
const FLAG_ALL_HITS = 8;

/** Byte addresses of the staging area for `capacity` rays. */
export interface RayStaging {
  origins: number;
  directions: number;
  tMaxs: number;
  hitT: number;
  hitTriangle: number;
  /** The first byte past it. */
  end: number;
}

export function rayStagingAt(at: number, capacity: number): RayStaging {
  const directions = at + 12 * capacity;
  const tMaxs = directions + 12 * capacity;
  const hitT = tMaxs + 4 * capacity;
  const hitTriangle = hitT + 4 * capacity;
  return { origins: at, directions, tMaxs, hitT, hitTriangle, end: hitTriangle + 4 * capacity };
}

/**
 * Byte addresses of the scratch a sorted cast of `count` rays needs: the rays as the caller gave
 * them (origins, directions, tMax; the hits in the caller's order take their place at the end), keys
 * (u32), the order (i32), the order's plan (rayOrder.ts) and its counts (i32 per key).
 */
export interface RayOrderScratch {
  givenOrigins: number;
  givenDirections: number;
  givenTMaxs: number;
  keys: number;
  order: number;
  plan: number;
  counts: number;
  end: number;
}

export function rayOrderScratchAt(at: number, count: number): RayOrderScratch {
  const givenDirections = at + 12 * count;
  const givenTMaxs = givenDirections + 12 * count;
  const keys = givenTMaxs + 4 * count;
  const order = keys + 4 * count;
  const plan = alignTo(order + 4 * count, 16);
  const counts = plan + RAY_ORDER_PLAN_BYTES;
  return { givenOrigins: at, givenDirections, givenTMaxs, keys, order, plan, counts, end: counts + 4 * RAY_ORDER_KEYS };
}

/** Whether a cast of `count` rays is staged in cast order (rayOrder.ts). */
export function castsInOrder(reorder: boolean, count: number): boolean {
  return reorder && count >= REORDER_MIN_RAYS;
}

/** What a cast's options become for a kernel: its flag word and whether a filter cuts the root. */
export interface KernelCast {
  flags: number;
  filter: number;
  /** The node count to walk: 0 when the filter rejects the whole tree. */
  nodeCount: number;
  rootCut: boolean;
}

/**
 * Checks a cast's mode, sidedness and filter (InvalidParameterError) and turns them into flags. Mode
 * 'all' only where the kernel takes it (`allowAll`: the single-thread kernel).
 */
export function kernelCast(bvh: BVH, options: { mode?: unknown; doubleSided?: unknown; filter?: number }, allowAll = false): KernelCast {
  const mode = options.mode ?? 'closest';
  const doubleSided = options.doubleSided ?? false;
  if (!(mode === 'closest' || mode === 'any' || (allowAll && mode === 'all')))
    throw new InvalidParameterError('mode', allowAll ? "'closest', 'any' or 'all'" : "'closest' or 'any'", mode);
  if (typeof doubleSided !== 'boolean') throw new InvalidParameterError('doubleSided', 'true or false', doubleSided);
  const filter = checkFilter(options.filter ?? MASK_ALL);
  const nodes = bvh.quantized!;
  // The filter is applied only when it rejects some material of the mesh (else the kernel runs its
  // unfiltered walks, which have no check compiled in); a root it cuts leaves nothing to walk.
  const filtering = filterRejectsSome(bvh.masks, filter);
  const rootCut = filtering && nodes.nodeCount > 0 && (bvh.masks.nodeMasks[nodeMaskIndexAt(nodes.u32, QUANTIZED_WORDS_U32)]! & filter) === 0;
  const flags =
    (doubleSided ? FLAG_DOUBLE_SIDED : 0) |
    (mode === 'any' ? FLAG_ANY_HIT : 0) |
    (mode === 'all' ? FLAG_ALL_HITS : 0) |
    (filtering ? FLAG_FILTERED : 0);
  return { flags, filter: filter | 0, nodeCount: rootCut ? 0 : nodes.nodeCount, rootCut };
}

/**
 * Copies the batch into the staging area of `buffer`: as given, or, with an order scratch (see
 * castsInOrder), sorted by the kernel into rayOrder.ts' order. frame: the scene's root frame (min x,
 * y, z, max x, y, z).
 */
export function stageRays(
  rayOrder: RayOrder,
  kernel: RayOrderExports,
  frame: ArrayLike<number>,
  rays: RayBatch,
  scratch: RayOrderScratch | null,
  buffer: ArrayBufferLike,
  staging: RayStaging,
): void {
  const count = rays.count;
  new Float32Array(buffer, scratch?.givenOrigins ?? staging.origins, 3 * count).set(rays.origins.subarray(0, 3 * count));
  new Float32Array(buffer, scratch?.givenDirections ?? staging.directions, 3 * count).set(rays.directions.subarray(0, 3 * count));
  new Float32Array(buffer, scratch?.givenTMaxs ?? staging.tMaxs, count).set(rays.tMax.subarray(0, count));
  if (scratch === null) return;
  rayOrder.plan(frame, buffer, scratch.plan);
  const { givenOrigins, givenDirections, givenTMaxs, plan, keys, counts, order } = scratch;
  kernel.orderRays(givenOrigins, givenDirections, givenTMaxs, count, plan, keys, counts, order, staging.origins, staging.directions, staging.tMaxs);
}

/** Copies the staged hits of `count` rays into the caller's buffers, in the caller's order. */
export function unstageHits(
  kernel: RayOrderExports,
  scratch: RayOrderScratch | null,
  count: number,
  buffer: ArrayBufferLike,
  staging: RayStaging,
  hits: RayHits,
): void {
  let { hitT, hitTriangle } = staging;
  if (scratch !== null) {
    // The caller's rays as given are no longer needed: their place takes the hits in the caller's order.
    kernel.unorderHits(scratch.order, count, hitT, hitTriangle, scratch.givenOrigins, scratch.givenOrigins + 4 * count);
    hitT = scratch.givenOrigins;
    hitTriangle = scratch.givenOrigins + 4 * count;
  }
  hits.t.set(new Float32Array(buffer, hitT, count));
  hits.triangle.set(new Int32Array(buffer, hitTriangle, count));
}
