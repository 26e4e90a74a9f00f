// AssemblyScript twin of src/query/rayTriangle/watertight.ts (Woop, Benthin and Wald's watertight
// test) over triangles stored four at a time, structure of arrays: group g (references 4g .. 4g + 3,
// in leaf order) is 144 bytes, nine f32x4 rows ax, ay, az, bx, by, bz, cx, cy, cz, one lane per
// triangle; coordinate r of lane j at 144·g + 16·r + 4·j.
//
// Four triangles are first screened together in float32 (candidates): a lane is dropped only when
// an edge function is negative by more than a bound on its float32 error, i.e. when the exact test
// would surely miss. Survivors go, one by one in reference order, through the exact test (triangle),
// whose every float64 operation is the TypeScript one in the same order, so hits and distances agree
// bit for bit and the crack-freeness argument made there (shared projected vertices, exact signs of
// the edge functions) holds here unchanged.

import { TRIANGLE_CORNER_BYTES, TRIANGLE_GROUP_BYTES } from '../generated/layout';
import { differenceOfProducts } from './exactSign';
import {
  ORIGIN_KX,
  ORIGIN_KY,
  ORIGIN_KZ,
  ORIGIN_KX4,
  ORIGIN_KY4,
  ORIGIN_KZ4,
  OFFSET_KX,
  OFFSET_KY,
  OFFSET_KZ,
  PROJECTION_ERROR4,
  SHEAR_X,
  SHEAR_Y,
  SHEAR_Z,
  SHEAR_X4,
  SHEAR_Y4,
} from './rayState';

const MISS: f64 = -1;
/** Relative float32 rounding of a two-product difference, with room to spare (2^-21). */
const PRODUCT_ERROR: f32 = 4.76837158203125e-7;

let doubleSided: bool = false;

/** Whether back faces count (per batch). */
export function setDoubleSided(twoSided: bool): void {
  doubleSided = twoSided;
}

/** Whether the three corners of the lane at p are collinear (zero normal, exact: float32 edges in float64). */
function zeroArea(p: usize): bool {
  const ax = <f64>load<f32>(p),
    ay = <f64>load<f32>(p, 16),
    az = <f64>load<f32>(p, 32);
  const e1x = <f64>load<f32>(p, 48) - ax;
  const e1y = <f64>load<f32>(p, 64) - ay;
  const e1z = <f64>load<f32>(p, 80) - az;
  const e2x = <f64>load<f32>(p, 96) - ax;
  const e2y = <f64>load<f32>(p, 112) - ay;
  const e2z = <f64>load<f32>(p, 128) - az;
  return e1y * e2z == e1z * e2y && e1z * e2x == e1x * e2z && e1x * e2y == e1y * e2x;
}

/**
 * The exact test of one triangle: the lane at p (= group + 4·lane) against the ray whose record is at
 * `ray`. Returns t in [0, tMax] or MISS.
 */
export function intersectTriangle(ray: usize, p: usize, tMax: f64): f64 {
  const kx = p + <usize>load<i32>(ray, OFFSET_KX),
    ky = p + <usize>load<i32>(ray, OFFSET_KY),
    kz = p + <usize>load<i32>(ray, OFFSET_KZ);
  const originKx = load<f64>(ray, ORIGIN_KX),
    originKy = load<f64>(ray, ORIGIN_KY),
    originKz = load<f64>(ray, ORIGIN_KZ);
  const shearX = load<f64>(ray, SHEAR_X),
    shearY = load<f64>(ray, SHEAR_Y);
  const aZ = <f64>load<f32>(kz) - originKz;
  const bZ = <f64>load<f32>(kz + TRIANGLE_CORNER_BYTES) - originKz;
  const cZ = <f64>load<f32>(kz + 2 * TRIANGLE_CORNER_BYTES) - originKz;
  const aX = <f64>load<f32>(kx) - originKx - shearX * aZ;
  const aY = <f64>load<f32>(ky) - originKy - shearY * aZ;
  const bX = <f64>load<f32>(kx + TRIANGLE_CORNER_BYTES) - originKx - shearX * bZ;
  const bY = <f64>load<f32>(ky + TRIANGLE_CORNER_BYTES) - originKy - shearY * bZ;
  const cX = <f64>load<f32>(kx + 2 * TRIANGLE_CORNER_BYTES) - originKx - shearX * cZ;
  const cY = <f64>load<f32>(ky + 2 * TRIANGLE_CORNER_BYTES) - originKy - shearY * cZ;
  const u = differenceOfProducts(cX, bY, cY, bX);
  const v = differenceOfProducts(aX, cY, aY, cX);
  const w = differenceOfProducts(bX, aY, bY, aX);
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

/** a·b − c·d in float32 lanes. */
function edge(a: v128, b: v128, c: v128, d: v128): v128 {
  return f32x4.sub(f32x4.mul(a, b), f32x4.mul(c, d));
}

/** A bound on the distance of edge(a, b, c, d) from the edge function of the float64 projection. */
function edgeError(a: v128, b: v128, c: v128, d: v128, delta: v128): v128 {
  // Rounding of the products and the difference, plus the projected coordinates' own error δ each:
  // |a·b − a'·b'| ≤ δ(|a| + |b|) + δ², so 2δ(|a| + |b| + |c| + |d|) + products' error covers both.
  const products = f32x4.add(f32x4.abs(f32x4.mul(a, b)), f32x4.abs(f32x4.mul(c, d)));
  const sizes = f32x4.add(f32x4.add(f32x4.abs(a), f32x4.abs(b)), f32x4.add(f32x4.abs(c), f32x4.abs(d)));
  return f32x4.add(f32x4.mul(products, f32x4.splat(PRODUCT_ERROR)), f32x4.mul(f32x4.add(sizes, delta), f32x4.add(delta, delta)));
}

/**
 * The lanes of the `groups` consecutive groups from g that the exact test might hit, as a mask (bit
 * 4i + j: lane j of group i): the projection and the edge functions in float32, a lane dropped only
 * when some edge function is below minus its error bound (single-sided), or edge functions of both
 * signs are beyond their bounds (double-sided). A whole leaf at once, so the ray's constants are
 * loaded once per leaf (the screen does not depend on tMax, so screening ahead of the exact tests
 * changes nothing).
 */
export function candidates(ray: usize, g: usize, groups: i32): i32 {
  const offsetX = <usize>load<i32>(ray, OFFSET_KX),
    offsetY = <usize>load<i32>(ray, OFFSET_KY),
    offsetZ = <usize>load<i32>(ray, OFFSET_KZ);
  const originZ = v128.load(ray, ORIGIN_KZ4);
  const originX = v128.load(ray, ORIGIN_KX4);
  const originY = v128.load(ray, ORIGIN_KY4);
  const sx = v128.load(ray, SHEAR_X4);
  const sy = v128.load(ray, SHEAR_Y4);
  const delta = v128.load(ray, PROJECTION_ERROR4);
  let mask = 0;
  let shift = 0;
  const end = groups << 2;
  do {
    const kx = g + offsetX,
      ky = g + offsetY,
      kz = g + offsetZ;
    const aZ = f32x4.sub(v128.load(kz), originZ);
    const bZ = f32x4.sub(v128.load(kz + TRIANGLE_CORNER_BYTES), originZ);
    const cZ = f32x4.sub(v128.load(kz + 2 * TRIANGLE_CORNER_BYTES), originZ);
    const aX = f32x4.sub(f32x4.sub(v128.load(kx), originX), f32x4.mul(sx, aZ));
    const aY = f32x4.sub(f32x4.sub(v128.load(ky), originY), f32x4.mul(sy, aZ));
    const bX = f32x4.sub(f32x4.sub(v128.load(kx + TRIANGLE_CORNER_BYTES), originX), f32x4.mul(sx, bZ));
    const bY = f32x4.sub(f32x4.sub(v128.load(ky + TRIANGLE_CORNER_BYTES), originY), f32x4.mul(sy, bZ));
    const cX = f32x4.sub(f32x4.sub(v128.load(kx + 2 * TRIANGLE_CORNER_BYTES), originX), f32x4.mul(sx, cZ));
    const cY = f32x4.sub(f32x4.sub(v128.load(ky + 2 * TRIANGLE_CORNER_BYTES), originY), f32x4.mul(sy, cZ));
    const u = edge(cX, bY, cY, bX);
    const v = edge(aX, cY, aY, cX);
    const w = edge(bX, aY, bY, aX);
    const eu = edgeError(cX, bY, cY, bX, delta);
    const ev = edgeError(aX, cY, aY, cX, delta);
    const ew = edgeError(bX, aY, bY, aX, delta);
    const negative = v128.or(v128.or(f32x4.lt(u, f32x4.neg(eu)), f32x4.lt(v, f32x4.neg(ev))), f32x4.lt(w, f32x4.neg(ew)));
    let outside = negative;
    if (doubleSided) {
      const positive = v128.or(v128.or(f32x4.gt(u, eu), f32x4.gt(v, ev)), f32x4.gt(w, ew));
      outside = v128.and(negative, positive);
    }
    mask |= i32x4.bitmask(v128.not(outside)) << shift;
    g += TRIANGLE_GROUP_BYTES;
  } while ((shift += 4) < end);
  return mask;
}
