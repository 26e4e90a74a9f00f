import { beforeAll, describe, expect, it } from 'vitest';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../../src/terrain/index';
import {
  CRACK_PATCH_SIZE,
  CRACK_RAY_T_MAX,
  MISSED_RAY_STRIDE,
  RAY_TRIANGLE_KERNELS,
  createRayData,
  exploreCracks,
  generateCrackRays,
  intersectWatertight,
  type RayTriangleKernel,
} from '../../../src/query/rayTriangle/index';

const RAYS_PER_SEED = 200_000;
const SEEDS = [1, 2, 3, 4, 5, 6];

let terrain: TerrainMesh;
beforeAll(() => {
  terrain = generateTerrain({ cells: 256 }); // the default ridged terrain: steep slopes, float32 grid
});

describe('crack explorer on a float32 terrain grid', () => {
  it.each(SEEDS)('the watertight test misses none of 200k rays through shared edges and vertices, single- and double-sided (seed %i)', (seed) => {
    const rays = generateCrackRays(terrain, RAYS_PER_SEED, { seed });
    for (const doubleSided of [false, true]) {
      const report = exploreCracks(terrain, rays, RAY_TRIANGLE_KERNELS.watertight, { doubleSided });
      expect(report.rays).toBe(RAYS_PER_SEED);
      expect(report.byTarget.vertex.rays).toBeGreaterThan(0.45 * RAYS_PER_SEED);
      expect(report.misses).toBe(0);
    }
  });

  it('the watertight test misses none of 200k float32-rounded rays (seed 7)', () => {
    const rays = generateCrackRays(terrain, RAYS_PER_SEED, { seed: 7, rayPrecision: 'float32' });
    expect(exploreCracks(terrain, rays, RAY_TRIANGLE_KERNELS.watertight).misses).toBe(0);
  });

  it('the edge-plane test is closed on shared edges but leaks through vertices; Möller–Trumbore leaks on both (seed 8)', () => {
    const rays = generateCrackRays(terrain, RAYS_PER_SEED, { seed: 8 });
    const edgePlane = exploreCracks(terrain, rays, RAY_TRIANGLE_KERNELS['edge-plane']);
    expect(edgePlane.byTarget['edge-x'].misses + edgePlane.byTarget['edge-z'].misses + edgePlane.byTarget.diagonal.misses).toBe(0);
    expect(edgePlane.byTarget.vertex.misses).toBeGreaterThan(0);
    const moller = exploreCracks(terrain, rays, RAY_TRIANGLE_KERNELS['moller-trumbore']);
    expect(moller.byTarget.vertex.misses).toBeGreaterThan(0);
    expect(moller.byTarget['edge-z'].misses).toBeGreaterThan(0);
    // The kept missed rays are drawable as they are: origin + direction lands on the surface.
    expect(moller.missedRaysKept).toBe(1000);
    for (let k = 0; k < moller.missedRaysKept; k++) {
      const r = moller.missedRays.subarray(MISSED_RAY_STRIDE * k, MISSED_RAY_STRIDE * (k + 1));
      expect(Math.abs(sampleTerrainHeight(terrain, r[0]! + r[3]!, r[2]! + r[5]!) - (r[1]! + r[4]!))).toBeLessThan(1e-6);
    }
    console.info(
      `cracks, 200k rays (seed 8): edge-plane ${edgePlane.misses} (vertices ${edgePlane.byTarget.vertex.misses}/${edgePlane.byTarget.vertex.rays}),` +
        ` Möller–Trumbore ${moller.misses} (vertices ${moller.byTarget.vertex.misses}, edges ${moller.misses - moller.byTarget.vertex.misses})`,
    );
  });

  it('counts the cracks of a deliberately leaky test (seed 9)', () => {
    // Watertight, except that hits within 1e-7 of an edge are dropped: a crack of known width.
    const barycentric = new Float64Array(3);
    const leaky: RayTriangleKernel = {
      ...RAY_TRIANGLE_KERNELS.watertight,
      intersect(rayData, positions, a, b, c, tMax, doubleSided) {
        const t = intersectWatertight(rayData, positions, a, b, c, tMax, doubleSided, barycentric);
        return t >= 0 && Math.min(barycentric[0]!, barycentric[1]!, barycentric[2]!) < 1e-7 ? -1 : t;
      },
    };
    const rays = generateCrackRays(terrain, 20_000, { seed: 9 });
    const report = exploreCracks(terrain, rays, leaky, { maxMissedRays: 50 });
    expect(report.misses).toBe(20_000);
    expect(report.missedRaysKept).toBe(50);
  });

  it('aims every ray so that it crosses the surface at its target, t = 1 (seed 10)', () => {
    const rays = generateCrackRays(terrain, 20_000, { seed: 10 });
    const rayData = createRayData();
    const { positions, indices } = terrain;
    for (let ray = 0; ray < rays.count; ray++) {
      const r3 = 3 * ray;
      RAY_TRIANGLE_KERNELS.watertight.prepareRay(
        rays.origins[r3]!,
        rays.origins[r3 + 1]!,
        rays.origins[r3 + 2]!,
        rays.directions[r3]!,
        rays.directions[r3 + 1]!,
        rays.directions[r3 + 2]!,
        rayData,
      );
      let nearest = Infinity;
      for (let k = 0; k < CRACK_PATCH_SIZE; k++) {
        const triangle = rays.patches[CRACK_PATCH_SIZE * ray + k]!;
        if (triangle < 0) break;
        const t = intersectWatertight(
          rayData,
          positions,
          indices[3 * triangle]!,
          indices[3 * triangle + 1]!,
          indices[3 * triangle + 2]!,
          CRACK_RAY_T_MAX,
          false,
        );
        if (t >= 0 && t < nearest) nearest = t;
      }
      if (!(Math.abs(nearest - 1) < 1e-9)) throw new Error(`ray ${ray}: nearest hit at t = ${nearest}`);
    }
  });

  it('counting the patch is exactly counting the whole mesh, for every kernel (16 cells, seeds 11, 12)', () => {
    const small = generateTerrain({ cells: 16, worldSize: 64, heightScale: 40 });
    for (const seed of [11, 12]) {
      for (const rayPrecision of ['float64', 'float32'] as const) {
        const rays = generateCrackRays(small, 3000, { seed, rayPrecision });
        for (const kernel of Object.values(RAY_TRIANGLE_KERNELS)) {
          const patch = exploreCracks(small, rays, kernel, { maxMissedRays: 3000 });
          const mesh = exploreCracks(small, rays, kernel, { maxMissedRays: 3000, scope: 'mesh' });
          expect(mesh.misses).toBe(patch.misses);
          expect(Array.from(mesh.missedRays)).toEqual(Array.from(patch.missedRays));
        }
      }
    }
  });
});
