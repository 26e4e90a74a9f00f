import { ALL_PAIRS, CYLINDER_SHIFT, FACE_BIT, FACE_BITS, PART_LUT, SPHERE1_SHIFT } from './featureBits';
import { CAPSULE_STRIDE, C_HAS_AXIS, C_R_CULL } from './sweepWorkspace';

/**
 * Which of the 21 feature pairs of one triangle (corners at positions[ia], [ib], [ic]) and the capsule
 * in slot `slot` of `capsules` can touch for t ∈ [0, bestT[slot]] (featureBits.ts layout; 0 = none).
 *
 * First a plane cull: the segment's distances to the triangle's plane over the motion are bilinear in
 * (position on the axis, t), so they span the values at the four corners; a part that stays farther
 * than r on one side keeps none of its pairs.
 *
 * Then the quick cull, in the projection along the motion, where the swept capsule stands still: the
 * spheres are discs around their centres, the cylinder the stadium between them, and the distance from
 * a point to an edge's line is its distance to the plane through the edge and the motion,
 * s = ((B − A) × d)·(P − A) / |(B − A) × d|, compared squared to avoid roots. A part's shadow reaches the
 * line of edge i (band bit) and the triangle's side of that line (band or inside bit); PART_LUT turns
 * the three band and three side bits into the pairs that can touch. `quickCull` false keeps every pair
 * of a reached triangle (a reference for the cull).
 */
export function cullTriangle(
  capsules: Float64Array,
  bestT: Float64Array,
  slot: number,
  positions: Float32Array,
  ia: number,
  ib: number,
  ic: number,
  quickCull: boolean,
): number {
  // Integers and arrays only in the signature: a call V8 does not inline passes doubles boxed.
  const ax = positions[ia]!,
    ay = positions[ia + 1]!,
    az = positions[ia + 2]!;
  const bx = positions[ib]!,
    by = positions[ib + 1]!,
    bz = positions[ib + 2]!;
  const cx = positions[ic]!,
    cy = positions[ic + 1]!,
    cz = positions[ic + 2]!;
  const limit = bestT[slot]!;
  const o = CAPSULE_STRIDE * slot;
  const p0x = capsules[o]!,
    p0y = capsules[o + 1]!,
    p0z = capsules[o + 2]!;
  const sx = capsules[o + 3]! - p0x,
    sy = capsules[o + 4]! - p0y,
    sz = capsules[o + 5]! - p0z;
  const dx = capsules[o + 6]!,
    dy = capsules[o + 7]!,
    dz = capsules[o + 8]!;
  const rCull = capsules[o + C_R_CULL]!;
  const hasAxis = capsules[o + C_HAS_AXIS]! !== 0;
  const e0x = bx - ax,
    e0y = by - ay,
    e0z = bz - az;
  const e1x = cx - bx,
    e1y = cy - by,
    e1z = cz - bz;
  const e2x = ax - cx,
    e2y = ay - cy,
    e2z = az - cz;
  // Face normal (B − A) × (C − A) = E2 × E0, unnormalised.
  const nx = e2y * e0z - e2z * e0y,
    ny = e2z * e0x - e2x * e0z,
    nz = e2x * e0y - e2y * e0x;
  const nn = nx * nx + ny * ny + nz * nz;
  const w0x = p0x - ax,
    w0y = p0y - ay,
    w0z = p0z - az;
  const sa0 = nx * w0x + ny * w0y + nz * w0z;
  const sa1 = sa0 + nx * sx + ny * sy + nz * sz;
  const k0 = nx * dx + ny * dy + nz * dz;
  let reach0 = true;
  let reach1 = true;
  if (nn > 0) {
    const band = rCull * Math.sqrt(nn);
    const move = limit * k0;
    const end0 = sa0 + move,
      end1 = sa1 + move;
    const lo0 = sa0 < end0 ? sa0 : end0,
      hi0 = sa0 < end0 ? end0 : sa0;
    const lo1 = sa1 < end1 ? sa1 : end1,
      hi1 = sa1 < end1 ? end1 : sa1;
    if ((lo0 > band && lo1 > band) || (hi0 < -band && hi1 < -band)) return 0;
    reach0 = lo0 <= band && hi0 >= -band;
    reach1 = lo1 <= band && hi1 >= -band;
  }
  let kept: number;
  if (quickCull) {
    // Edge planes through each edge and the motion: n_i = E_i × d.
    const n0x = e0y * dz - e0z * dy,
      n0y = e0z * dx - e0x * dz,
      n0z = e0x * dy - e0y * dx;
    const n1x = e1y * dz - e1z * dy,
      n1y = e1z * dx - e1x * dz,
      n1z = e1x * dy - e1y * dx;
    const n2x = e2y * dz - e2z * dy,
      n2y = e2z * dx - e2x * dz,
      n2z = e2x * dy - e2y * dx;
    const s00 = n0x * w0x + n0y * w0y + n0z * w0z;
    const s01 = s00 + n0x * sx + n0y * sy + n0z * sz;
    const s10 = n1x * (p0x - bx) + n1y * (p0y - by) + n1z * (p0z - bz);
    const s11 = s10 + n1x * sx + n1y * sy + n1z * sz;
    const s20 = n2x * (p0x - cx) + n2y * (p0y - cy) + n2z * (p0z - cz);
    const s21 = s20 + n2x * sx + n2y * sy + n2z * sz;
    const rCull2 = rCull * rCull;
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
  return kept;
}
