import type { BVHLayoutName } from '../../bvh/options';
import type { Kernel } from '../../platform/kernels';
import type { QueryCounters } from '../counters';
import type { RayTriangleKernelName } from '../rayTriangle/registry';
import type { NodeSorting } from './sorting';

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

export const RAY_TREES = ['binary', '4-way'] as const;
export type RayTree = (typeof RAY_TREES)[number];

/**
 * Options of castRays, the one ray entry point: which kernel runs, over which tree and layout, in which
 * child order, one ray at a time or in batches, and the query itself (mode, triangle test, sidedness,
 * collision filter). Every field has a default (DEFAULT_CAST_OPTIONS); the defaults are the reference
 * walk: TypeScript, 4-way quantized tree, exit-distance order, one ray at a time, indexed triangles.
 */
export interface CastOptions {
  /**
   * 'typescript', or 'wasm-simd': the WebAssembly SIMD kernel where it can serve the options (loaded,
   * the 4-way quantized tree, the watertight test, closest or any hit); elsewhere the TypeScript walk
   * runs and the report's fallbackReason says why. The hits are the same either way.
   */
  kernel: Kernel;
  tree: RayTree;
  layout: BVHLayoutName;
  /** Child order; one of BINARY_SORTINGS for the binary tree (default 'precomputed'), WIDE_SORTINGS for 4-way ('tmax'). */
  sorting: NodeSorting;
  /** 0: one ray at a time (per-ray child order); n ≥ 1: n rays go down the tree together; Infinity: all. */
  batchSize: number;
  /**
   * Batches only: a ray that is alone, or among fewer than this many, below a node finishes that
   * subtree by itself with its own child order (0 or 1: never). Left out: each kernel's own tuned
   * value (TypeScript 4, SIMD 2).
   */
  aloneBelow?: number;
  /** 'indexed': leaves read their triangles through triangleOrder, the index buffer and the vertices;
   *  'packed': from a copy in leaf order (36 bytes per reference, few cache lines per leaf). */
  triangles: 'packed' | 'indexed';
  mode: RayQueryMode;
  triangleTest: RayTriangleKernelName;
  doubleSided: boolean;
  /** Collision filter: a triangle is hit only when its mask shares a bit with it (MASK_ALL: every one). */
  filter: number;
  /** Required for mode 'all': where every hit goes (reset to count 0 by castRays). */
  allHits?: AllHitsList;
}

/** What a castRays call did: its work, the kernel that actually ran and, when it is not the one asked for, why. */
export interface RayCastReport extends QueryCounters {
  kernel: Kernel;
  /** Set when 'wasm-simd' was asked for and TypeScript ran instead. */
  fallbackReason?: string;
}

export const MODE_CLOSEST = 0;
export const MODE_ANY = 1;
export const MODE_ALL = 2;
