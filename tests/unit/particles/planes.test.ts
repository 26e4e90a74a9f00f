import { describe, expect, it } from 'vitest';
import {
  PLANE_RAY,
  ParticleSystem,
  Random,
  Sandbox,
  TerrainHeightSampler,
  buildBVH,
  castRays,
  generateTerrain,
  parseScene,
  particleEffectPreset,
  planeFromTriangle,
  sampleTerrainHeight,
} from '../../../src/core';

const terrain = generateTerrain({ cells: 48, worldSize: 48, heightScale: 10, seed: 5 });
const bvh = buildBVH(terrain.positions, terrain.indices);
const DOWN = Float32Array.of(0, -1, 0);
const UP = Float32Array.of(0, 1, 0);

describe('planes from raycasts', () => {
  it('the plane of the hit triangle holds the hit point, is unit length, faces the ray and matches the surface (seed 31)', () => {
    const random = new Random(31);
    const n = 3000;
    const rays = { count: n, origins: new Float32Array(3 * n), directions: new Float32Array(3 * n), tMax: new Float32Array(n).fill(1) };
    for (let i = 0; i < n; i++) {
      const x = random.range(-22, 22),
        z = random.range(-22, 22);
      rays.origins.set([x, sampleTerrainHeight(terrain, x, z) + random.range(0.05, 6), z], 3 * i);
      rays.directions.set([random.range(-8, 8), random.range(-12, 1), random.range(-8, 8)], 3 * i);
    }
    const hits = { t: new Float32Array(n), triangle: new Int32Array(n) };
    castRays(bvh, rays, hits);
    const plane = new Float32Array(4);
    let checked = 0;
    const errors: string[] = [];
    for (let i = 0; i < n; i++) {
      if (hits.triangle[i]! < 0) continue;
      const [dx, dy, dz] = rays.directions.subarray(3 * i, 3 * i + 3);
      expect(planeFromTriangle(terrain.positions, terrain.indices, hits.triangle[i]!, rays.directions, 3 * i, plane, 0)).toBe(true);
      const t = hits.t[i]!;
      const [hx, hy, hz] = [0, 1, 2].map((k) => rays.origins[3 * i + k]! + t * rays.directions[3 * i + k]!) as [number, number, number];
      const [nx, ny, nz, d] = plane as unknown as [number, number, number, number];
      const onPlane = Math.abs(nx * hx + ny * hy + nz * hz - d);
      const unit = Math.abs(Math.hypot(nx, ny, nz) - 1);
      const facing = nx * dx! + ny * dy! + nz * dz!;
      // A terrain plane, read as a height: at the hit point it is the true surface.
      const height = Math.abs((d - nx * hx - nz * hz) / ny - sampleTerrainHeight(terrain, hx, hz));
      if (onPlane > 2e-4 || unit > 1e-6 || !(facing < 0) || ny <= 0 || height > 2e-3) errors.push(`ray ${i}: ${onPlane} ${unit} ${facing} ${height}`);
      checked++;
    }
    expect(errors.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it('flips a plane seen from behind and refuses a degenerate triangle', () => {
    const positions = new Float32Array([0, 0, 0, 0, 0, 1, 1, 0, 0, 2, 0, 0]);
    const out = new Float32Array(8);
    expect(planeFromTriangle(positions, new Uint32Array([0, 1, 2]), 0, DOWN, 0, out, 0)).toBe(true);
    expect(Array.from(out.subarray(0, 4))).toEqual([0, 1, 0, 0]);
    expect(planeFromTriangle(positions, new Uint32Array([0, 1, 2]), 0, UP, 0, out, 4)).toBe(true);
    expect(Array.from(out.subarray(4, 8)).map((v) => v + 0)).toEqual([0, -1, 0, 0]);
    expect(planeFromTriangle(positions, new Uint32Array([0, 2, 3]), 0, DOWN, 0, out, 0)).toBe(false);
  });

  it('every plane a particle takes from its ray is its hit triangle’s plane', () => {
    const sandbox = new Sandbox(parseScene({ name: 'planes', seed: 3, terrain: { cells: 48, worldSize: 48, heightScale: 10, seed: 5 } }));
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
    const effect = particleEffectPreset('debris', [0, sampleTerrainHeight(sandbox.terrain, 0, 0) + 1, 0]);
    effect.rate = 600;
    const system = new ParticleSystem([effect], { mode: 'reference' });
    sandbox.addSystem(system);
    const plane = new Float32Array(4);
    let checked = 0;
    for (let frame = 0; frame < 90; frame++) {
      sandbox.step(1 / 60);
      const { particle, hits, rays } = system.raycaster;
      const { planes, planeSources } = system.buffers;
      for (let r = 0; r < rays.count; r++) {
        const i = particle[r]!;
        if (hits.triangle[r]! < 0 || planeSources[i] !== PLANE_RAY) continue;
        planeFromTriangle(sandbox.terrain.positions, sandbox.terrain.indices, hits.triangle[r]!, rays.directions, 3 * r, plane, 0);
        expect(Array.from(planes.subarray(4 * i, 4 * i + 4))).toEqual(Array.from(plane));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('TerrainHeightSampler', () => {
  it('matches sampleTerrainHeight inside the grid and is NaN outside (seed 32)', () => {
    const sampler = new TerrainHeightSampler(terrain);
    const random = new Random(32);
    let worst = 0;
    for (let i = 0; i < 5000; i++) {
      const x = random.range(-24, 24),
        z = random.range(-24, 24);
      worst = Math.max(worst, Math.abs(sampler.heightAt(x, z) - sampleTerrainHeight(terrain, x, z)));
    }
    expect(worst).toBeLessThan(1e-5);
    expect(sampler.heightAt(24, 24)).toBeCloseTo(sampleTerrainHeight(terrain, 24, 24), 5);
    expect(sampler.heightAt(24.01, 0)).toBeNaN();
    expect(sampler.heightAt(0, NaN)).toBeNaN();
  });
});
