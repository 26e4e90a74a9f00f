import type { BVH } from '../../bvh/buildBVH';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { FLOAT_NODE_WORDS, FLOAT_WORDS_OFFSET, type FloatNodes } from '../../bvh/floatLayout';
import type { RayTriangleKernel } from '../rayTriangle/registry';
import { orderByExit } from './frontToBack';
import type { RayWorkspace } from './rayWorkspace';
import { MODE_ALL, MODE_ANY, type AllHitsList } from './rayTypes';
import { recordAllHit } from './allHits';
import { subtreeMasked, triangleMasked } from '../walk/maskFilter';
import { EXIT_SLACK } from './traverseQuantized';

/**
 * One ray through the float32 4-wide layout: the same walk as traverseQuantized (see its notes on the
 * slab test's edge cases and the collision filter), with absolute float32 child boxes and no frames
 * on the stack.
 */
export function traverseFloat(
  bvh: BVH,
  nodes: FloatNodes,
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
  const f32 = nodes.f32;
  const { materialIds, materialMasks, nodeMasks } = bvh.masks;
  const u32 = nodes.u32;
  const order = bvh.triangleOrder;
  const ordered = order !== null;
  const indices = bvh.indices;
  const positions = bvh.positions;
  const intersect = kernel.intersect;
  const rayData = workspace.rayData;
  const stackNode = workspace.stackNode;
  const stackNear = workspace.stackNear;
  const hitSlot = workspace.hitSlot;
  const hitNear = workspace.hitNear;
  const hitFar = workspace.hitFar;
  const sorted = workspace.sorted;
  // One ray can meet a triangle twice: spatial splits put it in two leaves, or a shared leaf node has two parents.
  const dedupe = bvh.hasDuplicateReferences || bvh.stats.sharedNodes > 0;
  if (mode === MODE_ALL) workspace.bestT = Infinity;

  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  // Bound rows (0..5 = minX..maxZ) of each axis's near and far planes, times 4 floats per row.
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
    if (log !== null && logCount < log.length) log[logCount++] = node;
    let hits = 0;
    boxesTested += 4;
    for (let s = 0; s < 4; s++) {
      if (((u32[w + s]! >>> 24) & 15) === 1) continue; // empty
      let enter = 0;
      let exit = Infinity;
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
      exit += Math.abs(exit) * EXIT_SLACK;
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
      const word = u32[w + hitSlot[h]!]!;
      if (((word >>> 24) & 15) !== 0 || hitNear[h]! > tMax) continue;
      const child = word & CHILD_INDEX_MASK;
      stackNode[top] = child;
      stackNear[top] = hitNear[h]!;
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
