// The greedy top-down 4-way collapse of src/bvh/collapse.ts, step for step (the same candidate sets in
// the same order, the same cost with the same fading wasted-slot penalty, the same depth-first
// numbering), over the binary tree of binnedBuild.ts. Writes wide set 0: kind u8, ref/source i32 per
// slot, depth i32 per node. Returns the wide node count, or −1 when the stack cannot grow.

import { depthAt, ensureMemory, kindAt, leavesBelowAt, leftAt, nodeBoxesAt, refAt, rightAt, sourceAt, stackAt } from './arena';

const CHILD_NODE: u8 = 0;
const CHILD_EMPTY: u8 = 1;
const CHILD_LEAF: u8 = 2;

let bestCount: i32 = 0;
let bestCost: f64 = Infinity;
let best0: i32 = 0;
let best1: i32 = 0;
let best2: i32 = 0;
let best3: i32 = 0;
let penaltyScale: f64 = 0;
let areaRadius: f64 = 0;

function leftOf(node: i32): i32 {
  return load<i32>(leftAt + 4 * <usize>node);
}
function rightOf(node: i32): i32 {
  return load<i32>(rightAt + 4 * <usize>node);
}
function isInternal(node: i32): bool {
  return leftOf(node) >= 0;
}

export function binaryArea(node: i32, radius: f64): f64 {
  const o = nodeBoxesAt + 32 * <usize>node;
  const x = <f64>load<f32>(o, 16) - <f64>load<f32>(o) + 2 * radius;
  const y = <f64>load<f32>(o, 20) - <f64>load<f32>(o, 4) + 2 * radius;
  const z = <f64>load<f32>(o, 24) - <f64>load<f32>(o, 8) + 2 * radius;
  return x * y + y * z + z * x;
}

function waste(node: i32): f64 {
  const leaves = load<i32>(leavesBelowAt + 4 * <usize>node);
  return <f64>((((1 - leaves) % 3) + 3) % 3);
}

function subtreeCost(child: i32): f64 {
  return isInternal(child) ? binaryArea(child, areaRadius) + penaltyScale * waste(child) : 0;
}

function consider(count: i32, c0: i32, c1: i32, c2: i32, c3: i32): void {
  if (count < bestCount) return;
  let cost = subtreeCost(c0) + subtreeCost(c1);
  if (count > 2) cost += subtreeCost(c2);
  if (count > 3) cost += subtreeCost(c3);
  if (count > bestCount || cost < bestCost) {
    bestCount = count;
    bestCost = cost;
    best0 = c0;
    best1 = c1;
    best2 = c2;
    best3 = c3;
  }
}

function bestAt(slot: i32): i32 {
  return slot == 0 ? best0 : slot == 1 ? best1 : slot == 2 ? best2 : best3;
}

export function collapse(binaryCount: i32, radius: f64, penalty: f64, fadeDepth: f64): i32 {
  if (binaryCount == 0) return 0;
  const kind = kindAt(0);
  const ref = refAt(0);
  const source = sourceAt(0);
  const depth = depthAt(0);
  memory.fill(kind, CHILD_EMPTY, 4 * <usize>((binaryCount + 1) >> 1));
  areaRadius = radius;
  let nodeCount = 1;
  store<i32>(depth, 0);
  // The root is always a wide node, even over a single leaf, so every query starts the same way.
  store<i32>(stackAt, 0);
  store<i32>(stackAt, 0, 4);
  let stackCount = 1;
  while (stackCount > 0) {
    stackCount--;
    const binary = load<i32>(stackAt + 8 * <usize>stackCount);
    const wide = load<i32>(stackAt + 8 * <usize>stackCount, 4);
    bestCount = 0;
    bestCost = Infinity;
    if (!isInternal(binary)) {
      bestCount = 1;
      best0 = binary;
    } else {
      const wideDepth = <f64>load<i32>(depth + 4 * <usize>wide);
      const fade = fadeDepth > 0 ? Math.max(0, 1 - wideDepth / fadeDepth) : 0;
      penaltyScale = penalty * fade * binaryArea(binary, radius);
      const l = leftOf(binary);
      const r = rightOf(binary);
      consider(2, l, r, -1, -1);
      if (isInternal(l)) {
        const ll = leftOf(l);
        const lr = rightOf(l);
        consider(3, ll, lr, r, -1);
        if (isInternal(r)) consider(4, ll, lr, leftOf(r), rightOf(r));
        if (isInternal(ll)) consider(4, leftOf(ll), rightOf(ll), lr, r);
        if (isInternal(lr)) consider(4, ll, leftOf(lr), rightOf(lr), r);
      }
      if (isInternal(r)) {
        const rl = leftOf(r);
        const rr = rightOf(r);
        consider(3, l, rl, rr, -1);
        if (isInternal(rl)) consider(4, l, leftOf(rl), rightOf(rl), rr);
        if (isInternal(rr)) consider(4, l, rl, leftOf(rr), rightOf(rr));
      }
    }
    const childDepth = load<i32>(depth + 4 * <usize>wide) + 1;
    for (let slot = 0; slot < bestCount; slot++) {
      const child = bestAt(slot);
      const o = ((<usize>wide) << 2) + <usize>slot;
      store<i32>(source + 4 * o, child);
      if (isInternal(child)) {
        store<u8>(kind + o, CHILD_NODE);
        const id = nodeCount++;
        store<i32>(ref + 4 * o, id);
        store<i32>(depth + 4 * <usize>id, childDepth);
      } else {
        store<u8>(kind + o, CHILD_LEAF);
        store<i32>(ref + 4 * o, child);
      }
    }
    for (let slot = bestCount; slot < 4; slot++) {
      const o = ((<usize>wide) << 2) + <usize>slot;
      store<i32>(source + 4 * o, -1);
      store<i32>(ref + 4 * o, -1);
    }
    // Push in reverse so the first child's subtree is numbered first (depth-first, left to right).
    if (!ensureMemory(stackAt + 8 * <usize>(stackCount + 4))) return -1;
    for (let slot = bestCount - 1; slot >= 0; slot--) {
      const o = ((<usize>wide) << 2) + <usize>slot;
      if (load<u8>(kind + o) != CHILD_NODE) continue;
      store<i32>(stackAt + 8 * <usize>stackCount, bestAt(slot));
      store<i32>(stackAt + 8 * <usize>stackCount, load<i32>(ref + 4 * o), 4);
      stackCount++;
    }
  }
  return nodeCount;
}
