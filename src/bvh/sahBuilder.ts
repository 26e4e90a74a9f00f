import { applyBigLittleSplit, evaluateBigLittle } from './bigLittleSplit';
import { applyBinnedSplit, evaluateBinnedSweep } from './binnedSweep';
import { growFloat64, growInt32, type BuildTree } from './buildTree';
import { BuildWorkspace, SPLIT_BIG_LITTLE, SPLIT_BINNED, SPLIT_NONE, SPLIT_SORTED, SPLIT_SPATIAL } from './buildWorkspace';
import type { BuildOptions } from './options';
import { applySortedSplit, evaluateSortedSweep } from './sortedSweep';
import { applySpatialSplit, evaluateSpatialSplit } from './spatialSplit';
import { inflatedHalfArea } from './surfaceArea';

/**
 * Top-down binary SAH build. At each node every enabled strategy prices its best split; the cheapest
 * wins unless a leaf is cheaper (and small enough). Work is an explicit stack, left child on top, so
 * leaves come out in depth-first order and no input can overflow the JavaScript call stack.
 *
 * Cost model (per ray reaching the node): leaf = n·triangleCost; split = traversalCost +
 * triangleCost·(A_left·n_left + A_right·n_right)/A_node, areas of boxes inflated by sweptRadius.
 */
export function buildBinaryTree(positions: Float32Array, indices: Uint32Array, triangleCount: number, options: BuildOptions): BuildTree {
  if (!warmedUp) warmUpFeedback(options);
  const workspace = new BuildWorkspace(positions, indices, options, triangleCount);
  initialiseReferences(workspace, triangleCount);

  let capacity = Math.max(16, Math.ceil((4 * triangleCount) / Math.max(1, options.maxLeafSize)));
  let bounds = new Float64Array(6 * capacity);
  let left = new Int32Array(capacity);
  let right = new Int32Array(capacity);
  let leafStart = new Int32Array(capacity);
  let leafCount = new Int32Array(capacity);
  let order = new Int32Array(Math.max(1, triangleCount));
  let orderLength = 0;

  // Task stack: node, segment start, segment count, depth (depth unused by the cost model, kept for
  // a future depth limit and for the overlap threshold's root area).
  let tasks = new Int32Array(64);
  let taskCount = 0;
  let nodeCount = 0;
  if (triangleCount > 0) {
    nodeCount = 1;
    tasks[0] = 0;
    tasks[1] = 0;
    tasks[2] = triangleCount;
    taskCount = 1;
  }

  const choice = workspace.choice;
  const nodeBox = workspace.nodeBox;
  const { traversalCost, triangleCost, maxLeafSize, exactSweepLimit, bigLittleSplit, spatialSplits, spatialOverlapThreshold, sweptRadius } = options;
  let rootArea = 0;

  while (taskCount > 0) {
    taskCount--;
    const node = tasks[3 * taskCount]!;
    const start = tasks[3 * taskCount + 1]!;
    const count = tasks[3 * taskCount + 2]!;
    computeNodeBoxes(workspace, start, count);
    bounds.set(nodeBox, 6 * node);
    const nodeArea = inflatedHalfArea(nodeBox[3]! - nodeBox[0]!, nodeBox[4]! - nodeBox[1]!, nodeBox[5]! - nodeBox[2]!, sweptRadius);
    if (node === 0) rootArea = nodeArea;

    choice.reset();
    if (count > 1) {
      if (count <= exactSweepLimit) evaluateSortedSweep(workspace, start, count);
      else evaluateBinnedSweep(workspace, start, count);
      // Only a node holding some reference wider than half of it can have a big/little split.
      if (bigLittleSplit && workspace.hasBigReference) evaluateBigLittle(workspace, start, count);
      if (spatialSplits && choice.kind !== SPLIT_NONE && workspace.top < workspace.capacity) {
        const overlap = overlapArea(choice.leftBox, choice.rightBox, sweptRadius);
        if (overlap > spatialOverlapThreshold * rootArea) evaluateSpatialSplit(workspace, start, count);
      }
    }
    // A zero-area node makes every split free; pricing it against the leaf still works because both
    // sides scale by the same 1/A (guarded to avoid 0/0).
    const splitCost = traversalCost + (triangleCost * choice.weightedArea) / (nodeArea > 0 ? nodeArea : 1);
    const makeLeaf = count <= 1 || (count <= maxLeafSize && count * triangleCost <= splitCost);

    let leftCount = -1;
    const leftStart = start;
    let rightStart = start;
    let rightCount = 0;
    if (!makeLeaf) {
      if (choice.kind === SPLIT_SPATIAL) {
        leftCount = applySpatialSplit(workspace, start, count);
        if (leftCount >= 0) {
          rightStart = workspace.spatialRightStart;
          rightCount = workspace.top - rightStart;
        } else {
          // Over budget or not separating after all: fall back to a plain object split.
          choice.reset();
          if (count <= exactSweepLimit) evaluateSortedSweep(workspace, start, count);
          else evaluateBinnedSweep(workspace, start, count);
        }
      }
      if (leftCount < 0) {
        if (choice.kind === SPLIT_SORTED) leftCount = applySortedSplit(workspace, start, count);
        else if (choice.kind === SPLIT_BINNED) leftCount = applyBinnedSplit(workspace, start, count);
        else if (choice.kind === SPLIT_BIG_LITTLE) leftCount = applyBigLittleSplit(workspace, start, count);
        // No strategy could separate the references (all centres equal and above the exact limit):
        // halve the segment, which always terminates.
        if (leftCount <= 0 || leftCount >= count) leftCount = count >> 1;
        rightStart = start + leftCount;
        rightCount = count - leftCount;
      }
    }

    if (makeLeaf) {
      left[node] = -1;
      right[node] = -1;
      leafStart[node] = orderLength;
      leafCount[node] = count;
      if (orderLength + count > order.length) order = growInt32(order, orderLength + count);
      const refTriangle = workspace.refTriangle;
      for (let i = 0; i < count; i++) order[orderLength + i] = refTriangle[start + i]!;
      orderLength += count;
      continue;
    }

    if (nodeCount + 2 > capacity) {
      capacity *= 2;
      bounds = growFloat64(bounds, 6 * capacity);
      left = growInt32(left, capacity);
      right = growInt32(right, capacity);
      leafStart = growInt32(leafStart, capacity);
      leafCount = growInt32(leafCount, capacity);
    }
    const leftNode = nodeCount++;
    const rightNode = nodeCount++;
    left[node] = leftNode;
    right[node] = rightNode;
    leafStart[node] = 0;
    leafCount[node] = 0;
    if (3 * (taskCount + 2) > tasks.length) tasks = growInt32(tasks, 3 * (taskCount + 2));
    tasks[3 * taskCount] = rightNode;
    tasks[3 * taskCount + 1] = rightStart;
    tasks[3 * taskCount + 2] = rightCount;
    taskCount++;
    tasks[3 * taskCount] = leftNode;
    tasks[3 * taskCount + 1] = leftStart;
    tasks[3 * taskCount + 2] = leftCount;
    taskCount++;
  }

  const leavesBelow = new Int32Array(nodeCount);
  for (let node = nodeCount - 1; node >= 0; node--) {
    leavesBelow[node] = left[node]! < 0 ? 1 : leavesBelow[left[node]!]! + leavesBelow[right[node]!]!;
  }
  return {
    nodeCount,
    bounds: bounds.slice(0, 6 * nodeCount),
    left: left.slice(0, nodeCount),
    right: right.slice(0, nodeCount),
    leafStart: leafStart.slice(0, nodeCount),
    leafCount: leafCount.slice(0, nodeCount),
    leavesBelow,
    triangleOrder: new Uint32Array(order.buffer.slice(0, 4 * orderLength)),
    referenceCount: orderLength,
    triangleCount,
    spatialSplitCount: workspace.top - triangleCount,
  };
}

function initialiseReferences(workspace: BuildWorkspace, triangleCount: number): void {
  const { positions, indices, refTriangle, refBounds } = workspace;
  for (let tri = 0; tri < triangleCount; tri++) {
    const a = 3 * indices[3 * tri]!;
    const b = 3 * indices[3 * tri + 1]!;
    const c = 3 * indices[3 * tri + 2]!;
    refTriangle[tri] = tri;
    const o = 6 * tri;
    for (let k = 0; k < 3; k++) {
      const va = positions[a + k]!,
        vb = positions[b + k]!,
        vc = positions[c + k]!;
      refBounds[o + k] = Math.min(va, vb, vc);
      refBounds[o + 3 + k] = Math.max(va, vb, vc);
    }
  }
}

/** The node's box and the box of its references' doubled centres, into workspace.nodeBox / centreBox. */
function computeNodeBoxes(workspace: BuildWorkspace, start: number, count: number): void {
  const bounds = workspace.refBounds;
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity;
  let cMinX = Infinity,
    cMinY = Infinity,
    cMinZ = Infinity,
    cMaxX = -Infinity,
    cMaxY = -Infinity,
    cMaxZ = -Infinity;
  let widestX = 0,
    widestY = 0,
    widestZ = 0;
  const end = start + count;
  for (let ref = start; ref < end; ref++) {
    const o = 6 * ref;
    const x0 = bounds[o]!,
      y0 = bounds[o + 1]!,
      z0 = bounds[o + 2]!;
    const x1 = bounds[o + 3]!,
      y1 = bounds[o + 4]!,
      z1 = bounds[o + 5]!;
    if (x0 < minX) minX = x0;
    if (y0 < minY) minY = y0;
    if (z0 < minZ) minZ = z0;
    if (x1 > maxX) maxX = x1;
    if (y1 > maxY) maxY = y1;
    if (z1 > maxZ) maxZ = z1;
    const cx = x0 + x1,
      cy = y0 + y1,
      cz = z0 + z1;
    if (x1 - x0 > widestX) widestX = x1 - x0;
    if (y1 - y0 > widestY) widestY = y1 - y0;
    if (z1 - z0 > widestZ) widestZ = z1 - z0;
    if (cx < cMinX) cMinX = cx;
    if (cx > cMaxX) cMaxX = cx;
    if (cy < cMinY) cMinY = cy;
    if (cy > cMaxY) cMaxY = cy;
    if (cz < cMinZ) cMinZ = cz;
    if (cz > cMaxZ) cMaxZ = cz;
  }
  const box = workspace.nodeBox;
  box[0] = minX;
  box[1] = minY;
  box[2] = minZ;
  box[3] = maxX;
  box[4] = maxY;
  box[5] = maxZ;
  workspace.hasBigReference = 2 * widestX > maxX - minX || 2 * widestY > maxY - minY || 2 * widestZ > maxZ - minZ;
  const centres = workspace.centreBox;
  centres[0] = cMinX;
  centres[1] = cMinY;
  centres[2] = cMinZ;
  centres[3] = cMaxX;
  centres[4] = cMaxY;
  centres[5] = cMaxZ;
}

/** Surface area of the overlap of two boxes, zero unless they overlap with volume (touching is free). */
function overlapArea(a: Float64Array, b: Float64Array, radius: number): number {
  const x = Math.min(a[3]!, b[3]!) - Math.max(a[0]!, b[0]!);
  const y = Math.min(a[4]!, b[4]!) - Math.max(a[1]!, b[1]!);
  const z = Math.min(a[5]!, b[5]!) - Math.max(a[2]!, b[2]!);
  if (!(x > 0 && y > 0 && z > 0)) return 0;
  return inflatedHalfArea(x, y, z, radius);
}

let warmedUp = false;

/**
 * Why: on a big mesh the first call of each pass over references is the root's, long enough for V8 to
 * compile its loop on the stack (OSR) before the code after the loop has ever run. That code then has
 * no type feedback, so every later long call re-enters the cached OSR code and deoptimises at the loop
 * exit: over a thousand deoptimisations per build, measured doubling the build time. Building a small
 * synthetic mesh once first gives every pass its feedback. It touches no caller data.
 */
function warmUpFeedback(options: BuildOptions): void {
  warmedUp = true;
  const count = 400;
  const positions = new Float32Array(9 * count);
  const indices = new Uint32Array(3 * count);
  let seed = 12345;
  const next = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  for (let i = 0; i < count; i++) {
    const size = i % 17 === 0 ? 40 : 2;
    const cx = 100 * next(),
      cy = 100 * next(),
      cz = 100 * next();
    for (let k = 0; k < 9; k++) positions[9 * i + k] = (k % 3 === 0 ? cx : k % 3 === 1 ? cy : cz) + size * (next() - 0.5);
    indices[3 * i] = 3 * i;
    indices[3 * i + 1] = 3 * i + 1;
    indices[3 * i + 2] = 3 * i + 2;
  }
  buildBinaryTree(positions, indices, count, {
    ...options,
    spatialSplits: true,
    spatialOverlapThreshold: 0,
    bigLittleSplit: true,
    exactSweepLimit: 16,
  });
}
