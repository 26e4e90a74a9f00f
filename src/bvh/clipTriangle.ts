/**
 * The box of the part of a triangle inside the slab lo ≤ p[axis] ≤ hi, intersected with the reference's
 * current box (a reference may already have been clipped on another axis). Used by spatial splits.
 *
 * Interpolated crossing points carry rounding error, so the box is padded outward on the two other
 * axes by a few ulps of the coordinates before the intersection: a clipped box must never be smaller
 * than the true piece, or a ray could hit the triangle where neither side's box admits it. The split
 * axis itself is set exactly to the plane, so the two sides of a plane share the same number.
 *
 * Writes minX, minY, minZ, maxX, maxY, maxZ to out[0..5]; returns false when the piece is empty.
 */
const PAD = 2 ** -44;

export function clipTriangleToSlab(
  positions: Float32Array,
  indices: Uint32Array,
  triangle: number,
  axis: number,
  lo: number,
  hi: number,
  refBounds: Float32Array,
  refOffset: number,
  out: Float64Array,
): boolean {
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity;
  let maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity;
  const base = 3 * triangle;
  for (let edge = 0; edge < 3; edge++) {
    const p = 3 * indices[base + edge]!;
    const q = 3 * indices[base + (edge === 2 ? 0 : edge + 1)]!;
    const px = positions[p]!,
      py = positions[p + 1]!,
      pz = positions[p + 2]!;
    const pa = positions[p + axis]!;
    const qa = positions[q + axis]!;
    if (pa >= lo && pa <= hi) {
      if (px < minX) minX = px;
      if (px > maxX) maxX = px;
      if (py < minY) minY = py;
      if (py > maxY) maxY = py;
      if (pz < minZ) minZ = pz;
      if (pz > maxZ) maxZ = pz;
    }
    for (let side = 0; side < 2; side++) {
      const plane = side === 0 ? lo : hi;
      if ((pa < plane && qa > plane) || (pa > plane && qa < plane)) {
        const s = (plane - pa) / (qa - pa);
        const x = px + s * (positions[q]! - px);
        const y = py + s * (positions[q + 1]! - py);
        const z = pz + s * (positions[q + 2]! - pz);
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
        if (z < minZ) minZ = z;
        if (z > maxZ) maxZ = z;
      }
    }
  }
  if (!(minX <= maxX)) return false;
  minX -= Math.abs(minX) * PAD;
  maxX += Math.abs(maxX) * PAD;
  minY -= Math.abs(minY) * PAD;
  maxY += Math.abs(maxY) * PAD;
  minZ -= Math.abs(minZ) * PAD;
  maxZ += Math.abs(maxZ) * PAD;
  out[0] = minX;
  out[1] = minY;
  out[2] = minZ;
  out[3] = maxX;
  out[4] = maxY;
  out[5] = maxZ;
  out[axis] = lo;
  out[axis + 3] = hi;
  for (let k = 0; k < 3; k++) {
    const refMin = refBounds[refOffset + k]!;
    const refMax = refBounds[refOffset + 3 + k]!;
    if (out[k]! < refMin) out[k] = refMin;
    if (out[k + 3]! > refMax) out[k + 3] = refMax;
    if (out[k]! > out[k + 3]!) return false;
  }
  return true;
}
