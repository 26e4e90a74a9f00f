// AssemblyScript twin of src/query/rayTriangle/watertight.ts (Woop, Benthin and Wald's watertight
// test) over triangles packed in leaf order (nine float32 per triangle: corners a, b, c). Every float64
// operation is the TypeScript one in the same order, so hits and distances agree bit for bit: the
// crack-freeness argument made there (shared projected vertices, exact edge-function signs) holds here
// unchanged. Two triangles are tested at once in f64x2 lanes; a lane whose edge function is too close
// to zero to trust its sign is redone by the scalar test, which takes the exact fallback.

import { differenceOfProducts } from './exactSign';
import { OFFSET_KX, OFFSET_KY, OFFSET_KZ, ORIGIN_KX, ORIGIN_KY, ORIGIN_KZ, SHEAR_X, SHEAR_Y, SHEAR_Z } from './rayState';

const MISS: f64 = -1;
const DIFFERENCE_ERROR_BOUND: f64 = (3.0 + 16.0 * 1.1102230246251565e-16) * 1.1102230246251565e-16;

let doubleSided: bool = false;

/** Whether back faces count (per batch). */
export function setDoubleSided(twoSided: bool): void {
  doubleSided = twoSided;
}

/** Whether the three corners at p are collinear (zero normal, exact: float32 edges in float64). */
function zeroArea(p: usize): bool {
  const ax = <f64>load<f32>(p), ay = <f64>load<f32>(p, 4), az = <f64>load<f32>(p, 8);
  const e1x = <f64>load<f32>(p, 12) - ax;
  const e1y = <f64>load<f32>(p, 16) - ay;
  const e1z = <f64>load<f32>(p, 20) - az;
  const e2x = <f64>load<f32>(p, 24) - ax;
  const e2y = <f64>load<f32>(p, 28) - ay;
  const e2z = <f64>load<f32>(p, 32) - az;
  return e1y * e2z == e1z * e2y && e1z * e2x == e1x * e2z && e1x * e2y == e1y * e2x;
}

/** The distance along the ray once the edge functions say "inside": t in [0, tMax] or MISS. */
function finish(ray: usize, p: usize, u: f64, v: f64, w: f64, aZ: f64, bZ: f64, cZ: f64, tMax: f64): f64 {
  const anyNegative = u < 0 || v < 0 || w < 0;
  const anyPositive = u > 0 || v > 0 || w > 0;
  if (doubleSided ? anyNegative && anyPositive : anyNegative) return MISS;
  if (zeroArea(p)) return MISS;
  const determinant = u + v + w;
  if (!(determinant != 0 && determinant == determinant)) return MISS;
  const inverse = 1 / determinant;
  const t = load<f64>(ray, SHEAR_Z) * (u * aZ + v * bZ + w * cZ) * inverse;
  if (!(t >= 0 && t <= tMax)) return MISS;
  return t + 0;
}

/** One packed triangle at byte address p against the ray whose record is at `ray`: t in [0, tMax] or MISS. */
export function intersectTriangle(ray: usize, p: usize, tMax: f64): f64 {
  const offsetKx = <usize>load<i32>(ray, OFFSET_KX), offsetKy = <usize>load<i32>(ray, OFFSET_KY), offsetKz = <usize>load<i32>(ray, OFFSET_KZ);
  const originKx = load<f64>(ray, ORIGIN_KX), originKy = load<f64>(ray, ORIGIN_KY), originKz = load<f64>(ray, ORIGIN_KZ);
  const shearX = load<f64>(ray, SHEAR_X), shearY = load<f64>(ray, SHEAR_Y);
  const aZ = <f64>load<f32>(p + offsetKz) - originKz;
  const bZ = <f64>load<f32>(p + offsetKz, 12) - originKz;
  const cZ = <f64>load<f32>(p + offsetKz, 24) - originKz;
  const aX = <f64>load<f32>(p + offsetKx) - originKx - shearX * aZ;
  const aY = <f64>load<f32>(p + offsetKy) - originKy - shearY * aZ;
  const bX = <f64>load<f32>(p + offsetKx, 12) - originKx - shearX * bZ;
  const bY = <f64>load<f32>(p + offsetKy, 12) - originKy - shearY * bZ;
  const cX = <f64>load<f32>(p + offsetKx, 24) - originKx - shearX * cZ;
  const cY = <f64>load<f32>(p + offsetKy, 24) - originKy - shearY * cZ;
  const u = differenceOfProducts(cX, bY, cY, bX);
  const v = differenceOfProducts(aX, cY, aY, cX);
  const w = differenceOfProducts(bX, aY, bY, aX);
  return finish(ray, p, u, v, w, aZ, bZ, cZ, tMax);
}

/** Loads one coordinate of a corner of two triangles (at p and q) into the lanes of an f64x2. */
function pair(p: usize, q: usize, offset: usize): v128 {
  return f64x2.replace_lane(f64x2.splat(<f64>load<f32>(p + offset)), 1, <f64>load<f32>(q + offset));
}

/** Sign-trustworthy a·b − c·d per lane, as differenceOfProducts' fast path; `doubt` gets the lanes whose
 *  sign it cannot vouch for (those go to the scalar test). */
function differencePair(a: v128, b: v128, c: v128, d: v128): v128 {
  const left = f64x2.mul(a, b);
  const right = f64x2.mul(c, d);
  return f64x2.sub(left, right);
}

function doubtPair(a: v128, b: v128, c: v128, d: v128, difference: v128): v128 {
  const left = f64x2.mul(a, b);
  const right = f64x2.mul(c, d);
  const bound = f64x2.mul(f64x2.splat(DIFFERENCE_ERROR_BOUND), f64x2.add(f64x2.abs(left), f64x2.abs(right)));
  // In doubt: |difference| ≤ bound (or NaN) and neither product is zero.
  const trusted = f64x2.gt(f64x2.abs(difference), bound);
  const exactZero = v128.or(f64x2.eq(left, f64x2.splat(0)), f64x2.eq(right, f64x2.splat(0)));
  return v128.andnot(v128.not(trusted), exactZero);
}

/**
 * Two packed triangles at p and q, tested together. Writes the two distances (t or MISS) to `out` as
 * float64 and returns nothing; lanes in doubt are recomputed by intersectTriangle.
 */
export function intersectTrianglePair(ray: usize, p: usize, q: usize, tMax: f64, out: usize): void {
  const offsetKx = <usize>load<i32>(ray, OFFSET_KX), offsetKy = <usize>load<i32>(ray, OFFSET_KY), offsetKz = <usize>load<i32>(ray, OFFSET_KZ);
  const originZ = f64x2.splat(load<f64>(ray, ORIGIN_KZ));
  const aZ = f64x2.sub(pair(p, q, offsetKz), originZ);
  const bZ = f64x2.sub(pair(p, q, offsetKz + 12), originZ);
  const cZ = f64x2.sub(pair(p, q, offsetKz + 24), originZ);
  const originX = f64x2.splat(load<f64>(ray, ORIGIN_KX));
  const originY = f64x2.splat(load<f64>(ray, ORIGIN_KY));
  const sx = f64x2.splat(load<f64>(ray, SHEAR_X));
  const sy = f64x2.splat(load<f64>(ray, SHEAR_Y));
  const aX = f64x2.sub(f64x2.sub(pair(p, q, offsetKx), originX), f64x2.mul(sx, aZ));
  const aY = f64x2.sub(f64x2.sub(pair(p, q, offsetKy), originY), f64x2.mul(sy, aZ));
  const bX = f64x2.sub(f64x2.sub(pair(p, q, offsetKx + 12), originX), f64x2.mul(sx, bZ));
  const bY = f64x2.sub(f64x2.sub(pair(p, q, offsetKy + 12), originY), f64x2.mul(sy, bZ));
  const cX = f64x2.sub(f64x2.sub(pair(p, q, offsetKx + 24), originX), f64x2.mul(sx, cZ));
  const cY = f64x2.sub(f64x2.sub(pair(p, q, offsetKy + 24), originY), f64x2.mul(sy, cZ));
  const u = differencePair(cX, bY, cY, bX);
  const v = differencePair(aX, cY, aY, cX);
  const w = differencePair(bX, aY, bY, aX);
  const zero = f64x2.splat(0);
  // Lanes certainly outside: a trusted negative edge function (single-sided), or trusted ones of both
  // signs (double-sided). Most triangles of a leaf end here, before any doubt is looked at.
  const negative = v128.or(v128.or(f64x2.lt(u, zero), f64x2.lt(v, zero)), f64x2.lt(w, zero));
  const doubt = v128.or(v128.or(doubtPair(cX, bY, cY, bX, u), doubtPair(aX, cY, aY, cX, v)), doubtPair(bX, aY, bY, aX, w));
  let outside = v128.andnot(negative, doubt);
  if (doubleSided) {
    const positive = v128.or(v128.or(f64x2.gt(u, zero), f64x2.gt(v, zero)), f64x2.gt(w, zero));
    outside = v128.andnot(v128.and(negative, positive), doubt);
  }
  const outsideMask = i64x2.bitmask(outside);
  const doubtMask = i64x2.bitmask(doubt);
  if (outsideMask & 1) store<f64>(out, MISS);
  else if (doubtMask & 1) store<f64>(out, intersectTriangle(ray, p, tMax));
  else store<f64>(out, finish(ray, p, f64x2.extract_lane(u, 0), f64x2.extract_lane(v, 0), f64x2.extract_lane(w, 0), f64x2.extract_lane(aZ, 0), f64x2.extract_lane(bZ, 0), f64x2.extract_lane(cZ, 0), tMax));
  if (outsideMask & 2) store<f64>(out, MISS, 8);
  else if (doubtMask & 2) store<f64>(out, intersectTriangle(ray, q, tMax), 8);
  else store<f64>(out, finish(ray, q, f64x2.extract_lane(u, 1), f64x2.extract_lane(v, 1), f64x2.extract_lane(w, 1), f64x2.extract_lane(aZ, 1), f64x2.extract_lane(bZ, 1), f64x2.extract_lane(cZ, 1), tMax), 8);
}
