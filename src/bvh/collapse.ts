import type { BuildTree } from './buildTree';
import type { BuildOptions } from './options';
import { inflatedHalfArea } from './surfaceArea';
import { CHILD_EMPTY, CHILD_LEAF, CHILD_NODE, type WideTree } from './wideTree';

/**
 * Greedy top-down collapse of the binary tree into a 4-way tree. At each binary node the five ways of
 * opening two more nodes below it (both children, or one child and then one of its children, on either
 * side) give candidate sets of four subtrees; fewer when leaves stop the opening early. The cheapest
 * set has the least surface area left in closed internal subtrees (each will cost a node visit), plus
 * a wasted-slot penalty: a subtree with L leaves packs into full 4-way nodes only when L ≡ 1 (mod 3),
 * otherwise at least (1 − L) mod 3 slots stay empty (the talk's (n+1) mod 3, counted in leaves). The
 * penalty matters near the root, where it steers whole subtrees, and fades out with depth, where it
 * would fight the SAH.
 */
export function collapseToWide(tree: BuildTree, options: BuildOptions): WideTree {
  const { left, right, bounds, leavesBelow } = tree;
  const radius = options.sweptRadius;
  const penalty = options.wastedSlotPenalty;
  const fadeDepth = options.wastedSlotFadeDepth;
  const capacity = Math.max(1, tree.nodeCount);
  const kind = new Uint8Array(4 * capacity).fill(CHILD_EMPTY);
  const ref = new Int32Array(4 * capacity).fill(-1);
  const source = new Int32Array(4 * capacity).fill(-1);
  const depth = new Int32Array(capacity);

  const area = (node: number): number =>
    inflatedHalfArea(
      bounds[6 * node + 3]! - bounds[6 * node]!,
      bounds[6 * node + 4]! - bounds[6 * node + 1]!,
      bounds[6 * node + 5]! - bounds[6 * node + 2]!,
      radius,
    );
  const isInternal = (node: number): boolean => left[node]! >= 0;
  const waste = (node: number): number => {
    const leaves = leavesBelow[node]!;
    return (((1 - leaves) % 3) + 3) % 3;
  };

  if (tree.nodeCount === 0) {
    return { nodeCount: 0, kind, ref, source, depth, firstShared: 0, sharedFrames: new Float64Array(0) };
  }
  let nodeCount = 1;
  // The root is always a wide node, even over a single leaf, so every query starts the same way.
  const stack: number[] = [0, 0];
  const candidate = new Int32Array(4);
  const best = new Int32Array(4);
  while (stack.length > 0) {
    const wide = stack.pop()!;
    const binary = stack.pop()!;
    let bestCount = 0;
    if (!isInternal(binary)) {
      best[0] = binary;
      bestCount = 1;
    } else {
      const fade = fadeDepth > 0 ? Math.max(0, 1 - depth[wide]! / fadeDepth) : 0;
      const penaltyScale = penalty * fade * area(binary);
      let bestCost = Infinity;
      const consider = (count: number): void => {
        if (count < bestCount) return;
        let cost = 0;
        for (let i = 0; i < count; i++) {
          const child = candidate[i]!;
          if (isInternal(child)) cost += area(child) + penaltyScale * waste(child);
        }
        if (count > bestCount || cost < bestCost) {
          bestCount = count;
          bestCost = cost;
          best.set(candidate.subarray(0, count));
        }
      };
      const l = left[binary]!;
      const r = right[binary]!;
      candidate[0] = l;
      candidate[1] = r;
      consider(2);
      if (isInternal(l)) {
        candidate[0] = left[l]!;
        candidate[1] = right[l]!;
        candidate[2] = r;
        consider(3);
        if (isInternal(r)) {
          candidate[0] = left[l]!;
          candidate[1] = right[l]!;
          candidate[2] = left[r]!;
          candidate[3] = right[r]!;
          consider(4);
        }
        for (const open of [left[l]!, right[l]!]) {
          if (!isInternal(open)) continue;
          if (open === left[l]) {
            candidate[0] = left[open]!;
            candidate[1] = right[open]!;
            candidate[2] = right[l]!;
            candidate[3] = r;
          } else {
            candidate[0] = left[l]!;
            candidate[1] = left[open]!;
            candidate[2] = right[open]!;
            candidate[3] = r;
          }
          consider(4);
        }
      }
      if (isInternal(r)) {
        candidate[0] = l;
        candidate[1] = left[r]!;
        candidate[2] = right[r]!;
        consider(3);
        for (const open of [left[r]!, right[r]!]) {
          if (!isInternal(open)) continue;
          if (open === left[r]) {
            candidate[0] = l;
            candidate[1] = left[open]!;
            candidate[2] = right[open]!;
            candidate[3] = right[r]!;
          } else {
            candidate[0] = l;
            candidate[1] = left[r]!;
            candidate[2] = left[open]!;
            candidate[3] = right[open]!;
          }
          consider(4);
        }
      }
    }
    // Push in reverse so the first child's subtree is numbered first (depth-first, left to right).
    const childWide = new Int32Array(4).fill(-1);
    for (let slot = 0; slot < bestCount; slot++) {
      const child = best[slot]!;
      const o = 4 * wide + slot;
      source[o] = child;
      if (isInternal(child)) {
        kind[o] = CHILD_NODE;
        childWide[slot] = -2;
      } else {
        kind[o] = CHILD_LEAF;
        ref[o] = child;
      }
    }
    for (let slot = 0; slot < bestCount; slot++) {
      if (childWide[slot] !== -2) continue;
      const id = nodeCount++;
      ref[4 * wide + slot] = id;
      depth[id] = depth[wide]! + 1;
    }
    for (let slot = bestCount - 1; slot >= 0; slot--) {
      if (kind[4 * wide + slot] !== CHILD_NODE) continue;
      stack.push(best[slot]!, ref[4 * wide + slot]!);
    }
  }
  return {
    nodeCount,
    kind: kind.slice(0, 4 * nodeCount),
    ref: ref.slice(0, 4 * nodeCount),
    source: source.slice(0, 4 * nodeCount),
    depth: depth.slice(0, nodeCount),
    firstShared: nodeCount,
    sharedFrames: new Float64Array(0),
  };
}
