// Which of the 21 feature pairs of two triangles at once can touch the capsule: the plane cull and
// the quick cull of src/query/capsule/quickCull.ts (which explains both), one triangle per f64x2 lane.
//
// Float64 lanes, not float32 ones: each lane does the TypeScript cull's operations in the same order,
// so the pairs kept are the same bits (the counters and the traced triangles agree too) and no
// rounding slack has to be argued for. The compares of each lane are packed into one word (a bit per
// compare) that the lane's scalar tail turns into pair bits through PART_LUT. The compares are
// shifted into the word rather than masked with a bit constant each: the engine builds every non-zero
// v128 constant with several instructions, and that cost the cull 40% of its time (126 → 75 ns per
// pair of triangles measured alone, 6% of a sweep).

import { dx, dy, dz, hasAxis, p0x, p0y, p0z, rCull, sx, sy, sz } from './capsuleState';
import { ALL_PAIRS, CYLINDER_SHIFT, FACE_BIT, FACE_BITS, PART_LUT, SPHERE1_SHIFT } from './tables';

// The packed word of a lane, three bits per edge 0, 1, 2 (from bit 0 up): bits 0..2 sphere 0's shadow
// reaches the edge's line (band), 3..5 sphere 0 is on the triangle's side of it, 6..8 and 9..11 the
// same for sphere 1, 12..14 the axis crosses the edge's plane between the spheres; then flags.
const NN_POSITIVE: i32 = 1 << 15;
const CULLED: i32 = 1 << 16;
const REACH0: i32 = 1 << 17;
const REACH1: i32 = 1 << 18;
const FACE_OK: i32 = 1 << 19;

// The capsule's numbers as f64x2 splats, set once per capsule.
let P0X: v128 = f64x2.splat(0);
let P0Y: v128 = f64x2.splat(0);
let P0Z: v128 = f64x2.splat(0);
let SX: v128 = f64x2.splat(0);
let SY: v128 = f64x2.splat(0);
let SZ: v128 = f64x2.splat(0);
let DX: v128 = f64x2.splat(0);
let DY: v128 = f64x2.splat(0);
let DZ: v128 = f64x2.splat(0);
let R_CULL: v128 = f64x2.splat(0);
let R_CULL2: v128 = f64x2.splat(0);

export function prepareCull(): void {
  P0X = f64x2.splat(p0x);
  P0Y = f64x2.splat(p0y);
  P0Z = f64x2.splat(p0z);
  SX = f64x2.splat(sx);
  SY = f64x2.splat(sy);
  SZ = f64x2.splat(sz);
  DX = f64x2.splat(dx);
  DY = f64x2.splat(dy);
  DZ = f64x2.splat(dz);
  R_CULL = f64x2.splat(rCull);
  R_CULL2 = f64x2.splat(rCull * rCull);
}

function dot(ax: v128, ay: v128, az: v128, bx: v128, by: v128, bz: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.mul(ax, bx), f64x2.mul(ay, by)), f64x2.mul(az, bz));
}
/** base + ax·bx + ay·by + az·bz, summed left to right as the TypeScript expression is. */
function addDot(base: v128, ax: v128, ay: v128, az: v128, bx: v128, by: v128, bz: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.add(base, f64x2.mul(ax, bx)), f64x2.mul(ay, by)), f64x2.mul(az, bz));
}
/** (a·b − c·d) per lane: one component of a cross product. */
function cross(a: v128, b: v128, c: v128, d: v128): v128 {
  return f64x2.sub(f64x2.mul(a, b), f64x2.mul(c, d));
}
/** word · 2 + (1 where mask is true): appends one compare to each lane's word. */
function shiftIn(word: v128, mask: v128): v128 {
  return i64x2.sub(i64x2.shl(word, 1), mask);
}
/** Row `row` (ax, ay, az, bx, …, cz) of the two triangles at `pair`, widened to float64. */
function row(pair: usize, offset: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(pair + offset));
}

/** The packed words of the two triangles whose row-0 floats are at `pair` (see triangleLayout.ts). */
export function cullPair(pair: usize, limit: f64): v128 {
  const ax = row(pair, 0),
    ay = row(pair, 16),
    az = row(pair, 32);
  const bx = row(pair, 48),
    by = row(pair, 64),
    bz = row(pair, 80);
  const cx = row(pair, 96),
    cy = row(pair, 112),
    cz = row(pair, 128);
  const e0x = f64x2.sub(bx, ax),
    e0y = f64x2.sub(by, ay),
    e0z = f64x2.sub(bz, az);
  const e1x = f64x2.sub(cx, bx),
    e1y = f64x2.sub(cy, by),
    e1z = f64x2.sub(cz, bz);
  const e2x = f64x2.sub(ax, cx),
    e2y = f64x2.sub(ay, cy),
    e2z = f64x2.sub(az, cz);
  // Face normal E2 × E0, unnormalised.
  const nx = cross(e2y, e0z, e2z, e0y),
    ny = cross(e2z, e0x, e2x, e0z),
    nz = cross(e2x, e0y, e2y, e0x);
  const nn = dot(nx, ny, nz, nx, ny, nz);
  const w0x = f64x2.sub(P0X, ax),
    w0y = f64x2.sub(P0Y, ay),
    w0z = f64x2.sub(P0Z, az);
  const sa0 = dot(nx, ny, nz, w0x, w0y, w0z);
  const sa1 = addDot(sa0, nx, ny, nz, SX, SY, SZ);
  const k0 = dot(nx, ny, nz, DX, DY, DZ);
  const zero = f64x2.splat(0);

  // Plane cull: the parts' distances to the plane over the motion.
  const band = f64x2.mul(R_CULL, f64x2.sqrt(nn));
  const minusBand = f64x2.neg(band);
  const move = f64x2.mul(f64x2.splat(limit), k0);
  const end0 = f64x2.add(sa0, move),
    end1 = f64x2.add(sa1, move);
  const before0 = f64x2.lt(sa0, end0),
    before1 = f64x2.lt(sa1, end1);
  const lo0 = v128.bitselect(sa0, end0, before0),
    hi0 = v128.bitselect(end0, sa0, before0);
  const lo1 = v128.bitselect(sa1, end1, before1),
    hi1 = v128.bitselect(end1, sa1, before1);
  const nnPositive = f64x2.gt(nn, zero);
  const culled = v128.and(
    nnPositive,
    v128.or(v128.and(f64x2.gt(lo0, band), f64x2.gt(lo1, band)), v128.and(f64x2.lt(hi0, minusBand), f64x2.lt(hi1, minusBand))),
  );
  const reach0 = v128.or(v128.not(nnPositive), v128.and(f64x2.le(lo0, band), f64x2.ge(hi0, minusBand)));
  const reach1 = v128.or(v128.not(nnPositive), v128.and(f64x2.le(lo1, band), f64x2.ge(hi1, minusBand)));
  const faceOk = v128.and(v128.not(v128.and(f64x2.gt(sa0, zero), f64x2.gt(sa1, zero))), v128.not(v128.and(f64x2.lt(sa0, zero), f64x2.lt(sa1, zero))));

  // Quick cull: edge planes through each edge and the motion, n_i = E_i × d.
  const n0x = cross(e0y, DZ, e0z, DY),
    n0y = cross(e0z, DX, e0x, DZ),
    n0z = cross(e0x, DY, e0y, DX);
  const n1x = cross(e1y, DZ, e1z, DY),
    n1y = cross(e1z, DX, e1x, DZ),
    n1z = cross(e1x, DY, e1y, DX);
  const n2x = cross(e2y, DZ, e2z, DY),
    n2y = cross(e2z, DX, e2x, DZ),
    n2z = cross(e2x, DY, e2y, DX);
  const s00 = dot(n0x, n0y, n0z, w0x, w0y, w0z);
  const s01 = addDot(s00, n0x, n0y, n0z, SX, SY, SZ);
  const s10 = dot(n1x, n1y, n1z, f64x2.sub(P0X, bx), f64x2.sub(P0Y, by), f64x2.sub(P0Z, bz));
  const s11 = addDot(s10, n1x, n1y, n1z, SX, SY, SZ);
  const s20 = dot(n2x, n2y, n2z, f64x2.sub(P0X, cx), f64x2.sub(P0Y, cy), f64x2.sub(P0Z, cz));
  const s21 = addDot(s20, n2x, n2y, n2z, SX, SY, SZ);
  const l0 = f64x2.mul(R_CULL2, dot(n0x, n0y, n0z, n0x, n0y, n0z));
  const l1 = f64x2.mul(R_CULL2, dot(n1x, n1y, n1z, n1x, n1y, n1z));
  const l2 = f64x2.mul(R_CULL2, dot(n2x, n2y, n2z, n2x, n2y, n2z));
  const sigma = f64x2.neg(k0);
  // The compares shifted in one by one, last bit first (a true compare is −1, so subtracting it adds 1).
  let word = i64x2.sub(zero, faceOk);
  word = shiftIn(word, reach1);
  word = shiftIn(word, reach0);
  word = shiftIn(word, culled);
  word = shiftIn(word, nnPositive);
  word = shiftIn(word, f64x2.lt(f64x2.mul(s20, s21), zero));
  word = shiftIn(word, f64x2.lt(f64x2.mul(s10, s11), zero));
  word = shiftIn(word, f64x2.lt(f64x2.mul(s00, s01), zero));
  word = shiftIn(word, f64x2.ge(f64x2.mul(s21, sigma), zero));
  word = shiftIn(word, f64x2.ge(f64x2.mul(s11, sigma), zero));
  word = shiftIn(word, f64x2.ge(f64x2.mul(s01, sigma), zero));
  word = shiftIn(word, f64x2.le(f64x2.mul(s21, s21), l2));
  word = shiftIn(word, f64x2.le(f64x2.mul(s11, s11), l1));
  word = shiftIn(word, f64x2.le(f64x2.mul(s01, s01), l0));
  word = shiftIn(word, f64x2.ge(f64x2.mul(s20, sigma), zero));
  word = shiftIn(word, f64x2.ge(f64x2.mul(s10, sigma), zero));
  word = shiftIn(word, f64x2.ge(f64x2.mul(s00, sigma), zero));
  word = shiftIn(word, f64x2.le(f64x2.mul(s20, s20), l2));
  word = shiftIn(word, f64x2.le(f64x2.mul(s10, s10), l1));
  word = shiftIn(word, f64x2.le(f64x2.mul(s00, s00), l0));
  return word;
}

/** A lane's packed word → its 21 pair bits (0: none can touch). quickCull false keeps every pair of a
 *  triangle whose plane the capsule reaches. */
export function keptPairs(word: i32, quickCull: bool): i32 {
  if ((word & CULLED) != 0) return 0;
  let kept: i32;
  if (quickCull) {
    // A part's look-up index: band | (band or inside) << 3.
    const band0 = word & 7,
      side0 = band0 | ((word >> 3) & 7);
    const band1 = (word >> 6) & 7,
      side1 = band1 | ((word >> 9) & 7);
    kept = 0;
    if ((word & REACH0) != 0) kept = <i32>load<u8>(PART_LUT + <usize>(band0 | (side0 << 3)));
    if ((word & REACH1) != 0) kept |= (<i32>load<u8>(PART_LUT + <usize>(band1 | (side1 << 3)))) << SPHERE1_SHIFT;
    if (hasAxis) {
      // The stadium reaches a line if either disc does or the axis crosses it, a side if either disc
      // does; its face bit is "on the triangle's side of all three lines and the axis crosses the face's plane".
      const sides = side0 | side1;
      let cylinder = (<i32>load<u8>(PART_LUT + <usize>(band0 | band1 | ((word >> 12) & 7) | (sides << 3)))) & ~FACE_BIT;
      if (sides == 7 && (word & FACE_OK) != 0) cylinder |= FACE_BIT;
      kept |= cylinder << CYLINDER_SHIFT;
    }
  } else kept = hasAxis ? ALL_PAIRS : ALL_PAIRS & ((1 << CYLINDER_SHIFT) - 1);
  if ((word & NN_POSITIVE) == 0) kept &= ~FACE_BITS;
  return kept;
}
