import { RAY_MISS } from './miss';
import { RAY_DIRECTION_X, RAY_DIRECTION_Y, RAY_DIRECTION_Z, RAY_ORIGIN_X, RAY_ORIGIN_Y, RAY_ORIGIN_Z, RAY_VALID } from './rayData';

/**
 * Möller and Trumbore's test (1997): solve origin + t·direction = a + u·(b−a) + v·(c−a) by Cramer's rule.
 * Fast and common, but vertex a plays a different part from b and c, so two triangles listing a shared
 * edge in different roles round it differently and a ray exactly on the edge can pass between them.
 * Kept as the baseline the crack explorer measures. No epsilon: only an exactly zero determinant
 * (ray parallel to the plane, or a degenerate triangle) is refused.
 *
 * Returns t in [0, tMax] or RAY_MISS; single-sided keeps counter-clockwise front faces.
 */
export function intersectMollerTrumbore(
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
  const dx = rayData[RAY_DIRECTION_X]!;
  const dy = rayData[RAY_DIRECTION_Y]!;
  const dz = rayData[RAY_DIRECTION_Z]!;

  const a3 = 3 * a;
  const b3 = 3 * b;
  const c3 = 3 * c;
  const ax = positions[a3]!;
  const ay = positions[a3 + 1]!;
  const az = positions[a3 + 2]!;
  const e1x = positions[b3]! - ax;
  const e1y = positions[b3 + 1]! - ay;
  const e1z = positions[b3 + 2]! - az;
  const e2x = positions[c3]! - ax;
  const e2y = positions[c3 + 1]! - ay;
  const e2z = positions[c3 + 2]! - az;

  const px = dy * e2z - dz * e2y;
  const py = dz * e2x - dx * e2z;
  const pz = dx * e2y - dy * e2x;
  // determinant = −(b−a)×(c−a)·direction: positive when the ray meets the front face.
  const determinant = e1x * px + e1y * py + e1z * pz;
  if (doubleSided ? !(determinant !== 0 && determinant === determinant) : !(determinant > 0)) return RAY_MISS;
  const inverse = 1 / determinant;
  const sx = rayData[RAY_ORIGIN_X]! - ax;
  const sy = rayData[RAY_ORIGIN_Y]! - ay;
  const sz = rayData[RAY_ORIGIN_Z]! - az;
  const u = (sx * px + sy * py + sz * pz) * inverse;
  if (!(u >= 0 && u <= 1)) return RAY_MISS;
  const qx = sy * e1z - sz * e1y;
  const qy = sz * e1x - sx * e1z;
  const qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inverse;
  if (!(v >= 0 && u + v <= 1)) return RAY_MISS;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inverse;
  if (!(t >= 0 && t <= tMax)) return RAY_MISS;
  if (barycentric !== undefined) {
    barycentric[0] = 1 - u - v;
    barycentric[1] = u;
    barycentric[2] = v;
  }
  return t + 0; // −0 becomes +0
}
