import { InvalidParameterError } from '../errors';

export const BVH_LAYOUTS = ['quantized', 'float'] as const;
/** 'quantized': 64-byte nodes with 16-bit child boxes; 'float': 112-byte nodes with float32 child boxes. */
export type BVHLayoutName = (typeof BVH_LAYOUTS)[number];

export const BVH_BUILDERS = ['typescript', 'wasm', 'grid'] as const;
/** 'typescript': the reference builder (every option, spatial splits included); 'wasm': the
 *  WebAssembly SIMD builder (binned SAH, no spatial splits), several times faster; 'grid': the
 *  heightfield grid halved into quadrants (gridBuilder.ts; other meshes fall back to 'typescript'). */
export type BVHBuilderName = (typeof BVH_BUILDERS)[number];

/**
 * The builder of generated terrain (the page's worker, the runner): a heightfield's own grid gives a
 * tree with a lower SAH cost than the binned SAH search finds, in a fraction of the time (gridBuilder.ts).
 * Any other mesh given to it is built by the TypeScript SAH builder, and stats.builderFallback says so.
 */
export const TERRAIN_BUILDER: BVHBuilderName = 'grid';

/** Each builder as readouts name it. */
export const BUILDER_LABELS: Readonly<Record<BVHBuilderName, string>> = {
  typescript: 'TypeScript SAH',
  wasm: 'WebAssembly SAH',
  grid: 'heightfield grid',
};

/** Most triangles one leaf slot can name: child types 2..15 encode ranges of 1..14 triangles. */
export const MAX_LEAF_SIZE = 14;

export interface BuildOptions {
  /** Which builder runs. 'wasm' needs loadWasmBuilder() to have resolved with the module; otherwise
   *  (or where the module's memory cannot grow) the TypeScript builder runs, and stats say why. The
   *  WebAssembly builder bins centres at every node (exactSweepLimit does not apply) and makes no
   *  spatial splits (spatialSplits and its settings do not apply). */
  builder: BVHBuilderName;
  /** Which packed layouts to produce; castRays can use any of them. */
  layouts: readonly BVHLayoutName[];
  /** SAH cost of visiting one binary node, relative to triangleCost. */
  traversalCost: number;
  /** SAH cost of one ray-triangle test. */
  triangleCost: number;
  /** Largest leaf, 1..14 triangles. A node with more is always split. */
  maxLeafSize: number;
  /** Nodes with at most this many references are split by sorting centres and sweeping every position;
   *  larger ones sweep `bins` centre bins per axis (same heuristic, coarser positions, far cheaper). */
  exactSweepLimit: number;
  /** Centre bins per axis for nodes above exactSweepLimit, 2..256. */
  bins: number;
  /** Try the big/little split (big: wider than half the node on some axis). */
  bigLittleSplit: boolean;
  /** Try regular-grid spatial splits, where a straddling triangle goes to both sides with clipped boxes. */
  spatialSplits: boolean;
  /** Grid planes per axis for spatial splits are spatialBins − 1. */
  spatialBins: number;
  /** Spatial splits are tried only when the best object split's children overlap by more than this share
   *  of the root's surface area (the SBVH criterion); keeps the cost away from nodes that cannot gain. */
  spatialOverlapThreshold: number;
  /** Cap on references from spatial splits, as a fraction of the triangle count (0.3: at most 30% more). */
  spatialReferenceBudget: number;
  /** Swept radius: node boxes are inflated by it when their surface area is priced, which favours fewer,
   *  larger leaves for volume queries. Stored boxes stay tight. */
  sweptRadius: number;
  /** Weight of the wasted-slot penalty in the 4-way collapse (0 disables it). */
  wastedSlotPenalty: number;
  /** Depth (in 4-way levels) over which the wasted-slot penalty fades to zero. */
  wastedSlotFadeDepth: number;
  /** Merge pairs of half-full (two-slot) leaf nodes far apart into one full node with two parents. */
  shareHalfFullLeaves: boolean;
  /**
   * Permute the caller's `indices` in place into leaf order (as three-mesh-bvh does), so leaves name
   * runs of the mesh itself and no triangle-order array is kept: 4 bytes per triangle less and one
   * indirection less per triangle test. Triangle ids in results then refer to the reordered mesh.
   * Applies only when no spatial split duplicated a triangle; otherwise the order array is kept.
   */
  reorderTriangles: boolean;
}

export const DEFAULT_BUILD_OPTIONS: Readonly<BuildOptions> = Object.freeze({
  builder: 'typescript',
  layouts: ['quantized', 'float'] as const,
  traversalCost: 5,
  triangleCost: 1,
  maxLeafSize: 14,
  exactSweepLimit: 32,
  bins: 16,
  bigLittleSplit: true,
  spatialSplits: true,
  spatialBins: 16,
  spatialOverlapThreshold: 1e-3,
  spatialReferenceBudget: 0.3,
  sweptRadius: 0,
  wastedSlotPenalty: 0.25,
  wastedSlotFadeDepth: 6,
  shareHalfFullLeaves: true,
  reorderTriangles: false,
});

function checkNumber(name: string, value: unknown, min: number, max: number, integer: boolean): number {
  const ok = typeof value === 'number' && value >= min && value <= max && (!integer || Number.isInteger(value) || value === Infinity);
  if (!ok) throw new InvalidParameterError(name, `${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`, value);
  return value;
}

/** Fills defaults and validates every field; throws InvalidParameterError naming the bad one. */
export function resolveBuildOptions(input: Partial<BuildOptions> = {}): BuildOptions {
  const options: BuildOptions = { ...DEFAULT_BUILD_OPTIONS, ...input };
  if (
    !Array.isArray(options.layouts) ||
    options.layouts.length === 0 ||
    !options.layouts.every((l) => (BVH_LAYOUTS as readonly unknown[]).includes(l))
  ) {
    throw new InvalidParameterError('layouts', `a non-empty list of ${BVH_LAYOUTS.join(', ')}`, options.layouts);
  }
  if (!(BVH_BUILDERS as readonly unknown[]).includes(options.builder)) {
    throw new InvalidParameterError('builder', `one of ${BVH_BUILDERS.join(', ')}`, options.builder);
  }
  checkNumber('traversalCost', options.traversalCost, 0, 1e6, false);
  checkNumber('triangleCost', options.triangleCost, 1e-6, 1e6, false);
  checkNumber('maxLeafSize', options.maxLeafSize, 1, MAX_LEAF_SIZE, true);
  checkNumber('exactSweepLimit', options.exactSweepLimit, 2, Infinity, true);
  checkNumber('bins', options.bins, 2, 256, true);
  checkNumber('spatialBins', options.spatialBins, 2, 256, true);
  checkNumber('spatialOverlapThreshold', options.spatialOverlapThreshold, 0, 1, false);
  checkNumber('spatialReferenceBudget', options.spatialReferenceBudget, 0, 4, false);
  checkNumber('sweptRadius', options.sweptRadius, 0, 1e9, false);
  checkNumber('wastedSlotPenalty', options.wastedSlotPenalty, 0, 1e6, false);
  checkNumber('wastedSlotFadeDepth', options.wastedSlotFadeDepth, 0, 1e3, false);
  for (const flag of ['bigLittleSplit', 'spatialSplits', 'shareHalfFullLeaves', 'reorderTriangles'] as const) {
    if (typeof options[flag] !== 'boolean') throw new InvalidParameterError(flag, 'true or false', options[flag]);
  }
  return options;
}
