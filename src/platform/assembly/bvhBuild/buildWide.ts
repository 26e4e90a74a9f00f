// The WebAssembly SIMD BVH builder: binned SAH binary tree (binnedBuild.ts), greedy 4-way collapse
// (collapse.ts), shared half-full leaves (shareLeaves.ts) and the 64-byte quantized nodes
// (packQuantized.ts), producing the layout every query reads. src/bvh/wasm/wasmBuilder.ts drives it:
// plan(), copy the mesh in, buildTree(), read the trees out, compute the collision masks, write each
// node's mask index, packNodes(), read the nodes out. The module places every array itself (arena.ts).

import * as arena from './arena';
import { buildBinary, initialiseReferences } from './binnedBuild';
import { collapse } from './collapse';
import { ROOT_FRAME, packQuantized } from './packQuantized';
import { keptCount, shareHalfFullLeaves } from './shareLeaves';

export { plan } from './arena';

let binaryNodes: i32 = 0;
let wideNodes: i32 = 0;
let firstShared: i32 = 0;

/**
 * Builds the binary tree and its 4-way collapse for the mesh placed at positionsAt / indicesAt.
 * Returns 0, or −1 when the memory could not grow.
 */
export function buildTree(
  triangleCount: i32,
  bins: i32,
  maxLeafSize: i32,
  traversalCost: f64,
  triangleCost: f64,
  sweptRadius: f64,
  bigLittle: bool,
  wastedSlotPenalty: f64,
  wastedSlotFadeDepth: f64,
  shareLeaves: bool,
): i32 {
  initialiseReferences(triangleCount);
  binaryNodes = buildBinary(triangleCount, bins, maxLeafSize, traversalCost, triangleCost, sweptRadius, bigLittle);
  if (binaryNodes < 0 || !arena.planWide(binaryNodes)) return -1;
  wideNodes = collapse(binaryNodes, sweptRadius, wastedSlotPenalty, wastedSlotFadeDepth);
  if (wideNodes < 0) return -1;
  if (shareLeaves) {
    wideNodes = shareHalfFullLeaves(wideNodes);
    firstShared = keptCount;
  } else {
    // The packer reads set 1: copy set 0 over unchanged.
    memory.copy(arena.kindAt(1), arena.kindAt(0), arena.wideSetBytes);
    firstShared = wideNodes;
  }
  return 0;
}

/** Packs the quantized nodes once the mask index bytes are in place; 0, or 1 + a failing node. */
export function packNodes(): i32 {
  return packQuantized(wideNodes, firstShared);
}

export function binaryNodeCount(): i32 {
  return binaryNodes;
}
export function wideNodeCount(): i32 {
  return wideNodes;
}
export function firstSharedNode(): i32 {
  return firstShared;
}
export function positionsAt(): usize {
  return arena.positionsAt;
}
export function indicesAt(): usize {
  return arena.indicesAt;
}
export function triangleOrderAt(): usize {
  return arena.refTriangleAt;
}
export function nodeBoxesAt(): usize {
  return arena.nodeBoxesAt;
}
export function leftAt(): usize {
  return arena.leftAt;
}
export function rightAt(): usize {
  return arena.rightAt;
}
export function leafStartAt(): usize {
  return arena.leafStartAt;
}
export function leafCountAt(): usize {
  return arena.leafCountAt;
}
export function leavesBelowAt(): usize {
  return arena.leavesBelowAt;
}
/** The final wide tree (set 1). */
export function wideKindAt(): usize {
  return arena.kindAt(1);
}
export function wideRefAt(): usize {
  return arena.refAt(1);
}
export function wideSourceAt(): usize {
  return arena.sourceAt(1);
}
export function wideDepthAt(): usize {
  return arena.depthAt(1);
}
export function sharedFramesAt(): usize {
  return arena.sharedFramesAt;
}
export function maskIndexAt(): usize {
  return arena.maskIndexAt;
}
export function quantizedAt(): usize {
  return arena.quantizedAt;
}
export function rootFrameAt(): usize {
  return ROOT_FRAME;
}

/**
 * Whether the mesh placed at positionsAt / indicesAt is well formed: every index below vertexCount and
 * every coordinate finite (the checks of src/bvh/meshInput.ts, whose error JavaScript raises when this
 * says no). Returns 1 when it is.
 */
export function meshIsValid(vertexCount: i32, triangleCount: i32): i32 {
  const indices = arena.indicesAt;
  const indexEnd = indices + 12 * <usize>triangleCount;
  const limit = i32x4.splat(vertexCount);
  let outOfRange = i32x4.splat(0);
  let i = indices;
  for (; i + 16 <= indexEnd; i += 16) outOfRange = v128.or(outOfRange, i32x4.ge_u(v128.load(i), limit));
  for (; i < indexEnd; i += 4) if (load<u32>(i) >= <u32>vertexCount) return 0;
  if (v128.any_true(outOfRange)) return 0;
  const positions = arena.positionsAt;
  const positionEnd = positions + 12 * <usize>vertexCount;
  // x − x is 0 for a finite x and NaN for ±∞ and NaN.
  let finite = i32x4.splat(-1);
  let p = positions;
  for (; p + 16 <= positionEnd; p += 16) {
    const value = v128.load(p);
    finite = v128.and(finite, f32x4.eq(f32x4.sub(value, value), f32x4.splat(0)));
  }
  for (; p < positionEnd; p += 4) {
    const value = load<f32>(p);
    if (!(value - value == 0)) return 0;
  }
  return v128.all_true<i32>(finite) ? 1 : 0;
}
