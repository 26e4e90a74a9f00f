import { differenceOfProducts } from './exactSign';
import { RAY_MISS } from './miss';
import { RAY_AXIS_X, RAY_AXIS_Y, RAY_AXIS_Z, RAY_ORIGIN_X, RAY_SHEAR_X, RAY_SHEAR_Y, RAY_SHEAR_Z, RAY_VALID } from './rayData';

/**
 * Woop, Benthin and Wald's watertight ray-triangle test (JCGT 2013). Each vertex is moved into a frame
 * where the ray starts at the origin and runs along +z (translate, permute the axes, shear), which
 * makes the hit test three 2D edge functions of the projected vertices at the origin.
 *
 * Why it is crack-free: a vertex's projection depends on the vertex and the ray only, so every triangle
 * sharing it sees the very same numbers; an edge function computed for a shared edge in the other
 * direction is the exact negation; and the signs are exact (see exactSign.ts), so around a shared vertex
 * they describe a real planar fan, which covers the origin. Zero counts as inside, so a ray through an
 * edge or vertex hits at least one of the triangles that share it.
 *
 * Returns t in [0, tMax] (hit point = origin + t·direction) or RAY_MISS. Single-sided keeps front faces
 * only: those whose counter-clockwise winding faces the ray origin. Barycentrics (weights of a, b, c)
 * go to `barycentric` on a hit when one is given.
 */
export function intersectWatertight(
  rayData: Float64Array,
  positions: Float32Array,
  a: number,
  b: number,
  c: number,
  tMax: number,
  doubleSided: boolean,
  barycentric?: Float64Array,
): number {
  if (rayData[RAY_VALID] !== 1) return RAY_MISS;
  const kx = rayData[RAY_AXIS_X]!;
  const ky = rayData[RAY_AXIS_Y]!;
  const kz = rayData[RAY_AXIS_Z]!;
  const originKx = rayData[RAY_ORIGIN_X + kx]!;
  const originKy = rayData[RAY_ORIGIN_X + ky]!;
  const originKz = rayData[RAY_ORIGIN_X + kz]!;
  const shearX = rayData[RAY_SHEAR_X]!;
  const shearY = rayData[RAY_SHEAR_Y]!;
  const shearZ = rayData[RAY_SHEAR_Z]!;

  const a3 = 3 * a;
  const b3 = 3 * b;
  const c3 = 3 * c;
  const aZ = positions[a3 + kz]! - originKz;
  const bZ = positions[b3 + kz]! - originKz;
  const cZ = positions[c3 + kz]! - originKz;
  const aX = positions[a3 + kx]! - originKx - shearX * aZ;
  const aY = positions[a3 + ky]! - originKy - shearY * aZ;
  const bX = positions[b3 + kx]! - originKx - shearX * bZ;
  const bY = positions[b3 + ky]! - originKy - shearY * bZ;
  const cX = positions[c3 + kx]! - originKx - shearX * cZ;
  const cY = positions[c3 + ky]! - originKy - shearY * cZ;

  const u = differenceOfProducts(cX, bY, cY, bX);
  const v = differenceOfProducts(aX, cY, aY, cX);
  const w = differenceOfProducts(bX, aY, bY, aX);

  // The kx/ky swap keeps handedness, so front faces project counter-clockwise: all edge functions ≥ 0.
  const anyNegative = u < 0 || v < 0 || w < 0;
  const anyPositive = u > 0 || v > 0 || w > 0;
  if (doubleSided ? anyNegative && anyPositive : anyNegative) return RAY_MISS;
  // Three collinear vertices still project, rounded, to a sliver of rounding-error area that a ray aimed
  // at the segment can thread, with a meaningless t. Float32 edges and their cross product are exact
  // in float64, so a zero normal identifies a zero-area triangle exactly; checked only on this hit path.
  const e1x = positions[b3]! - positions[a3]!;
  const e1y = positions[b3 + 1]! - positions[a3 + 1]!;
  const e1z = positions[b3 + 2]! - positions[a3 + 2]!;
  const e2x = positions[c3]! - positions[a3]!;
  const e2y = positions[c3 + 1]! - positions[a3 + 1]!;
  const e2z = positions[c3 + 2]! - positions[a3 + 2]!;
  if (e1y * e2z === e1z * e2y && e1z * e2x === e1x * e2z && e1x * e2y === e1y * e2x) return RAY_MISS;
  const determinant = u + v + w;
  // Zero: the ray lies in the triangle's plane or the triangle is degenerate. NaN fails the test too.
  if (!(determinant !== 0 && determinant === determinant)) return RAY_MISS;
  const inverse = 1 / determinant;
  const t = shearZ * (u * aZ + v * bZ + w * cZ) * inverse;
  if (!(t >= 0 && t <= tMax)) return RAY_MISS;
  if (barycentric !== undefined) {
    barycentric[0] = u * inverse;
    barycentric[1] = v * inverse;
    barycentric[2] = w * inverse;
  }
  return t + 0; // −0 becomes +0
}
