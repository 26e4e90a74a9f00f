// AssemblyScript twin of src/query/rayTriangle/watertight.ts (Woop, Benthin and Wald's watertight
// test) over triangles packed in leaf order (nine float32 per triangle: corners a, b, c). Every float64
// operation is the TypeScript one in the same order, so hits and distances agree bit for bit: the
// crack-freeness argument made there (shared projected vertices, exact edge-function signs) holds here
// unchanged. Two triangles are tested at once in f64x2 lanes; a lane whose edge function is too close
// to zero to trust its sign is redone by the scalar test, which takes the exact fallback.

import { differenceOfProducts } from './exactSign';

const MISS: f64 = -1;
const DIFFERENCE_ERROR_BOUND: f64 = (3.0 + 16.0 * 1.1102230246251565e-16) * 1.1102230246251565e-16;

// The current ray's constants (see prepareRay in src/query/rayTriangle/rayData.ts).
let originKx: f64 = 0;
let originKy: f64 = 0;
let originKz: f64 = 0;
let shearX: f64 = 0;
let shearY: f64 = 0;
let shearZ: f64 = 0;
/** Byte offsets of the permuted axes inside a packed corner (4·k). */
let offsetKx: usize = 0;
let offsetKy: usize = 0;
let offsetKz: usize = 0;
let doubleSided: bool = false;

/** Sets the ray for the triangle tests to come; the direction must be finite and non-zero. */
export function setTriangleRay(ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, twoSided: bool): void {
  const absX = Math.abs(dx);
  const absY = Math.abs(dy);
  const absZ = Math.abs(dz);
  let kz = 2;
  if (absX >= absY && absX >= absZ) kz = 0;
  else if (absY >= absZ) kz = 1;
  let kx = kz == 2 ? 0 : kz + 1;
  let ky = kx == 2 ? 0 : kx + 1;
  const along = kz == 0 ? dx : kz == 1 ? dy : dz;
  if (along < 0) {
    const swap = kx;
    kx = ky;
    ky = swap;
  }
  const directionKx = kx == 0 ? dx : kx == 1 ? dy : dz;
  const directionKy = ky == 0 ? dx : ky == 1 ? dy : dz;
  originKx = kx == 0 ? ox : kx == 1 ? oy : oz;
  originKy = ky == 0 ? ox : ky == 1 ? oy : oz;
  originKz = kz == 0 ? ox : kz == 1 ? oy : oz;
  shearX = directionKx / along;
  shearY = directionKy / along;
  shearZ = 1 / along;
  offsetKx = <usize>(4 * kx);
  offsetKy = <usize>(4 * ky);
  offsetKz = <usize>(4 * kz);
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
function finish(p: usize, u: f64, v: f64, w: f64, aZ: f64, bZ: f64, cZ: f64, tMax: f64): f64 {
  const anyNegative = u < 0 || v < 0 || w < 0;
  const anyPositive = u > 0 || v > 0 || w > 0;
  if (doubleSided ? anyNegative && anyPositive : anyNegative) return MISS;
  if (zeroArea(p)) return MISS;
  const determinant = u + v + w;
  if (!(determinant != 0 && determinant == determinant)) return MISS;
  const inverse = 1 / determinant;
  const t = shearZ * (u * aZ + v * bZ + w * cZ) * inverse;
  if (!(t >= 0 && t <= tMax)) return MISS;
  return t + 0;
}

/** One packed triangle at byte address p: t in [0, tMax] or MISS. */
export function intersectTriangle(p: usize, tMax: f64): f64 {
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
  return finish(p, u, v, w, aZ, bZ, cZ, tMax);
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
export function intersectTrianglePair(p: usize, q: usize, tMax: f64, out: usize): void {
  const originZ = f64x2.splat(originKz);
  const aZ = f64x2.sub(pair(p, q, offsetKz), originZ);
  const bZ = f64x2.sub(pair(p, q, offsetKz + 12), originZ);
  const cZ = f64x2.sub(pair(p, q, offsetKz + 24), originZ);
  const originX = f64x2.splat(originKx);
  const originY = f64x2.splat(originKy);
  const sx = f64x2.splat(shearX);
  const sy = f64x2.splat(shearY);
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
  else if (doubtMask & 1) store<f64>(out, intersectTriangle(p, tMax));
  else store<f64>(out, finish(p, f64x2.extract_lane(u, 0), f64x2.extract_lane(v, 0), f64x2.extract_lane(w, 0), f64x2.extract_lane(aZ, 0), f64x2.extract_lane(bZ, 0), f64x2.extract_lane(cZ, 0), tMax));
  if (outsideMask & 2) store<f64>(out, MISS, 8);
  else if (doubtMask & 2) store<f64>(out, intersectTriangle(q, tMax), 8);
  else store<f64>(out, finish(q, f64x2.extract_lane(u, 1), f64x2.extract_lane(v, 1), f64x2.extract_lane(w, 1), f64x2.extract_lane(aZ, 1), f64x2.extract_lane(bZ, 1), f64x2.extract_lane(cZ, 1), tMax), 8);
}
