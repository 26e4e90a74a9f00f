import type { BVHLayoutName } from '../../bvh/options';
import type { RayTriangleKernelName } from '../rayTriangle/registry';

/** A batch of rays, structure of arrays: ray i is origins[3i..3i+2] + t·directions[3i..3i+2], 0 ≤ t ≤ tMax[i]. */
export interface RayBatch {
  count: number;
  origins: Float32Array;
  directions: Float32Array;
  /** Infinity for an unbounded ray; a segment's length in units of its direction. */
  tMax: Float32Array;
}

/**
 * Per-ray results. A hit: t ≥ 0 and the caller's triangle id. A miss: triangle −1 and t = +∞. An
 * invalid ray (NaN or infinite origin or direction, zero direction, tMax ≤ 0 or NaN): triangle −1 and
 * t = NaN, counted in the counters' invalid.
 */
export interface RayHits {
  t: Float32Array;
  triangle: Int32Array;
}

/** Every hit of an 'all' query, appended in ray order; hits past capacity are counted, not stored. */
export interface AllHitsList {
  capacity: number;
  count: number;
  /** Hits that did not fit. */
  dropped: number;
  ray: Int32Array;
  t: Float32Array;
  triangle: Int32Array;
}

export function createAllHitsList(capacity: number): AllHitsList {
  return { capacity, count: 0, dropped: 0, ray: new Int32Array(capacity), t: new Float32Array(capacity), triangle: new Int32Array(capacity) };
}

export type RayQueryMode = 'closest' | 'any' | 'all';

export interface CastOptions {
  mode: RayQueryMode;
  triangleTest: RayTriangleKernelName;
  layout: BVHLayoutName;
  doubleSided: boolean;
  /** Collision filter: a triangle is hit only when its mask shares a bit with it (MASK_ALL: every one). */
  filter: number;
  /** Required for mode 'all': where every hit goes (reset to count 0 by castRays). */
  allHits?: AllHitsList;
}

export const MODE_CLOSEST = 0;
export const MODE_ANY = 1;
export const MODE_ALL = 2;
