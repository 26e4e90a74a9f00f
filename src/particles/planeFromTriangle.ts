/**
 * The plane of triangle `triangle` of an indexed mesh, facing against the direction (dx, dy, dz) at
 * directions[at ..] (the side a ray along it arrives from), written as nx, ny, nz, d (n·p = d) into
 * out[offset ..]. Returns false, writing nothing, for a degenerate triangle. (The direction comes in its
 * array: float arguments to a call the engine does not inline are allocated, 1,000 rays a frame.)
 */
export function planeFromTriangle(
  positions: Float32Array,
  indices: Uint32Array,
  triangle: number,
  directions: Float32Array,
  at: number,
  out: Float32Array,
  offset: number,
): boolean {
  const a = 3 * indices[3 * triangle]!;
  const b = 3 * indices[3 * triangle + 1]!;
  const c = 3 * indices[3 * triangle + 2]!;
  const ax = positions[a]!,
    ay = positions[a + 1]!,
    az = positions[a + 2]!;
  const e1x = positions[b]! - ax,
    e1y = positions[b + 1]! - ay,
    e1z = positions[b + 2]! - az;
  const e2x = positions[c]! - ax,
    e2y = positions[c + 1]! - ay,
    e2z = positions[c + 2]! - az;
  let nx = e1y * e2z - e1z * e2y;
  let ny = e1z * e2x - e1x * e2z;
  let nz = e1x * e2y - e1y * e2x;
  const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(length > 0 && length < Infinity)) return false;
  // A double-sided hit may come from behind: the plane must face the particle.
  const scale = nx * directions[at]! + ny * directions[at + 1]! + nz * directions[at + 2]! > 0 ? -1 / length : 1 / length;
  nx *= scale;
  ny *= scale;
  nz *= scale;
  out[offset] = nx;
  out[offset + 1] = ny;
  out[offset + 2] = nz;
  out[offset + 3] = nx * ax + ny * ay + nz * az;
  return true;
}
