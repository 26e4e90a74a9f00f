import type { BVH } from '../../bvh/buildBVH';
import { CHILD_INDEX_MASK } from '../../bvh/childWord';
import { QUANT_STEP_SCALE } from '../../bvh/quantize';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';
import { orderByExit } from '../rays/frontToBack';
import type { CapsuleTrace } from './capsuleTypes';
import { ALL_PAIRS, CYLINDER_SHIFT, FACE_BIT, FACE_BITS, MASK_TO_PAIRS, PART_LUT, SPHERE1_SHIFT, popCount } from './featureBits';
import { drainQueues } from './featureTests';
import { CODE_OF_BIT, QUEUE_CAPACITY, QUEUE_OF_BIT, type SweepWorkspace } from './sweepWorkspace';

/** Box exits are scaled up by this before the enter ≤ exit test, as for rays: a capsule box touching a
 *  node box exactly must not be culled by a few ulps of slab error. */
const EXIT_SLACK = 2 ** -50;

/** Per-sweep work, summed into the caller's counters. */
export class SweepTally {
  nodesVisited = 0;
  trianglesTested = 0;
  pairsKept = 0;
  pairsTested = 0;
}

/**
 * One capsule (already in the workspace) through the quantized 4-way tree.
 *
 * Boxes: each child box is grown by the half extents of the capsule's own box and tested against the
 * segment from the capsule box's centre along the motion (t ∈ [0, best]), with the ray slab test's
 * NaN-tolerant compares (a zero motion component gives ±∞, or NaN on a face, which is ignored).
 * Children are visited nearest entry first; leaves of a node before its inner children, each leaf's
 * pair queues drained before the next so the motion shrinks as early as possible.
 *
 * Triangles: a plane cull (the swept segment never comes within r of the triangle's plane), then the
 * quick cull in the projection along the motion. In that view the swept capsule stands still: the two
 * spheres are discs around their centres, the cylinder is the stadium between them, and the distance
 * from a point to an edge's line is its distance to the plane through the edge and the motion,
 * s = ((B − A) × d)·(P − A) / |(B − A) × d|, compared squared to avoid roots. A part's shadow reaches
 * the line of edge i (band bit) and the triangle's side of it (band or inside bit); PART_LUT turns the
 * three band and three side bits into the pairs that can touch. Kept pairs minus the triangle's edge
 * mask go to the queues.
 */
export function sweepQuantized(
  bvh: BVH,
  nodes: QuantizedNodes,
  ws: SweepWorkspace,
  masks: Uint8Array | null,
  quickCull: boolean,
  trace: CapsuleTrace | null,
  tally: SweepTally,
): void {
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  const firstShared = nodes.firstShared;
  const sharedFrames = nodes.sharedFrames;
  const order = bvh.triangleOrder;
  const ordered = order !== null;
  const indices = bvh.indices;
  const positions = bvh.positions;
  const stackNode = ws.stackNode;
  const stackNear = ws.stackNear;
  const stackFrame = ws.stackFrame;
  const hitSlot = ws.hitSlot;
  const hitNear = ws.hitNear;
  const sorted = ws.sorted;
  const queueTriangle = ws.queueTriangle;
  const queueCode = ws.queueCode;
  const queueCount = ws.queueCount;

  const p0x = ws.p0x, p0y = ws.p0y, p0z = ws.p0z;
  const p1x = ws.p1x, p1y = ws.p1y, p1z = ws.p1z;
  const dx = ws.dx, dy = ws.dy, dz = ws.dz;
  const r = ws.r;
  const sx = p1x - p0x, sy = p1y - p0y, sz = p1z - p0z;
  const hasAxis = sx !== 0 || sy !== 0 || sz !== 0;
  // Cull slack: a few ulps of the coordinates, so rounding never culls a touching pair.
  const scale = Math.max(Math.abs(p0x), Math.abs(p0y), Math.abs(p0z), Math.abs(p1x), Math.abs(p1y), Math.abs(p1z)) + Math.abs(dx) + Math.abs(dy) + Math.abs(dz) + r;
  const slack = 1e-9 * scale;
  const rCull = r + slack;
  const rCull2 = rCull * rCull;

  // The capsule's box: centre and half extents, grown by the slack.
  const ox = 0.5 * (p0x + p1x), oy = 0.5 * (p0y + p1y), oz = 0.5 * (p0z + p1z);
  const ex = 0.5 * Math.abs(sx) + rCull, ey = 0.5 * Math.abs(sy) + rCull, ez = 0.5 * Math.abs(sz) + rCull;
  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  const nearX = inverseX >= 0 ? 0 : 12, farX = 12 - nearX;
  const nearY = inverseY >= 0 ? 4 : 16, farY = 20 - nearY;
  const nearZ = inverseZ >= 0 ? 8 : 20, farZ = 28 - nearZ;
  const growNearX = inverseX >= 0 ? -ex : ex, growNearY = inverseY >= 0 ? -ey : ey, growNearZ = inverseZ >= 0 ? -ez : ez;

  let nodesVisited = 0;
  let trianglesTested = 0;
  let pairsKept = 0;
  let pairsTested = 0;
  let pending = false;

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

  while (top > 0) {
    top--;
    if (stackNear[top]! > ws.bestT) continue;
    const node = stackNode[top]!;
    const f = 6 * top;
    const minX = stackFrame[f]!, minY = stackFrame[f + 1]!, minZ = stackFrame[f + 2]!;
    const stepX = stackFrame[f + 3]!, stepY = stackFrame[f + 4]!, stepZ = stackFrame[f + 5]!;
    nodesVisited++;
    const nearBaseX = minX + growNearX - ox, farBaseX = minX - growNearX - ox;
    const nearBaseY = minY + growNearY - oy, farBaseY = minY - growNearY - oy;
    const nearBaseZ = minZ + growNearZ - oz, farBaseZ = minZ - growNearZ - oz;

    const b = QUANTIZED_NODE_U16 * node;
    const w = QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32;
    let limit = ws.bestT;
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
      const first = word & CHILD_INDEX_MASK;
      const last = first + type - 1;
      for (let k = first; k < last; k++) {
        const triangle = ordered ? order[k]! : k;
        const i3 = 3 * triangle;
        trianglesTested++;
        const ia = 3 * indices[i3]!, ib = 3 * indices[i3 + 1]!, ic = 3 * indices[i3 + 2]!;
        const ax = positions[ia]!, ay = positions[ia + 1]!, az = positions[ia + 2]!;
        const bx = positions[ib]!, by = positions[ib + 1]!, bz = positions[ib + 2]!;
        const cx = positions[ic]!, cy = positions[ic + 1]!, cz = positions[ic + 2]!;
        const e0x = bx - ax, e0y = by - ay, e0z = bz - az;
        const e1x = cx - bx, e1y = cy - by, e1z = cz - bz;
        const e2x = ax - cx, e2y = ay - cy, e2z = az - cz;
        // Face normal (B − A) × (C − A) = E2 × E0, unnormalised.
        const nx = e2y * e0z - e2z * e0y, ny = e2z * e0x - e2x * e0z, nz = e2x * e0y - e2y * e0x;
        const nn = nx * nx + ny * ny + nz * nz;
        const w0x = p0x - ax, w0y = p0y - ay, w0z = p0z - az;
        const sa0 = nx * w0x + ny * w0y + nz * w0z;
        const sa1 = sa0 + nx * sx + ny * sy + nz * sz;
        const k0 = nx * dx + ny * dy + nz * dz;
        let reach0 = true;
        let reach1 = true;
        if (nn > 0) {
          // Plane cull: the segment's plane distances over [0, limit] span the four corner values.
          const band = rCull * Math.sqrt(nn);
          const move = limit * k0;
          const end0 = sa0 + move, end1 = sa1 + move;
          const lo0 = sa0 < end0 ? sa0 : end0, hi0 = sa0 < end0 ? end0 : sa0;
          const lo1 = sa1 < end1 ? sa1 : end1, hi1 = sa1 < end1 ? end1 : sa1;
          if ((lo0 > band && lo1 > band) || (hi0 < -band && hi1 < -band)) continue;
          reach0 = lo0 <= band && hi0 >= -band;
          reach1 = lo1 <= band && hi1 >= -band;
        }
        let kept: number;
        if (quickCull) {
          // Edge planes through each edge and the motion: n_i = E_i × d.
          const n0x = e0y * dz - e0z * dy, n0y = e0z * dx - e0x * dz, n0z = e0x * dy - e0y * dx;
          const n1x = e1y * dz - e1z * dy, n1y = e1z * dx - e1x * dz, n1z = e1x * dy - e1y * dx;
          const n2x = e2y * dz - e2z * dy, n2y = e2z * dx - e2x * dz, n2z = e2x * dy - e2y * dx;
          const s00 = n0x * w0x + n0y * w0y + n0z * w0z;
          const s01 = s00 + n0x * sx + n0y * sy + n0z * sz;
          const s10 = n1x * (p0x - bx) + n1y * (p0y - by) + n1z * (p0z - bz);
          const s11 = s10 + n1x * sx + n1y * sy + n1z * sz;
          const s20 = n2x * (p0x - cx) + n2y * (p0y - cy) + n2z * (p0z - cz);
          const s21 = s20 + n2x * sx + n2y * sy + n2z * sz;
          const l0 = rCull2 * (n0x * n0x + n0y * n0y + n0z * n0z);
          const l1 = rCull2 * (n1x * n1x + n1y * n1y + n1z * n1z);
          const l2 = rCull2 * (n2x * n2x + n2y * n2y + n2z * n2z);
          // The triangle's side of every edge plane has the sign of −n·d (s_0(C) = −n·d); 0 admits both.
          const sigma = -k0;
          const band0 = (s00 * s00 <= l0 ? 1 : 0) | (s10 * s10 <= l1 ? 2 : 0) | (s20 * s20 <= l2 ? 4 : 0);
          const side0 = band0 | (s00 * sigma >= 0 ? 1 : 0) | (s10 * sigma >= 0 ? 2 : 0) | (s20 * sigma >= 0 ? 4 : 0);
          const band1 = (s01 * s01 <= l0 ? 1 : 0) | (s11 * s11 <= l1 ? 2 : 0) | (s21 * s21 <= l2 ? 4 : 0);
          const side1 = band1 | (s01 * sigma >= 0 ? 1 : 0) | (s11 * sigma >= 0 ? 2 : 0) | (s21 * sigma >= 0 ? 4 : 0);
          kept = (reach0 ? PART_LUT[band0 | (side0 << 3)]! : 0) | (reach1 ? PART_LUT[band1 | (side1 << 3)]! << SPHERE1_SHIFT : 0);
          if (hasAxis) {
            // The stadium reaches a line if either disc does or the axis crosses it; a side if either disc does.
            const bandC = band0 | band1 | (s00 * s01 < 0 ? 1 : 0) | (s10 * s11 < 0 ? 2 : 0) | (s20 * s21 < 0 ? 4 : 0);
            const sideC = side0 | side1;
            let cylinder = PART_LUT[bandC | (sideC << 3)]! & ~FACE_BIT;
            if (sideC === 7 && !(sa0 > 0 && sa1 > 0) && !(sa0 < 0 && sa1 < 0)) cylinder |= FACE_BIT;
            kept |= cylinder << CYLINDER_SHIFT;
          }
        } else kept = hasAxis ? ALL_PAIRS : ALL_PAIRS & ((1 << CYLINDER_SHIFT) - 1);
        if (!(nn > 0)) kept &= ~FACE_BITS;
        const tested = masks === null ? kept : kept & MASK_TO_PAIRS[masks[triangle]!]!;
        if (trace !== null && trace.count < trace.capacity) {
          trace.triangle[trace.count] = triangle;
          trace.kept[trace.count] = kept;
          trace.tested[trace.count] = tested;
          trace.count++;
        }
        if (kept === 0) continue;
        pairsKept += popCount(kept);
        if (tested === 0) continue;
        pairsTested += popCount(tested);
        pending = true;
        let bits = tested;
        while (bits !== 0) {
          const bit = 31 - Math.clz32(bits & -bits);
          bits &= bits - 1;
          const queue = QUEUE_OF_BIT[bit]!;
          const slot = queue * QUEUE_CAPACITY + queueCount[queue]!++;
          queueTriangle[slot] = triangle;
          queueCode[slot] = CODE_OF_BIT[bit]!;
        }
      }
      if (pending) {
        drainQueues(ws, positions, indices);
        pending = false;
        limit = ws.bestT;
      }
    }

    for (let i = hits - 1; i >= 0; i--) {
      const h = sorted[i]!;
      const slot = hitSlot[h]!;
      const word = u32[w + slot]!;
      if (((word >>> 24) & 15) !== 0 || hitNear[h]! > limit) continue;
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

  tally.nodesVisited += nodesVisited;
  tally.trianglesTested += trianglesTested;
  tally.pairsKept += pairsKept;
  tally.pairsTested += pairsTested;
}
