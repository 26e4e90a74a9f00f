import {
  BINARY_FLOAT_CODES,
  BINARY_FLOAT_LINK,
  BINARY_FLOAT_NODE_WORDS,
  BINARY_LEAF_START_MASK,
  BINARY_QUANTIZED_LINK_U32,
  BINARY_QUANTIZED_NODE_U16,
  type BinaryNodes,
} from '../../bvh/binaryLayout';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { FLOAT_NODE_WORDS, FLOAT_WORDS_OFFSET, type FloatNodes } from '../../bvh/floatLayout';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';
import { writeChildFrame } from '../walk/frames';
import { subtreeMasked } from '../walk/maskFilter';
import { IDENTITY_PERMUTATION, SORT_DISTANCE, SORT_NONE, SORT_PRECOMPUTED, SORT_SPLIT_AXIS, SORT_TMAX } from '../rays/sorting';
import { VOTE_DIRECTIONS, VOTE_NONE, VOTE_OCTANTS, type BatchCounters, type BatchItems, type BatchStack } from './batchItems';

/*
 * Batched walks: the first `count` items go down the tree together (see batchItems.ts). Each popped
 * entry is culled against its box, the survivors go on to the leaf, to the children, or (fewer than
 * items.aloneBelow of them) down the subtree one by one. One child order serves the whole batch,
 * chosen by the survivors' votes:
 *   binary 'precomputed' / 'split-axis': the survivors' octants vote with the node's 8-bit code;
 *   binary 'distance', 4-way 'tmax': child centres projected on the sum of the survivors' directions;
 *   4-way 'precomputed': the permutation of the survivors' most common octant.
 * Every entry on the stack carries the number of items that reached it; the walk itself never reads
 * an item.
 *
 * Collision filter: given `nodeMasks` (the 4-way tree's interned table, read through each node's mask
 * index; for the binary tree one union per node, see binaryTraverse.ts), a child whose mask misses
 * `filter` is not pushed (counted in counters.subtreesMasked); null: no check. The items skip filtered
 * triangles themselves.
 */

/** The frame of the node being expanded (walk/frames.ts), read into locals at once. */
const frame = new Float64Array(6);

/** The vote a sorting needs from cull() (set it on the items before walking). */
export function voteModeFor(sorting: number): number {
  if (sorting === SORT_PRECOMPUTED || sorting === SORT_SPLIT_AXIS) return VOTE_OCTANTS;
  if (sorting === SORT_DISTANCE || sorting === SORT_TMAX) return VOTE_DIRECTIONS;
  return VOTE_NONE;
}

/** Whether the survivors' octants (votes in `octantVotes`) want the right child first under `code`. */
function octantsWantRight(code: number, votes: Int32Array, survivors: number): boolean {
  let right = 0;
  for (let octant = 0; octant < 8; octant++) if ((code >>> octant) & 1) right += votes[octant]!;
  return 2 * right > survivors;
}

function mostCommonOctant(votes: Int32Array): number {
  let best = 0;
  for (let octant = 1; octant < 8; octant++) if (votes[octant]! > votes[best]!) best = octant;
  return best;
}

/** Binary float layout; `sorting` one of the binary SORT_* codes. */
export function walkBinaryFloat(
  nodes: BinaryNodes,
  items: BatchItems,
  count: number,
  sorting: number,
  stack: BatchStack,
  counters: BatchCounters,
  nodeMasks: Uint32Array | null = null,
  filter = 0xffffffff,
): void {
  if (nodes.nodeCount === 0 || count === 0) return;
  if (nodeMasks !== null && (nodeMasks[0]! & filter) === 0) {
    counters.subtreesMasked++;
    return;
  }
  const f32 = nodes.f32;
  const u32 = nodes.floatU32;
  const stackNode = stack.word;
  const stackCount = stack.count;
  const votes = items.octantVotes;
  const directions = items.directionSum;
  const codeShift = sorting === SORT_SPLIT_AXIS ? 8 : 0;
  const aloneBelow = items.aloneBelow;
  let boxesTested = 0;
  let subtreesMasked = 0;
  stackNode[0] = 0;
  stackCount[0] = count;
  let top = 1;
  while (top > 0) {
    top--;
    const node = stackNode[top]!;
    const n = stackCount[top]!;
    const b = BINARY_FLOAT_NODE_WORDS * node;
    boxesTested += n;
    const survivors = items.cull(f32[b]!, f32[b + 1]!, f32[b + 2]!, f32[b + 3]!, f32[b + 4]!, f32[b + 5]!, n);
    if (survivors === 0) continue;
    const link = u32[b + BINARY_FLOAT_LINK]!;
    if (link >= 0x80000000) {
      items.testLeaf(link & BINARY_LEAF_START_MASK, (link >>> 27) & 15, survivors);
      continue;
    }
    if (survivors < aloneBelow) {
      items.aloneBinary(survivors, node);
      continue;
    }
    let rightFirst = false;
    if (sorting === SORT_DISTANCE) {
      const l = BINARY_FLOAT_NODE_WORDS * link;
      const r = l + BINARY_FLOAT_NODE_WORDS;
      rightFirst =
        (f32[r]! + f32[r + 3]! - f32[l]! - f32[l + 3]!) * directions[0]! +
          (f32[r + 1]! + f32[r + 4]! - f32[l + 1]! - f32[l + 4]!) * directions[1]! +
          (f32[r + 2]! + f32[r + 5]! - f32[l + 2]! - f32[l + 5]!) * directions[2]! <
        0;
    } else if (sorting !== SORT_NONE) {
      rightFirst = octantsWantRight((u32[b + BINARY_FLOAT_CODES]! >>> codeShift) & 255, votes, survivors);
    }
    const far = rightFirst ? link : link + 1;
    const near = rightFirst ? link + 1 : link;
    if (nodeMasks === null || (nodeMasks[far]! & filter) !== 0) {
      stackNode[top] = far;
      stackCount[top++] = survivors;
    } else subtreesMasked++;
    if (nodeMasks === null || (nodeMasks[near]! & filter) !== 0) {
      stackNode[top] = near;
      stackCount[top++] = survivors;
    } else subtreesMasked++;
  }
  counters.nodesVisited += boxesTested;
  counters.boxesTested += boxesTested;
  counters.subtreesMasked += subtreesMasked;
}

/** Binary quantized layout: each node's bounds are decoded once for the batch. */
export function walkBinaryQuantized(
  nodes: BinaryNodes,
  items: BatchItems,
  count: number,
  sorting: number,
  stack: BatchStack,
  counters: BatchCounters,
  nodeMasks: Uint32Array | null = null,
  filter = 0xffffffff,
): void {
  if (nodes.nodeCount === 0 || count === 0) return;
  if (nodeMasks !== null && (nodeMasks[0]! & filter) === 0) {
    counters.subtreesMasked++;
    return;
  }
  const u16 = nodes.u16;
  const u32 = nodes.quantizedU32;
  const codes = nodes.codes;
  const frame = nodes.frame;
  const minX = frame[0]!,
    minY = frame[1]!,
    minZ = frame[2]!;
  const stepX = frame[3]!,
    stepY = frame[4]!,
    stepZ = frame[5]!;
  const stackNode = stack.word;
  const stackCount = stack.count;
  const votes = items.octantVotes;
  const directions = items.directionSum;
  const codeShift = sorting === SORT_SPLIT_AXIS ? 8 : 0;
  const aloneBelow = items.aloneBelow;
  let boxesTested = 0;
  let subtreesMasked = 0;
  stackNode[0] = 0;
  stackCount[0] = count;
  let top = 1;
  while (top > 0) {
    top--;
    const node = stackNode[top]!;
    const n = stackCount[top]!;
    const b = BINARY_QUANTIZED_NODE_U16 * node;
    boxesTested += n;
    const survivors = items.cull(
      minX + u16[b]! * stepX,
      minY + u16[b + 1]! * stepY,
      minZ + u16[b + 2]! * stepZ,
      minX + u16[b + 3]! * stepX,
      minY + u16[b + 4]! * stepY,
      minZ + u16[b + 5]! * stepZ,
      n,
    );
    if (survivors === 0) continue;
    const link = u32[4 * node + BINARY_QUANTIZED_LINK_U32]!;
    if (link >= 0x80000000) {
      items.testLeaf(link & BINARY_LEAF_START_MASK, (link >>> 27) & 15, survivors);
      continue;
    }
    if (survivors < aloneBelow) {
      items.aloneBinary(survivors, node);
      continue;
    }
    let rightFirst = false;
    if (sorting === SORT_DISTANCE) {
      const l = BINARY_QUANTIZED_NODE_U16 * link;
      const r = l + BINARY_QUANTIZED_NODE_U16;
      rightFirst =
        (u16[r]! + u16[r + 3]! - u16[l]! - u16[l + 3]!) * stepX * directions[0]! +
          (u16[r + 1]! + u16[r + 4]! - u16[l + 1]! - u16[l + 4]!) * stepY * directions[1]! +
          (u16[r + 2]! + u16[r + 5]! - u16[l + 2]! - u16[l + 5]!) * stepZ * directions[2]! <
        0;
    } else if (sorting !== SORT_NONE) {
      rightFirst = octantsWantRight((codes[node]! >>> codeShift) & 255, votes, survivors);
    }
    const far = rightFirst ? link : link + 1;
    const near = rightFirst ? link + 1 : link;
    if (nodeMasks === null || (nodeMasks[far]! & filter) !== 0) {
      stackNode[top] = far;
      stackCount[top++] = survivors;
    } else subtreesMasked++;
    if (nodeMasks === null || (nodeMasks[near]! & filter) !== 0) {
      stackNode[top] = near;
      stackCount[top++] = survivors;
    } else subtreesMasked++;
  }
  counters.nodesVisited += boxesTested;
  counters.boxesTested += boxesTested;
  counters.subtreesMasked += subtreesMasked;
}

/**
 * The slot order of one 4-way node for the batch, two bits per position (IDENTITY_PERMUTATION form).
 * `centres` holds the doubled centres of the four slots (12 numbers; empty slots are skipped later).
 */
function wideOrder(
  sorting: number,
  node: number,
  permutations: Uint8Array | null,
  items: BatchItems,
  centres: Float64Array,
  keys: Float64Array,
): number {
  if (sorting === SORT_PRECOMPUTED && permutations !== null) return permutations[8 * node + mostCommonOctant(items.octantVotes)]!;
  if (sorting !== SORT_TMAX) return IDENTITY_PERMUTATION;
  const d = items.directionSum;
  const dx = d[0]!,
    dy = d[1]!,
    dz = d[2]!;
  for (let s = 0; s < 4; s++) keys[s] = centres[3 * s]! * dx + centres[3 * s + 1]! * dy + centres[3 * s + 2]! * dz;
  // Rank by key, ties by slot: four keys, six comparisons, no allocation.
  let r0 = 0,
    r1 = 0,
    r2 = 0,
    r3 = 0;
  const k0 = keys[0]!,
    k1 = keys[1]!,
    k2 = keys[2]!,
    k3 = keys[3]!;
  if (k1 < k0) r0++;
  else r1++;
  if (k2 < k0) r0++;
  else r2++;
  if (k3 < k0) r0++;
  else r3++;
  if (k2 < k1) r1++;
  else r2++;
  if (k3 < k1) r1++;
  else r3++;
  if (k3 < k2) r2++;
  else r3++;
  return (0 << (2 * r0)) | (1 << (2 * r1)) | (2 << (2 * r2)) | (3 << (2 * r3));
}

/**
 * 4-way quantized layout. An entry is a child word with the decoded box of its slot; a node's four
 * slots are decoded once for the batch when the node is reached, against the frame the packer used
 * (walk/frames.ts).
 * Shared leaf nodes are reached from two parents and simply cull the other parent's half by its boxes.
 */
export function walkWideQuantized(
  nodes: QuantizedNodes,
  permutations: Uint8Array | null,
  items: BatchItems,
  count: number,
  sorting: number,
  stack: BatchStack,
  counters: BatchCounters,
  scratch: Float64Array,
  nodeMasks: Uint32Array | null = null,
  filter = 0xffffffff,
): void {
  if (nodes.nodeCount === 0 || count === 0) return;
  if (nodeMasks !== null && subtreeMasked(nodes.u32, QUANTIZED_WORDS_U32, nodeMasks, filter)) {
    counters.subtreesMasked++;
    return;
  }
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  const firstShared = nodes.firstShared;
  const sharedFrames = nodes.sharedFrames;
  const ownsFrame = nodes.ownsFrame;
  const ownFrames = nodes.ownFrames;
  const stackWord = stack.word;
  const stackCount = stack.count;
  const stackBox = stack.box;
  const centres = scratch.subarray(0, 12);
  const keys = scratch.subarray(12, 16);
  const boxes = scratch.subarray(16, 40);
  const aloneBelow = items.aloneBelow;
  let nodesVisited = 0;
  let boxesTested = 0;
  let subtreesMasked = 0;
  stackWord[0] = 0; // node 0
  stackCount[0] = count;
  stackBox.set(nodes.rootFrame, 0);
  let top = 1;
  while (top > 0) {
    top--;
    const word = stackWord[top]!;
    const n = stackCount[top]!;
    const e = 6 * top;
    const loX = stackBox[e]!,
      loY = stackBox[e + 1]!,
      loZ = stackBox[e + 2]!;
    const hiX = stackBox[e + 3]!,
      hiY = stackBox[e + 4]!,
      hiZ = stackBox[e + 5]!;
    boxesTested += n;
    const survivors = items.cull(loX, loY, loZ, hiX, hiY, hiZ, n);
    if (survivors === 0) continue;
    const type = (word >>> 24) & 15;
    if (type > 1) {
      items.testLeaf(word & CHILD_INDEX_MASK, type - 1, survivors);
      continue;
    }
    const node = word & CHILD_INDEX_MASK;
    writeChildFrame(frame, 0, node, firstShared, sharedFrames, ownsFrame, ownFrames, loX, loY, loZ, hiX, hiY, hiZ);
    const minX = frame[0]!,
      minY = frame[1]!,
      minZ = frame[2]!;
    const stepX = frame[3]!,
      stepY = frame[4]!,
      stepZ = frame[5]!;
    if (survivors < aloneBelow) {
      items.aloneWide(survivors, node, minX, minY, minZ, stepX, stepY, stepZ);
      continue;
    }
    nodesVisited += survivors;
    const b = QUANTIZED_NODE_U16 * node;
    const w = QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32;
    for (let s = 0; s < 4; s++) {
      const o = 6 * s;
      boxes[o] = minX + u16[b + s]! * stepX;
      boxes[o + 1] = minY + u16[b + 4 + s]! * stepY;
      boxes[o + 2] = minZ + u16[b + 8 + s]! * stepZ;
      boxes[o + 3] = minX + u16[b + 12 + s]! * stepX;
      boxes[o + 4] = minY + u16[b + 16 + s]! * stepY;
      boxes[o + 5] = minZ + u16[b + 20 + s]! * stepZ;
      centres[3 * s] = boxes[o] + boxes[o + 3]!;
      centres[3 * s + 1] = boxes[o + 1]! + boxes[o + 4]!;
      centres[3 * s + 2] = boxes[o + 2]! + boxes[o + 5]!;
    }
    const permutation = sorting === SORT_NONE ? IDENTITY_PERMUTATION : wideOrder(sorting, node, permutations, items, centres, keys);
    // Push the last in order first, so the first is popped next.
    for (let i = 6; i >= 0; i -= 2) {
      const s = (permutation >>> i) & 3;
      const childWord = u32[w + s]!;
      const childType = (childWord >>> 24) & 15;
      if (childType === 1) continue; // empty
      if (
        childType === 0 &&
        nodeMasks !== null &&
        subtreeMasked(u32, QUANTIZED_NODE_U32 * (childWord & CHILD_INDEX_MASK) + QUANTIZED_WORDS_U32, nodeMasks, filter)
      ) {
        subtreesMasked++;
        continue;
      }
      stackWord[top] = childWord;
      stackCount[top] = survivors;
      const o = 6 * s;
      const t = 6 * top;
      stackBox[t] = boxes[o]!;
      stackBox[t + 1] = boxes[o + 1]!;
      stackBox[t + 2] = boxes[o + 2]!;
      stackBox[t + 3] = boxes[o + 3]!;
      stackBox[t + 4] = boxes[o + 4]!;
      stackBox[t + 5] = boxes[o + 5]!;
      top++;
    }
  }
  counters.nodesVisited += nodesVisited;
  counters.boxesTested += boxesTested;
  counters.subtreesMasked += subtreesMasked;
}

/** 4-way float layout: the same walk with absolute float32 child boxes. */
export function walkWideFloat(
  nodes: FloatNodes,
  permutations: Uint8Array | null,
  items: BatchItems,
  count: number,
  sorting: number,
  stack: BatchStack,
  counters: BatchCounters,
  scratch: Float64Array,
  nodeMasks: Uint32Array | null = null,
  filter = 0xffffffff,
): void {
  if (nodes.nodeCount === 0 || count === 0) return;
  if (nodeMasks !== null && subtreeMasked(nodes.u32, FLOAT_WORDS_OFFSET, nodeMasks, filter)) {
    counters.subtreesMasked++;
    return;
  }
  const f32 = nodes.f32;
  const u32 = nodes.u32;
  const stackWord = stack.word;
  const stackCount = stack.count;
  const stackBox = stack.box;
  const centres = scratch.subarray(0, 12);
  const keys = scratch.subarray(12, 16);
  const aloneBelow = items.aloneBelow;
  let nodesVisited = 0;
  let boxesTested = 0;
  let subtreesMasked = 0;
  // The root has no box of its own in this layout: every item enters it.
  stackWord[0] = 0;
  stackCount[0] = count;
  let top = 1;
  let atRoot = true;
  while (top > 0) {
    top--;
    const word = stackWord[top]!;
    const n = stackCount[top]!;
    const e = 6 * top;
    let survivors = n;
    if (atRoot) atRoot = false;
    else {
      boxesTested += n;
      survivors = items.cull(stackBox[e]!, stackBox[e + 1]!, stackBox[e + 2]!, stackBox[e + 3]!, stackBox[e + 4]!, stackBox[e + 5]!, n);
      if (survivors === 0) continue;
    }
    const type = (word >>> 24) & 15;
    if (type > 1) {
      items.testLeaf(word & CHILD_INDEX_MASK, type - 1, survivors);
      continue;
    }
    const node = word & CHILD_INDEX_MASK;
    if (survivors < aloneBelow) {
      items.aloneWide(survivors, node, 0, 0, 0, 0, 0, 0);
      continue;
    }
    nodesVisited += survivors;
    const b = FLOAT_NODE_WORDS * node;
    const w = b + FLOAT_WORDS_OFFSET;
    let permutation = IDENTITY_PERMUTATION;
    if (sorting !== SORT_NONE) {
      for (let s = 0; s < 4; s++) {
        centres[3 * s] = f32[b + s]! + f32[b + 12 + s]!;
        centres[3 * s + 1] = f32[b + 4 + s]! + f32[b + 16 + s]!;
        centres[3 * s + 2] = f32[b + 8 + s]! + f32[b + 20 + s]!;
      }
      permutation = wideOrder(sorting, node, permutations, items, centres, keys);
    }
    for (let i = 6; i >= 0; i -= 2) {
      const s = (permutation >>> i) & 3;
      const childWord = u32[w + s]!;
      const childType = (childWord >>> 24) & 15;
      if (childType === 1) continue; // empty
      if (
        childType === 0 &&
        nodeMasks !== null &&
        subtreeMasked(u32, FLOAT_NODE_WORDS * (childWord & CHILD_INDEX_MASK) + FLOAT_WORDS_OFFSET, nodeMasks, filter)
      ) {
        subtreesMasked++;
        continue;
      }
      stackWord[top] = childWord;
      stackCount[top] = survivors;
      const t = 6 * top;
      stackBox[t] = f32[b + s]!;
      stackBox[t + 1] = f32[b + 4 + s]!;
      stackBox[t + 2] = f32[b + 8 + s]!;
      stackBox[t + 3] = f32[b + 12 + s]!;
      stackBox[t + 4] = f32[b + 16 + s]!;
      stackBox[t + 5] = f32[b + 20 + s]!;
      top++;
    }
  }
  counters.nodesVisited += nodesVisited;
  counters.boxesTested += boxesTested;
  counters.subtreesMasked += subtreesMasked;
}
