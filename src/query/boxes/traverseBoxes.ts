import type { BVH } from '../../bvh/buildBVH';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { QUANT_STEP_SCALE } from '../../bvh/quantize';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';
import { writeChildFrame, writeRootFrame } from '../walk/frames';
import { subtreeMasked } from '../walk/maskFilter';
import type { BoxOverlapList, BoxQueryCounters } from './boxTypes';
import type { BoxWorkspace } from './boxWorkspace';
import { keptTriangles, testLeaf } from './leafTests';

/**
 * Boxes active[0 .. count) through the quantized 4-way tree in one walk: each child box is decoded once
 * for the whole batch, the boxes overlapping it are moved to the front of the parent's survivors (a
 * swap with the last candidate, so nothing is copied), and the child is entered with that prefix. The
 * walk is depth first with a cursor per level: a node's next slot is taken only after the previous
 * child's subtree is done, and since a child only permutes its own prefix, the parent's survivors are
 * still the parent's prefix (in another order) when it resumes.
 *
 * A shared node (two parents) is entered at most once per box: a box that already entered it through
 * its other parent is dropped from the survivors there, so its leaves are not tested twice.
 *
 * Node test: box [lo, hi] (padded, see prepareBoxes) against the child box decoded exactly as the
 * packer checked it (frame min + q · step in float64), closed on both sides: touching boxes survive.
 *
 * Collision filter: with `filtering`, a child node whose combined mask misses `filter` is cut before any
 * box is tested against it (once for the batch), and a leaf's triangles are narrowed once for the batch
 * to those the filter keeps (walk/maskFilter.ts). Without it neither check is made.
 */
export function traverseBoxes(
  bvh: BVH,
  nodes: QuantizedNodes,
  workspace: BoxWorkspace,
  count: number,
  test: number,
  includeRejected: boolean,
  filtering: boolean,
  filter: number,
  out: BoxOverlapList,
  tally: BoxQueryCounters,
): void {
  if (nodes.nodeCount === 0 || count === 0) return;
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  const firstShared = nodes.firstShared;
  const sharedFrames = nodes.sharedFrames;
  const ownsFrame = nodes.ownsFrame;
  const ownFrames = nodes.ownFrames;
  const order = bvh.triangleOrder;
  const { materialIds, materialMasks, nodeMasks } = bvh.masks;
  const { stackNode, stackSlot, stackCount, stackFrame, active, loX, loY, loZ, hiX, hiY, hiZ, keptTriangles: kept } = workspace;
  if (filtering && subtreeMasked(u32, QUANTIZED_WORDS_U32, nodeMasks, filter)) {
    tally.subtreesMasked++;
    return;
  }
  let nodesVisited = 1;
  let childBoxesDecoded = 0;
  let boxNodeTests = 0;
  let leavesVisited = 0;
  let subtreesMasked = 0;
  let trianglesMasked = 0;

  stackNode[0] = 0;
  stackSlot[0] = 0;
  stackCount[0] = count;
  writeRootFrame(nodes, stackFrame, 0);
  let top = 1;

  while (top > 0) {
    const level = top - 1;
    const slot = stackSlot[level]!;
    if (slot === 4) {
      top--;
      continue;
    }
    stackSlot[level] = slot + 1;
    const node = stackNode[level]!;
    const word = u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + slot]!;
    const type = (word >>> 24) & 15;
    if (type === 1) continue; // empty slot
    if (filtering && type === 0 && subtreeMasked(u32, QUANTIZED_NODE_U32 * (word & CHILD_INDEX_MASK) + QUANTIZED_WORDS_U32, nodeMasks, filter)) {
      subtreesMasked++;
      continue;
    }

    const f = 6 * level;
    const minX = stackFrame[f]!,
      minY = stackFrame[f + 1]!,
      minZ = stackFrame[f + 2]!;
    const stepX = stackFrame[f + 3]!,
      stepY = stackFrame[f + 4]!,
      stepZ = stackFrame[f + 5]!;
    const b = QUANTIZED_NODE_U16 * node + slot;
    const boxLoX = minX + u16[b]! * stepX;
    const boxLoY = minY + u16[b + 4]! * stepY;
    const boxLoZ = minZ + u16[b + 8]! * stepZ;
    const boxHiX = minX + u16[b + 12]! * stepX;
    const boxHiY = minY + u16[b + 16]! * stepY;
    const boxHiZ = minZ + u16[b + 20]! * stepZ;
    childBoxesDecoded++;

    // Move the boxes overlapping this child to the front of the node's survivors.
    const candidates = stackCount[level]!;
    boxNodeTests += candidates;
    let survivors = 0;
    let last = candidates;
    while (survivors < last) {
      const j = active[survivors]!;
      if (loX[j]! <= boxHiX && hiX[j]! >= boxLoX && loY[j]! <= boxHiY && hiY[j]! >= boxLoY && loZ[j]! <= boxHiZ && hiZ[j]! >= boxLoZ) survivors++;
      else {
        last--;
        active[survivors] = active[last]!;
        active[last] = j;
      }
    }
    if (survivors === 0) continue;

    if (type !== 0) {
      // A leaf: its triangles (those the filter keeps) against every surviving box.
      leavesVisited += survivors;
      let ids = order;
      let start = word & CHILD_INDEX_MASK;
      let leafCount = type - 1;
      if (filtering) {
        const n = keptTriangles(order, start, leafCount, materialIds, materialMasks, filter, kept);
        trianglesMasked += survivors * (leafCount - n);
        ids = kept;
        start = 0;
        leafCount = n;
      }
      // One call site, so the leaf test stays inlined as it was before the filter.
      if (leafCount > 0)
        for (let i = 0; i < survivors; i++) testLeaf(bvh, workspace, active[i]!, ids, start, leafCount, test, includeRejected, out, tally);
      continue;
    }

    const child = word & CHILD_INDEX_MASK;
    if (child >= firstShared) {
      // A shared node has two parents; a box reaching it through both must enter it only once.
      let keptBoxes = survivors;
      for (let i = 0; i < keptBoxes;) {
        const j = active[i]!;
        if (workspace.enterShared(j, child - firstShared)) i++;
        else {
          keptBoxes--;
          active[i] = active[keptBoxes]!;
          active[keptBoxes] = j;
        }
      }
      survivors = keptBoxes;
      if (survivors === 0) continue;
    }
    nodesVisited++;
    stackNode[top] = child;
    stackSlot[top] = 0;
    stackCount[top] = survivors;
    // The common frame inline (a call here, not inlined by V8, cost 10-40%); shared and detached nodes through frames.ts.
    if (child >= firstShared || ownsFrame[child] === 1)
      writeChildFrame(stackFrame, 6 * top, child, firstShared, sharedFrames, ownsFrame, ownFrames, boxLoX, boxLoY, boxLoZ, boxHiX, boxHiY, boxHiZ);
    else {
      const o = 6 * top;
      stackFrame[o] = boxLoX;
      stackFrame[o + 1] = boxLoY;
      stackFrame[o + 2] = boxLoZ;
      stackFrame[o + 3] = (boxHiX - boxLoX) * QUANT_STEP_SCALE;
      stackFrame[o + 4] = (boxHiY - boxLoY) * QUANT_STEP_SCALE;
      stackFrame[o + 5] = (boxHiZ - boxLoZ) * QUANT_STEP_SCALE;
    }
    top++;
  }
  tally.nodesVisited += nodesVisited;
  tally.childBoxesDecoded += childBoxesDecoded;
  tally.boxesTested += boxNodeTests;
  tally.leavesVisited += leavesVisited;
  tally.subtreesMasked += subtreesMasked;
  tally.trianglesMasked += trianglesMasked;
}
