import type { BuildTree } from './buildTree';
import type { BuildOptions, BVHBuilderName } from './options';
import { inflatedHalfArea } from './surfaceArea';
import { CHILD_LEAF, CHILD_NODE, type WideTree } from './wideTree';

export interface BVHStats {
  triangles: number;
  /** Leaf references after spatial splits (≥ triangles). */
  references: number;
  binaryNodes: number;
  /** 4-way nodes, shared ones included. */
  nodes: number;
  sharedNodes: number;
  leaves: number;
  /** Bytes of the quantized nodes plus triangleOrder plus shared frames (the mesh itself excluded). */
  bytes: number;
  bytesPerTriangle: number;
  /** Same for the float layout, when built. */
  floatBytes: number;
  /** Depth of the 4-way nodes holding leaves, root 0. */
  depthMin: number;
  depthMax: number;
  /** Used slots / all slots. */
  leafFillRate: number;
  averageLeafSize: number;
  /** Expected cost of a random ray: Σ node area/root area · 1 (a 4-box test) + Σ leaf area/root area ·
   *  triangles · (triangleCost / traversalCost); comparable between builds of one mesh. */
  sahCost: number;
  /** The builder that ran, and why it is not the one asked for ('' when it is). */
  builder: BVHBuilderName;
  builderFallback: string;
  buildMs: number;
  binaryBuildMs: number;
  collapseMs: number;
  packMs: number;
}

export function measureWideTree(
  wide: WideTree,
  tree: BuildTree,
  options: BuildOptions,
): Omit<
  BVHStats,
  'bytes' | 'bytesPerTriangle' | 'floatBytes' | 'builder' | 'builderFallback' | 'buildMs' | 'binaryBuildMs' | 'collapseMs' | 'packMs'
> {
  const { kind, ref, source, depth, nodeCount } = wide;
  const bounds = tree.bounds;
  const radius = options.sweptRadius;
  const area = (binary: number): number => {
    const o = 6 * binary;
    return inflatedHalfArea(bounds[o + 3]! - bounds[o]!, bounds[o + 4]! - bounds[o + 1]!, bounds[o + 5]! - bounds[o + 2]!, radius);
  };
  const rootArea = tree.nodeCount > 0 ? area(0) : 1;
  let used = 0;
  let leaves = 0;
  let depthMin = Infinity;
  let depthMax = 0;
  let cost = nodeCount > 0 ? 1 : 0;
  const triangleRatio = options.triangleCost / Math.max(1e-9, options.traversalCost);
  for (let slot = 0; slot < 4 * nodeCount; slot++) {
    const k = kind[slot]!;
    if (k !== CHILD_NODE && k !== CHILD_LEAF) continue;
    used++;
    const share = rootArea > 0 ? area(source[slot]!) / rootArea : 1;
    if (k === CHILD_NODE) {
      cost += share;
    } else {
      leaves++;
      cost += share * tree.leafCount[ref[slot]!]! * triangleRatio;
      const d = depth[slot >> 2]!;
      if (d < depthMin) depthMin = d;
      if (d > depthMax) depthMax = d;
    }
  }
  return {
    triangles: tree.triangleCount,
    references: tree.referenceCount,
    binaryNodes: tree.nodeCount,
    nodes: nodeCount,
    sharedNodes: nodeCount - wide.firstShared,
    leaves,
    depthMin: leaves > 0 ? depthMin : 0,
    depthMax,
    leafFillRate: nodeCount > 0 ? used / (4 * nodeCount) : 0,
    averageLeafSize: leaves > 0 ? tree.referenceCount / leaves : 0,
    sahCost: cost,
  };
}
