import * as THREE from 'three';
import { castRays, type RayBatch, type RayHits } from '../../core';
import type { AppContext } from '../feature';

/**
 * Where the pointer's ray from the camera meets the terrain, through the terrain's BVH: what the
 * features that place something on the ground with a drag (the box probe, blast and sculpt) share.
 */
export class TerrainPicker {
  private readonly raycaster = new THREE.Raycaster();
  private readonly ndc = new THREE.Vector2();
  private readonly ray: RayBatch = { count: 1, origins: new Float32Array(3), directions: new Float32Array(3), tMax: new Float32Array([Infinity]) };
  private readonly hit: RayHits = { t: new Float32Array(1), triangle: new Int32Array(1) };

  /** World x and z under the pointer; null off the terrain or before its BVH exists. */
  pick(event: { clientX: number; clientY: number }, context: AppContext): [number, number] | null {
    const sandbox = context.sandbox();
    if (sandbox === null || sandbox.bvh === null) return null;
    const rect = context.stage.renderer.domElement.getBoundingClientRect();
    this.ndc.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(this.ndc, context.stage.camera);
    const { origin, direction } = this.raycaster.ray;
    origin.toArray(this.ray.origins);
    direction.toArray(this.ray.directions);
    castRays(sandbox.bvh, this.ray, this.hit);
    if (this.hit.triangle[0]! < 0) return null;
    const t = this.hit.t[0]!;
    return [origin.x + t * direction.x, origin.z + t * direction.z];
  }
}
