const scratchPoint = new Float64Array(3);
const scratchCorners = new Float64Array(9);

/**
 * The point of triangle (a, b, c) closest to p, written to out[0..2], found by the Voronoi-region walk of
 * Ericson's Real-Time Collision Detection §5.1.5: vertex regions, then edge regions, then the face, each
 * decided from a few dot products, no square roots. A degenerate triangle (a segment or a point) still
 * gets a point on it: the walk then ends in a vertex or edge region.
 */
export function closestPointOnTriangle(
  px: number,
  py: number,
  pz: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
  out: Float64Array,
): void {
  // Element by element: an array literal here would allocate on every call of the capsule queries.
  const point = scratchPoint;
  const corners = scratchCorners;
  point[0] = px;
  point[1] = py;
  point[2] = pz;
  corners[0] = ax;
  corners[1] = ay;
  corners[2] = az;
  corners[3] = bx;
  corners[4] = by;
  corners[5] = bz;
  corners[6] = cx;
  corners[7] = cy;
  corners[8] = cz;
  closestPointOnTriangleAt(point, 0, corners, 0, out);
}

/**
 * closestPointOnTriangle with p at point[p…p+2] and the corners a, b, c at corners[c…c+8]. Arrays and
 * offsets only: a call V8 does not inline would box every float passed to it, and the terrain contacts
 * make one per contact sphere and triangle.
 */
export function closestPointOnTriangleAt(point: Float64Array, p: number, corners: Float64Array, c: number, out: Float64Array): void {
  const px = point[p]!,
    py = point[p + 1]!,
    pz = point[p + 2]!;
  const ax = corners[c]!,
    ay = corners[c + 1]!,
    az = corners[c + 2]!,
    bx = corners[c + 3]!,
    by = corners[c + 4]!,
    bz = corners[c + 5]!,
    cx = corners[c + 6]!,
    cy = corners[c + 7]!,
    cz = corners[c + 8]!;
  const abx = bx - ax,
    aby = by - ay,
    abz = bz - az;
  const acx = cx - ax,
    acy = cy - ay,
    acz = cz - az;
  const apx = px - ax,
    apy = py - ay,
    apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return set(out, ax, ay, az);

  const bpx = px - bx,
    bpy = py - by,
    bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return set(out, bx, by, bz);

  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return set(out, ax + v * abx, ay + v * aby, az + v * abz);
  }

  const cpx = px - cx,
    cpy = py - cy,
    cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return set(out, cx, cy, cz);

  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return set(out, ax + w * acx, ay + w * acy, az + w * acz);
  }

  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return set(out, bx + w * (cx - bx), by + w * (cy - by), bz + w * (cz - bz));
  }

  const sum = va + vb + vc;
  if (!(sum > 0)) {
    // Degenerate (zero-area) triangle whose edge tests all passed: fall back to the nearest vertex.
    const da = apx * apx + apy * apy + apz * apz;
    const db = bpx * bpx + bpy * bpy + bpz * bpz;
    const dc = cpx * cpx + cpy * cpy + cpz * cpz;
    if (da <= db && da <= dc) return set(out, ax, ay, az);
    return db <= dc ? set(out, bx, by, bz) : set(out, cx, cy, cz);
  }
  const denom = 1 / sum;
  const v = vb * denom;
  const w = vc * denom;
  set(out, ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
}

function set(out: Float64Array, x: number, y: number, z: number): void {
  out[0] = x;
  out[1] = y;
  out[2] = z;
}
