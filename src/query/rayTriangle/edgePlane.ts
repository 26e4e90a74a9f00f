import { RAY_MISS } from './miss';
import { RAY_DIRECTION_X, RAY_DIRECTION_Y, RAY_DIRECTION_Z, RAY_ORIGIN_X, RAY_ORIGIN_Y, RAY_ORIGIN_Z, RAY_VALID } from './rayData';

/**
 * The collision talk's edge-plane test: each edge and the ray origin span a plane, and the ray hits the
 * triangle iff its direction lies on the same side of all three planes. The distance then comes from
 * the triangle's own plane.
 *
 * Why a shared edge has no crack: both triangles build that edge's plane from the same two
 * origin-relative vertices, and a cross product with its operands swapped is the exact negation, so the
 * two triangles see exactly opposite signs (or both zero, which counts as inside) whatever the vertex
 * order. What it does not guarantee: around a shared vertex the rounded signs of the planes through it
 * need not be mutually consistent, so a ray aimed right at a vertex can find every plane on the same
 * side and slip between the triangles of the fan.
 *
 * The signed volumes of the three planes sum to the plane normal (b−a)×(c−a) dotted with the direction:
 * all ≤ 0 means the ray meets the counter-clockwise front face. Returns t in [0, tMax] or RAY_MISS.
 */
export function intersectEdgePlane(
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
  const ox = rayData[RAY_ORIGIN_X]!;
  const oy = rayData[RAY_ORIGIN_Y]!;
  const oz = rayData[RAY_ORIGIN_Z]!;
  const dx = rayData[RAY_DIRECTION_X]!;
  const dy = rayData[RAY_DIRECTION_Y]!;
  const dz = rayData[RAY_DIRECTION_Z]!;

  const a3 = 3 * a;
  const b3 = 3 * b;
  const c3 = 3 * c;
  const ax = positions[a3]! - ox;
  const ay = positions[a3 + 1]! - oy;
  const az = positions[a3 + 2]! - oz;
  const bx = positions[b3]! - ox;
  const by = positions[b3 + 1]! - oy;
  const bz = positions[b3 + 2]! - oz;
  const cx = positions[c3]! - ox;
  const cy = positions[c3 + 1]! - oy;
  const cz = positions[c3 + 2]! - oz;

  // Side of the direction for the plane through the origin and each edge: (p × q) · direction.
  const sideAB = (ay * bz - az * by) * dx + (az * bx - ax * bz) * dy + (ax * by - ay * bx) * dz;
  const sideBC = (by * cz - bz * cy) * dx + (bz * cx - bx * cz) * dy + (bx * cy - by * cx) * dz;
  const sideCA = (cy * az - cz * ay) * dx + (cz * ax - cx * az) * dy + (cx * ay - cy * ax) * dz;
  const anyNegative = sideAB < 0 || sideBC < 0 || sideCA < 0;
  const anyPositive = sideAB > 0 || sideBC > 0 || sideCA > 0;
  if (doubleSided ? anyNegative && anyPositive : anyPositive) return RAY_MISS;

  // Edges from the stored vertices, not the origin-relative ones: float32 differences and their cross
  // product are exact in float64, so a zero-area triangle gets an exactly zero normal and is refused.
  const e1x = positions[b3]! - positions[a3]!;
  const e1y = positions[b3 + 1]! - positions[a3 + 1]!;
  const e1z = positions[b3 + 2]! - positions[a3 + 2]!;
  const e2x = positions[c3]! - positions[a3]!;
  const e2y = positions[c3 + 1]! - positions[a3 + 1]!;
  const e2z = positions[c3 + 2]! - positions[a3 + 2]!;
  const nx = e1y * e2z - e1z * e2y;
  const ny = e1z * e2x - e1x * e2z;
  const nz = e1x * e2y - e1y * e2x;
  const approach = nx * dx + ny * dy + nz * dz;
  // Zero: ray parallel to the plane or degenerate triangle; NaN fails too. Single-sided also asks the
  // plane to agree that the face is turned towards the ray.
  if (doubleSided ? !(approach !== 0 && approach === approach) : !(approach < 0)) return RAY_MISS;
  const t = (nx * ax + ny * ay + nz * az) / approach;
  if (!(t >= 0 && t <= tMax)) return RAY_MISS;
  if (barycentric !== undefined) {
    const inverse = 1 / (sideAB + sideBC + sideCA);
    barycentric[0] = sideBC * inverse;
    barycentric[1] = sideCA * inverse;
    barycentric[2] = sideAB * inverse;
  }
  return t + 0; // −0 becomes +0
}
