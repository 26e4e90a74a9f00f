import { PLANE_CACHE, PLANE_RAY, type ParticleBuffers } from './particleBuffers';
import { planeIndexOf, type PlaneCache } from './planeCache';
import { lookBehind } from './raycastPlanes';

/**
 * The cache phase for one effect: each asker (askers[from .. to)) looks up the cell it is in with the
 * code it last asked with, and on a hit takes the entry's plane (adoptPlane's rule: a particle already
 * behind it by no more than the look-behind and a cell height is pushed out and loses its inward normal
 * speed; deeper, the plane is not its surface). A particle on its own raycast's plane gives way only to
 * an entry higher where it is. Written out in one loop (the lookup, the compare and the adoption) since
 * it runs tens of thousands of times a frame.
 */
export function askCache(b: ParticleBuffers, from: number, to: number, cache: PlaneCache, radius: number, dt: number): void {
  const positions = b.positions;
  const velocities = b.velocities;
  const planes = b.planes;
  const sources = b.planeSources;
  const codes = b.codes;
  const askers = b.askers;
  const cachePlanes = cache.planes;
  const inverseSide = 1 / cache.cellSide;
  const inverseHeight = 1 / cache.cellHeight;
  const cellHeight = cache.cellHeight;
  let hits = 0;
  for (let k = from; k < to; k++) {
    const i = askers[k]!;
    const i4 = 4 * i;
    const px = positions[i4]!,
      py = positions[i4 + 1]!,
      pz = positions[i4 + 2]!;
    const ix = Math.floor(px * inverseSide) | 0;
    const iy = Math.floor(py * inverseHeight) | 0;
    const iz = Math.floor(pz * inverseSide) | 0;
    const slot = cache.findCell(ix, iy, iz, codes[i]!);
    if (slot < 0) continue;
    hits++;
    const at = planeIndexOf(slot);
    const nx = cachePlanes[at]!,
      ny = cachePlanes[at + 1]!,
      nz = cachePlanes[at + 2]!,
      d = cachePlanes[at + 3]!;
    const distance = nx * px + ny * py + nz * pz - d;
    // The particle's own look-ahead gives way only to an entry higher where the particle is.
    if (sources[i] === PLANE_RAY && !(distance < planes[i4]! * px + planes[i4 + 1]! * py + planes[i4 + 2]! * pz - planes[i4 + 3]!)) continue;
    const push = radius - distance;
    if (push > 0) {
      const vx = velocities[i4]!,
        vy = velocities[i4 + 1]!,
        vz = velocities[i4 + 2]!;
      // An entry's plane passes through its cell: a particle in the cell up to a cell height behind it
      // (and the distance a ray would look behind it) has slipped through that surface, and is put back.
      if (push > lookBehind(radius, Math.sqrt(vx * vx + vy * vy + vz * vz), dt) + cellHeight) continue;
      positions[i4] = px + nx * push;
      positions[i4 + 1] = py + ny * push;
      positions[i4 + 2] = pz + nz * push;
      const vn = nx * vx + ny * vy + nz * vz;
      if (vn < 0) {
        velocities[i4] = vx - vn * nx;
        velocities[i4 + 1] = vy - vn * ny;
        velocities[i4 + 2] = vz - vn * nz;
      }
    }
    planes[i4] = nx;
    planes[i4 + 1] = ny;
    planes[i4 + 2] = nz;
    planes[i4 + 3] = d;
    sources[i] = PLANE_CACHE;
  }
  cache.countLookups(to - from, hits);
}
