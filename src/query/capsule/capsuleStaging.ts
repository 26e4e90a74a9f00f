import type { BVH } from '../../bvh/buildBVH';
import { filterRejectsSome } from '../walk/maskFilter';
import { createSweepCounters, type CapsuleBatch, type CapsuleHits, type SweepCounters, type SweepOptions } from './capsuleTypes';
import { PAIRS_PER_TRIANGLE } from './featureBits';

/**
 * How a batch of capsules goes in and out of a capsule kernel's memory, the same for the single-thread
 * kernel (capsuleKernel.ts) and the pool (capsulePool.ts), so both sweep the very same bytes: start,
 * end, motion (3 × f32 each) and radius (f32) in, toi (f32), triangle (i32), point and normal (3 × f32
 * each) out, each as one array of `capacity` capsules.
 */

/** Bytes per capsule in the staging area (40 in, 32 out). */
export const STAGED_CAPSULE_BYTES = 72;
/** i32 counters the kernel writes per batch or chunk (src/platform/assembly/capsule/counters.ts). */
export const KERNEL_COUNTERS = 17;
/** The counter of traced triangles (only the single-thread kernel traces). */
export const TRACED_COUNTER = 12;

export interface CapsuleStaging {
  start: number;
  end: number;
  motion: number;
  radius: number;
  toi: number;
  triangle: number;
  point: number;
  normal: number;
  /** The first byte past the staging area. */
  stagingEnd: number;
}

/** The staging area for `capacity` capsules from byte `at` on. */
export function capsuleStagingAt(at: number, capacity: number): CapsuleStaging {
  const start = at;
  const end = start + 12 * capacity;
  const motion = end + 12 * capacity;
  const radius = motion + 12 * capacity;
  const toi = radius + 4 * capacity;
  const triangle = toi + 4 * capacity;
  const point = triangle + 4 * capacity;
  const normal = point + 12 * capacity;
  return { start, end, motion, radius, toi, triangle, point, normal, stagingEnd: normal + 12 * capacity };
}

/** Copies the capsules in. */
export function stageCapsules(capsules: CapsuleBatch, buffer: ArrayBufferLike, staging: CapsuleStaging): void {
  const count = capsules.count;
  new Float32Array(buffer, staging.start, 3 * count).set(capsules.start.subarray(0, 3 * count));
  new Float32Array(buffer, staging.end, 3 * count).set(capsules.end.subarray(0, 3 * count));
  new Float32Array(buffer, staging.motion, 3 * count).set(capsules.motion.subarray(0, 3 * count));
  new Float32Array(buffer, staging.radius, count).set(capsules.radius.subarray(0, count));
}

/** Copies the contacts of `count` capsules out. */
export function unstageContacts(count: number, buffer: ArrayBufferLike, staging: CapsuleStaging, hits: CapsuleHits): void {
  hits.toi.set(new Float32Array(buffer, staging.toi, count));
  hits.triangle.set(new Int32Array(buffer, staging.triangle, count));
  hits.point.set(new Float32Array(buffer, staging.point, 3 * count));
  hits.normal.set(new Float32Array(buffer, staging.normal, 3 * count));
}

/** The kernel's flags for a batch: bit 0 edge masks, bit 1 quick cull, bit 2 filtering. */
export function capsuleKernelFlags(bvh: BVH, options: SweepOptions): number {
  return (options.edgeMasks ? 1 : 0) | (options.quickCull ? 2 : 0) | (filterRejectsSome(bvh.masks, options.filter) ? 4 : 0);
}

/** The sweep's counters from the kernel's (KERNEL_COUNTERS i32, counters.ts order) for `count` capsules. */
export function sweepCountersFrom(tally: ArrayLike<number>, count: number): SweepCounters {
  const counters = createSweepCounters();
  counters.queries = count;
  counters.invalid = tally[11]!;
  counters.nodesVisited = tally[0]!;
  counters.boxesTested = 4 * tally[0]!;
  counters.leavesVisited = tally[13]!;
  counters.trianglesTested = tally[1]!;
  counters.culled = tally[14]!;
  counters.hits = tally[10]!;
  counters.subtreesMasked = tally[15]!;
  counters.trianglesMasked = tally[16]!;
  counters.pairsPossible = PAIRS_PER_TRIANGLE * tally[1]!;
  counters.pairsKept = tally[2]!;
  counters.pairsTested = tally[3]!;
  counters.sphereVertex = tally[4]!;
  counters.sphereEdge = tally[5]!;
  counters.sphereFace = tally[6]!;
  counters.cylinderVertex = tally[7]!;
  counters.cylinderEdge = tally[8]!;
  counters.cylinderFace = tally[9]!;
  return counters;
}
