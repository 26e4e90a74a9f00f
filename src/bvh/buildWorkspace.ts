import { float32Above, float32Below } from './float32Round';
import type { BuildOptions } from './options';

/** What kind of split won at a node. */
export const SPLIT_NONE = 0;
export const SPLIT_SORTED = 1;
export const SPLIT_BINNED = 2;
export const SPLIT_BIG_LITTLE = 3;
export const SPLIT_SPATIAL = 4;

/** The best split found so far at one node; one instance is reused for the whole build. */
export class SplitChoice {
  kind = SPLIT_NONE;
  axis = 0;
  /** Sorted: references left of the split; binned: last bin on the left; spatial: the plane. */
  position = 0;
  /** Σ area·count over both sides (the node-independent part of the SAH cost). */
  weightedArea = Infinity;
  readonly leftBox = new Float64Array(6);
  readonly rightBox = new Float64Array(6);

  reset(): void {
    this.kind = SPLIT_NONE;
    this.weightedArea = Infinity;
  }
}

/**
 * The builder's working memory: references (a triangle id and its possibly clipped box) and scratch
 * for every split evaluator, all allocated once per build.
 *
 * References live in one buffer with a bump pointer: object splits partition a node's segment in place;
 * a spatial split compacts its left side in place and appends its right side at `top`. Capacity is the
 * triangle count plus the spatial budget, so duplicated references can never grow without bound.
 */
export class BuildWorkspace {
  readonly refTriangle: Int32Array;
  /** minX, minY, minZ, maxX, maxY, maxZ per reference, float32: triangle boxes are exact in float32
   *  (clipped ones are rounded outward), and half the bytes of float64 make every pass over the
   *  references measurably faster. */
  readonly refBounds: Float32Array;
  readonly capacity: number;
  top: number;
  /** Where the last applied spatial split put its right side. */
  spatialRightStart = 0;

  readonly exactCapacity: number;
  readonly sortOrder: Int32Array;
  readonly sortKeys: Float64Array;
  /** Suffix boxes of a sweep: 6 per position. */
  readonly suffixBoxes: Float64Array;
  readonly suffixAreas: Float64Array;
  readonly suffixCounts: Int32Array;
  readonly copyTriangle: Int32Array;
  readonly copyBounds: Float32Array;

  readonly binCounts: Int32Array;
  readonly binBounds: Float64Array;

  readonly spatialEntry: Int32Array;
  readonly spatialExit: Int32Array;
  readonly spatialBounds: Float64Array;
  readonly clipBox = new Float64Array(6);
  readonly sideFlags: Uint8Array;

  readonly nodeBox = new Float64Array(6);
  /** Box of the doubled centres (min + max per axis) of the node's references. */
  readonly centreBox = new Float64Array(6);
  readonly choice = new SplitChoice();
  /** Set by the node-box pass: some reference is wider than half the node on an axis. */
  hasBigReference = false;

  constructor(
    readonly positions: Float32Array,
    readonly indices: Uint32Array,
    readonly options: BuildOptions,
    triangleCount: number,
  ) {
    const budget = options.spatialSplits ? Math.floor(triangleCount * options.spatialReferenceBudget) : 0;
    this.capacity = triangleCount + budget;
    this.refTriangle = new Int32Array(this.capacity);
    this.refBounds = new Float32Array(6 * this.capacity);
    this.top = triangleCount;

    this.exactCapacity = Math.max(2, Math.min(options.exactSweepLimit, this.capacity));
    const sweepLength = Math.max(this.exactCapacity, options.bins, options.spatialBins) + 1;
    this.sortOrder = new Int32Array(3 * this.exactCapacity);
    this.sortKeys = new Float64Array(this.exactCapacity);
    this.suffixBoxes = new Float64Array(6 * sweepLength);
    this.suffixAreas = new Float64Array(sweepLength);
    this.suffixCounts = new Int32Array(sweepLength);
    this.copyTriangle = new Int32Array(this.exactCapacity);
    this.copyBounds = new Float32Array(6 * this.exactCapacity);

    this.binCounts = new Int32Array(3 * options.bins);
    this.binBounds = new Float64Array(18 * options.bins);

    this.spatialEntry = new Int32Array(options.spatialBins);
    this.spatialExit = new Int32Array(options.spatialBins);
    this.spatialBounds = new Float64Array(6 * options.spatialBins);
    this.sideFlags = new Uint8Array(options.spatialSplits ? this.capacity : 0);
  }

  /** Stores a float64 box (e.g. a clipped piece) as reference `ref`'s box, rounded outward. */
  storeBox(ref: number, box: Float64Array): void {
    const o = 6 * ref;
    const bounds = this.refBounds;
    for (let k = 0; k < 3; k++) {
      bounds[o + k] = float32Below(box[k]!);
      bounds[o + 3 + k] = float32Above(box[k + 3]!);
    }
  }

  /** Swaps two references (triangle and box). */
  swap(a: number, b: number): void {
    const tri = this.refTriangle;
    const bounds = this.refBounds;
    const t = tri[a]!;
    tri[a] = tri[b]!;
    tri[b] = t;
    const oa = 6 * a;
    const ob = 6 * b;
    for (let k = 0; k < 6; k++) {
      const v = bounds[oa + k]!;
      bounds[oa + k] = bounds[ob + k]!;
      bounds[ob + k] = v;
    }
  }
}
