import { BufferAttribute, BufferGeometry, FrontSide, Ray } from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import { registerExternalRayCaster, type ExternalRayCaster } from '../../emitters/externalRayCasters';
import type { RayBatch, RayHits } from '../../query/rays/rayTypes';

/**
 * three-mesh-bvh's MeshBVH (SAH split, indirect so face indices stay the terrain's triangle ids) as the
 * ray emitters' external contender: each ray cast with raycastFirst, front faces only, bounded by its
 * tMax, as tests/bench/simd-rays.ts races it. Positions and indices are shared with the terrain, not
 * copied: prepare builds the tree again after they change.
 *
 * Not in the three adapter's public entry (index.ts): the library does not depend on three-mesh-bvh;
 * the page and the headless runner import this file directly.
 */
export class ThreeMeshBVHCaster implements ExternalRayCaster {
  readonly name = 'three-mesh-bvh';
  readonly description = 'three-mesh-bvh MeshBVH (SAH) raycastFirst';
  private tree: MeshBVH | null = null;
  private readonly ray = new Ray();

  prepare(positions: Float32Array, indices: Uint32Array): void {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(positions, 3));
    geometry.setIndex(new BufferAttribute(indices, 1));
    this.tree = new MeshBVH(geometry, { strategy: SAH, indirect: true });
  }

  cast(rays: RayBatch, hits: RayHits): void {
    const tree = this.tree;
    if (tree === null) throw new Error('three-mesh-bvh: cast before prepare');
    const ray = this.ray;
    const { origins, directions, tMax, count } = rays;
    const { t, triangle } = hits;
    for (let i = 0; i < count; i++) {
      ray.origin.set(origins[3 * i]!, origins[3 * i + 1]!, origins[3 * i + 2]);
      ray.direction.set(directions[3 * i]!, directions[3 * i + 1]!, directions[3 * i + 2]);
      const hit = tree.raycastFirst(ray, FrontSide, 0, tMax[i]);
      t[i] = hit === null ? Infinity : hit.distance;
      triangle[i] = hit === null ? -1 : (hit.faceIndex ?? -1);
    }
  }
}

/** Offers three-mesh-bvh to scenes as strategy B's `external` caster; returns the call that withdraws it. */
export function registerThreeMeshBVHCaster(): () => void {
  return registerExternalRayCaster('three-mesh-bvh', () => new ThreeMeshBVHCaster());
}
