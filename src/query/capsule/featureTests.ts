import {
  CAPSULE_STRIDE,
  C_R,
  QUEUE_CAPACITY,
  QUEUE_CYLINDER_EDGE,
  QUEUE_CYLINDER_FACE,
  QUEUE_CYLINDER_VERTEX,
  QUEUE_SPHERE_EDGE,
  QUEUE_SPHERE_FACE,
  QUEUE_SPHERE_VERTEX,
  type SweepWorkspace,
} from './sweepWorkspace';

/**
 * The exact tests of the feature pairs, one loop per queue. Together they are a ray cast from the
 * origin along the motion against the Minkowski difference of the triangle and the capsule's segment,
 * rounded by the radius: its vertices are the spheres' vertex pairs, its edges the spheres' edge pairs
 * and the cylinder's vertex pairs (segment-parallel edges), its faces the spheres' face pairs and the
 * cylinder's edge pairs (edge × segment parallelograms). Each test reports the first t ∈ [0, best]
 * at which the pair is within the radius with its closest points inside both features, or t = 0 when
 * it already is; a pair already in range but outside its features is left to the neighbouring features.
 * The only other way to start in contact, the axis through the face, is the cylinder–face pair.
 * Each queued pair names its capsule's slot: the capsule and its best time are read per pair.
 */

/** Relative slack of feature parameter ranges, so a contact on a shared boundary is not lost between two
 *  features that each reject it by rounding. */
const RANGE_SLACK = 1e-12;

export function drainQueues(ws: SweepWorkspace, positions: Float32Array, indices: Uint32Array): void {
  const counts = ws.queueCount;
  if (counts[QUEUE_SPHERE_FACE]! > 0) drainSphereFace(ws, positions, indices);
  if (counts[QUEUE_CYLINDER_EDGE]! > 0) drainCylinderEdge(ws, positions, indices);
  if (counts[QUEUE_SPHERE_EDGE]! > 0) drainSphereEdge(ws, positions, indices);
  if (counts[QUEUE_SPHERE_VERTEX]! > 0) drainSphereVertex(ws, positions, indices);
  if (counts[QUEUE_CYLINDER_VERTEX]! > 0) drainCylinderVertex(ws, positions, indices);
  if (counts[QUEUE_CYLINDER_FACE]! > 0) drainCylinderFace(ws, positions, indices);
}

/** Sphere centre P_j moving along d against the ball of radius r around a vertex. */
function drainSphereVertex(ws: SweepWorkspace, positions: Float32Array, indices: Uint32Array): void {
  const base = QUEUE_SPHERE_VERTEX * QUEUE_CAPACITY;
  const count = ws.queueCount[QUEUE_SPHERE_VERTEX]!;
  const triangles = ws.queueTriangle,
    codes = ws.queueCode,
    slots = ws.queueSlot;
  const capsules = ws.capsules,
    bestT = ws.bestT;
  for (let q = base; q < base + count; q++) {
    const triangle = triangles[q]!;
    const code = codes[q]!;
    const slot = slots[q]!;
    const o = CAPSULE_STRIDE * slot;
    const sphere = code >= 3 ? 1 : 0;
    const v = 3 * indices[3 * triangle + code - 3 * sphere]!;
    const vx = positions[v]!,
      vy = positions[v + 1]!,
      vz = positions[v + 2]!;
    const centre = o + 3 * sphere;
    const wx = capsules[centre]! - vx,
      wy = capsules[centre + 1]! - vy,
      wz = capsules[centre + 2]! - vz;
    const dx = capsules[o + 6]!,
      dy = capsules[o + 7]!,
      dz = capsules[o + 8]!,
      r = capsules[o + C_R]!;
    const c = wx * wx + wy * wy + wz * wz - r * r;
    if (c <= 0) {
      if (bestT[slot]! > 0 || c < ws.bestKey[slot]!) startContact(ws, slot, triangle, c, vx, vy, vz, wx, wy, wz, positions, indices);
      continue;
    }
    const b = wx * dx + wy * dy + wz * dz;
    if (b >= 0) continue;
    const discriminant = b * b - (dx * dx + dy * dy + dz * dz) * c;
    if (discriminant < 0) continue;
    const t = c / (Math.sqrt(discriminant) - b);
    if (t > bestT[slot]!) continue;
    const ox = wx + t * dx,
      oy = wy + t * dy,
      oz = wz + t * dz;
    const inverse = 1 / Math.sqrt(ox * ox + oy * oy + oz * oz);
    ws.consider(slot, t, 0, triangle, vx, vy, vz, ox * inverse, oy * inverse, oz * inverse);
  }
  ws.drained[QUEUE_SPHERE_VERTEX]! += count;
  ws.queueCount[QUEUE_SPHERE_VERTEX] = 0;
}

/** Sphere centre P_j moving along d against the cylinder of radius r around an edge (between its ends). */
function drainSphereEdge(ws: SweepWorkspace, positions: Float32Array, indices: Uint32Array): void {
  const base = QUEUE_SPHERE_EDGE * QUEUE_CAPACITY;
  const count = ws.queueCount[QUEUE_SPHERE_EDGE]!;
  const triangles = ws.queueTriangle,
    codes = ws.queueCode,
    slots = ws.queueSlot;
  const capsules = ws.capsules,
    bestT = ws.bestT;
  for (let q = base; q < base + count; q++) {
    const triangle = triangles[q]!;
    const code = codes[q]!;
    const slot = slots[q]!;
    const o = CAPSULE_STRIDE * slot;
    const dx = capsules[o + 6]!,
      dy = capsules[o + 7]!,
      dz = capsules[o + 8]!,
      r = capsules[o + C_R]!;
    const sphere = code >= 3 ? 1 : 0;
    const edge = code - 3 * sphere;
    const a = 3 * indices[3 * triangle + edge]!;
    const b = 3 * indices[3 * triangle + (edge === 2 ? 0 : edge + 1)]!;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const ex = positions[b]! - ax,
      ey = positions[b + 1]! - ay,
      ez = positions[b + 2]! - az;
    const ee = ex * ex + ey * ey + ez * ez;
    if (!(ee > 0)) continue;
    const centre = o + 3 * sphere;
    const wx = capsules[centre]! - ax,
      wy = capsules[centre + 1]! - ay,
      wz = capsules[centre + 2]! - az;
    const we = wx * ex + wy * ey + wz * ez;
    const de = dx * ex + dy * ey + dz * ez;
    // Squared distance to the edge's line times ee: |w|²·ee − (w·E)², and its derivatives along d.
    const c = ee * (wx * wx + wy * wy + wz * wz - r * r) - we * we;
    if (c <= 0) {
      const u = we / ee;
      if (u >= -RANGE_SLACK && u <= 1 + RANGE_SLACK && (bestT[slot]! > 0 || c / ee < ws.bestKey[slot]!)) {
        const px = ax + u * ex,
          py = ay + u * ey,
          pz = az + u * ez;
        startContact(ws, slot, triangle, c / ee, px, py, pz, wx + ax - px, wy + ay - py, wz + az - pz, positions, indices);
      }
      continue;
    }
    const bHalf = ee * (wx * dx + wy * dy + wz * dz) - de * we;
    if (bHalf >= 0) continue;
    const aQuad = ee * (dx * dx + dy * dy + dz * dz) - de * de;
    if (!(aQuad > 0)) continue;
    const discriminant = bHalf * bHalf - aQuad * c;
    if (discriminant < 0) continue;
    const t = c / (Math.sqrt(discriminant) - bHalf);
    if (t > bestT[slot]!) continue;
    const u = (we + t * de) / ee;
    if (u < -RANGE_SLACK || u > 1 + RANGE_SLACK) continue;
    const px = ax + u * ex,
      py = ay + u * ey,
      pz = az + u * ez;
    const ox = wx + ax + t * dx - px,
      oy = wy + ay + t * dy - py,
      oz = wz + az + t * dz - pz;
    const inverse = 1 / Math.sqrt(ox * ox + oy * oy + oz * oz);
    ws.consider(slot, t, 0, triangle, px, py, pz, ox * inverse, oy * inverse, oz * inverse);
  }
  ws.drained[QUEUE_SPHERE_EDGE]! += count;
  ws.queueCount[QUEUE_SPHERE_EDGE] = 0;
}

/** Sphere centre P_j against the face's plane offset by r on the sphere's side, foot inside the triangle. */
function drainSphereFace(ws: SweepWorkspace, positions: Float32Array, indices: Uint32Array): void {
  const base = QUEUE_SPHERE_FACE * QUEUE_CAPACITY;
  const count = ws.queueCount[QUEUE_SPHERE_FACE]!;
  const triangles = ws.queueTriangle,
    codes = ws.queueCode,
    slots = ws.queueSlot;
  const capsules = ws.capsules,
    bestT = ws.bestT;
  for (let q = base; q < base + count; q++) {
    const triangle = triangles[q]!;
    const sphere = codes[q]!;
    const slot = slots[q]!;
    const o = CAPSULE_STRIDE * slot;
    const dx = capsules[o + 6]!,
      dy = capsules[o + 7]!,
      dz = capsules[o + 8]!,
      r = capsules[o + C_R]!;
    const i3 = 3 * triangle;
    const a = 3 * indices[i3]!,
      b = 3 * indices[i3 + 1]!,
      c = 3 * indices[i3 + 2]!;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const bx = positions[b]!,
      by = positions[b + 1]!,
      bz = positions[b + 2]!;
    const cx = positions[c]!,
      cy = positions[c + 1]!,
      cz = positions[c + 2]!;
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
    if (!(length > 0)) continue;
    nx /= length;
    ny /= length;
    nz /= length;
    const centre = o + 3 * sphere;
    const sx = capsules[centre]!,
      sy = capsules[centre + 1]!,
      sz = capsules[centre + 2]!;
    const distance = (sx - ax) * nx + (sy - ay) * ny + (sz - az) * nz;
    const approach = dx * nx + dy * ny + dz * nz;
    let t: number;
    let side: number;
    if (Math.abs(distance) <= r) {
      t = 0;
      side = distance > 0 || (distance === 0 && approach <= 0) ? 1 : -1;
    } else {
      side = distance > 0 ? 1 : -1;
      const speed = -side * approach;
      if (!(speed > 0)) continue;
      t = (Math.abs(distance) - r) / speed;
      if (t > bestT[slot]!) continue;
    }
    // The foot: the sphere's point nearest the plane at t (or the centre's projection when already in range).
    const reach = t === 0 ? distance : side * r;
    const fx = sx + t * dx - reach * nx,
      fy = sy + t * dy - reach * ny,
      fz = sz + t * dz - reach * nz;
    if (!insideTriangle(fx, fy, fz, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz)) continue;
    const key = t === 0 ? distance * distance - r * r : 0;
    ws.consider(slot, t, key, triangle, fx, fy, fz, side * nx, side * ny, side * nz);
  }
  ws.drained[QUEUE_SPHERE_FACE]! += count;
  ws.queueCount[QUEUE_SPHERE_FACE] = 0;
}

/** The segment's line moving along d against an edge's line: distance r with both closest points inside. */
function drainCylinderEdge(ws: SweepWorkspace, positions: Float32Array, indices: Uint32Array): void {
  const base = QUEUE_CYLINDER_EDGE * QUEUE_CAPACITY;
  const count = ws.queueCount[QUEUE_CYLINDER_EDGE]!;
  const triangles = ws.queueTriangle,
    codes = ws.queueCode,
    slots = ws.queueSlot;
  const capsules = ws.capsules,
    bestT = ws.bestT;
  for (let q = base; q < base + count; q++) {
    const triangle = triangles[q]!;
    const edge = codes[q]!;
    const slot = slots[q]!;
    const o = CAPSULE_STRIDE * slot;
    const p0x = capsules[o]!,
      p0y = capsules[o + 1]!,
      p0z = capsules[o + 2]!;
    const sx = capsules[o + 3]! - p0x,
      sy = capsules[o + 4]! - p0y,
      sz = capsules[o + 5]! - p0z;
    const dx = capsules[o + 6]!,
      dy = capsules[o + 7]!,
      dz = capsules[o + 8]!,
      r = capsules[o + C_R]!;
    const ss = sx * sx + sy * sy + sz * sz;
    const sd = sx * dx + sy * dy + sz * dz;
    const a = 3 * indices[3 * triangle + edge]!;
    const b = 3 * indices[3 * triangle + (edge === 2 ? 0 : edge + 1)]!;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const ex = positions[b]! - ax,
      ey = positions[b + 1]! - ay,
      ez = positions[b + 2]! - az;
    const mx = ey * sz - ez * sy,
      my = ez * sx - ex * sz,
      mz = ex * sy - ey * sx;
    const mm = mx * mx + my * my + mz * mz;
    const ee = ex * ex + ey * ey + ez * ez;
    // Parallel lines: the ends of either feature are nearest, which other pairs cover.
    if (!(mm > 1e-20 * ee * ss)) continue;
    const wx = p0x - ax,
      wy = p0y - ay,
      wz = p0z - az;
    const h0 = wx * mx + wy * my + wz * mz;
    const hd = dx * mx + dy * my + dz * mz;
    const limit = r * Math.sqrt(mm);
    let t: number;
    if (Math.abs(h0) <= limit) t = 0;
    else {
      const speed = h0 > 0 ? -hd : hd;
      if (!(speed > 0)) continue;
      t = (Math.abs(h0) - limit) / speed;
      if (t > bestT[slot]!) continue;
    }
    // Closest points of the two lines at t: edge A + u·E, segment P0 + t·d + v·s.
    const es = ex * sx + ey * sy + ez * sz;
    const we = wx * ex + wy * ey + wz * ez + t * (dx * ex + dy * ey + dz * ez);
    const ws_ = wx * sx + wy * sy + wz * sz + t * sd;
    const u = (we * ss - es * ws_) / mm;
    const v = (es * we - ee * ws_) / mm;
    if (u < -RANGE_SLACK || u > 1 + RANGE_SLACK || v < -RANGE_SLACK || v > 1 + RANGE_SLACK) continue;
    const px = ax + u * ex,
      py = ay + u * ey,
      pz = az + u * ez;
    const side = h0 > 0 || (h0 === 0 && hd <= 0) ? 1 : -1;
    const inverse = side / Math.sqrt(mm);
    ws.consider(slot, t, t === 0 ? (h0 * h0) / mm - r * r : 0, triangle, px, py, pz, mx * inverse, my * inverse, mz * inverse);
  }
  ws.drained[QUEUE_CYLINDER_EDGE]! += count;
  ws.queueCount[QUEUE_CYLINDER_EDGE] = 0;
}

/** A vertex moving along −d against the cylinder of radius r around the segment (between its ends). */
function drainCylinderVertex(ws: SweepWorkspace, positions: Float32Array, indices: Uint32Array): void {
  const base = QUEUE_CYLINDER_VERTEX * QUEUE_CAPACITY;
  const count = ws.queueCount[QUEUE_CYLINDER_VERTEX]!;
  const triangles = ws.queueTriangle,
    codes = ws.queueCode,
    slots = ws.queueSlot;
  const capsules = ws.capsules,
    bestT = ws.bestT;
  for (let q = base; q < base + count; q++) {
    const triangle = triangles[q]!;
    const slot = slots[q]!;
    const o = CAPSULE_STRIDE * slot;
    const p0x = capsules[o]!,
      p0y = capsules[o + 1]!,
      p0z = capsules[o + 2]!;
    const sx = capsules[o + 3]! - p0x,
      sy = capsules[o + 4]! - p0y,
      sz = capsules[o + 5]! - p0z;
    const dx = capsules[o + 6]!,
      dy = capsules[o + 7]!,
      dz = capsules[o + 8]!,
      r = capsules[o + C_R]!;
    const ss = sx * sx + sy * sy + sz * sz;
    const sd = sx * dx + sy * dy + sz * dz;
    const aQuad = ss * (dx * dx + dy * dy + dz * dz) - sd * sd;
    const v = 3 * indices[3 * triangle + codes[q]!]!;
    const vx = positions[v]!,
      vy = positions[v + 1]!,
      vz = positions[v + 2]!;
    const wx = vx - p0x,
      wy = vy - p0y,
      wz = vz - p0z;
    const ws_ = wx * sx + wy * sy + wz * sz;
    const c = ss * (wx * wx + wy * wy + wz * wz - r * r) - ws_ * ws_;
    let t: number;
    if (c <= 0) {
      t = 0;
      if (bestT[slot] === 0 && !(c / ss < ws.bestKey[slot]!)) continue;
    } else {
      // Relative motion of the vertex is −d.
      const bHalf = sd * ws_ - ss * (wx * dx + wy * dy + wz * dz);
      if (bHalf >= 0 || !(aQuad > 0)) continue;
      const discriminant = bHalf * bHalf - aQuad * c;
      if (discriminant < 0) continue;
      t = c / (Math.sqrt(discriminant) - bHalf);
      if (t > bestT[slot]!) continue;
    }
    const along = (ws_ - t * sd) / ss;
    if (along < -RANGE_SLACK || along > 1 + RANGE_SLACK) continue;
    // Normal: from the vertex to the axis point nearest it at t.
    const ox = p0x + t * dx + along * sx - vx,
      oy = p0y + t * dy + along * sy - vy,
      oz = p0z + t * dz + along * sz - vz;
    if (t === 0) startContact(ws, slot, triangle, c / ss, vx, vy, vz, ox, oy, oz, positions, indices);
    else {
      const inverse = 1 / Math.sqrt(ox * ox + oy * oy + oz * oz);
      ws.consider(slot, t, 0, triangle, vx, vy, vz, ox * inverse, oy * inverse, oz * inverse);
    }
  }
  ws.drained[QUEUE_CYLINDER_VERTEX]! += count;
  ws.queueCount[QUEUE_CYLINDER_VERTEX] = 0;
}

/** The segment crossing the face at the start: contact at t = 0, the deepest kind. */
function drainCylinderFace(ws: SweepWorkspace, positions: Float32Array, indices: Uint32Array): void {
  const base = QUEUE_CYLINDER_FACE * QUEUE_CAPACITY;
  const count = ws.queueCount[QUEUE_CYLINDER_FACE]!;
  const triangles = ws.queueTriangle,
    slots = ws.queueSlot;
  const capsules = ws.capsules;
  for (let q = base; q < base + count; q++) {
    const triangle = triangles[q]!;
    const slot = slots[q]!;
    const o = CAPSULE_STRIDE * slot;
    const p0x = capsules[o]!,
      p0y = capsules[o + 1]!,
      p0z = capsules[o + 2]!;
    const sx = capsules[o + 3]! - p0x,
      sy = capsules[o + 4]! - p0y,
      sz = capsules[o + 5]! - p0z;
    const r = capsules[o + C_R]!;
    const i3 = 3 * triangle;
    const a = 3 * indices[i3]!,
      b = 3 * indices[i3 + 1]!,
      c = 3 * indices[i3 + 2]!;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const bx = positions[b]!,
      by = positions[b + 1]!,
      bz = positions[b + 2]!;
    const cx = positions[c]!,
      cy = positions[c + 1]!,
      cz = positions[c + 2]!;
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
    if (!(length > 0)) continue;
    nx /= length;
    ny /= length;
    nz /= length;
    const s0 = (p0x - ax) * nx + (p0y - ay) * ny + (p0z - az) * nz;
    const s1 = s0 + sx * nx + sy * ny + sz * nz;
    if ((s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0) || s0 === s1) continue;
    const f = s0 / (s0 - s1);
    const fx = p0x + f * sx,
      fy = p0y + f * sy,
      fz = p0z + f * sz;
    if (!insideTriangle(fx, fy, fz, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz)) continue;
    const depth = Math.min(Math.abs(s0), Math.abs(s1));
    const key = -r * r - depth * depth;
    // Push out through the face on the side the shallower end is on.
    const side = Math.abs(s0) <= Math.abs(s1) ? (s0 >= 0 ? 1 : -1) : s1 >= 0 ? 1 : -1;
    ws.consider(slot, 0, key, triangle, fx, fy, fz, side * nx, side * ny, side * nz);
  }
  ws.drained[QUEUE_CYLINDER_FACE]! += count;
  ws.queueCount[QUEUE_CYLINDER_FACE] = 0;
}

/** Whether a point in the triangle's plane lies inside it (boundary included), n its unit normal. */
function insideTriangle(
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
  nx: number,
  ny: number,
  nz: number,
): boolean {
  return (
    edgeSide(px, py, pz, ax, ay, az, bx, by, bz, nx, ny, nz) >= 0 &&
    edgeSide(px, py, pz, bx, by, bz, cx, cy, cz, nx, ny, nz) >= 0 &&
    edgeSide(px, py, pz, cx, cy, cz, ax, ay, az, nx, ny, nz) >= 0
  );
}

function edgeSide(
  px: number,
  py: number,
  pz: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  nx: number,
  ny: number,
  nz: number,
): number {
  const ex = bx - ax,
    ey = by - ay,
    ez = bz - az;
  const wx = px - ax,
    wy = py - ay,
    wz = pz - az;
  return (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz;
}

/**
 * A contact at t = 0 with closest points `point` (on the triangle) and point + offset (on the capsule's
 * axis). The normal is the offset; when the axis touches the triangle (offset 0) it is the face normal
 * turned against the motion.
 */
function startContact(
  ws: SweepWorkspace,
  slot: number,
  triangle: number,
  key: number,
  px: number,
  py: number,
  pz: number,
  ox: number,
  oy: number,
  oz: number,
  positions: Float32Array,
  indices: Uint32Array,
): void {
  const length = Math.sqrt(ox * ox + oy * oy + oz * oz);
  if (length > 0) {
    ws.consider(slot, 0, key, triangle, px, py, pz, ox / length, oy / length, oz / length);
    return;
  }
  const o = CAPSULE_STRIDE * slot;
  const dx = ws.capsules[o + 6]!,
    dy = ws.capsules[o + 7]!,
    dz = ws.capsules[o + 8]!;
  const i3 = 3 * triangle;
  const a = 3 * indices[i3]!,
    b = 3 * indices[i3 + 1]!,
    c = 3 * indices[i3 + 2]!;
  const ux = positions[b]! - positions[a]!,
    uy = positions[b + 1]! - positions[a + 1]!,
    uz = positions[b + 2]! - positions[a + 2]!;
  const vx = positions[c]! - positions[a]!,
    vy = positions[c + 1]! - positions[a + 1]!,
    vz = positions[c + 2]! - positions[a + 2]!;
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
  ws.consider(slot, 0, key, triangle, px, py, pz, nx / n, ny / n, nz / n);
}
