// The exact tests of the feature pairs, one function per pair type: the twins of the drain loops of
// src/query/capsule/featureTests.ts (which explains the geometry), in the same float64 operations in
// the same order, so each pair gives the TypeScript answer bit for bit.
//
// They stay scalar: a sweep of the benchmark tests ~17 pairs spread over six types and several leaves,
// so four pairs of one type are rarely waiting together, and float64 keeps the answers identical.
//
// A triangle is addressed by `tri`, its lane in a group of four (triangleLayout.ts): corner c's
// coordinate a is the float32 at tri + 48c + 16a.

import { bestKey, bestT, consider, dx, dy, dz, p0x, p0y, p0z, p1x, p1y, p1z, radius, sx, sy, sz } from './capsuleState';

/** Relative slack of feature parameter ranges (see RANGE_SLACK in the TypeScript twin). */
const RANGE_SLACK: f64 = 1e-12;

function coordinate(tri: usize, corner: i32, axis: i32): f64 {
  return <f64>load<f32>(tri + <usize>(48 * corner + 16 * axis));
}

/** Sphere `sphere`'s centre moving along d against the ball of radius r around vertex `vertex`. */
export function sphereVertex(tri: usize, triangle: i32, sphere: i32, vertex: i32): void {
  const vx = coordinate(tri, vertex, 0),
    vy = coordinate(tri, vertex, 1),
    vz = coordinate(tri, vertex, 2);
  const wx = (sphere != 0 ? p1x : p0x) - vx;
  const wy = (sphere != 0 ? p1y : p0y) - vy;
  const wz = (sphere != 0 ? p1z : p0z) - vz;
  const r = radius;
  const c = wx * wx + wy * wy + wz * wz - r * r;
  if (c <= 0) {
    if (bestT > 0 || c < bestKey) startContact(tri, triangle, c, vx, vy, vz, wx, wy, wz);
    return;
  }
  const b = wx * dx + wy * dy + wz * dz;
  if (b >= 0) return;
  const discriminant = b * b - (dx * dx + dy * dy + dz * dz) * c;
  if (discriminant < 0) return;
  const t = c / (Math.sqrt(discriminant) - b);
  if (t > bestT) return;
  const ox = wx + t * dx,
    oy = wy + t * dy,
    oz = wz + t * dz;
  const inverse = 1 / Math.sqrt(ox * ox + oy * oy + oz * oz);
  consider(t, 0, triangle, vx, vy, vz, ox * inverse, oy * inverse, oz * inverse);
}

/** Sphere centre moving along d against the cylinder of radius r around edge `edge` (between its ends). */
export function sphereEdge(tri: usize, triangle: i32, sphere: i32, edge: i32): void {
  const r = radius;
  const ax = coordinate(tri, edge, 0),
    ay = coordinate(tri, edge, 1),
    az = coordinate(tri, edge, 2);
  const next = edge == 2 ? 0 : edge + 1;
  const ex = coordinate(tri, next, 0) - ax,
    ey = coordinate(tri, next, 1) - ay,
    ez = coordinate(tri, next, 2) - az;
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(ee > 0)) return;
  const wx = (sphere != 0 ? p1x : p0x) - ax;
  const wy = (sphere != 0 ? p1y : p0y) - ay;
  const wz = (sphere != 0 ? p1z : p0z) - az;
  const we = wx * ex + wy * ey + wz * ez;
  const de = dx * ex + dy * ey + dz * ez;
  const c = ee * (wx * wx + wy * wy + wz * wz - r * r) - we * we;
  if (c <= 0) {
    const u = we / ee;
    if (u >= -RANGE_SLACK && u <= 1 + RANGE_SLACK && (bestT > 0 || c / ee < bestKey)) {
      const px = ax + u * ex,
        py = ay + u * ey,
        pz = az + u * ez;
      startContact(tri, triangle, c / ee, px, py, pz, wx + ax - px, wy + ay - py, wz + az - pz);
    }
    return;
  }
  const bHalf = ee * (wx * dx + wy * dy + wz * dz) - de * we;
  if (bHalf >= 0) return;
  const aQuad = ee * (dx * dx + dy * dy + dz * dz) - de * de;
  if (!(aQuad > 0)) return;
  const discriminant = bHalf * bHalf - aQuad * c;
  if (discriminant < 0) return;
  const t = c / (Math.sqrt(discriminant) - bHalf);
  if (t > bestT) return;
  const u = (we + t * de) / ee;
  if (u < -RANGE_SLACK || u > 1 + RANGE_SLACK) return;
  const px = ax + u * ex,
    py = ay + u * ey,
    pz = az + u * ez;
  const ox = wx + ax + t * dx - px,
    oy = wy + ay + t * dy - py,
    oz = wz + az + t * dz - pz;
  const inverse = 1 / Math.sqrt(ox * ox + oy * oy + oz * oz);
  consider(t, 0, triangle, px, py, pz, ox * inverse, oy * inverse, oz * inverse);
}

/** Sphere centre against the face's plane offset by r on the sphere's side, foot inside the triangle. */
export function sphereFace(tri: usize, triangle: i32, sphere: i32): void {
  const r = radius;
  const ax = coordinate(tri, 0, 0),
    ay = coordinate(tri, 0, 1),
    az = coordinate(tri, 0, 2);
  const bx = coordinate(tri, 1, 0),
    by = coordinate(tri, 1, 1),
    bz = coordinate(tri, 1, 2);
  const cx = coordinate(tri, 2, 0),
    cy = coordinate(tri, 2, 1),
    cz = coordinate(tri, 2, 2);
  const ux = bx - ax,
    uy = by - ay,
    uz = bz - az;
  const vx = cx - ax,
    vy = cy - ay,
    vz = cz - az;
  let nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(length > 0)) return;
  nx /= length;
  ny /= length;
  nz /= length;
  const cX = sphere != 0 ? p1x : p0x,
    cY = sphere != 0 ? p1y : p0y,
    cZ = sphere != 0 ? p1z : p0z;
  const distance = (cX - ax) * nx + (cY - ay) * ny + (cZ - az) * nz;
  const approach = dx * nx + dy * ny + dz * nz;
  let t: f64;
  let side: f64;
  if (Math.abs(distance) <= r) {
    t = 0;
    side = distance > 0 || (distance == 0 && approach <= 0) ? 1 : -1;
  } else {
    side = distance > 0 ? 1 : -1;
    const speed = -side * approach;
    if (!(speed > 0)) return;
    t = (Math.abs(distance) - r) / speed;
    if (t > bestT) return;
  }
  const reach = t == 0 ? distance : side * r;
  const fx = cX + t * dx - reach * nx,
    fy = cY + t * dy - reach * ny,
    fz = cZ + t * dz - reach * nz;
  if (!insideTriangle(fx, fy, fz, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz)) return;
  const key = t == 0 ? distance * distance - r * r : 0;
  consider(t, key, triangle, fx, fy, fz, side * nx, side * ny, side * nz);
}

/** The segment's line moving along d against edge `edge`'s line: distance r, both closest points inside. */
export function cylinderEdge(tri: usize, triangle: i32, edge: i32): void {
  const r = radius;
  const ss = sx * sx + sy * sy + sz * sz;
  const sd = sx * dx + sy * dy + sz * dz;
  const ax = coordinate(tri, edge, 0),
    ay = coordinate(tri, edge, 1),
    az = coordinate(tri, edge, 2);
  const next = edge == 2 ? 0 : edge + 1;
  const ex = coordinate(tri, next, 0) - ax,
    ey = coordinate(tri, next, 1) - ay,
    ez = coordinate(tri, next, 2) - az;
  const mx = ey * sz - ez * sy,
    my = ez * sx - ex * sz,
    mz = ex * sy - ey * sx;
  const mm = mx * mx + my * my + mz * mz;
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(mm > 1e-20 * ee * ss)) return;
  const wx = p0x - ax,
    wy = p0y - ay,
    wz = p0z - az;
  const h0 = wx * mx + wy * my + wz * mz;
  const hd = dx * mx + dy * my + dz * mz;
  const limit = r * Math.sqrt(mm);
  let t: f64;
  if (Math.abs(h0) <= limit) t = 0;
  else {
    const speed = h0 > 0 ? -hd : hd;
    if (!(speed > 0)) return;
    t = (Math.abs(h0) - limit) / speed;
    if (t > bestT) return;
  }
  const es = ex * sx + ey * sy + ez * sz;
  const we = wx * ex + wy * ey + wz * ez + t * (dx * ex + dy * ey + dz * ez);
  const ws = wx * sx + wy * sy + wz * sz + t * sd;
  const u = (we * ss - es * ws) / mm;
  const v = (es * we - ee * ws) / mm;
  if (u < -RANGE_SLACK || u > 1 + RANGE_SLACK || v < -RANGE_SLACK || v > 1 + RANGE_SLACK) return;
  const px = ax + u * ex,
    py = ay + u * ey,
    pz = az + u * ez;
  const side: f64 = h0 > 0 || (h0 == 0 && hd <= 0) ? 1 : -1;
  const inverse = side / Math.sqrt(mm);
  consider(t, t == 0 ? (h0 * h0) / mm - r * r : 0, triangle, px, py, pz, mx * inverse, my * inverse, mz * inverse);
}

/** Vertex `vertex` moving along −d against the cylinder of radius r around the segment. */
export function cylinderVertex(tri: usize, triangle: i32, vertex: i32): void {
  const r = radius;
  const ss = sx * sx + sy * sy + sz * sz;
  const sd = sx * dx + sy * dy + sz * dz;
  const aQuad = ss * (dx * dx + dy * dy + dz * dz) - sd * sd;
  const vx = coordinate(tri, vertex, 0),
    vy = coordinate(tri, vertex, 1),
    vz = coordinate(tri, vertex, 2);
  const wx = vx - p0x,
    wy = vy - p0y,
    wz = vz - p0z;
  const ws = wx * sx + wy * sy + wz * sz;
  const c = ss * (wx * wx + wy * wy + wz * wz - r * r) - ws * ws;
  let t: f64;
  if (c <= 0) {
    t = 0;
    if (bestT == 0 && !(c / ss < bestKey)) return;
  } else {
    const bHalf = sd * ws - ss * (wx * dx + wy * dy + wz * dz);
    if (bHalf >= 0 || !(aQuad > 0)) return;
    const discriminant = bHalf * bHalf - aQuad * c;
    if (discriminant < 0) return;
    t = c / (Math.sqrt(discriminant) - bHalf);
    if (t > bestT) return;
  }
  const along = (ws - t * sd) / ss;
  if (along < -RANGE_SLACK || along > 1 + RANGE_SLACK) return;
  const ox = p0x + t * dx + along * sx - vx,
    oy = p0y + t * dy + along * sy - vy,
    oz = p0z + t * dz + along * sz - vz;
  if (t == 0) startContact(tri, triangle, c / ss, vx, vy, vz, ox, oy, oz);
  else {
    const inverse = 1 / Math.sqrt(ox * ox + oy * oy + oz * oz);
    consider(t, 0, triangle, vx, vy, vz, ox * inverse, oy * inverse, oz * inverse);
  }
}

/** The segment crossing the face at the start: contact at t = 0, the deepest kind. */
export function cylinderFace(tri: usize, triangle: i32): void {
  const r = radius;
  const ax = coordinate(tri, 0, 0),
    ay = coordinate(tri, 0, 1),
    az = coordinate(tri, 0, 2);
  const bx = coordinate(tri, 1, 0),
    by = coordinate(tri, 1, 1),
    bz = coordinate(tri, 1, 2);
  const cx = coordinate(tri, 2, 0),
    cy = coordinate(tri, 2, 1),
    cz = coordinate(tri, 2, 2);
  const ux = bx - ax,
    uy = by - ay,
    uz = bz - az;
  const vx = cx - ax,
    vy = cy - ay,
    vz = cz - az;
  let nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(length > 0)) return;
  nx /= length;
  ny /= length;
  nz /= length;
  const s0 = (p0x - ax) * nx + (p0y - ay) * ny + (p0z - az) * nz;
  const s1 = s0 + sx * nx + sy * ny + sz * nz;
  if ((s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0) || s0 == s1) return;
  const f = s0 / (s0 - s1);
  const fx = p0x + f * sx,
    fy = p0y + f * sy,
    fz = p0z + f * sz;
  if (!insideTriangle(fx, fy, fz, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz)) return;
  const depth = Math.min(Math.abs(s0), Math.abs(s1));
  const key = -r * r - depth * depth;
  const side: f64 = Math.abs(s0) <= Math.abs(s1) ? (s0 >= 0 ? 1 : -1) : s1 >= 0 ? 1 : -1;
  consider(0, key, triangle, fx, fy, fz, side * nx, side * ny, side * nz);
}

function insideTriangle(
  px: f64,
  py: f64,
  pz: f64,
  ax: f64,
  ay: f64,
  az: f64,
  bx: f64,
  by: f64,
  bz: f64,
  cx: f64,
  cy: f64,
  cz: f64,
  nx: f64,
  ny: f64,
  nz: f64,
): bool {
  return (
    edgeSide(px, py, pz, ax, ay, az, bx, by, bz, nx, ny, nz) >= 0 &&
    edgeSide(px, py, pz, bx, by, bz, cx, cy, cz, nx, ny, nz) >= 0 &&
    edgeSide(px, py, pz, cx, cy, cz, ax, ay, az, nx, ny, nz) >= 0
  );
}

function edgeSide(px: f64, py: f64, pz: f64, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, nx: f64, ny: f64, nz: f64): f64 {
  const ex = bx - ax,
    ey = by - ay,
    ez = bz - az;
  const wx = px - ax,
    wy = py - ay,
    wz = pz - az;
  return (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz;
}

/**
 * A contact at t = 0 with closest points `point` (on the triangle) and point + offset (on the axis);
 * when the axis touches the triangle (offset 0) the normal is the face normal turned against the motion.
 */
function startContact(tri: usize, triangle: i32, key: f64, px: f64, py: f64, pz: f64, ox: f64, oy: f64, oz: f64): void {
  const length = Math.sqrt(ox * ox + oy * oy + oz * oz);
  if (length > 0) {
    consider(0, key, triangle, px, py, pz, ox / length, oy / length, oz / length);
    return;
  }
  const ax = coordinate(tri, 0, 0),
    ay = coordinate(tri, 0, 1),
    az = coordinate(tri, 0, 2);
  const ux = coordinate(tri, 1, 0) - ax,
    uy = coordinate(tri, 1, 1) - ay,
    uz = coordinate(tri, 1, 2) - az;
  const vx = coordinate(tri, 2, 0) - ax,
    vy = coordinate(tri, 2, 1) - ay,
    vz = coordinate(tri, 2, 2) - az;
  let nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  let n = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(n > 0)) {
    nx = -dx;
    ny = -dy;
    nz = -dz;
    n = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(n > 0)) {
      nx = 0;
      ny = 1;
      nz = 0;
      n = 1;
    }
  } else if (nx * dx + ny * dy + nz * dz > 0) n = -n;
  consider(0, key, triangle, px, py, pz, nx / n, ny / n, nz / n);
}
