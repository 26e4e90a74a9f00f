/**
 * Closest points between a segment and a triangle, in float64, written plainly (no culling, no shared
 * code with the sweep's feature tests) so it can serve as their reference. `out` receives
 * [distance, segment point xyz, triangle point xyz].
 */
export function segmentTriangleClosest(
  px: number,
  py: number,
  pz: number,
  qx: number,
  qy: number,
  qz: number,
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
): number {
  // The segment through the face: distance 0 at the crossing.
  const ux = bx - ax,
    uy = by - ay,
    uz = bz - az;
  const vx = cx - ax,
    vy = cy - ay,
    vz = cz - az;
  const nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const nn = nx * nx + ny * ny + nz * nz;
  if (nn > 0) {
    const sp = (px - ax) * nx + (py - ay) * ny + (pz - az) * nz;
    const sq = (qx - ax) * nx + (qy - ay) * ny + (qz - az) * nz;
    if ((sp <= 0 && sq >= 0) || (sp >= 0 && sq <= 0)) {
      if (sp !== sq) {
        const f = sp / (sp - sq);
        const xx = px + f * (qx - px),
          xy = py + f * (qy - py),
          xz = pz + f * (qz - pz);
        if (insideByBarycentric(xx, xy, xz, ax, ay, az, ux, uy, uz, vx, vy, vz)) {
          out[0] = 0;
          out[1] = out[4] = xx;
          out[2] = out[5] = xy;
          out[3] = out[6] = xz;
          return 0;
        }
      }
    }
  }
  let best = Infinity;
  const scratch = closestScratch;
  // Segment ends against the triangle.
  for (let end = 0; end < 2; end++) {
    const sx = end === 0 ? px : qx,
      sy = end === 0 ? py : qy,
      sz = end === 0 ? pz : qz;
    closestPointOnTriangle(sx, sy, sz, ax, ay, az, bx, by, bz, cx, cy, cz, scratch);
    const d = length3(sx - scratch[0]!, sy - scratch[1]!, sz - scratch[2]!);
    if (d < best) {
      best = d;
      out[1] = sx;
      out[2] = sy;
      out[3] = sz;
      out[4] = scratch[0]!;
      out[5] = scratch[1]!;
      out[6] = scratch[2]!;
    }
  }
  // The segment against each edge.
  for (let edge = 0; edge < 3; edge++) {
    const ex0 = edge === 0 ? ax : edge === 1 ? bx : cx,
      ey0 = edge === 0 ? ay : edge === 1 ? by : cy,
      ez0 = edge === 0 ? az : edge === 1 ? bz : cz;
    const ex1 = edge === 0 ? bx : edge === 1 ? cx : ax,
      ey1 = edge === 0 ? by : edge === 1 ? cy : ay,
      ez1 = edge === 0 ? bz : edge === 1 ? cz : az;
    const d = closestSegmentSegment(px, py, pz, qx, qy, qz, ex0, ey0, ez0, ex1, ey1, ez1, scratch);
    if (d < best) {
      best = d;
      out[1] = scratch[0]!;
      out[2] = scratch[1]!;
      out[3] = scratch[2]!;
      out[4] = scratch[3]!;
      out[5] = scratch[4]!;
      out[6] = scratch[5]!;
    }
  }
  out[0] = best;
  return best;
}

const closestScratch = new Float64Array(6);

function insideByBarycentric(
  xx: number,
  xy: number,
  xz: number,
  ax: number,
  ay: number,
  az: number,
  ux: number,
  uy: number,
  uz: number,
  vx: number,
  vy: number,
  vz: number,
): boolean {
  const wx = xx - ax,
    wy = xy - ay,
    wz = xz - az;
  const uu = ux * ux + uy * uy + uz * uz,
    uv = ux * vx + uy * vy + uz * vz,
    vv = vx * vx + vy * vy + vz * vz;
  const wu = wx * ux + wy * uy + wz * uz,
    wv = wx * vx + wy * vy + wz * vz;
  const den = uu * vv - uv * uv;
  if (!(den > 0)) return false;
  const beta = (vv * wu - uv * wv) / den;
  const gamma = (uu * wv - uv * wu) / den;
  return beta >= 0 && gamma >= 0 && beta + gamma <= 1;
}

/** The triangle's point nearest p, by Voronoi regions; a zero-area triangle is treated as its edges. */
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
  const abx = bx - ax,
    aby = by - ay,
    abz = bz - az;
  const acx = cx - ax,
    acy = cy - ay,
    acz = cz - az;
  const nx = aby * acz - abz * acy,
    ny = abz * acx - abx * acz,
    nz = abx * acy - aby * acx;
  if (!(nx * nx + ny * ny + nz * nz > 0)) {
    let best = Infinity;
    const keepX = new Float64Array(3);
    for (let edge = 0; edge < 3; edge++) {
      const sx = edge === 0 ? ax : edge === 1 ? bx : cx,
        sy = edge === 0 ? ay : edge === 1 ? by : cy,
        sz = edge === 0 ? az : edge === 1 ? bz : cz;
      const tx = edge === 0 ? bx : edge === 1 ? cx : ax,
        ty = edge === 0 ? by : edge === 1 ? cy : ay,
        tz = edge === 0 ? bz : edge === 1 ? cz : az;
      const ex = tx - sx,
        ey = ty - sy,
        ez = tz - sz;
      const ee = ex * ex + ey * ey + ez * ez;
      let u = ee > 0 ? ((px - sx) * ex + (py - sy) * ey + (pz - sz) * ez) / ee : 0;
      u = Math.min(1, Math.max(0, u));
      const qx = sx + u * ex,
        qy = sy + u * ey,
        qz = sz + u * ez;
      const d = length3(px - qx, py - qy, pz - qz);
      if (d < best) {
        best = d;
        keepX[0] = qx;
        keepX[1] = qy;
        keepX[2] = qz;
      }
    }
    out[0] = keepX[0]!;
    out[1] = keepX[1]!;
    out[2] = keepX[2]!;
    return;
  }
  const apx = px - ax,
    apy = py - ay,
    apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return set3(out, ax, ay, az);
  const bpx = px - bx,
    bpy = py - by,
    bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return set3(out, bx, by, bz);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return set3(out, ax + v * abx, ay + v * aby, az + v * abz);
  }
  const cpx = px - cx,
    cpy = py - cy,
    cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return set3(out, cx, cy, cz);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return set3(out, ax + w * acx, ay + w * acy, az + w * acz);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return set3(out, bx + w * (cx - bx), by + w * (cy - by), bz + w * (cz - bz));
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  set3(out, ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
}

function set3(out: Float64Array, x: number, y: number, z: number): void {
  out[0] = x;
  out[1] = y;
  out[2] = z;
}

/** Closest points of segments p1q1 and p2q2 (either may be a point): out = [on first xyz, on second xyz]. */
export function closestSegmentSegment(
  p1x: number,
  p1y: number,
  p1z: number,
  q1x: number,
  q1y: number,
  q1z: number,
  p2x: number,
  p2y: number,
  p2z: number,
  q2x: number,
  q2y: number,
  q2z: number,
  out: Float64Array,
): number {
  const d1x = q1x - p1x,
    d1y = q1y - p1y,
    d1z = q1z - p1z;
  const d2x = q2x - p2x,
    d2y = q2y - p2y,
    d2z = q2z - p2z;
  const rx = p1x - p2x,
    ry = p1y - p2y,
    rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s: number;
  let t: number;
  if (a <= 0 && e <= 0) {
    s = 0;
    t = 0;
  } else if (a <= 0) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 0) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b;
      s = denom > 0 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  const c1x = p1x + d1x * s,
    c1y = p1y + d1y * s,
    c1z = p1z + d1z * s;
  const c2x = p2x + d2x * t,
    c2y = p2y + d2y * t,
    c2z = p2z + d2z * t;
  out[0] = c1x;
  out[1] = c1y;
  out[2] = c1z;
  out[3] = c2x;
  out[4] = c2y;
  out[5] = c2z;
  return length3(c1x - c2x, c1y - c2y, c1z - c2z);
}

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

const length3 = (x: number, y: number, z: number): number => Math.sqrt(x * x + y * y + z * z);
