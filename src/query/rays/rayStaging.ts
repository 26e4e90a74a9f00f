import type { BVH } from '../../bvh/buildBVH';
import { nodeMaskIndexAt } from '../../bvh/childWord';
import { MASK_ALL, checkFilter } from '../../bvh/collisionMasks';
import { QUANTIZED_WORDS_U32 } from '../../bvh/quantizedLayout';
import { InvalidParameterError } from '../../errors';
import { filterRejectsSome } from '../walk/maskFilter';
import { scatterHits, type RayOrder } from './rayOrder';
import type { RayBatch, RayHits } from './rayTypes';

/**
 * How a batch of rays goes into a ray kernel's memory and its hits come back, the same for the
 * single-thread kernel (rayKernel.ts) and the pool (rayPool.ts), so both cast the very same bytes:
 *
 *   origins (3 × f32 per ray) | directions (3 × f32) | tMax (f32) | hit t (f32) | hit triangle (i32)
 *
 * for `capacity` rays from `at`. Big batches are staged in the order of where the rays cross the scene (rayOrder.ts)
 * and their hits put back in the caller's order.
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
 * Copies the batch into the staging area of `buffer`, in rayOrder.ts' order when `reorder` is asked for and
 * the batch is big enough; returns that order (null: the caller's order).
 */
export function stageRays(
  rayOrder: RayOrder,
  bvh: BVH,
  rays: RayBatch,
  reorder: boolean,
  buffer: ArrayBufferLike,
  staging: RayStaging,
): Int32Array | null {
  const count = rays.count;
  const origins = new Float32Array(buffer, staging.origins, 3 * count);
  const directions = new Float32Array(buffer, staging.directions, 3 * count);
  const tMaxs = new Float32Array(buffer, staging.tMaxs, count);
  if (reorder && count >= REORDER_MIN_RAYS) {
    return rayOrder.sort(rays, count, bvh.quantized!.rootFrame, origins, directions, tMaxs);
  }
  origins.set(rays.origins.subarray(0, 3 * count));
  directions.set(rays.directions.subarray(0, 3 * count));
  tMaxs.set(rays.tMax.subarray(0, count));
  return null;
}

/** Copies the staged hits of `count` rays into the caller's buffers, in the caller's order. */
export function unstageHits(order: Int32Array | null, count: number, buffer: ArrayBufferLike, staging: RayStaging, hits: RayHits): void {
  const t = new Float32Array(buffer, staging.hitT, count);
  const triangle = new Int32Array(buffer, staging.hitTriangle, count);
  if (order !== null) scatterHits(order, count, t, triangle, hits.t, hits.triangle);
  else {
    hits.t.set(t);
    hits.triangle.set(triangle);
  }
}
