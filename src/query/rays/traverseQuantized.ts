import type { BVH } from '../../bvh/buildBVH';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';
import type { RayTriangleKernel } from '../rayTriangle/registry';
import { writeSlotFrame, writeRootFrame } from '../walk/frames';
import { subtreeMasked, triangleMasked } from '../walk/maskFilter';
import { orderByExit } from './frontToBack';
import type { RayWorkspace } from './rayWorkspace';
import { MODE_ALL, MODE_ANY, type AllHitsList } from './rayTypes';
import { recordAllHit } from './allHits';

/** Box exits are scaled up by this before the enter ≤ exit test: float64 slab distances carry a few
 *  ulps of error, and a ray through a box corner (enter = exit exactly) must not be culled by them. */
export const EXIT_SLACK = 2 ** -50;
/** Scale of the per-node slack added to box exits by the factored test; see its error bound below. */
const FACTORED_SLACK = 2 ** -47;

/**
 * One ray through the quantized 4-way tree. Results go to workspace.bestT / bestTriangle, work to its
 * counters. The ray must be valid (castRays checks) and already prepared in workspace.rayData.
 *
 * Two child tests, chosen per ray (the branch is the same at every node, so it predicts perfectly):
 *
 * NaN-aware test, for rays with a zero direction component (do not "simplify" without the edge cases
 * in mind): the inverse direction has −0 turned into +0, so a zero component gives +∞, and the near/far
 * bound of each axis is picked by the sign once per ray. A ray lying in a face plane makes
 * (bound − origin)·∞ = 0·∞ = NaN; enter and exit are accumulated as `if (t > enter) enter = t` /
 * `if (t < exit) exit = t`, where NaN compares false and is ignored, so that axis admits the ray: a ray
 * along a face or through an edge counts as inside and two touching boxes leave no gap between them.
 *
 * Factored test, for every other ray: the slab distance of a 16-bit bound q is factored per node as
 *   (frameMin + q·step − origin)·inverse = q·(step·inverse) + (frameMin − origin)·inverse
 * so each bound costs one multiply-add, and enter/exit are plain Math.max/min (no NaN can arise when
 * every inverse is finite). Error bound: against the exact slab distance, each computed distance is off
 * by at most a few ulps of 65535·|step·inverse| + |frameMin − origin|·|inverse| + |frameMin·inverse| per
 * axis (the last term for the packer's own rounding of frameMin + q·step). The node's slack,
 * FACTORED_SLACK times their sum over the axes, is added to every exit, so a box the ray truly touches
 * is never culled.
 *
 * Collision filter: with `filtering`, a node whose combined mask misses `filter` is dropped when popped
 * and a leaf triangle whose mask misses it is not tested (walk/maskFilter.ts).
 */
export function traverseQuantized(
  bvh: BVH,
  nodes: QuantizedNodes,
  kernel: RayTriangleKernel,
  workspace: RayWorkspace,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  rayTMax: number,
  mode: number,
  doubleSided: boolean,
  allHits: AllHitsList | null,
  rayIndex: number,
  log: Int32Array | null,
  filtering: boolean,
  filter: number,
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
  const { materialIds, materialMasks, nodeMasks } = bvh.masks;
  const intersect = kernel.intersect;
  const rayData = workspace.rayData;
  const stackNode = workspace.stackNode;
  const stackNear = workspace.stackNear;
  const stackFrame = workspace.stackFrame;
  const hitSlot = workspace.hitSlot;
  const hitNear = workspace.hitNear;
  const hitFar = workspace.hitFar;
  const sorted = workspace.sorted;
  // One ray can meet a triangle twice: spatial splits put it in two leaves, or a shared leaf node has two parents.
  const dedupe = bvh.hasDuplicateReferences || bvh.stats.sharedNodes > 0;
  if (mode === MODE_ALL) workspace.bestT = Infinity;

  const factored = dx !== 0 && dy !== 0 && dz !== 0;
  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  // Bound rows (0..5 = minX..maxZ) of each axis's near and far planes, times 4 u16 per row.
  const nearX = inverseX >= 0 ? 0 : 12,
    farX = 12 - nearX;
  const nearY = inverseY >= 0 ? 4 : 16,
    farY = 20 - nearY;
  const nearZ = inverseZ >= 0 ? 8 : 20,
    farZ = 28 - nearZ;

  let tMax = rayTMax;
  let bestTriangle = -1;
  let nodesVisited = 0;
  let boxesTested = 0;
  let leavesVisited = 0;
  let trianglesTested = 0;
  let subtreesMasked = 0;
  let trianglesMasked = 0;
  let logCount = workspace.logCount;

  let top = 0;
  if (nodes.nodeCount > 0) {
    stackNode[0] = 0;
    stackNear[0] = 0;
    writeRootFrame(nodes, stackFrame, 0);
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
    nodesVisited++;
    if (log !== null && logCount < log.length) log[logCount++] = node;

    let hits = 0;
    boxesTested += 4;
    if (factored) {
      const scaleX = stepX * inverseX,
        scaleY = stepY * inverseY,
        scaleZ = stepZ * inverseZ;
      const offsetX = (minX - ox) * inverseX,
        offsetY = (minY - oy) * inverseY,
        offsetZ = (minZ - oz) * inverseZ;
      const slack =
        FACTORED_SLACK *
        (65535 * (Math.abs(scaleX) + Math.abs(scaleY) + Math.abs(scaleZ)) +
          Math.abs(offsetX) +
          Math.abs(offsetY) +
          Math.abs(offsetZ) +
          Math.abs(minX * inverseX) +
          Math.abs(minY * inverseY) +
          Math.abs(minZ * inverseZ));
      for (let s = 0; s < 4; s++) {
        const enter = Math.max(
          0,
          u16[b + nearX + s]! * scaleX + offsetX,
          u16[b + nearY + s]! * scaleY + offsetY,
          u16[b + nearZ + s]! * scaleZ + offsetZ,
        );
        const exit =
          Math.min(u16[b + farX + s]! * scaleX + offsetX, u16[b + farY + s]! * scaleY + offsetY, u16[b + farZ + s]! * scaleZ + offsetZ) + slack;
        if (enter <= exit && enter <= tMax) {
          hitSlot[hits] = s;
          hitNear[hits] = enter;
          hitFar[hits] = exit;
          hits++;
        }
      }
    } else {
      for (let s = 0; s < 4; s++) {
        if (((u32[w + s]! >>> 24) & 15) === 1) continue; // empty
        let enter = 0;
        let exit = Infinity;
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
        if (enter <= exit && enter <= tMax) {
          hitSlot[hits] = s;
          hitNear[hits] = enter;
          hitFar[hits] = exit;
          hits++;
        }
      }
    }
    if (hits === 0) continue;
    if (hits === 1) sorted[0] = 0;
    else orderByExit(hitFar, hits, sorted);

    // Leaves now, front to back, so the ray shrinks before any node is pushed; then nodes, farthest
    // first, so the nearest is popped next.
    for (let i = 0; i < hits; i++) {
      const h = sorted[i]!;
      const word = u32[w + hitSlot[h]!]!;
      const type = (word >>> 24) & 15;
      if (type <= 1 || hitNear[h]! > tMax) continue;
      leavesVisited++;
      const first = word & CHILD_INDEX_MASK;
      const last = first + type - 1;
      for (let k = first; k < last; k++) {
        const triangle = ordered ? order[k]! : k;
        if (filtering && triangleMasked(materialIds, materialMasks, triangle, filter)) {
          trianglesMasked++;
          continue;
        }
        const i3 = 3 * triangle;
        trianglesTested++;
        const hitT = intersect(rayData, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!, tMax, doubleSided);
        if (hitT >= 0) {
          if (mode === MODE_ALL) {
            recordAllHit(allHits!, rayIndex, hitT, triangle, dedupe);
            if (bestTriangle < 0 || hitT < workspace.bestT) {
              workspace.bestT = hitT;
              bestTriangle = triangle;
            }
          } else if (bestTriangle < 0 || hitT < tMax) {
            tMax = hitT;
            bestTriangle = triangle;
            if (mode === MODE_ANY) break traversal;
          }
        }
      }
    }
    for (let i = hits - 1; i >= 0; i--) {
      const h = sorted[i]!;
      const slot = hitSlot[h]!;
      const word = u32[w + slot]!;
      if (((word >>> 24) & 15) !== 0 || hitNear[h]! > tMax) continue;
      stackNode[top] = word & CHILD_INDEX_MASK;
      stackNear[top] = hitNear[h]!;
      writeSlotFrame(
        stackFrame,
        6 * top,
        word & CHILD_INDEX_MASK,
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

  if (mode !== MODE_ALL) workspace.bestT = bestTriangle >= 0 ? tMax : Infinity;
  else if (bestTriangle < 0) workspace.bestT = Infinity;
  workspace.bestTriangle = bestTriangle;
  workspace.nodesVisited += nodesVisited;
  workspace.boxesTested += boxesTested;
  workspace.leavesVisited += leavesVisited;
  workspace.trianglesTested += trianglesTested;
  workspace.subtreesMasked += subtreesMasked;
  workspace.trianglesMasked += trianglesMasked;
  workspace.logCount = logCount;
}
