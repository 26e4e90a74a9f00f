// Where every array of one build lives in module memory. The module places them itself, in this order
// from __heap_base, 16-byte aligned, for a mesh of V vertices and N triangles (B = 2N − 1 binary nodes
// at most, W = (B + 1) / 2 wide nodes at most):
//
//   positions   f32 xyz per vertex (+16 bytes so a 16-byte load of the last vertex stays inside)
//   indices     3 × u32 per triangle
//   refBoxes    per reference: min f32x4, max f32x4 (lane 3 zero)     32 N
//   refTriangle u32 per reference: after the build, the leaves' triangle order
//   binary      nodeBoxes (min, max f32x4) 32 B; left, right, leafStart, leafCount, leavesBelow i32 each
//   stack       the binary build's work stack, last, so it can grow with the memory
// and, once the binary tree is built (planWide), over that stack:
//   wide ×2     kind u8 4W, ref i32 4W, source i32 4W, depth i32 W (the collapse fills set 0, leaf
//               sharing copies into set 1)
//   pack        frames f64 6W, sharedFrames f64 6W, maskIndex u8 W, quantized nodes 64 W, scratch i32 W × 3
//   stack       the collapse's work stack
//
// JavaScript (src/bvh/wasm/wasmBuilder.ts) reads the addresses through the exported getters.

export let positionsAt: usize = 0;
export let indicesAt: usize = 0;
export let refBoxesAt: usize = 0;
export let refTriangleAt: usize = 0;
export let nodeBoxesAt: usize = 0;
export let leftAt: usize = 0;
export let rightAt: usize = 0;
export let leafStartAt: usize = 0;
export let leafCountAt: usize = 0;
export let leavesBelowAt: usize = 0;
/** Wide tree set s starts at wideAt + s · wideSetBytes; its arrays at the offsets below. */
export let wideAt: usize = 0;
export let wideSetBytes: usize = 0;
let wideRefOffset: usize = 0;
let wideSourceOffset: usize = 0;
let wideDepthOffset: usize = 0;
export let framesAt: usize = 0;
export let sharedFramesAt: usize = 0;
export let maskIndexAt: usize = 0;
export let quantizedAt: usize = 0;
export let scratchAt: usize = 0;
export let stackAt: usize = 0;
export let binaryCapacity: i32 = 0;
let binaryEnd: usize = 0;

function align16(value: usize): usize {
  return (value + 15) & ~(<usize>15);
}

export function kindAt(set: i32): usize {
  return wideAt + <usize>set * wideSetBytes;
}
export function refAt(set: i32): usize {
  return wideAt + <usize>set * wideSetBytes + wideRefOffset;
}
export function sourceAt(set: i32): usize {
  return wideAt + <usize>set * wideSetBytes + wideSourceOffset;
}
export function depthAt(set: i32): usize {
  return wideAt + <usize>set * wideSetBytes + wideDepthOffset;
}

/** Grows the memory until it holds `end` bytes; false when the engine refuses. */
export function ensureMemory(end: usize): bool {
  const have = (<usize>memory.size()) << 16;
  if (end <= have) return true;
  const pages = <i32>((end - have + 65535) >> 16);
  return memory.grow(pages) >= 0;
}

/** Lays the arrays out for a mesh; false when the memory cannot grow to hold them. */
export function plan(vertexCount: i32, triangleCount: i32): bool {
  const v = <usize>vertexCount;
  const n = <usize>triangleCount;
  const b = <usize>max<i32>(1, 2 * triangleCount - 1);
  binaryCapacity = <i32>b;
  let at = align16(__heap_base);
  positionsAt = at;
  at = align16(at + 12 * v + 16);
  indicesAt = at;
  at = align16(at + 12 * n);
  refBoxesAt = at;
  at = align16(at + 32 * n);
  refTriangleAt = at;
  at = align16(at + 4 * n);
  nodeBoxesAt = at;
  at = align16(at + 32 * b);
  leftAt = at;
  at = align16(at + 4 * b);
  rightAt = at;
  at = align16(at + 4 * b);
  leafStartAt = at;
  at = align16(at + 4 * b);
  leafCountAt = at;
  at = align16(at + 4 * b);
  leavesBelowAt = at;
  at = align16(at + 4 * b);
  binaryEnd = at;
  stackAt = at;
  return ensureMemory(at + 65536);
}

/**
 * Lays out the wide trees and the packed nodes over the work stack, once the binary tree is built: a
 * binary tree of B nodes has (B − 1) / 2 internal ones, so at most (B + 1) / 2 wide nodes.
 */
export function planWide(binaryNodes: i32): bool {
  const w = <usize>max<i32>(1, (binaryNodes + 1) >> 1);
  let at = binaryEnd;
  wideAt = at;
  wideRefOffset = align16(4 * w);
  wideSourceOffset = wideRefOffset + align16(16 * w);
  wideDepthOffset = wideSourceOffset + align16(16 * w);
  wideSetBytes = wideDepthOffset + align16(4 * w);
  at += 2 * wideSetBytes;
  framesAt = at;
  at = align16(at + 48 * w);
  sharedFramesAt = at;
  at = align16(at + 48 * w);
  maskIndexAt = at;
  at = align16(at + w);
  quantizedAt = at;
  at = align16(at + 64 * w);
  scratchAt = at;
  at = align16(at + 12 * w);
  stackAt = at;
  return ensureMemory(at + 65536);
}
