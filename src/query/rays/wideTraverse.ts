import type { BVH } from '../../bvh/buildBVH';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { FLOAT_NODE_WORDS, FLOAT_WORDS_OFFSET, type FloatNodes } from '../../bvh/floatLayout';
import { octantOf } from '../../bvh/octantOrder';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';
import type { RayTriangleKernel } from '../rayTriangle/registry';
import { writeSlotFrame, writeRootFrame } from '../walk/frames';
import { subtreeMasked, triangleMasked } from '../walk/maskFilter';
import { orderByExit } from './frontToBack';
import { MODE_ANY } from './rayTypes';
import { IDENTITY_PERMUTATION, SORT_PRECOMPUTED, SORT_TMAX } from './sorting';
import type { StrategyWorkspace } from './strategyWorkspace';
import { EXIT_SLACK } from './traverseQuantized';

const FACTORED_SLACK = 2 ** -47;

/**
 * One ray through the quantized 4-way tree with a selectable child order: 'none' (slot order), 'tmax'
 * (hit children by exit distance, as castRays) or 'precomputed' (the node's slot permutation for the
 * ray's octant, read from `permutations`, so the slots are tested in order and nothing is sorted).
 * The walk and the slab tests are those of castRays (factored for rays without a zero direction
 * component, NaN-aware otherwise); closest or any hit. Results and work go to the workspace.
 * `startNode` with its frame (min xyz, step xyz) walks only that subtree: a batch hands over a ray that
 * is alone below a node, rayTMax then being its current hit.
 *
 * Collision filter (workspace.filtering, workspace.filter): a popped node whose combined mask misses
 * the filter is cut with its subtree, a leaf triangle whose mask misses it is not tested.
 */
export function traverseWideQuantized(
  bvh: BVH,
  nodes: QuantizedNodes,
  permutations: Uint8Array | null,
  kernel: RayTriangleKernel,
  rayData: Float64Array,
  leafTriangles: Float32Array | null,
  workspace: StrategyWorkspace,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  rayTMax: number,
  mode: number,
  doubleSided: boolean,
  sorting: number,
  startNode = 0,
  startFrame: Float64Array | null = null,
): void {
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  const firstShared = nodes.firstShared;
  const sharedFrames = nodes.sharedFrames;
  const ownsFrame = nodes.ownsFrame;
  const ownFrames = nodes.ownFrames;
  const order = bvh.triangleOrder;
  const ordered = order !== null;
  const indices = bvh.indices;
  const positions = bvh.positions;
  const intersect = kernel.intersect;
  const stackNode = workspace.stackNode;
  const stackNear = workspace.stackNear;
  const stackFrame = workspace.stackFrame;
  const hitSlot = workspace.hitSlot;
  const hitNear = workspace.hitNear;
  const hitFar = workspace.hitFar;
  const sorted = workspace.sorted;
  const filtering = workspace.filtering;
  const filter = workspace.filter;
  const materialIds = workspace.materialIds;
  const materialMasks = workspace.materialMasks;
  const nodeMasks = bvh.masks.nodeMasks;

  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  const regular = dx !== 0 && dy !== 0 && dz !== 0;
  const nearX = inverseX >= 0 ? 0 : 12,
    farX = 12 - nearX;
  const nearY = inverseY >= 0 ? 4 : 16,
    farY = 20 - nearY;
  const nearZ = inverseZ >= 0 ? 8 : 20,
    farZ = 28 - nearZ;
  const octant = octantOf(dx, dy, dz);
  const usePermutation = sorting === SORT_PRECOMPUTED && permutations !== null;
  const byExit = sorting === SORT_TMAX;

  let tMax = rayTMax;
  let bestTriangle = -1;
  let nodesVisited = 0;
  let trianglesTested = 0;
  let subtreesMasked = 0;
  let trianglesMasked = 0;

  let top = 0;
  if (nodes.nodeCount > 0) {
    stackNode[0] = startNode;
    stackNear[0] = 0;
    if (startFrame !== null) stackFrame.set(startFrame);
    else writeRootFrame(nodes, stackFrame, 0);
    top = 1;
  }

  traversal: while (top > 0) {
    top--;
    if (stackNear[top]! > tMax) continue;
    const node = stackNode[top]!;
    const b = QUANTIZED_NODE_U16 * node;
    const w = QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32;
    if (filtering && subtreeMasked(u32, w, nodeMasks, filter)) {
      subtreesMasked++;
      continue;
    }
    const f = 6 * top;
    const minX = stackFrame[f]!,
      minY = stackFrame[f + 1]!,
      minZ = stackFrame[f + 2]!;
    const stepX = stackFrame[f + 3]!,
      stepY = stackFrame[f + 4]!,
      stepZ = stackFrame[f + 5]!;
    const scaleX = stepX * inverseX,
      scaleY = stepY * inverseY,
      scaleZ = stepZ * inverseZ;
    const offsetX = (minX - ox) * inverseX,
      offsetY = (minY - oy) * inverseY,
      offsetZ = (minZ - oz) * inverseZ;
    const slack = regular
      ? FACTORED_SLACK *
        (65535 * (Math.abs(scaleX) + Math.abs(scaleY) + Math.abs(scaleZ)) +
          Math.abs(offsetX) +
          Math.abs(offsetY) +
          Math.abs(offsetZ) +
          Math.abs(minX * inverseX) +
          Math.abs(minY * inverseY) +
          Math.abs(minZ * inverseZ))
      : 0;
    nodesVisited++;

    const permutation = usePermutation ? permutations[8 * node + octant]! : IDENTITY_PERMUTATION;
    let hits = 0;
    for (let i = 0; i < 8; i += 2) {
      const s = (permutation >>> i) & 3;
      let enter: number;
      let exit: number;
      if (regular) {
        enter = Math.max(0, u16[b + nearX + s]! * scaleX + offsetX, u16[b + nearY + s]! * scaleY + offsetY, u16[b + nearZ + s]! * scaleZ + offsetZ);
        exit = Math.min(u16[b + farX + s]! * scaleX + offsetX, u16[b + farY + s]! * scaleY + offsetY, u16[b + farZ + s]! * scaleZ + offsetZ) + slack;
      } else {
        if (((u32[w + s]! >>> 24) & 15) === 1) continue; // empty
        enter = 0;
        exit = Infinity;
        let t = (minX + u16[b + nearX + s]! * stepX - ox) * inverseX;
        if (t > enter) enter = t;
        t = (minY + u16[b + nearY + s]! * stepY - oy) * inverseY;
        if (t > enter) enter = t;
        t = (minZ + u16[b + nearZ + s]! * stepZ - oz) * inverseZ;
        if (t > enter) enter = t;
        t = (minX + u16[b + farX + s]! * stepX - ox) * inverseX;
        if (t < exit) exit = t;
        t = (minY + u16[b + farY + s]! * stepY - oy) * inverseY;
        if (t < exit) exit = t;
        t = (minZ + u16[b + farZ + s]! * stepZ - oz) * inverseZ;
        if (t < exit) exit = t;
        exit += Math.abs(exit) * EXIT_SLACK;
      }
      if (enter <= exit && enter <= tMax) {
        hitSlot[hits] = s;
        hitNear[hits] = enter;
        hitFar[hits] = exit;
        hits++;
      }
    }
    if (hits === 0) continue;
    if (byExit && hits > 1) orderByExit(hitFar, hits, sorted);
    else for (let i = 0; i < hits; i++) sorted[i] = i;

    // Leaves first, in order, so the ray shrinks before any node is pushed; then nodes, last first.
    for (let i = 0; i < hits; i++) {
      const h = sorted[i]!;
      const word = u32[w + hitSlot[h]!]!;
      const type = (word >>> 24) & 15;
      if (type === 0 || hitNear[h]! > tMax) continue;
      const first = word & CHILD_INDEX_MASK;
      const last = first + type - 1;
      for (let k = first; k < last; k++) {
        if (filtering && triangleMasked(materialIds, materialMasks, ordered ? order[k]! : k, filter)) {
          trianglesMasked++;
          continue;
        }
        trianglesTested++;
        let hitT: number;
        if (leafTriangles !== null) hitT = intersect(rayData, leafTriangles, 3 * k, 3 * k + 1, 3 * k + 2, tMax, doubleSided);
        else {
          const i3 = 3 * (ordered ? order[k]! : k);
          hitT = intersect(rayData, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!, tMax, doubleSided);
        }
        if (hitT >= 0 && (bestTriangle < 0 || hitT < tMax)) {
          tMax = hitT;
          bestTriangle = ordered ? order[k]! : k;
          if (mode === MODE_ANY) break traversal;
        }
      }
    }
    for (let i = hits - 1; i >= 0; i--) {
      const h = sorted[i]!;
      const slot = hitSlot[h]!;
      const word = u32[w + slot]!;
      if (((word >>> 24) & 15) !== 0 || hitNear[h]! > tMax) continue;
      const child = word & CHILD_INDEX_MASK;
      stackNode[top] = child;
      stackNear[top] = hitNear[h]!;
      writeSlotFrame(
        stackFrame,
        6 * top,
        child,
        firstShared,
        sharedFrames,
        ownsFrame,
        ownFrames,
        u16,
        b + slot,
        minX,
        minY,
        minZ,
        stepX,
        stepY,
        stepZ,
      );
      top++;
    }
  }

  workspace.bestT = bestTriangle >= 0 ? tMax : Infinity;
  workspace.bestTriangle = bestTriangle;
  workspace.nodesVisited += nodesVisited;
  workspace.boxesTested += 4 * nodesVisited;
  workspace.trianglesTested += trianglesTested;
  workspace.subtreesMasked += subtreesMasked;
  workspace.trianglesMasked += trianglesMasked;
}

/** The same walk over the float32 4-way layout (absolute boxes, no frames on the stack). */
export function traverseWideFloat(
  bvh: BVH,
  nodes: FloatNodes,
  permutations: Uint8Array | null,
  kernel: RayTriangleKernel,
  rayData: Float64Array,
  leafTriangles: Float32Array | null,
  workspace: StrategyWorkspace,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  rayTMax: number,
  mode: number,
  doubleSided: boolean,
  sorting: number,
  startNode = 0,
): void {
  const f32 = nodes.f32;
  const u32 = nodes.u32;
  const order = bvh.triangleOrder;
  const ordered = order !== null;
  const indices = bvh.indices;
  const positions = bvh.positions;
  const intersect = kernel.intersect;
  const stackNode = workspace.stackNode;
  const stackNear = workspace.stackNear;
  const hitSlot = workspace.hitSlot;
  const hitNear = workspace.hitNear;
  const hitFar = workspace.hitFar;
  const sorted = workspace.sorted;
  const filtering = workspace.filtering;
  const filter = workspace.filter;
  const materialIds = workspace.materialIds;
  const materialMasks = workspace.materialMasks;
  const nodeMasks = bvh.masks.nodeMasks;

  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  const regular = dx !== 0 && dy !== 0 && dz !== 0;
  const nearX = inverseX >= 0 ? 0 : 12,
    farX = 12 - nearX;
  const nearY = inverseY >= 0 ? 4 : 16,
    farY = 20 - nearY;
  const nearZ = inverseZ >= 0 ? 8 : 20,
    farZ = 28 - nearZ;
  const octant = octantOf(dx, dy, dz);
  const usePermutation = sorting === SORT_PRECOMPUTED && permutations !== null;
  const byExit = sorting === SORT_TMAX;

  let tMax = rayTMax;
  let bestTriangle = -1;
  let nodesVisited = 0;
  let trianglesTested = 0;
  let subtreesMasked = 0;
  let trianglesMasked = 0;
  let top = 0;
  if (nodes.nodeCount > 0) {
    stackNode[0] = startNode;
    stackNear[0] = 0;
    top = 1;
  }

  traversal: while (top > 0) {
    top--;
    if (stackNear[top]! > tMax) continue;
    const node = stackNode[top]!;
    const b = FLOAT_NODE_WORDS * node;
    const w = b + FLOAT_WORDS_OFFSET;
    if (filtering && subtreeMasked(u32, w, nodeMasks, filter)) {
      subtreesMasked++;
      continue;
    }
    nodesVisited++;
    const permutation = usePermutation ? permutations[8 * node + octant]! : IDENTITY_PERMUTATION;
    let hits = 0;
    for (let i = 0; i < 8; i += 2) {
      const s = (permutation >>> i) & 3;
      let enter: number;
      let exit: number;
      if (regular) {
        // Empty slots hold min = +∞, max = −∞: their enter is +∞ or their exit −∞, so they fail.
        enter = Math.max(0, (f32[b + nearX + s]! - ox) * inverseX, (f32[b + nearY + s]! - oy) * inverseY, (f32[b + nearZ + s]! - oz) * inverseZ);
        exit = Math.min((f32[b + farX + s]! - ox) * inverseX, (f32[b + farY + s]! - oy) * inverseY, (f32[b + farZ + s]! - oz) * inverseZ);
      } else {
        if (((u32[w + s]! >>> 24) & 15) === 1) continue;
        enter = 0;
        exit = Infinity;
        let t = (f32[b + nearX + s]! - ox) * inverseX;
        if (t > enter) enter = t;
        t = (f32[b + nearY + s]! - oy) * inverseY;
        if (t > enter) enter = t;
        t = (f32[b + nearZ + s]! - oz) * inverseZ;
        if (t > enter) enter = t;
        t = (f32[b + farX + s]! - ox) * inverseX;
        if (t < exit) exit = t;
        t = (f32[b + farY + s]! - oy) * inverseY;
        if (t < exit) exit = t;
        t = (f32[b + farZ + s]! - oz) * inverseZ;
        if (t < exit) exit = t;
      }
      exit += Math.abs(exit) * EXIT_SLACK;
      if (enter <= exit && enter <= tMax) {
        hitSlot[hits] = s;
        hitNear[hits] = enter;
        hitFar[hits] = exit;
        hits++;
      }
    }
    if (hits === 0) continue;
    if (byExit && hits > 1) orderByExit(hitFar, hits, sorted);
    else for (let i = 0; i < hits; i++) sorted[i] = i;

    for (let i = 0; i < hits; i++) {
      const h = sorted[i]!;
      const word = u32[w + hitSlot[h]!]!;
      const type = (word >>> 24) & 15;
      if (type === 0 || hitNear[h]! > tMax) continue;
      const first = word & CHILD_INDEX_MASK;
      const last = first + type - 1;
      for (let k = first; k < last; k++) {
        if (filtering && triangleMasked(materialIds, materialMasks, ordered ? order[k]! : k, filter)) {
          trianglesMasked++;
          continue;
        }
        trianglesTested++;
        let hitT: number;
        if (leafTriangles !== null) hitT = intersect(rayData, leafTriangles, 3 * k, 3 * k + 1, 3 * k + 2, tMax, doubleSided);
        else {
          const i3 = 3 * (ordered ? order[k]! : k);
          hitT = intersect(rayData, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!, tMax, doubleSided);
        }
        if (hitT >= 0 && (bestTriangle < 0 || hitT < tMax)) {
          tMax = hitT;
          bestTriangle = ordered ? order[k]! : k;
          if (mode === MODE_ANY) break traversal;
        }
      }
    }
    for (let i = hits - 1; i >= 0; i--) {
      const h = sorted[i]!;
      const word = u32[w + hitSlot[h]!]!;
      if (((word >>> 24) & 15) !== 0 || hitNear[h]! > tMax) continue;
      stackNode[top] = word & CHILD_INDEX_MASK;
      stackNear[top] = hitNear[h]!;
      top++;
    }
  }

  workspace.bestT = bestTriangle >= 0 ? tMax : Infinity;
  workspace.bestTriangle = bestTriangle;
  workspace.nodesVisited += nodesVisited;
  workspace.boxesTested += 4 * nodesVisited;
  workspace.trianglesTested += trianglesTested;
  workspace.subtreesMasked += subtreesMasked;
  workspace.trianglesMasked += trianglesMasked;
}
