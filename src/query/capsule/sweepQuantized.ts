import type { BVH } from '../../bvh/buildBVH';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';
import { orderByExit } from '../rays/frontToBack';
import { FRAME_SIZE, writeSlotFrame, writeRootFrame } from '../walk/frames';
import { subtreeMasked, triangleMasked } from '../walk/maskFilter';
import type { CapsuleTrace, SweepCounters } from './capsuleTypes';
import { MASK_TO_PAIRS, popCount } from './featureBits';
import { drainQueues } from './featureTests';
import { cullTriangle } from './quickCull';
import { CAPSULE_STRIDE, CODE_OF_BIT, C_CENTRE, C_D, C_EXTENT, QUEUE_CAPACITY, QUEUE_OF_BIT, type SweepWorkspace } from './sweepWorkspace';

/** Box exits are scaled up by this before the enter ≤ exit test, as for rays: a capsule box touching a
 *  node box exactly must not be culled by a few ulps of slab error. */
const EXIT_SLACK = 2 ** -50;

/**
 * One capsule (slot `slot` of the workspace, already loaded) through the quantized 4-way tree, from
 * the root or, for a capsule a batch hands over, from `startNode` whose frame is min xyz, step xyz in
 * `startFrame`.
 *
 * Boxes: each child box is grown by the half extents of the capsule's own box and tested against the
 * segment from the capsule box's centre along the motion (t ∈ [0, best]), with the ray slab test's
 * NaN-tolerant compares (a zero motion component gives ±∞, or NaN on a face, which is ignored).
 * Children are visited nearest entry first; leaves of a node before its inner children, each leaf's
 * pair queues drained before the next so the motion shrinks as early as possible.
 *
 * Triangles: cullTriangle (plane cull, then the quick cull along the motion) gives the pairs that can
 * touch; those the triangle's edge mask allows go to the queues.
 *
 * Collision filter: with `filtering`, a node whose combined mask misses `filter` is dropped when popped
 * and a leaf triangle whose mask misses it is skipped before the culls (walk/maskFilter.ts); the edge
 * masks must then be those of the filtered mesh (edgeMasksFor(bvh, filter)).
 *
 * Work is added to `counters` (nodes, boxes, leaves, triangles, culled, masked, pairs kept and tested).
 */
export function sweepQuantized(
  bvh: BVH,
  nodes: QuantizedNodes,
  ws: SweepWorkspace,
  slot: number,
  masks: Uint8Array | null,
  quickCull: boolean,
  trace: CapsuleTrace | null,
  counters: SweepCounters,
  filtering: boolean,
  filter: number,
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
  const { materialIds, materialMasks, nodeMasks } = bvh.masks;
  const stackNode = ws.stackNode;
  const stackNear = ws.stackNear;
  const stackFrame = ws.stackFrame;
  const hitSlot = ws.hitSlot;
  const hitNear = ws.hitNear;
  const sorted = ws.sorted;
  const queueTriangle = ws.queueTriangle;
  const queueCode = ws.queueCode;
  const queueSlot = ws.queueSlot;
  const queueCount = ws.queueCount;
  const capsules = ws.capsules;
  const bestT = ws.bestT;

  const c = CAPSULE_STRIDE * slot;
  const dx = capsules[c + C_D]!,
    dy = capsules[c + C_D + 1]!,
    dz = capsules[c + C_D + 2]!;
  const ox = capsules[c + C_CENTRE]!,
    oy = capsules[c + C_CENTRE + 1]!,
    oz = capsules[c + C_CENTRE + 2]!;
  const ex = capsules[c + C_EXTENT]!,
    ey = capsules[c + C_EXTENT + 1]!,
    ez = capsules[c + C_EXTENT + 2]!;
  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  const nearX = inverseX >= 0 ? 0 : 12,
    farX = 12 - nearX;
  const nearY = inverseY >= 0 ? 4 : 16,
    farY = 20 - nearY;
  const nearZ = inverseZ >= 0 ? 8 : 20,
    farZ = 28 - nearZ;
  const growNearX = inverseX >= 0 ? -ex : ex,
    growNearY = inverseY >= 0 ? -ey : ey,
    growNearZ = inverseZ >= 0 ? -ez : ez;

  let nodesVisited = 0;
  let leavesVisited = 0;
  let trianglesTested = 0;
  let culled = 0;
  let subtreesMasked = 0;
  let trianglesMasked = 0;
  let pairsKept = 0;
  let pairsTested = 0;
  let pending = false;

  let top = 0;
  if (startFrame !== null) {
    stackNode[0] = startNode;
    stackNear[0] = 0;
    for (let k = 0; k < FRAME_SIZE; k++) stackFrame[k] = startFrame[k]!;
    top = 1;
  } else if (nodes.nodeCount > 0) {
    stackNode[0] = 0;
    stackNear[0] = 0;
    writeRootFrame(nodes, stackFrame, 0);
    top = 1;
  }

  while (top > 0) {
    top--;
    if (stackNear[top]! > bestT[slot]!) continue;
    const node = stackNode[top]!;
    const b = QUANTIZED_NODE_U16 * node;
    const w = QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32;
    if (filtering && subtreeMasked(u32, w, nodeMasks, filter)) {
      subtreesMasked++;
      continue;
    }
    const f = FRAME_SIZE * top;
    const minX = stackFrame[f]!,
      minY = stackFrame[f + 1]!,
      minZ = stackFrame[f + 2]!;
    const stepX = stackFrame[f + 3]!,
      stepY = stackFrame[f + 4]!,
      stepZ = stackFrame[f + 5]!;
    nodesVisited++;
    const nearBaseX = minX + growNearX - ox,
      farBaseX = minX - growNearX - ox;
    const nearBaseY = minY + growNearY - oy,
      farBaseY = minY - growNearY - oy;
    const nearBaseZ = minZ + growNearZ - oz,
      farBaseZ = minZ - growNearZ - oz;

    let limit = bestT[slot]!;
    let hits = 0;
    for (let s = 0; s < 4; s++) {
      if (((u32[w + s]! >>> 24) & 15) === 1) continue; // empty
      let enter = 0;
      let exit = Infinity;
      let t = (nearBaseX + u16[b + nearX + s]! * stepX) * inverseX;
      if (t > enter) enter = t;
      t = (nearBaseY + u16[b + nearY + s]! * stepY) * inverseY;
      if (t > enter) enter = t;
      t = (nearBaseZ + u16[b + nearZ + s]! * stepZ) * inverseZ;
      if (t > enter) enter = t;
      t = (farBaseX + u16[b + farX + s]! * stepX) * inverseX;
      if (t < exit) exit = t;
      t = (farBaseY + u16[b + farY + s]! * stepY) * inverseY;
      if (t < exit) exit = t;
      t = (farBaseZ + u16[b + farZ + s]! * stepZ) * inverseZ;
      if (t < exit) exit = t;
      exit += Math.abs(exit) * EXIT_SLACK;
      if (enter <= exit && enter <= limit) {
        hitSlot[hits] = s;
        hitNear[hits] = enter;
        hits++;
      }
    }
    if (hits === 0) continue;
    if (hits === 1) sorted[0] = 0;
    else orderByExit(hitNear, hits, sorted);

    for (let i = 0; i < hits; i++) {
      const h = sorted[i]!;
      const word = u32[w + hitSlot[h]!]!;
      const type = (word >>> 24) & 15;
      if (type === 0 || hitNear[h]! > limit) continue;
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
        const ia = 3 * indices[i3]!,
          ib = 3 * indices[i3 + 1]!,
          ic = 3 * indices[i3 + 2]!;
        const kept = cullTriangle(capsules, bestT, slot, positions, ia, ib, ic, quickCull);
        const tested = masks === null ? kept : kept & MASK_TO_PAIRS[masks[triangle]!]!;
        if (trace !== null && trace.count < trace.capacity) {
          trace.triangle[trace.count] = triangle;
          trace.kept[trace.count] = kept;
          trace.tested[trace.count] = tested;
          trace.count++;
        }
        if (kept === 0) {
          culled++;
          continue;
        }
        pairsKept += popCount(kept);
        if (tested === 0) continue;
        pairsTested += popCount(tested);
        pending = true;
        let bits = tested;
        while (bits !== 0) {
          const bit = 31 - Math.clz32(bits & -bits);
          bits &= bits - 1;
          const queue = QUEUE_OF_BIT[bit]!;
          const entry = queue * QUEUE_CAPACITY + queueCount[queue]!++;
          queueTriangle[entry] = triangle;
          queueCode[entry] = CODE_OF_BIT[bit]!;
          queueSlot[entry] = slot;
        }
      }
      if (pending) {
        drainQueues(ws, positions, indices);
        pending = false;
        limit = bestT[slot]!;
      }
    }

    for (let i = hits - 1; i >= 0; i--) {
      const h = sorted[i]!;
      const child4 = hitSlot[h]!;
      const word = u32[w + child4]!;
      if (((word >>> 24) & 15) !== 0 || hitNear[h]! > limit) continue;
      const child = word & CHILD_INDEX_MASK;
      stackNode[top] = child;
      stackNear[top] = hitNear[h]!;
      writeSlotFrame(
        stackFrame,
        FRAME_SIZE * top,
        child,
        firstShared,
        sharedFrames,
        ownsFrame,
        ownFrames,
        u16,
        b + child4,
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

  counters.nodesVisited += nodesVisited;
  counters.boxesTested += 4 * nodesVisited;
  counters.leavesVisited += leavesVisited;
  counters.trianglesTested += trianglesTested;
  counters.culled += culled;
  counters.subtreesMasked += subtreesMasked;
  counters.trianglesMasked += trianglesMasked;
  counters.pairsKept += pairsKept;
  counters.pairsTested += pairsTested;
}
