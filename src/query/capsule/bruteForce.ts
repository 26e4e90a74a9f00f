import type { CapsuleBatch, CapsuleHits } from './capsuleTypes';
import { segmentTriangleClosest } from './segmentTriangle';

/** Newton stops when the capsule is within this of touching (world units). */
const CONTACT_TOLERANCE = 1e-10;
const MAX_NEWTON_STEPS = 200;

/**
 * The reference sweep: every triangle of the mesh, no tree, no quick cull, no edge masks, no feature
 * pairs. For one triangle, f(t) = distance(segment moved by t·d, triangle) − r is convex in t (the
 * distance from a point moving on a line to a convex set, the Minkowski difference), so Newton's method
 * from t = 0 never overshoots the first root: each tangent meets zero at or before it. It stops at
 * contact, when f stops decreasing (no contact), or past the best time so far. A start within r gives
 * t = 0 with the normal from the triangle's closest point to the segment's (the deepest such start wins).
 * Slow and plain on purpose; the tests compare sweepCapsules with it. With `keep`, only the triangles t
 * with keep[t] ≠ 0 are there (a collision filter's view of the mesh).
 */
export function sweepCapsulesBruteForce(
  positions: Float32Array,
  indices: Uint32Array,
  capsules: CapsuleBatch,
  hits: CapsuleHits,
  keep?: Uint8Array,
): void {
  const closest = new Float64Array(7);
  const triangleCount = Math.floor(indices.length / 3);
  for (let i = 0; i < capsules.count; i++) {
    const i3 = 3 * i;
    const p0x = capsules.start[i3]!,
      p0y = capsules.start[i3 + 1]!,
      p0z = capsules.start[i3 + 2]!;
    const p1x = capsules.end[i3]!,
      p1y = capsules.end[i3 + 1]!,
      p1z = capsules.end[i3 + 2]!;
    const dx = capsules.motion[i3]!,
      dy = capsules.motion[i3 + 1]!,
      dz = capsules.motion[i3 + 2]!;
    const r = capsules.radius[i]!;
    hits.point[i3] = hits.point[i3 + 1] = hits.point[i3 + 2] = 0;
    hits.normal[i3] = hits.normal[i3 + 1] = hits.normal[i3 + 2] = 0;
    const numbers = [p0x, p0y, p0z, p1x, p1y, p1z, dx, dy, dz, r];
    if (!numbers.every((x) => Number.isFinite(x)) || r < 0) {
      hits.toi[i] = NaN;
      hits.triangle[i] = -1;
      continue;
    }
    let bestT = 1;
    let bestTriangle = -1;
    let bestDistance = Infinity;
    // Box of the capsule over the whole motion, for a cheap skip of far triangles.
    const loX = Math.min(p0x, p1x) + Math.min(0, dx) - r,
      hiX = Math.max(p0x, p1x) + Math.max(0, dx) + r;
    const loY = Math.min(p0y, p1y) + Math.min(0, dy) - r,
      hiY = Math.max(p0y, p1y) + Math.max(0, dy) + r;
    const loZ = Math.min(p0z, p1z) + Math.min(0, dz) - r,
      hiZ = Math.max(p0z, p1z) + Math.max(0, dz) + r;
    const margin = 1e-6 * (1 + Math.max(Math.abs(loX), Math.abs(hiX), Math.abs(loY), Math.abs(hiY), Math.abs(loZ), Math.abs(hiZ)));
    for (let t3 = 0; t3 < triangleCount; t3++) {
      if (keep !== undefined && keep[t3] === 0) continue;
      const a = 3 * indices[3 * t3]!,
        b = 3 * indices[3 * t3 + 1]!,
        c = 3 * indices[3 * t3 + 2]!;
      const ax = positions[a]!,
        ay = positions[a + 1]!,
        az = positions[a + 2]!;
      const bx = positions[b]!,
        by = positions[b + 1]!,
        bz = positions[b + 2]!;
      const cx = positions[c]!,
        cy = positions[c + 1]!,
        cz = positions[c + 2]!;
      if (Math.max(ax, bx, cx) < loX - margin || Math.min(ax, bx, cx) > hiX + margin) continue;
      if (Math.max(ay, by, cy) < loY - margin || Math.min(ay, by, cy) > hiY + margin) continue;
      if (Math.max(az, bz, cz) < loZ - margin || Math.min(az, bz, cz) > hiZ + margin) continue;
      let t = 0;
      let contact = false;
      for (let step = 0; step < MAX_NEWTON_STEPS; step++) {
        const distance = segmentTriangleClosest(
          p0x + t * dx,
          p0y + t * dy,
          p0z + t * dz,
          p1x + t * dx,
          p1y + t * dy,
          p1z + t * dz,
          ax,
          ay,
          az,
          bx,
          by,
          bz,
          cx,
          cy,
          cz,
          closest,
        );
        const f = distance - r;
        if (t === 0 && f <= 0) {
          // A start in contact: keep the deepest.
          if (bestT > 0 || distance < bestDistance) {
            bestT = 0;
            bestDistance = distance;
            bestTriangle = t3;
            writeContact(hits, i, closest, distance, positions, a, b, c, dx, dy, dz);
          }
          break;
        }
        if (f <= CONTACT_TOLERANCE) {
          contact = true;
          break;
        }
        const slope = (dx * (closest[1]! - closest[4]!) + dy * (closest[2]! - closest[5]!) + dz * (closest[3]! - closest[6]!)) / distance;
        if (slope >= 0) break;
        const next = t - f / slope;
        if (next > bestT) break;
        t = next;
        if (step === MAX_NEWTON_STEPS - 1) contact = true;
      }
      if (contact && t < bestT) {
        bestT = t;
        bestTriangle = t3;
        writeContact(hits, i, closest, closest[0]!, positions, a, b, c, dx, dy, dz);
      }
    }
    hits.toi[i] = bestTriangle >= 0 ? bestT : 1;
    hits.triangle[i] = bestTriangle;
    if (bestTriangle < 0) {
      hits.point[i3] = hits.point[i3 + 1] = hits.point[i3 + 2] = 0;
      hits.normal[i3] = hits.normal[i3 + 1] = hits.normal[i3 + 2] = 0;
    }
  }
}

function writeContact(
  hits: CapsuleHits,
  i: number,
  closest: Float64Array,
  distance: number,
  positions: Float32Array,
  a: number,
  b: number,
  c: number,
  dx: number,
  dy: number,
  dz: number,
): void {
  const i3 = 3 * i;
  hits.point[i3] = closest[4]!;
  hits.point[i3 + 1] = closest[5]!;
  hits.point[i3 + 2] = closest[6]!;
  let nx = closest[1]! - closest[4]!,
    ny = closest[2]! - closest[5]!,
    nz = closest[3]! - closest[6]!;
  let length = distance;
  if (!(length > 0)) {
    // The axis touches the triangle: its face normal against the motion.
    const ux = positions[b]! - positions[a]!,
      uy = positions[b + 1]! - positions[a + 1]!,
      uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!,
      vy = positions[c + 1]! - positions[a + 1]!,
      vz = positions[c + 2]! - positions[a + 2]!;
    nx = uy * vz - uz * vy;
    ny = uz * vx - ux * vz;
    nz = ux * vy - uy * vx;
    length = Math.sqrt(nx * nx + ny * ny + nz * nz) * (nx * dx + ny * dy + nz * dz > 0 ? -1 : 1);
    if (length === 0) return;
  }
  hits.normal[i3] = nx / length;
  hits.normal[i3 + 1] = ny / length;
  hits.normal[i3 + 2] = nz / length;
}
