import { buildCollisionMasks, validateMaterials, type CollisionMasks, type MaterialInput } from './collisionMasks';
import { collapseToWide } from './collapse';
import { packFloat, type FloatNodes } from './floatLayout';
import { validateMesh } from './meshInput';
import { resolveBuildOptions, type BuildOptions, type BVHLayoutName } from './options';
import { packQuantized, type QuantizedNodes } from './quantizedLayout';
import { buildBinaryTree } from './sahBuilder';
import { shareHalfFullLeaves } from './shareLeaves';
import { measureWideTree, type BVHStats } from './stats';
import type { BuildTree } from './buildTree';
import { buildGridTree, collapseGridTree, gridCellsOf } from './gridBuilder';
import { currentWasmBuilder, wasmBuilderUnavailableReason, type WasmBuiltTrees } from './wasmBuilder';
import type { WideTree } from './wideTree';

/** A built 4-way BVH over an indexed triangle mesh; the mesh arrays are referenced, not copied. */
export interface BVH {
  readonly positions: Float32Array;
  readonly indices: Uint32Array;
  readonly triangleCount: number;
  /** Triangle ids of all leaf ranges, in tree order; a leaf child names a run of it. Null when the
   *  mesh itself was reordered (reorderTriangles): a leaf range then names triangles directly. */
  readonly triangleOrder: Uint32Array | null;
  readonly quantized: QuantizedNodes | null;
  readonly float: FloatNodes | null;
  /** Whether spatial splits put some triangle in more than one leaf (an all-hits query then de-duplicates). */
  readonly hasDuplicateReferences: boolean;
  /** Deepest 4-way node: bounds every traversal stack. */
  readonly maxDepth: number;
  /** Material ids, their masks and the nodes' combined masks (every triangle MASK_ALL without materials). */
  readonly masks: CollisionMasks;
  readonly options: Readonly<BuildOptions>;
  readonly stats: Readonly<BVHStats>;
}

const now = (): number => performance.now();

/**
 * Builds the BVH: binary SAH tree (three split strategies), greedy 4-way collapse, shared half-full
 * leaves, then the requested packed layouts. With `builder: 'wasm'` (after loadWasmBuilder) the
 * WebAssembly builder makes the trees and the quantized nodes instead (binned SAH, no spatial splits),
 * in the same layout, so every query runs on it unchanged; stats.builder says which one ran. Throws InvalidParameterError for a malformed mesh or
 * option. Triangle ids in every query result are the caller's (positions in `indices` / 3).
 * `materials` gives each triangle a collision mask (collisionMasks.ts); without it every triangle has MASK_ALL.
 */
export function buildBVH(
  positions: Float32Array,
  indices: Uint32Array,
  options: Partial<BuildOptions> = {},
  materials: MaterialInput | null = null,
): BVH {
  const resolved = resolveBuildOptions(options);
  let builderFallback = '';
  let wasmTrees: WasmBuiltTrees | null = null;
  let start = now();
  if (resolved.builder === 'wasm') {
    const builder = currentWasmBuilder();
    if (builder === null) builderFallback = wasmBuilderUnavailableReason();
    else {
      // The module checks the mesh as it copies it in (same rules, same errors as validateMesh).
      wasmTrees = builder.build(positions, indices, resolved);
      if (wasmTrees === null) builderFallback = 'the WebAssembly builder could not grow its memory for this mesh';
    }
  }
  const triangleCount = wasmTrees !== null ? indices.length / 3 : validateMesh(positions, indices);
  if (wasmTrees === null) start = now();
  const checkedMaterials = materials === null ? null : validateMaterials(materials, triangleCount);
  let tree: BuildTree;
  let wide: WideTree;
  let built: number;
  if (wasmTrees !== null) {
    // The module collapses and shares leaves itself; its phases are reported as one binary-build time.
    tree = wasmTrees.tree;
    wide = wasmTrees.wide;
    built = now();
  } else {
    // A grid leaf holds whole cells, two triangles each.
    const gridCells = resolved.builder === 'grid' && resolved.maxLeafSize >= 2 ? gridCellsOf(positions, indices) : 0;
    if (resolved.builder === 'grid' && gridCells === 0)
      builderFallback =
        resolved.maxLeafSize < 2 ? 'a grid leaf holds two triangles at least (maxLeafSize < 2)' : 'the mesh is not a heightfield grid';
    tree =
      gridCells > 0
        ? buildGridTree(positions, triangleCount, gridCells, resolved.maxLeafSize)
        : buildBinaryTree(positions, indices, triangleCount, resolved);
    built = now();
    wide = gridCells > 0 ? collapseGridTree(tree) : collapseToWide(tree, resolved);
    if (resolved.shareHalfFullLeaves) wide = shareHalfFullLeaves(wide, tree);
  }
  const collapsed = now();
  const { masks, nodeMaskIndex } = buildCollisionMasks(checkedMaterials, triangleCount, tree, wide);
  let triangleOrder: Uint32Array | null = tree.triangleOrder;
  if (resolved.reorderTriangles && tree.referenceCount === triangleCount) {
    reorderIndicesInPlace(indices, tree.triangleOrder);
    reorderMaterialsInPlace(masks.materialIds, tree.triangleOrder);
    triangleOrder = null;
  }
  const wants = (layout: BVHLayoutName): boolean => resolved.layouts.includes(layout);
  let quantized: QuantizedNodes | null = null;
  if (wants('quantized'))
    quantized = wasmTrees !== null ? quantizedFromWasm(wasmTrees, wide, nodeMaskIndex) : packQuantized(wide, tree, nodeMaskIndex);
  const float = wants('float') ? packFloat(wide, tree, nodeMaskIndex) : null;
  const packed = now();

  let maxDepth = 0;
  for (let node = 0; node < wide.nodeCount; node++) maxDepth = Math.max(maxDepth, wide.depth[node]!);
  const orderBytes = triangleOrder === null ? 0 : triangleOrder.byteLength;
  // Material ids (1 byte a triangle) and the two 256-entry mask tables travel with the tree.
  const maskBytes = masks.materialIds.byteLength + masks.materialMasks.byteLength + masks.nodeMasks.byteLength;
  const bytes = (quantized?.bytes ?? float?.bytes ?? 0) + orderBytes + maskBytes;
  const stats: BVHStats = {
    ...measureWideTree(wide, tree, resolved),
    builder: wasmTrees !== null ? 'wasm' : resolved.builder === 'grid' && builderFallback === '' ? 'grid' : 'typescript',
    builderFallback,
    bytes,
    bytesPerTriangle: triangleCount > 0 ? bytes / triangleCount : 0,
    floatBytes: float !== null ? float.bytes + orderBytes + maskBytes : 0,
    buildMs: packed - start,
    binaryBuildMs: built - start,
    collapseMs: collapsed - built,
    packMs: packed - collapsed,
  };
  return {
    positions,
    indices,
    triangleCount,
    triangleOrder,
    quantized,
    float,
    hasDuplicateReferences: tree.referenceCount > triangleCount,
    maxDepth,
    masks,
    options: resolved,
    stats,
  };
}

/** The module's packed nodes as QuantizedNodes, the same object packQuantized returns. */
function quantizedFromWasm(trees: WasmBuiltTrees, wide: WideTree, nodeMaskIndex: Uint8Array): QuantizedNodes {
  const { buffer, rootFrame, sharedFrames } = trees.pack(nodeMaskIndex);
  return {
    layout: 'quantized',
    nodeCount: wide.nodeCount,
    buffer,
    u16: new Uint16Array(buffer),
    u32: new Uint32Array(buffer),
    rootFrame,
    firstShared: wide.firstShared,
    sharedFrames,
    ownsFrame: new Uint8Array(wide.nodeCount),
    ownFrames: new Float64Array(0),
    bytes: buffer.byteLength + 8 * sharedFrames.length + wide.nodeCount,
  };
}

/** indices := the triangles of `order`, in that order (order is a permutation of all triangles). */
function reorderIndicesInPlace(indices: Uint32Array, order: Uint32Array): void {
  const original = indices.slice();
  for (let k = 0; k < order.length; k++) {
    const from = 3 * order[k]!;
    indices[3 * k] = original[from]!;
    indices[3 * k + 1] = original[from + 1]!;
    indices[3 * k + 2] = original[from + 2]!;
  }
}

/** Material ids follow their triangles when the mesh is reordered. */
function reorderMaterialsInPlace(ids: Uint8Array, order: Uint32Array): void {
  const original = ids.slice();
  for (let k = 0; k < order.length; k++) ids[k] = original[order[k]!]!;
}
