import type { MaterialInput } from '../../bvh/collisionMasks';
import { getRayTriangleKernel } from '../rayTriangle/registry';
import { createRayData } from '../rayTriangle/rayData';
import { isValidRay } from './validRay';
import { resolveCastOptions } from './castOptions';
import type { CastOptions, RayBatch, RayHits } from './rayTypes';

/**
 * The reference every BVH query is checked against: each ray against every triangle, closest hit
 * (lowest t, lowest triangle id on ties), same kernel and sidedness. Same result conventions as castRays.
 * With `materials`, a triangle whose mask shares no bit with `filter` is skipped.
 */
export function castRaysBruteForce(
  positions: Float32Array,
  indices: Uint32Array,
  rays: RayBatch,
  hits: RayHits,
  options: Partial<Pick<CastOptions, 'triangleTest' | 'doubleSided' | 'filter'>> & { materials?: MaterialInput } = {},
): void {
  const resolved = resolveCastOptions({ ...options, mode: 'closest' });
  const kernel = getRayTriangleKernel(resolved.triangleTest);
  const rayData = createRayData();
  const triangleCount = indices.length / 3;
  const materials = options.materials;
  const filter = resolved.filter;
  for (let ray = 0; ray < rays.count; ray++) {
    const r3 = 3 * ray;
    const ox = rays.origins[r3]!,
      oy = rays.origins[r3 + 1]!,
      oz = rays.origins[r3 + 2]!;
    const dx = rays.directions[r3]!,
      dy = rays.directions[r3 + 1]!,
      dz = rays.directions[r3 + 2]!;
    const limit = rays.tMax[ray]!;
    if (!isValidRay(ox, oy, oz, dx, dy, dz, limit)) {
      hits.t[ray] = NaN;
      hits.triangle[ray] = -1;
      continue;
    }
    kernel.prepareRay(ox, oy, oz, dx, dy, dz, rayData);
    let best = Infinity;
    let bestTriangle = -1;
    for (let tri = 0; tri < triangleCount; tri++) {
      if (materials !== undefined && (materials.masks[materials.ids[tri]!]! & filter) === 0) continue;
      const t = kernel.intersect(rayData, positions, indices[3 * tri]!, indices[3 * tri + 1]!, indices[3 * tri + 2]!, limit, resolved.doubleSided);
      if (t >= 0 && t < best) {
        best = t;
        bestTriangle = tri;
      }
    }
    hits.t[ray] = best;
    hits.triangle[ray] = bestTriangle;
  }
}
