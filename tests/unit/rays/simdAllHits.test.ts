import { TorusGeometry } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { castRays, castRaysBruteForce, createAllHitsList, type AllHitsList, type RayBatch } from '../../../src/query/rays/index';
import type { SimdRayKernel } from '../../../src/query/rays/rayKernel';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates, type TestMesh } from '../bvh/meshes';
import { emptyHits, invalidRayBatch, meshBounds, nodeBoxRays, randomRays, RayBuilder } from './raySets';

let terrain: TerrainMesh;
let kernel: SimdRayKernel;
beforeAll(async () => {
  terrain = generateTerrain({ cells: 24, seed: 41 });
  const loaded = await loadSimdRays();
  expect(loaded).not.toBeNull();
  kernel = loaded!;
});

/** Each ray's hits as sorted "triangle@t" strings (t by its float32 bits' decimal form). */
function hitsByRay(list: AllHitsList, rays: number): string[][] {
  const out: string[][] = Array.from({ length: rays }, () => []);
  for (let i = 0; i < list.count; i++) out[list.ray[i]!]!.push(`${list.triangle[i]}@${list.t[i]}`);
  for (const hits of out) hits.sort();
  return out;
}

/**
 * The kernel's all-hits cast against the TypeScript reference walk's: per ray the same set of
 * triangles at the same float32 t, none twice, the same closest hit bit for bit, the same drop count.
 */
function expectSameAllHits(bvh: BVH, rays: RayBatch, doubleSided: boolean, capacity = 100_000): AllHitsList {
  const expectedList = createAllHitsList(capacity);
  const expected = emptyHits(rays.count);
  const reference = castRays(bvh, rays, expected, { mode: 'all', allHits: expectedList, doubleSided });
  expect(reference.kernel).toBe('typescript');
  const list = createAllHitsList(capacity);
  const actual = emptyHits(rays.count);
  const counters = kernel.cast(bvh, rays, actual, { mode: 'all', allHits: list, doubleSided });
  expect(counters.invalid).toBe(reference.invalid);
  expect([list.count, list.dropped]).toEqual([expectedList.count, expectedList.dropped]);
  if (expectedList.dropped === 0) {
    const want = hitsByRay(expectedList, rays.count);
    const got = hitsByRay(list, rays.count);
    const differing: string[] = [];
    for (let r = 0; r < rays.count && differing.length < 5; r++)
      if (want[r]!.join() !== got[r]!.join()) differing.push(`ray ${r}: TypeScript ${want[r]!.join(' ')}, SIMD ${got[r]!.join(' ')}`);
    expect(differing).toEqual([]);
    for (const hits of got) expect(new Set(hits).size).toBe(hits.length);
  }
  const closest: string[] = [];
  for (let r = 0; r < rays.count && closest.length < 5; r++)
    if (expected.triangle[r] !== actual.triangle[r] || !Object.is(expected.t[r], actual.t[r]))
      closest.push(`ray ${r}: TypeScript ${expected.triangle[r]} at ${expected.t[r]}, SIMD ${actual.triangle[r]} at ${actual.t[r]}`);
  expect(closest).toEqual([]);
  // Ray indices ascend through the list: the caller's order, never the Morton one.
  for (let i = 1; i < list.count; i++) expect(list.ray[i]!).toBeGreaterThanOrEqual(list.ray[i - 1]!);
  return list;
}

/** Brute force, one triangle at a time: the "triangle@t" hits of ray r. */
function bruteForceHits(mesh: TestMesh, rays: RayBatch, r: number, doubleSided: boolean): string[] {
  const one: RayBatch = {
    count: 1,
    origins: rays.origins.slice(3 * r, 3 * r + 3),
    directions: rays.directions.slice(3 * r, 3 * r + 3),
    tMax: rays.tMax.slice(r, r + 1),
  };
  const hit = emptyHits(1);
  const out: string[] = [];
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    castRaysBruteForce(mesh.positions, mesh.indices.subarray(3 * t, 3 * t + 3), one, hit, { doubleSided });
    if (hit.triangle[0]! >= 0) out.push(`${t}@${hit.t[0]}`);
  }
  return out.sort();
}

describe('WebAssembly SIMD all-hits rays against the TypeScript reference walk and brute force', () => {
  it('random rays, node box corners and edges, grazing and invalid rays on a terrain, both sidednesses (seed 501)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices, { layouts: ['quantized'] });
    const bounds = meshBounds(terrain.positions);
    const boxRays = nodeBoxRays(bvh, terrain.positions, new Random(501), { axes: 3, fromTarget: false, skimming: 200 }).build();
    for (const doubleSided of [false, true]) {
      const list = expectSameAllHits(bvh, randomRays(501, 1500, bounds), doubleSided);
      expect(list.count).toBeGreaterThan(200);
      expectSameAllHits(bvh, randomRays(502, 800, bounds, 6), doubleSided);
      expectSameAllHits(bvh, boxRays, doubleSided);
      expectSameAllHits(bvh, invalidRayBatch(), doubleSided);
    }
  });

  it('adversarial meshes and builds: duplicates from spatial splits and shared leaves are reported once (seed 503)', () => {
    const meshes: TestMesh[] = [triangleSoup(7, 400), crossedSlivers(8, 200), stackedDuplicates(30), flatGrid(10), withDegenerates(12)];
    const torus = new TorusGeometry(1, 1, 40, 10);
    meshes.push({
      name: 'torus',
      positions: new Float32Array(torus.getAttribute('position').array),
      indices: new Uint32Array(torus.getIndex()!.array),
    });
    let duplicatedBuilds = 0;
    for (const options of [{}, { spatialOverlapThreshold: 0 }, { maxLeafSize: 1 }, { spatialSplits: false }, { shareHalfFullLeaves: false }]) {
      for (const mesh of meshes) {
        const bvh = buildBVH(mesh.positions, mesh.indices, options);
        if (bvh.hasDuplicateReferences || bvh.stats.sharedNodes > 0) duplicatedBuilds++;
        expectSameAllHits(bvh, randomRays(503, 300, meshBounds(mesh.positions)), true);
        expectSameAllHits(bvh, randomRays(504, 200, meshBounds(mesh.positions), 3), false);
      }
    }
    // The de-duplication was exercised, not assumed.
    expect(duplicatedBuilds).toBeGreaterThan(5);
  });

  it('equals brute force, triangle by triangle, on a soup and on stacked duplicates (seed 505)', () => {
    for (const mesh of [triangleSoup(5, 120), stackedDuplicates(12)]) {
      const bvh = buildBVH(mesh.positions, mesh.indices, { spatialOverlapThreshold: 0 });
      const rays = randomRays(505, 60, meshBounds(mesh.positions));
      for (const doubleSided of [false, true]) {
        const list = createAllHitsList(10_000);
        kernel.cast(bvh, rays, emptyHits(rays.count), { mode: 'all', allHits: list, doubleSided });
        const got = hitsByRay(list, rays.count);
        for (let r = 0; r < rays.count; r++) expect(got[r], `ray ${r}`).toEqual(bruteForceHits(mesh, rays, r, doubleSided));
      }
    }
  });

  it('a full list counts the rest as dropped, as castRays does; an empty tree and an empty batch give nothing', () => {
    const mesh = stackedDuplicates(10);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const rays = new RayBuilder().add([0.2, 1, 0.2], [0, -1, 0]).add([0.3, 1, 0.3], [0, -1, 0]).build();
    const list = expectSameAllHits(bvh, rays, true, 4);
    expect([list.count, list.dropped]).toEqual([4, 16]);
    const empty = buildBVH(new Float32Array(0), new Uint32Array(0));
    const none = createAllHitsList(8);
    none.count = 3;
    kernel.cast(empty, rays, emptyHits(2), { mode: 'all', allHits: none });
    expect([none.count, none.dropped]).toEqual([0, 0]);
    kernel.cast(bvh, { ...rays, count: 0 }, emptyHits(0), { mode: 'all', allHits: none });
    expect(none.count).toBe(0);
  });

  it("castRays with kernel 'wasm-simd' and mode 'all' runs the kernel; a batched or list-less cast is refused", () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(506, 200, meshBounds(terrain.positions));
    const simdList = createAllHitsList(10_000);
    const report = castRays(bvh, rays, emptyHits(rays.count), { kernel: 'wasm-simd', mode: 'all', allHits: simdList });
    expect(report.kernel).toBe('wasm-simd');
    const tsList = createAllHitsList(10_000);
    castRays(bvh, rays, emptyHits(rays.count), { mode: 'all', allHits: tsList });
    expect(hitsByRay(simdList, rays.count)).toEqual(hitsByRay(tsList, rays.count));
    expect(() => kernel.cast(bvh, rays, emptyHits(rays.count), { mode: 'all', allHits: simdList, batch: 64 })).toThrow(InvalidParameterError);
    expect(() => kernel.cast(bvh, rays, emptyHits(rays.count), { mode: 'all' })).toThrow(/allHits/);
    expect(() => kernel.cast(bvh, rays, emptyHits(rays.count), { mode: 'every' as 'all', allHits: simdList })).toThrow(/'closest', 'any' or 'all'/);
  });

  it('castOne, one ray per call, gives the batch cast’s hit and list for every ray, invalid ones included (seed 507)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const bounds = meshBounds(terrain.positions);
    const batches = [randomRays(507, 400, bounds), randomRays(508, 200, bounds, 5), invalidRayBatch()];
    const one = createAllHitsList(64);
    for (const rays of batches) {
      for (const options of [{}, { doubleSided: true }, { mode: 'any' as const }, { mode: 'all' as const, doubleSided: true }]) {
        const list = createAllHitsList(10_000);
        const expected = emptyHits(rays.count);
        kernel.cast(bvh, rays, expected, options.mode === 'all' ? { ...options, allHits: list } : options);
        const lists = hitsByRay(list, rays.count);
        const o = rays.origins;
        const d = rays.directions;
        for (let r = 0; r < rays.count; r++) {
          const triangle = kernel.castOne(bvh, o[3 * r]!, o[3 * r + 1]!, o[3 * r + 2]!, d[3 * r]!, d[3 * r + 1]!, d[3 * r + 2]!, rays.tMax[r]!, {
            ...options,
            allHits: one,
          });
          if (options.mode === 'any') expect(triangle >= 0, `ray ${r}`).toBe(expected.triangle[r]! >= 0);
          else expect([triangle, kernel.oneT], `ray ${r}`).toEqual([expected.triangle[r], expected.t[r]]);
          if (options.mode === 'all') expect(hitsByRay(one, 1)[0], `ray ${r}`).toEqual(lists[r]);
        }
      }
    }
  });
});
