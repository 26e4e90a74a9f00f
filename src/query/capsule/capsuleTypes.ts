import type { BVH } from '../../bvh/buildBVH';
import { addQueryCounters, resetQueryCounters, type QueryCounters } from '../counters';

/**
 * A batch of swept capsules, structure of arrays. Capsule i is the set of points within radius[i] of
 * the segment start[3i..3i+2] – end[3i..3i+2] (any orientation; equal ends give a sphere), moved by
 * the translation motion[3i..3i+2] over t ∈ [0, 1].
 */
export interface CapsuleBatch {
  count: number;
  start: Float32Array;
  end: Float32Array;
  radius: Float32Array;
  motion: Float32Array;
}

/**
 * Per-capsule results. A hit: triangle ≥ 0, toi ∈ [0, 1] the first time the capsule touches the mesh
 * (0 when it starts in contact), point the contact point on the triangle, normal the unit normal from
 * the triangle towards the capsule (for a start in contact, a direction that separates them).
 * A miss: triangle −1, toi 1 (the whole motion is free), point and normal 0. An invalid capsule (NaN or
 * infinite numbers, negative radius): triangle −1, toi NaN, counted in the counters' `invalid`.
 */
export interface CapsuleHits {
  toi: Float32Array;
  triangle: Int32Array;
  point: Float32Array;
  normal: Float32Array;
}

/** Which triangles a sweep looked at and the feature pairs it kept (for drawing); filled in order. */
export interface CapsuleTrace {
  capacity: number;
  count: number;
  /** Triangles that passed the leaf box and the collision filter and reached the culls (possibly several times each). */
  triangle: Int32Array;
  /** The 21 feature pairs the quick cull kept, one bit each (see featureBits.ts). */
  kept: Int32Array;
  /** The pairs actually tested: kept minus those the triangle's edge mask leaves to a neighbour. */
  tested: Int32Array;
}

export function createCapsuleTrace(capacity: number): CapsuleTrace {
  return { capacity, count: 0, triangle: new Int32Array(capacity), kept: new Int32Array(capacity), tested: new Int32Array(capacity) };
}

export interface SweepOptions {
  /** Skip shared edges owned by the neighbour, valley edges, and vertices of skipped edges. Exact for
   *  capsules that approach the surface from its front (the side the counter-clockwise normal faces,
   *  the open air above a terrain); a capsule coming from behind may pass through a valley edge. */
  edgeMasks: boolean;
  /** Cull feature pairs in the projection along the motion; off tests all 21 pairs of every triangle
   *  whose plane the swept capsule reaches (a reference for the cull itself). */
  quickCull: boolean;
  /** Records the triangles of the sweep of capsule `traceCapsule` (only that one). */
  trace?: CapsuleTrace;
  traceCapsule?: number;
  /** Collision filter (32-bit): a triangle is swept against only when its material's mask shares a bit
   *  with it (bvh.masks); subtrees with no such triangle are cut. MASK_ALL, the default, keeps all. */
  filter: number;
}

/**
 * The work of a sweep batch: the counters of every query (queries = capsules, invalid = capsules
 * flagged invalid, trianglesTested = triangles that reached the culls, culled = those of them the plane
 * cull or the quick cull rejected whole, hits = capsules with a contact), then the capsule's feature
 * pairs.
 */
export interface SweepCounters extends QueryCounters {
  /** 21 per triangle tested: 2 spheres × (3 vertices + 3 edges + face) + cylinder × (3 edges + 3 vertices + face). */
  pairsPossible: number;
  /** Pairs that survived the plane cull and the quick cull in the projection along the motion. */
  pairsKept: number;
  /** Kept pairs the edge masks did not leave to a neighbour: the ones queued and solved. */
  pairsTested: number;
  /** Tested pairs by type. */
  sphereVertex: number;
  sphereEdge: number;
  sphereFace: number;
  cylinderEdge: number;
  cylinderVertex: number;
  cylinderFace: number;
}

/** A capsule sweep with sweepCapsules' signature and results: the TypeScript sweep, or a kernel with the
 *  same contacts (the WebAssembly SIMD one), chosen by whoever owns the capsules. */
export type CapsuleSweeper = (bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits, options?: Partial<SweepOptions>) => SweepCounters;

export function createSweepCounters(): SweepCounters {
  // One literal (not a spread of createQueryCounters()), so every SweepCounters has the same fast shape.
  return {
    queries: 0,
    invalid: 0,
    nodesVisited: 0,
    boxesTested: 0,
    leavesVisited: 0,
    trianglesTested: 0,
    culled: 0,
    hits: 0,
    subtreesMasked: 0,
    trianglesMasked: 0,
    pairsPossible: 0,
    pairsKept: 0,
    pairsTested: 0,
    sphereVertex: 0,
    sphereEdge: 0,
    sphereFace: 0,
    cylinderEdge: 0,
    cylinderVertex: 0,
    cylinderFace: 0,
  };
}

export const SWEEP_PAIR_COUNTER_NAMES = [
  'pairsPossible',
  'pairsKept',
  'pairsTested',
  'sphereVertex',
  'sphereEdge',
  'sphereFace',
  'cylinderEdge',
  'cylinderVertex',
  'cylinderFace',
] as const satisfies readonly (keyof SweepCounters)[];

/** into += from, every counter. */
export function addSweepCounters(into: SweepCounters, from: SweepCounters): void {
  addQueryCounters(into, from);
  for (const name of SWEEP_PAIR_COUNTER_NAMES) into[name] += from[name];
}

/** Every counter back to 0. */
export function resetSweepCounters(counters: SweepCounters): void {
  resetQueryCounters(counters);
  for (const name of SWEEP_PAIR_COUNTER_NAMES) counters[name] = 0;
}

/** Allocates a batch for `count` capsules. */
export function createCapsuleBatch(count: number): CapsuleBatch {
  return {
    count,
    start: new Float32Array(3 * count),
    end: new Float32Array(3 * count),
    radius: new Float32Array(count),
    motion: new Float32Array(3 * count),
  };
}

export function createCapsuleHits(count: number): CapsuleHits {
  return { toi: new Float32Array(count), triangle: new Int32Array(count), point: new Float32Array(3 * count), normal: new Float32Array(3 * count) };
}
