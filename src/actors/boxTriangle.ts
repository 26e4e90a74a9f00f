/**
 * Exact contacts between a box and one triangle of the one-sided terrain, by clipping (the face-contact
 * half of the usual separating-axis narrow phase): the box's face turned most towards the triangle
 * (the incident face) is clipped against the triangle's prism — the three planes through its edges
 * along its normal — and every corner of what remains that lies below the triangle's plane, or above it
 * by at most `reach`, is a contact with the triangle's normal. At most 7 points (a quadrilateral cut by
 * three planes); a box resting flat inside one triangle gets its four corners.
 *
 * Only the triangle's normal is used, never a box face's or an edge pair's: the terrain is a surface
 * seen from above, and a box crossing a shared edge is held by each triangle under it (a box lying
 * across a triangle edge gets points on both sides, each with its own triangle's normal), so no
 * sideways normal ever snags on the seam between two coplanar triangles. The triangle is skipped
 * when the box's centre is behind its plane and projects outside it: that box is on a neighbour's side
 * of a sharp ridge, and the plane's extension would push it the wrong way.
 *
 * Feature ids (stable while the box slides, so warm starting finds a contact again): the incident face
 * (0–5), the box edges of that face the point lies on (4 bits) and the triangle sides it was clipped by
 * (3 bits) — a corner of the box, a box edge crossing a triangle side, or a triangle corner under the face.
 */

/** Most points one box–triangle call writes. */
export const BOX_TRIANGLE_MAX_POINTS = 7;
/** Per written point: x, y, z (the box's point moved along the normal onto the triangle's plane), depth, feature id. */
export const BOX_TRIANGLE_STRIDE = 5;

// The polygon being clipped, two buffers swapped per plane: x, y, z per vertex, with its box-edge and side masks.
const polyA = new Float64Array(3 * 8);
const polyB = new Float64Array(3 * 8);
const edgesA = new Int32Array(8);
const edgesB = new Int32Array(8);
const sidesA = new Int32Array(8);
const sidesB = new Int32Array(8);

/** Where boxTriangleContactsOf reads the box: centre x, y, z, half extents x, y, z, reach. */
export const BOX_QUERY_SIZE = 7;
/** Where it reads the triangle in a record (terrainNeighbours.ts): corners at 0–8, unit normal here. */
const RECORD_NORMAL = 15;

const scratchBox = new Float64Array(BOX_QUERY_SIZE);
const scratchTriangle = new Float64Array(RECORD_NORMAL + 3);

/**
 * Contacts of the box (centre c, rotation R at rotation[r…r+8] row-major so that world = R · local, half
 * extents h) with the triangle (corners a, b, e; unit normal n from the winding), written to out[offset…]
 * with BOX_TRIANGLE_STRIDE per point; returns how many. `reach`: gaps up to this are kept (negative depth).
 * A degenerate triangle (zero normal) gives none. (The terrain contacts call boxTriangleContactsOf.)
 */
export function boxTriangleContacts(
  cx: number,
  cy: number,
  cz: number,
  rotation: Float64Array,
  r: number,
  hx: number,
  hy: number,
  hz: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  ex: number,
  ey: number,
  ez: number,
  nx: number,
  ny: number,
  nz: number,
  reach: number,
  out: Float64Array,
  offset: number,
): number {
  const box = scratchBox;
  const tri = scratchTriangle;
  box[0] = cx;
  box[1] = cy;
  box[2] = cz;
  box[3] = hx;
  box[4] = hy;
  box[5] = hz;
  box[6] = reach;
  tri[0] = ax;
  tri[1] = ay;
  tri[2] = az;
  tri[3] = bx;
  tri[4] = by;
  tri[5] = bz;
  tri[6] = ex;
  tri[7] = ey;
  tri[8] = ez;
  tri[RECORD_NORMAL] = nx;
  tri[RECORD_NORMAL + 1] = ny;
  tri[RECORD_NORMAL + 2] = nz;
  return boxTriangleContactsOf(scratchBox, rotation, r, scratchTriangle, 0, out, offset);
}

/**
 * boxTriangleContacts on packed input: the box at box[0…BOX_QUERY_SIZE−1] (centre, half extents,
 * reach) and the triangle record at tri[t…] (corners, and the unit normal at RECORD_NORMAL). Arrays and
 * offsets only: a call V8 does not inline would box every float passed to it, and the terrain contacts
 * make one per box and triangle.
 */
export function boxTriangleContactsOf(
  box: Float64Array,
  rotation: Float64Array,
  r: number,
  tri: Float64Array,
  t: number,
  out: Float64Array,
  offset: number,
): number {
  const cx = box[0]!,
    cy = box[1]!,
    cz = box[2]!,
    hx = box[3]!,
    hy = box[4]!,
    hz = box[5]!,
    reach = box[6]!;
  const ax = tri[t]!,
    ay = tri[t + 1]!,
    az = tri[t + 2]!,
    bx = tri[t + 3]!,
    by = tri[t + 4]!,
    bz = tri[t + 5]!,
    ex = tri[t + 6]!,
    ey = tri[t + 7]!,
    ez = tri[t + 8]!,
    nx = tri[t + RECORD_NORMAL]!,
    ny = tri[t + RECORD_NORMAL + 1]!,
    nz = tri[t + RECORD_NORMAL + 2]!;
  if (nx === 0 && ny === 0 && nz === 0) return 0;
  // The box's axes: the columns of R.
  const ux = rotation[r]!,
    uy = rotation[r + 3]!,
    uz = rotation[r + 6]!;
  const vx = rotation[r + 1]!,
    vy = rotation[r + 4]!,
    vz = rotation[r + 7]!;
  const wx = rotation[r + 2]!,
    wy = rotation[r + 5]!,
    wz = rotation[r + 8]!;
  const du = ux * nx + uy * ny + uz * nz;
  const dv = vx * nx + vy * ny + vz * nz;
  const dw = wx * nx + wy * ny + wz * nz;
  const height = (cx - ax) * nx + (cy - ay) * ny + (cz - az) * nz;
  const extent = hx * Math.abs(du) + hy * Math.abs(dv) + hz * Math.abs(dw);
  // The whole box is farther above the plane than it may travel, or wholly behind it.
  if (height - extent > reach || height + extent < 0) return 0;
  // Side planes of the triangle's prism: m_j = n × (next corner − corner), pointing inwards.
  const m0x = ny * (bz - az) - nz * (by - ay),
    m0y = nz * (bx - ax) - nx * (bz - az),
    m0z = nx * (by - ay) - ny * (bx - ax);
  const m1x = ny * (ez - bz) - nz * (ey - by),
    m1y = nz * (ex - bx) - nx * (ez - bz),
    m1z = nx * (ey - by) - ny * (ex - bx);
  const m2x = ny * (az - ez) - nz * (ay - ey),
    m2y = nz * (ax - ex) - nx * (az - ez),
    m2z = nx * (ay - ey) - ny * (ax - ex);
  if (height < 0) {
    // Centre behind the plane: only when it projects inside the triangle (see above).
    if (m0x * (cx - ax) + m0y * (cy - ay) + m0z * (cz - az) < 0) return 0;
    if (m1x * (cx - bx) + m1y * (cy - by) + m1z * (cz - bz) < 0) return 0;
    if (m2x * (cx - ex) + m2y * (cy - ey) + m2z * (cz - ez) < 0) return 0;
  }
  // The incident face: the one whose outward normal is most against n.
  let face: number;
  let fx: number, fy: number, fz: number; // face centre
  let px: number, py: number, pz: number; // first in-face half axis
  let qx: number, qy: number, qz: number; // second in-face half axis
  const au = Math.abs(du),
    av = Math.abs(dv),
    aw = Math.abs(dw);
  if (au >= av && au >= aw) {
    const s = du > 0 ? -1 : 1;
    face = du > 0 ? 0 : 1;
    fx = cx + s * hx * ux;
    fy = cy + s * hx * uy;
    fz = cz + s * hx * uz;
    px = hy * vx;
    py = hy * vy;
    pz = hy * vz;
    qx = hz * wx;
    qy = hz * wy;
    qz = hz * wz;
  } else if (av >= aw) {
    const s = dv > 0 ? -1 : 1;
    face = dv > 0 ? 2 : 3;
    fx = cx + s * hy * vx;
    fy = cy + s * hy * vy;
    fz = cz + s * hy * vz;
    px = hz * wx;
    py = hz * wy;
    pz = hz * wz;
    qx = hx * ux;
    qy = hx * uy;
    qz = hx * uz;
  } else {
    const s = dw > 0 ? -1 : 1;
    face = dw > 0 ? 4 : 5;
    fx = cx + s * hz * wx;
    fy = cy + s * hz * wy;
    fz = cz + s * hz * wz;
    px = hx * ux;
    py = hx * uy;
    pz = hx * uz;
    qx = hy * vx;
    qy = hy * vy;
    qz = hy * vz;
  }
  // The face's corners in order (corner k sits on face edges k and k − 1; edge k joins corners k, k + 1).
  let poly = polyA;
  let edges = edgesA;
  let sides = sidesA;
  poly[0] = fx - px - qx;
  poly[1] = fy - py - qy;
  poly[2] = fz - pz - qz;
  poly[3] = fx + px - qx;
  poly[4] = fy + py - qy;
  poly[5] = fz + pz - qz;
  poly[6] = fx + px + qx;
  poly[7] = fy + py + qy;
  poly[8] = fz + pz + qz;
  poly[9] = fx - px + qx;
  poly[10] = fy - py + qy;
  poly[11] = fz - pz + qz;
  edges[0] = 0b1001;
  edges[1] = 0b0011;
  edges[2] = 0b0110;
  edges[3] = 0b1100;
  sides[0] = sides[1] = sides[2] = sides[3] = 0;
  let n = 4;
  for (let j = 0; j < 3 && n > 0; j++) {
    let mx: number, my: number, mz: number, ox: number, oy: number, oz: number;
    if (j === 0) {
      mx = m0x;
      my = m0y;
      mz = m0z;
      ox = ax;
      oy = ay;
      oz = az;
    } else if (j === 1) {
      mx = m1x;
      my = m1y;
      mz = m1z;
      ox = bx;
      oy = by;
      oz = bz;
    } else {
      mx = m2x;
      my = m2y;
      mz = m2z;
      ox = ex;
      oy = ey;
      oz = ez;
    }
    const next = poly === polyA ? polyB : polyA;
    const nextEdges = edges === edgesA ? edgesB : edgesA;
    const nextSides = sides === sidesA ? sidesB : sidesA;
    const bit = 1 << j;
    let kept = 0;
    let prev = n - 1;
    let prevDistance = mx * (poly[3 * prev]! - ox) + my * (poly[3 * prev + 1]! - oy) + mz * (poly[3 * prev + 2]! - oz);
    for (let k = 0; k < n; k++) {
      const distance = mx * (poly[3 * k]! - ox) + my * (poly[3 * k + 1]! - oy) + mz * (poly[3 * k + 2]! - oz);
      if (distance >= 0 !== prevDistance >= 0) {
        // The edge prev → k crosses the plane: the crossing lies on whatever both ends share, and on side j.
        const t = prevDistance / (prevDistance - distance);
        next[3 * kept] = poly[3 * prev]! + t * (poly[3 * k]! - poly[3 * prev]!);
        next[3 * kept + 1] = poly[3 * prev + 1]! + t * (poly[3 * k + 1]! - poly[3 * prev + 1]!);
        next[3 * kept + 2] = poly[3 * prev + 2]! + t * (poly[3 * k + 2]! - poly[3 * prev + 2]!);
        nextEdges[kept] = edges[prev]! & edges[k]!;
        nextSides[kept] = (sides[prev]! & sides[k]!) | bit;
        kept++;
      }
      if (distance >= 0) {
        next[3 * kept] = poly[3 * k]!;
        next[3 * kept + 1] = poly[3 * k + 1]!;
        next[3 * kept + 2] = poly[3 * k + 2]!;
        nextEdges[kept] = edges[k]!;
        nextSides[kept] = sides[k]!;
        kept++;
      }
      prev = k;
      prevDistance = distance;
    }
    poly = next;
    edges = nextEdges;
    sides = nextSides;
    n = kept;
  }
  let written = 0;
  for (let k = 0; k < n; k++) {
    const x = poly[3 * k]!,
      y = poly[3 * k + 1]!,
      z = poly[3 * k + 2]!;
    const depth = -((x - ax) * nx + (y - ay) * ny + (z - az) * nz);
    if (depth < -reach) continue;
    const o = offset + BOX_TRIANGLE_STRIDE * written++;
    // On the triangle's plane, like a sphere's contact with a triangle (its closest point on the triangle).
    out[o] = x + depth * nx;
    out[o + 1] = y + depth * ny;
    out[o + 2] = z + depth * nz;
    out[o + 3] = depth;
    out[o + 4] = face * 128 + edges[k]! * 8 + sides[k]!;
  }
  return written;
}
