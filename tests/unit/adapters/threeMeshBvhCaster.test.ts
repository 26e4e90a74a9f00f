/**
 * The ray emitters' three-mesh-bvh contender gives castRays' hits: the same closest distances (to
 * float32 rounding) and the same triangle ids (MeshBVH is indirect, so face indices stay the terrain's),
 * on a small terrain, for a coherent fan, an incoherent spray with segments, and rays that start below
 * the ground or point away from it (one-sided, as castRays by default).
 */
import { describe, expect, it } from 'vitest';
import { ThreeMeshBVHCaster } from '../../../src/adapters/three/threeMeshBvhCaster';
import { buildBVH, castRays, emitRays, generateTerrain, sampleTerrainHeight, type RayBatch, type RayHits } from '../../../src/core';

const terrain = generateTerrain({ cells: 32, seed: 11, worldSize: 64, heightScale: 14 });
const bvh = buildBVH(terrain.positions, terrain.indices);
const indicesBefore = terrain.indices.slice();
const caster = new ThreeMeshBVHCaster();
caster.prepare(terrain.positions, terrain.indices);

const hitsOf = (count: number): RayHits => ({ t: new Float32Array(count), triangle: new Int32Array(count) });

function compare(rays: RayBatch): { hits: number } {
  const ours = hitsOf(rays.count);
  const theirs = hitsOf(rays.count);
  castRays(bvh, rays, ours);
  caster.cast(rays, theirs);
  let hits = 0;
  for (let i = 0; i < rays.count; i++) {
    const a = ours.t[i]!,
      b = theirs.t[i]!;
    if (ours.triangle[i]! >= 0) hits++;
    expect({ ray: i, miss: b === Infinity }).toEqual({ ray: i, miss: a === Infinity });
    if (a === Infinity) continue;
    expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-5 * Math.max(a, 1));
    // A ray through a shared edge may name either triangle; at this size no emitted ray does.
    expect({ ray: i, triangle: theirs.triangle[i] }).toEqual({ ray: i, triangle: ours.triangle[i] });
  }
  return { hits };
}

const at = (x: number, z: number, height: number) => ({ x, y: sampleTerrainHeight(terrain, x, z) + height, z });

describe('three-mesh-bvh as the ray emitters’ external contender', () => {
  it('leaves the terrain’s index alone (indirect tree)', () => {
    expect(terrain.indices).toEqual(indicesBefore);
  });

  it('hits what castRays hits: a coherent fan', () => {
    const rays = emitRays({ kind: 'fan', ...at(3, -5, 12), yaw: 30, pitch: -25, spread: 70, count: 2000, length: Infinity, seed: 1 });
    expect(compare(rays).hits).toBeGreaterThan(1000);
  });

  it('hits what castRays hits: an incoherent spray of 10 m segments', () => {
    const rays = emitRays({ kind: 'spray', ...at(-10, 8, 6), yaw: 0, pitch: -40, spread: 80, count: 2000, length: 10, seed: 5 });
    const { hits } = compare(rays);
    expect(hits).toBeGreaterThan(100);
    expect(hits).toBeLessThan(2000);
  });

  it('misses as castRays does: rays from below the ground up through its back faces, and rays pointing up', () => {
    const below = emitRays({ kind: 'fan', ...at(0, 0, -3), yaw: 0, pitch: 60, spread: 30, count: 500, length: Infinity, seed: 2 });
    const up = emitRays({ kind: 'fan', ...at(0, 0, 2), yaw: 0, pitch: 60, spread: 40, count: 500, length: Infinity, seed: 3 });
    compare(below);
    compare(up);
  });
});
