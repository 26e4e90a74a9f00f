// The shared half-full leaves of src/bvh/shareLeaves.ts, the same pairing (in node order, each
// half-full leaf node with the one half the list away) and the same renumbering: reads wide set 0,
// writes wide set 1 and the shared nodes' frames (6 × f64 each, the union of their four leaves).
// Returns the new node count; the first shared node is the count of kept nodes, `keptCount`.

import { depthAt, kindAt, nodeBoxesAt, refAt, scratchAt, sharedFramesAt, sourceAt } from './arena';

const CHILD_NODE: u8 = 0;
const CHILD_EMPTY: u8 = 1;
const CHILD_LEAF: u8 = 2;

export let keptCount: i32 = 0;

export function shareHalfFullLeaves(nodeCount: i32): i32 {
  const kind = kindAt(0),
    ref = refAt(0),
    source = sourceAt(0),
    depth = depthAt(0);
  const newKind = kindAt(1),
    newRef = refAt(1),
    newSource = sourceAt(1),
    newDepth = depthAt(1);
  // scratch: halfFull list (i32 × W), then remap (i32 × W).
  const halfFull = scratchAt;
  const remap = scratchAt + 4 * <usize>nodeCount;
  let halfCount = 0;
  for (let node = 1; node < nodeCount; node++) {
    const o = kind + 4 * <usize>node;
    if (load<u8>(o) == CHILD_LEAF && load<u8>(o, 1) == CHILD_LEAF && load<u8>(o, 2) == CHILD_EMPTY && load<u8>(o, 3) == CHILD_EMPTY) {
      store<i32>(halfFull + 4 * <usize>halfCount, node);
      halfCount++;
    }
  }
  const pairCount = halfCount >> 1;
  keptCount = nodeCount - 2 * pairCount;
  // Removed nodes are marked −2 first, then every node gets its new number.
  for (let node = 0; node < nodeCount; node++) store<i32>(remap + 4 * <usize>node, 0);
  for (let i = 0; i < 2 * pairCount; i++) store<i32>(remap + 4 * <usize>load<i32>(halfFull + 4 * <usize>i), -2);
  let next = 0;
  for (let node = 0; node < nodeCount; node++) {
    const at = remap + 4 * <usize>node;
    if (load<i32>(at) != -2) store<i32>(at, next++);
  }
  for (let i = 0; i < pairCount; i++) {
    store<i32>(remap + 4 * <usize>load<i32>(halfFull + 4 * <usize>i), keptCount + i);
    store<i32>(remap + 4 * <usize>load<i32>(halfFull + 4 * <usize>(i + pairCount)), keptCount + i);
  }
  const removedLimit = keptCount;
  for (let node = 0; node < nodeCount; node++) {
    const to = load<i32>(remap + 4 * <usize>node);
    // A removed node's number is a shared one (≥ keptCount); kept nodes are numbered below it.
    if (to >= removedLimit) continue;
    store<i32>(newDepth + 4 * <usize>to, load<i32>(depth + 4 * <usize>node));
    for (let s = 0; s < 4; s++) {
      const from = ((<usize>node) << 2) + <usize>s;
      const into = ((<usize>to) << 2) + <usize>s;
      const k = load<u8>(kind + from);
      store<u8>(newKind + into, k);
      store<i32>(newSource + 4 * into, load<i32>(source + 4 * from));
      const r = load<i32>(ref + 4 * from);
      store<i32>(newRef + 4 * into, k == CHILD_NODE ? load<i32>(remap + 4 * <usize>r) : r);
    }
  }
  for (let i = 0; i < pairCount; i++) {
    const a = load<i32>(halfFull + 4 * <usize>i);
    const b = load<i32>(halfFull + 4 * <usize>(i + pairCount));
    const to = keptCount + i;
    store<i32>(newDepth + 4 * <usize>to, max(load<i32>(depth + 4 * <usize>a), load<i32>(depth + 4 * <usize>b)));
    let boxMin = f32x4.splat(Infinity),
      boxMax = f32x4.splat(-Infinity);
    for (let s = 0; s < 4; s++) {
      const from = s < 2 ? ((<usize>a) << 2) + <usize>s : ((<usize>b) << 2) + <usize>(s - 2);
      const into = ((<usize>to) << 2) + <usize>s;
      store<u8>(newKind + into, CHILD_LEAF);
      store<i32>(newRef + 4 * into, load<i32>(ref + 4 * from));
      const leaf = load<i32>(source + 4 * from);
      store<i32>(newSource + 4 * into, leaf);
      boxMin = f32x4.pmin(boxMin, v128.load(nodeBoxesAt + 32 * <usize>leaf));
      boxMax = f32x4.pmax(boxMax, v128.load(nodeBoxesAt + 32 * <usize>leaf, 16));
    }
    const f = sharedFramesAt + 48 * <usize>i;
    store<f64>(f, <f64>f32x4.extract_lane(boxMin, 0));
    store<f64>(f, <f64>f32x4.extract_lane(boxMin, 1), 8);
    store<f64>(f, <f64>f32x4.extract_lane(boxMin, 2), 16);
    store<f64>(f, <f64>f32x4.extract_lane(boxMax, 0), 24);
    store<f64>(f, <f64>f32x4.extract_lane(boxMax, 1), 32);
    store<f64>(f, <f64>f32x4.extract_lane(boxMax, 2), 40);
  }
  return keptCount + pairCount;
}
