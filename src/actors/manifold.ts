/**
 * Contact reduction: a box resting on a face touches the ground with a dozen contact spheres, each with up
 * to three triangle contacts, and two boxes face to face with many sphere pairs; the solver needs only a
 * few well-spread contacts to hold either still. Candidates are laid out with a fixed stride: normal at
 * 0–2, point at 3–5, depth at 6.
 */

/** Contacts an actor keeps against the terrain, and an actor pair between them, per substep. */
export const MANIFOLD_SIZE = 6;

let nearest = new Float64Array(64);

/**
 * Picks at most `keep` of `count` candidates: the deepest first, then each time the candidate farthest from
 * every one picked (farthest-point sampling), where distance mixes the points' separation and their
 * normals' difference scaled by `scale` (the actor's size), so a box on a face keeps its corners and a
 * capsule in a crease keeps both of its walls. Deterministic: ties go to the lower index. Writes the
 * picked indices into `picked` and returns how many.
 */
export function reduceManifold(cand: Float64Array, stride: number, count: number, keep: number, scale: number, picked: Int32Array): number {
  if (count <= keep) {
    for (let k = 0; k < count; k++) picked[k] = k;
    return count;
  }
  if (nearest.length < count) nearest = new Float64Array(Math.max(count, 2 * nearest.length));
  let first = 0;
  for (let k = 1; k < count; k++) if (cand[k * stride + 6]! > cand[first * stride + 6]!) first = k;
  const s2 = scale * scale;
  let n = 0;
  let next = first;
  for (let k = 0; k < count; k++) nearest[k] = Infinity;
  while (n < keep) {
    picked[n++] = next;
    const o = next * stride;
    let best = -1;
    let bestDistance = 0;
    for (let k = 0; k < count; k++) {
      const c = k * stride;
      const px = cand[c + 3]! - cand[o + 3]!,
        py = cand[c + 4]! - cand[o + 4]!,
        pz = cand[c + 5]! - cand[o + 5]!;
      const nx = cand[c]! - cand[o]!,
        ny = cand[c + 1]! - cand[o + 1]!,
        nz = cand[c + 2]! - cand[o + 2]!;
      const d = Math.min(nearest[k]!, px * px + py * py + pz * pz + s2 * (nx * nx + ny * ny + nz * nz));
      nearest[k] = d;
      if (d > bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    // Everything left coincides with a picked contact.
    if (best < 0 || bestDistance <= 1e-12 * (1 + s2)) break;
    next = best;
  }
  return n;
}

/**
 * Like reduceManifold, for a box's exact contacts (corners of a face clipped to triangles, often with
 * near-equal depths and the same normal): the first (see below), the farthest from it, then the one spanning the
 * largest triangle with those two, then the one adding the most area to that triangle — so a box flat
 * on the ground keeps its four corners whatever the rounding, where farthest-point sampling may trade
 * a corner for a point on a triangle seam at the same distance. The first is the deepest, or among
 * points as deep within 1% of `scale`, the farthest from their mean. Past four, farthest-point sampling as
 * in reduceManifold (points and normals). Deterministic: ties go to the lower index.
 */
export function reduceBoxManifold(cand: Float64Array, stride: number, count: number, keep: number, scale: number, picked: Int32Array): number {
  if (count <= keep) {
    for (let k = 0; k < count; k++) picked[k] = k;
    return count;
  }
  // First: among the deepest (within 1% of the scale: a face at rest has all its points equally deep),
  // the farthest from the points' mean — a corner, not a point on a seam in the middle.
  let deepest = -Infinity;
  let mx = 0,
    my = 0,
    mz = 0;
  for (let k = 0; k < count; k++) {
    const c = k * stride;
    if (cand[c + 6]! > deepest) deepest = cand[c + 6]!;
    mx += cand[c + 3]!;
    my += cand[c + 4]!;
    mz += cand[c + 5]!;
  }
  mx /= count;
  my /= count;
  mz /= count;
  let first = -1;
  let firstDistance = -1;
  for (let k = 0; k < count; k++) {
    const c = k * stride;
    if (cand[c + 6]! < deepest - 0.01 * scale) continue;
    const dx = cand[c + 3]! - mx,
      dy = cand[c + 4]! - my,
      dz = cand[c + 5]! - mz;
    const d = dx * dx + dy * dy + dz * dz;
    if (d > firstDistance) {
      firstDistance = d;
      first = k;
    }
  }
  picked[0] = first;
  const o1 = first * stride;
  const x1 = cand[o1 + 3]!,
    y1 = cand[o1 + 4]!,
    z1 = cand[o1 + 5]!;
  const tiny = 1e-12 * (1 + scale * scale);
  // Second: the farthest point from the first.
  let second = -1;
  let best = tiny;
  for (let k = 0; k < count; k++) {
    const c = k * stride;
    const dx = cand[c + 3]! - x1,
      dy = cand[c + 4]! - y1,
      dz = cand[c + 5]! - z1;
    const d = dx * dx + dy * dy + dz * dz;
    if (d > best) {
      best = d;
      second = k;
    }
  }
  if (second < 0) return 1;
  picked[1] = second;
  const ex = cand[second * stride + 3]! - x1,
    ey = cand[second * stride + 4]! - y1,
    ez = cand[second * stride + 5]! - z1;
  // Third: the largest triangle with the first two (twice its area squared).
  let third = -1;
  best = tiny * (1 + best);
  let nx = 0,
    ny = 0,
    nz = 0;
  for (let k = 0; k < count; k++) {
    const c = k * stride;
    const px = cand[c + 3]! - x1,
      py = cand[c + 4]! - y1,
      pz = cand[c + 5]! - z1;
    const cx = ey * pz - ez * py,
      cy = ez * px - ex * pz,
      cz = ex * py - ey * px;
    const a = cx * cx + cy * cy + cz * cz;
    if (a > best) {
      best = a;
      third = k;
      nx = cx;
      ny = cy;
      nz = cz;
    }
  }
  let n = 2;
  if (third >= 0) {
    picked[n++] = third;
    // Fourth: the point adding the most area to the triangle (first, second, third), whose normal is
    // (nx, ny, nz): the sum of its signed areas outside each edge.
    const x2 = cand[second * stride + 3]!,
      y2 = cand[second * stride + 4]!,
      z2 = cand[second * stride + 5]!;
    const x3 = cand[third * stride + 3]!,
      y3 = cand[third * stride + 4]!,
      z3 = cand[third * stride + 5]!;
    let fourth = -1;
    let gain = tiny * Math.sqrt(nx * nx + ny * ny + nz * nz);
    for (let k = 0; k < count; k++) {
      const c = k * stride;
      const px = cand[c + 3]!,
        py = cand[c + 4]!,
        pz = cand[c + 5]!;
      const g =
        Math.max(0, -edgeArea(x1, y1, z1, x2, y2, z2, px, py, pz, nx, ny, nz)) +
        Math.max(0, -edgeArea(x2, y2, z2, x3, y3, z3, px, py, pz, nx, ny, nz)) +
        Math.max(0, -edgeArea(x3, y3, z3, x1, y1, z1, px, py, pz, nx, ny, nz));
      if (g > gain) {
        gain = g;
        fourth = k;
      }
    }
    if (fourth >= 0) picked[n++] = fourth;
  }
  if (n >= keep) return n;
  // The rest: farthest-point sampling from all those picked.
  if (nearest.length < count) nearest = new Float64Array(Math.max(count, 2 * nearest.length));
  const s2 = scale * scale;
  for (let k = 0; k < count; k++) {
    let d = Infinity;
    const c = k * stride;
    for (let m = 0; m < n; m++) d = Math.min(d, separation(cand, c, picked[m]! * stride, s2));
    nearest[k] = d;
  }
  while (n < keep) {
    let next = -1;
    let farthest = 1e-12 * (1 + s2);
    for (let k = 0; k < count; k++) {
      if (nearest[k]! > farthest) {
        farthest = nearest[k]!;
        next = k;
      }
    }
    if (next < 0) break;
    picked[n++] = next;
    const o = next * stride;
    for (let k = 0; k < count; k++) nearest[k] = Math.min(nearest[k]!, separation(cand, k * stride, o, s2));
  }
  return n;
}

/** (b − a) × (p − a) · n: positive when p is on the inner side of edge a → b of a triangle with normal n. */
function edgeArea(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  px: number,
  py: number,
  pz: number,
  nx: number,
  ny: number,
  nz: number,
): number {
  const ex = bx - ax,
    ey = by - ay,
    ez = bz - az;
  const qx = px - ax,
    qy = py - ay,
    qz = pz - az;
  return (ey * qz - ez * qy) * nx + (ez * qx - ex * qz) * ny + (ex * qy - ey * qx) * nz;
}

/** The distance reduceManifold samples by: squared point separation plus scale² × squared normal difference. */
function separation(cand: Float64Array, c: number, o: number, s2: number): number {
  const px = cand[c + 3]! - cand[o + 3]!,
    py = cand[c + 4]! - cand[o + 4]!,
    pz = cand[c + 5]! - cand[o + 5]!;
  const nx = cand[c]! - cand[o]!,
    ny = cand[c + 1]! - cand[o + 1]!,
    nz = cand[c + 2]! - cand[o + 2]!;
  return px * px + py * py + pz * pz + s2 * (nx * nx + ny * ny + nz * nz);
}
