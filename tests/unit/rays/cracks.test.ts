import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { CRACK_RAY_T_MAX, generateCrackRays } from '../../../src/query/rayTriangle/index';
import { castRays, type RayBatch } from '../../../src/query/rays/index';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';

const RAYS_PER_SEED = 250_000;

let terrain: TerrainMesh;
let bvh: BVH;
beforeAll(() => {
  terrain = generateTerrain({ cells: 256 });
  bvh = buildBVH(terrain.positions, terrain.indices);
});

function crackBatch(seed: number): RayBatch {
  const rays = generateCrackRays(terrain, RAYS_PER_SEED, { seed, rayPrecision: 'float32' });
  return {
    count: rays.count,
    origins: Float32Array.from(rays.origins),
    directions: Float32Array.from(rays.directions),
    tMax: new Float32Array(rays.count).fill(CRACK_RAY_T_MAX),
  };
}

describe('no cracks through the BVH', () => {
  // Two seeds: half a million float32 rays aimed exactly at shared edges and vertices of the grid. Each
  // crosses the surface once near t = 1, so a miss is a crack in the box tests or the triangle test.
  // (tests/bench/cracks.ts sends millions more, at every precision.)
  it.each([31, 32])('the default test through the quantized BVH misses none of 250k rays through shared edges and vertices (seed %i)', (seed) => {
    const rays = crackBatch(seed);
    const hits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
    const counters = castRays(bvh, rays, hits);
    expect(counters.invalid).toBe(0);
    let misses = 0;
    for (let i = 0; i < rays.count; i++) if (hits.triangle[i]! < 0) misses++;
    expect(misses).toBe(0);
  });

  it('the float layout, double-sided, misses none either (seed 35)', () => {
    const rays = crackBatch(35);
    const hits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
    castRays(bvh, rays, hits, { layout: 'float', doubleSided: true });
    let misses = 0;
    for (let i = 0; i < rays.count; i++) if (hits.triangle[i]! < 0) misses++;
    expect(misses).toBe(0);
  });
});
