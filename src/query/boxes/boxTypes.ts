import { MASK_ALL } from '../../bvh/collisionMasks';
import type { BoxTriangleVariant } from '../boxTriangle/registry';
import { EXIT_COUNT } from '../boxTriangle/exits';
import type { QueryCounters } from '../counters';

/**
 * A batch of boxes, structure of arrays: box i has centre centers[3i..3i+2] and half-sizes
 * halfSizes[3i..3i+2] ≥ 0 along its own axes. Without `axes` every box is axis-aligned; with them, box i
 * is oriented, its local x, y, z axes (orthonormal, world coordinates) being axes[9i..9i+2], [9i+3..],
 * [9i+6..].
 */
export interface BoxBatch {
  count: number;
  centers: Float32Array;
  halfSizes: Float32Array;
  axes?: Float32Array | null;
}

/**
 * Results of a box query, caller-owned and reused: one entry per (box, triangle) pair that overlaps —
 * and, with includeRejected, per pair tested at a leaf and found apart — with the test's exit code
 * (boxTriangle/exits.ts). Pairs past capacity are counted in `dropped`, not stored. exitCounts tallies
 * every box-triangle test of the query by exit.
 */
export interface BoxOverlapList {
  capacity: number;
  count: number;
  dropped: number;
  box: Int32Array;
  triangle: Int32Array;
  exit: Uint8Array;
  exitCounts: Int32Array;
}

export function createBoxOverlapList(capacity: number): BoxOverlapList {
  return {
    capacity,
    count: 0,
    dropped: 0,
    box: new Int32Array(capacity),
    triangle: new Int32Array(capacity),
    exit: new Uint8Array(capacity),
    exitCounts: new Int32Array(EXIT_COUNT),
  };
}

/** The leaf tests of a box query: the TypeScript variants, and the WebAssembly SIMD twin of v1. */
export const BOX_QUERY_TESTS = ['v1', 'v2', 'optimized', 'wasm-simd'] as const;
export type BoxQueryTest = BoxTriangleVariant | 'wasm-simd';

export interface BoxQueryOptions {
  /**
   * Which box-triangle test runs at the leaves. 'wasm-simd' (v1's answers, exits kept only as overlap
   * or separated) once loadSimdBoxTriangles() has resolved; the optimized test until then or without it.
   */
  test: BoxQueryTest;
  /** One traversal for the whole batch (boxes surviving a node moved to the front, each node decoded
   *  once per batch), or one traversal per box. Same results either way. */
  batched: boolean;
  /** Also list the pairs a leaf test found apart (with the exit that decided it), for drawing. */
  includeRejected: boolean;
  /**
   * Collision filter (32-bit): a triangle is tested only when its material's mask shares a bit with it
   * (bvh.masks), and a subtree whose combined mask misses it is cut before its boxes are tested.
   */
  filter: number;
}

export const DEFAULT_BOX_QUERY_OPTIONS: Readonly<BoxQueryOptions> = Object.freeze({
  test: 'optimized',
  batched: true,
  includeRejected: false,
  filter: MASK_ALL,
});

/**
 * The work a query did: the counters of every query (queries = boxes asked for, invalid = boxes skipped
 * as invalid, boxesTested = box-against-child-box tests, leavesVisited = (box, leaf) pairs reached,
 * trianglesTested = box-triangle tests at the leaves, a triangle in two leaves possibly twice, hits =
 * distinct overlapping (box, triangle) pairs, stored or dropped), and one of its own.
 */
export interface BoxQueryCounters extends QueryCounters {
  /** Child boxes decoded (once per batch each, however many boxes are tested against them). */
  childBoxesDecoded: number;
}

export function createBoxQueryCounters(): BoxQueryCounters {
  // A literal, not a spread: the leaf tests bump these per leaf, and a literal's shape stays fast.
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
    childBoxesDecoded: 0,
  };
}
