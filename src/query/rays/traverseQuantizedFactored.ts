import type { BVH } from '../../bvh/buildBVH';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { QUANT_STEP_SCALE } from '../../bvh/quantize';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';
import type { RayTriangleKernel } from '../rayTriangle/registry';
import { orderByExit } from './frontToBack';
import type { RayWorkspace } from './rayWorkspace';
import { MODE_ALL, MODE_ANY, type AllHitsList } from './rayTypes';
import { recordAllHit } from './allHits';

/** Scale of the per-node slack added to box exits; see the error bound below. */
const FACTORED_SLACK = 2 ** -47;

/**
 * The quantized traversal for rays with no zero direction component (all but axis-parallel ones): the
 * same walk as traverseQuantized, with the slab distance of a 16-bit bound q factored per node as
 *   (frameMin + q·step − origin)·inverse = q·(step·inverse) + (frameMin − origin)·inverse
 * so each bound costs one multiply-add, and enter/exit are plain Math.max/min (no NaN can arise when
 * every inverse is finite). Empty slots need no test: their min > max culls them (and the child loops
 * skip type 1 anyway).
 *
 * Error bound: against the exact slab distance, each computed distance is off by at most a few ulps of
 * 65535·|step·inverse| + |frameMin − origin|·|inverse| + |frameMin·inverse| per axis (the last term
 * for the packer's own rounding of frameMin + q·step). The node's slack, FACTORED_SLACK times their sum
 * over the axes, is added to every exit, so a box the ray truly touches is never culled.
 */
export function traverseQuantizedFactored(
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
): void {
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  const firstShared = nodes.firstShared;
  const sharedFrames = nodes.sharedFrames;
  const order = bvh.triangleOrder;
  const ordered = order !== null;
  const indices = bvh.indices;
  const positions = bvh.positions;
  const intersect = kernel.intersect;
  const rayData = workspace.rayData;
  const stackNode = workspace.stackNode;
  const stackNear = workspace.stackNear;
  const stackFrame = workspace.stackFrame;
  const hitSlot = workspace.hitSlot;
  const hitNear = workspace.hitNear;
  const hitFar = workspace.hitFar;
  const sorted = workspace.sorted;
  const dedupe = bvh.hasDuplicateReferences;
  if (mode === MODE_ALL) workspace.bestT = Infinity;

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
  let trianglesTested = 0;
  let logCount = workspace.logCount;

  let top = 0;
  if (nodes.nodeCount > 0) {
    const root = nodes.rootFrame;
    stackNode[0] = 0;
    stackNear[0] = 0;
    stackFrame[0] = root[0]!;
    stackFrame[1] = root[1]!;
    stackFrame[2] = root[2]!;
    stackFrame[3] = (root[3]! - root[0]!) * QUANT_STEP_SCALE;
    stackFrame[4] = (root[4]! - root[1]!) * QUANT_STEP_SCALE;
    stackFrame[5] = (root[5]! - root[2]!) * QUANT_STEP_SCALE;
    top = 1;
  }

  traversal: while (top > 0) {
    top--;
    if (stackNear[top]! > tMax) continue;
    const node = stackNode[top]!;
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
    const slack =
      FACTORED_SLACK *
      (65535 * (Math.abs(scaleX) + Math.abs(scaleY) + Math.abs(scaleZ)) +
        Math.abs(offsetX) +
        Math.abs(offsetY) +
        Math.abs(offsetZ) +
        Math.abs(minX * inverseX) +
        Math.abs(minY * inverseY) +
        Math.abs(minZ * inverseZ));
    nodesVisited++;
    if (log !== null && logCount < log.length) log[logCount++] = node;

    const b = QUANTIZED_NODE_U16 * node;
    const w = QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32;
    let hits = 0;
    boxesTested += 4;
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
    if (hits === 0) continue;
    if (hits === 1) sorted[0] = 0;
    else orderByExit(hitFar, hits, sorted);

    // Leaves now, front to back, so the ray shrinks before any node is pushed; then nodes, farthest
    // first, so the nearest is popped next.
    for (let i = 0; i < hits; i++) {
      const h = sorted[i]!;
      const word = u32[w + hitSlot[h]!]!;
      const type = (word >>> 24) & 15;
      if (type === 0 || hitNear[h]! > tMax) continue;
      const first = word & CHILD_INDEX_MASK;
      const last = first + type - 1;
      for (let k = first; k < last; k++) {
        const triangle = ordered ? order[k]! : k;
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
      const child = word & CHILD_INDEX_MASK;
      stackNode[top] = child;
      stackNear[top] = hitNear[h]!;
      const o = 6 * top;
      if (child >= firstShared) {
        const g = 6 * (child - firstShared);
        stackFrame[o] = sharedFrames[g]!;
        stackFrame[o + 1] = sharedFrames[g + 1]!;
        stackFrame[o + 2] = sharedFrames[g + 2]!;
        stackFrame[o + 3] = (sharedFrames[g + 3]! - sharedFrames[g]!) * QUANT_STEP_SCALE;
        stackFrame[o + 4] = (sharedFrames[g + 4]! - sharedFrames[g + 1]!) * QUANT_STEP_SCALE;
        stackFrame[o + 5] = (sharedFrames[g + 5]! - sharedFrames[g + 2]!) * QUANT_STEP_SCALE;
      } else {
        const loX = minX + u16[b + slot]! * stepX;
        const loY = minY + u16[b + 4 + slot]! * stepY;
        const loZ = minZ + u16[b + 8 + slot]! * stepZ;
        stackFrame[o] = loX;
        stackFrame[o + 1] = loY;
        stackFrame[o + 2] = loZ;
        stackFrame[o + 3] = (minX + u16[b + 12 + slot]! * stepX - loX) * QUANT_STEP_SCALE;
        stackFrame[o + 4] = (minY + u16[b + 16 + slot]! * stepY - loY) * QUANT_STEP_SCALE;
        stackFrame[o + 5] = (minZ + u16[b + 20 + slot]! * stepZ - loZ) * QUANT_STEP_SCALE;
      }
      top++;
    }
  }

  if (mode !== MODE_ALL) workspace.bestT = bestTriangle >= 0 ? tMax : Infinity;
  else if (bestTriangle < 0) workspace.bestT = Infinity;
  workspace.bestTriangle = bestTriangle;
  workspace.nodesVisited += nodesVisited;
  workspace.boxesTested += boxesTested;
  workspace.trianglesTested += trianglesTested;
  workspace.logCount = logCount;
}
