import type { ParticleBuffers } from './particleBuffers';

/** Where adoptPlane reads its two lengths. */
export const ADOPT_RADIUS = 0;
export const ADOPT_REACH = 1;

/**
 * Gives particle i the plane n·p = d (read from source[offset ..]). A particle that is already behind
 * its new plane by no more than lengths[ADOPT_REACH] is pushed out to lengths[ADOPT_RADIUS] in front of
 * it and loses its inward normal speed, as a contact would; deeper than that, the plane cannot be the
 * particle's surface and is not adopted. Returns whether it was adopted. (The lengths come in an array:
 * float arguments to a call the engine does not inline are allocated, 1,000 rays a frame.)
 */
export function adoptPlane(b: ParticleBuffers, i: number, source: Float32Array, offset: number, lengths: Float64Array): boolean {
  const nx = source[offset]!,
    ny = source[offset + 1]!,
    nz = source[offset + 2]!,
    d = source[offset + 3]!;
  const i4 = 4 * i;
  const positions = b.positions;
  const distance = nx * positions[i4]! + ny * positions[i4 + 1]! + nz * positions[i4 + 2]! - d;
  const push = lengths[ADOPT_RADIUS]! - distance;
  if (push > 0) {
    if (push > lengths[ADOPT_REACH]!) return false;
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
