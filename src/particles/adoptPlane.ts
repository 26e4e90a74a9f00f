import type { ParticleBuffers } from './particleBuffers';

/**
 * Gives particle i the plane n·p = d (read from source[offset ..]). A particle that is already behind
 * its new plane by no more than `reach` is pushed out to `radius` in front of it and loses its inward
 * normal speed, as a contact would; deeper than that, the plane cannot be the particle's surface and
 * is not adopted. Returns whether it was adopted.
 */
export function adoptPlane(b: ParticleBuffers, i: number, source: Float32Array, offset: number, radius: number, reach: number): boolean {
  const nx = source[offset]!,
    ny = source[offset + 1]!,
    nz = source[offset + 2]!,
    d = source[offset + 3]!;
  const i4 = 4 * i;
  const positions = b.positions;
  const distance = nx * positions[i4]! + ny * positions[i4 + 1]! + nz * positions[i4 + 2]! - d;
  const push = radius - distance;
  if (push > 0) {
    if (push > reach) return false;
    positions[i4] = positions[i4]! + nx * push;
    positions[i4 + 1] = positions[i4 + 1]! + ny * push;
    positions[i4 + 2] = positions[i4 + 2]! + nz * push;
    const velocities = b.velocities;
    const vn = nx * velocities[i4]! + ny * velocities[i4 + 1]! + nz * velocities[i4 + 2]!;
    if (vn < 0) {
      velocities[i4] = velocities[i4]! - vn * nx;
      velocities[i4 + 1] = velocities[i4 + 1]! - vn * ny;
      velocities[i4 + 2] = velocities[i4 + 2]! - vn * nz;
    }
  }
  const planes = b.planes;
  planes[i4] = nx;
  planes[i4 + 1] = ny;
  planes[i4 + 2] = nz;
  planes[i4 + 3] = d;
  return true;
}
