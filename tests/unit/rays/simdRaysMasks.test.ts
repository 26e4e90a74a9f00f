import { beforeAll, describe, expect, it } from 'vitest';
import { MASK_ALL, buildBVH, type BVH, type MaterialInput } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { castRays, castRaysBruteForce, type RayBatch } from '../../../src/query/rays/index';
import type { SimdRayKernel } from '../../../src/query/rays/rayKernel';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain, materialFilter, terrainMaterialInput, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup } from '../bvh/meshes';
import { cameraRays, emptyHits, invalidRayBatch, meshBounds, nodeBoxRays, randomRays } from './raySets';
import { randomMaterials } from '../bvh/randomMaterials';

type Mesh = { positions: Float32Array; indices: Uint32Array };
interface Options {
  doubleSided?: boolean;
  mode?: 'closest' | 'any';
}

let terrain: TerrainMesh;
let terrainMaterials: MaterialInput;
let terrainBvh: BVH;
let terrainRays: RayBatch;
let kernel: SimdRayKernel;
beforeAll(async () => {
  // Water at a fifth of the height so the lakes are large enough to matter (as in masks.test.ts).
  terrain = generateTerrain({ cells: 40, seed: 17, waterLevel: 0.2, snowLevel: 0.7 });
  terrainMaterials = terrainMaterialInput(terrain);
  terrainBvh = buildBVH(terrain.positions, terrain.indices, {}, terrainMaterials);
  const bounds = meshBounds(terrain.positions);
  terrainRays = concatRays([randomRays(5, 300, bounds), cameraRays(16, bounds), randomRays(6, 200, bounds, 15), invalidRayBatch()]);
  const loaded = await loadSimdRays();
  // Node 20+ has WebAssembly SIMD; a null here means the module was not built (npm run build:wasm).
  expect(loaded).not.toBeNull();
  kernel = loaded!;
});

function concatRays(batches: RayBatch[]): RayBatch {
  const count = batches.reduce((n, b) => n + b.count, 0);
  const out: RayBatch = { count, origins: new Float32Array(3 * count), directions: new Float32Array(3 * count), tMax: new Float32Array(count) };
  let at = 0;
  for (const b of batches) {
    out.origins.set(b.origins.subarray(0, 3 * b.count), 3 * at);
    out.directions.set(b.directions.subarray(0, 3 * b.count), 3 * at);
    out.tMax.set(b.tMax.subarray(0, b.count), at);
    at += b.count;
  }
  return out;
}

/** t at which ray i hits triangle `triangle` alone (the TypeScript watertight test), or +∞. */
function hitOnTriangle(mesh: Mesh, rays: RayBatch, i: number, triangle: number, doubleSided: boolean): number {
  const corners = new Float32Array(9);
  for (let c = 0; c < 3; c++)
    corners.set(mesh.positions.subarray(3 * mesh.indices[3 * triangle + c]!, 3 * mesh.indices[3 * triangle + c]! + 3), 3 * c);
  const one: RayBatch = {
    count: 1,
    origins: rays.origins.slice(3 * i, 3 * i + 3),
    directions: rays.directions.slice(3 * i, 3 * i + 3),
    tMax: rays.tMax.slice(i, i + 1),
  };
  const hits = emptyHits(1);
  castRaysBruteForce(corners, new Uint32Array([0, 1, 2]), one, hits, { doubleSided });
  return hits.t[0]!;
}

/**
 * The SIMD kernel with `filter`, one ray at a time and batched, against castRays with the same filter
 * (quantized layout): one ray at a time the same triangle and float32 t for every ray, bit for bit;
 * batched the same t, and the same triangle but at an exact tie (then a kept triangle hit at exactly
 * that t); any hit: the same hit-or-miss, naming a kept triangle. Returns the hits.
 */
function expectFilteredLikeTypeScript(mesh: Mesh, bvh: BVH, rays: RayBatch, filter: number, options: Options = {}): number {
  const doubleSided = options.doubleSided ?? false;
  const { materialIds, materialMasks } = bvh.masks;
  const kept = (triangle: number): boolean => (materialMasks[materialIds[triangle]!]! & filter) !== 0;
  const expected = emptyHits(rays.count);
  const expectedCounters = castRays(bvh, rays, expected, { layout: 'quantized', filter, ...options });
  let hits = 0;
  for (let i = 0; i < rays.count; i++) if (expected.triangle[i]! >= 0) hits++;
  for (const batch of [0, 1, 7, 64, Infinity]) {
    const actual = emptyHits(rays.count);
    const counters = kernel.cast(bvh, rays, actual, { ...options, filter, batch, reorder: false });
    expect(counters.invalid).toBe(expectedCounters.invalid);
    expect(counters.hits).toBe(expectedCounters.hits);
    const mismatches: string[] = [];
    for (let i = 0; i < rays.count; i++) {
      const want = expected.triangle[i]!;
      const got = actual.triangle[i]!;
      let same: boolean;
      if (options.mode === 'any')
        same = want >= 0 === got >= 0 && (got < 0 || (kept(got) && hitOnTriangle(mesh, rays, i, got, doubleSided) <= rays.tMax[i]!));
      else if (!Object.is(expected.t[i], actual.t[i])) same = false;
      else if (want === got) same = true;
      else same = batch > 0 && got >= 0 && kept(got) && Object.is(hitOnTriangle(mesh, rays, i, got, doubleSided), actual.t[i]);
      if (!same && mismatches.length < 5)
        mismatches.push(`filter ${filter} batch ${batch} ray ${i}: TypeScript ${want} at ${expected.t[i]}, SIMD ${got} at ${actual.t[i]}`);
    }
    expect(mismatches).toEqual([]);
  }
  return hits;
}

/** Closest hits of the SIMD kernel with `filter` against the brute force that skips filtered triangles: the same t. */
function expectFilteredLikeBruteForce(mesh: Mesh, materials: MaterialInput, bvh: BVH, rays: RayBatch, filter: number): void {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { filter, materials });
  for (const batch of [0, 16]) {
    const actual = emptyHits(rays.count);
    kernel.cast(bvh, rays, actual, { filter, batch });
    const mismatches: string[] = [];
    for (let i = 0; i < rays.count; i++) {
      const sameT = Object.is(expected.t[i], actual.t[i]);
      // Two kept triangles may tie; the distance must agree either way.
      if ((!sameT || expected.triangle[i]! >= 0 !== actual.triangle[i]! >= 0) && mismatches.length < 5)
        mismatches.push(
          `filter ${filter} batch ${batch} ray ${i}: brute force ${expected.triangle[i]} at ${expected.t[i]}, SIMD ${actual.triangle[i]} at ${actual.t[i]}`,
        );
    }
    expect(mismatches).toEqual([]);
  }
}

describe('SIMD rays with collision filters on the terrain (seed 17)', () => {
  const filters = (): number[] => [
    MASK_ALL,
    0,
    materialFilter(['grass', 'rock', 'snow']),
    materialFilter(['water']),
    materialFilter(['rock', 'snow']),
    2 ** 31,
  ];

  it('every filter gives castRays’ hits, one ray at a time and batched, closest and any, both sidednesses', () => {
    for (const filter of filters()) {
      expectFilteredLikeTypeScript(terrain, terrainBvh, terrainRays, filter);
      expectFilteredLikeTypeScript(terrain, terrainBvh, terrainRays, filter, { doubleSided: true });
      expectFilteredLikeTypeScript(terrain, terrainBvh, terrainRays, filter, { mode: 'any' });
    }
  });

  it('every filter gives the brute force that skips filtered triangles', () => {
    for (const filter of filters()) expectFilteredLikeBruteForce(terrain, terrainMaterials, terrainBvh, terrainRays, filter);
  });

  it('a filter that rejects everything hits nothing and enters no node; MASK_ALL is no filter at all', () => {
    for (const batch of [0, 64]) {
      const none = emptyHits(terrainRays.count);
      const counters = kernel.cast(terrainBvh, terrainRays, none, { filter: 0, batch });
      const valid = terrainRays.count - counters.invalid;
      expect(Array.from(none.triangle).every((t) => t === -1)).toBe(true);
      expect(counters.nodesVisited).toBe(0);
      expect(counters.hits).toBe(0);
      expect(counters.subtreesMasked).toBe(valid);
      const all = emptyHits(terrainRays.count);
      const unfiltered = emptyHits(terrainRays.count);
      const allCounters = kernel.cast(terrainBvh, terrainRays, all, { filter: MASK_ALL, batch });
      const plainCounters = kernel.cast(terrainBvh, terrainRays, unfiltered, { batch });
      expect(all.triangle).toEqual(unfiltered.triangle);
      expect(all.t).toEqual(unfiltered.t);
      expect(allCounters).toEqual(plainCounters);
      expect(allCounters.subtreesMasked + allCounters.trianglesMasked).toBe(0);
    }
  });

  it('only water: subtrees are cut and fewer nodes entered; ignoring water masks triangles in reached leaves', () => {
    for (const batch of [0, 64]) {
      const all = kernel.cast(terrainBvh, terrainRays, emptyHits(terrainRays.count), { batch });
      const wet = kernel.cast(terrainBvh, terrainRays, emptyHits(terrainRays.count), { batch, filter: materialFilter(['water']) });
      const dry = kernel.cast(terrainBvh, terrainRays, emptyHits(terrainRays.count), { batch, filter: materialFilter(['grass', 'rock', 'snow']) });
      expect(wet.subtreesMasked).toBeGreaterThan(0);
      expect(wet.nodesVisited).toBeLessThan(all.nodesVisited);
      expect(dry.trianglesMasked + dry.subtreesMasked).toBeGreaterThan(0);
    }
  });

  it("castRays with kernel 'wasm-simd' passes the filter on; a bad filter throws InvalidParameterError naming it", () => {
    const filter = materialFilter(['water']);
    const expected = emptyHits(terrainRays.count);
    castRays(terrainBvh, terrainRays, expected, { filter });
    const actual = emptyHits(terrainRays.count);
    const report = castRays(terrainBvh, terrainRays, actual, { filter, kernel: 'wasm-simd' });
    expect(report.kernel).toBe('wasm-simd');
    expect(actual.triangle).toEqual(expected.triangle);
    for (const bad of [-1, 1.5, 2 ** 32, NaN, '3' as unknown as number]) {
      expect(() => kernel.cast(terrainBvh, terrainRays, emptyHits(terrainRays.count), { filter: bad })).toThrow(InvalidParameterError);
      expect(() => kernel.cast(terrainBvh, terrainRays, emptyHits(terrainRays.count), { filter: bad })).toThrow(/filter/);
    }
  });
});

describe('SIMD rays with random 32-bit filters and random material tables', () => {
  for (const seed of [1, 2, 3]) {
    it(`random soups equal castRays and the brute force (seed ${seed})`, () => {
      const random = new Random(seed);
      const soup = triangleSoup(seed, 600);
      const materials = randomMaterials(random, soup.indices.length / 3, 2 + random.int(12));
      const bvh = buildBVH(soup.positions, soup.indices, {}, materials);
      const rays = randomRays(seed + 100, 200, meshBounds(soup.positions));
      const filters = [MASK_ALL, 0];
      for (let k = 0; k < 6; k++) filters.push(random.nextUint32());
      for (const filter of filters) {
        expectFilteredLikeTypeScript(soup, bvh, rays, filter);
        expectFilteredLikeTypeScript(soup, bvh, rays, filter, { mode: 'any', doubleSided: true });
        expectFilteredLikeBruteForce(soup, materials, bvh, rays, filter);
      }
    });
  }

  it('adversarial meshes: slivers, stacked duplicates, a flat grid with axis-parallel rays, a reordered mesh (seed 7)', () => {
    const random = new Random(7);
    const meshes = [crossedSlivers(7, 300), stackedDuplicates(40), flatGrid(12)];
    for (const mesh of meshes) {
      const materials = randomMaterials(random, mesh.indices.length / 3, 6);
      for (const options of [
        { spatialSplits: false },
        { spatialSplits: true, shareHalfFullLeaves: true },
        { reorderTriangles: true, spatialSplits: false },
      ]) {
        const indices = mesh.indices.slice();
        const bvh = buildBVH(mesh.positions, indices, options, materials);
        const current = { positions: mesh.positions, indices };
        const rays = concatRays([
          randomRays(random.int(1000), 120, meshBounds(mesh.positions)),
          nodeBoxRays(bvh, mesh.positions, random, { axes: 3, fromTarget: true, skimming: 40 }).build(),
        ]);
        for (let k = 0; k < 4; k++) {
          const filter = k === 0 ? 0 : random.nextUint32();
          expectFilteredLikeTypeScript(current, bvh, rays, filter, { doubleSided: true });
          expectFilteredLikeBruteForce(current, { ids: bvh.masks.materialIds, masks: materials.masks }, bvh, rays, filter);
        }
      }
    }
  });

  it('more distinct unions than a table holds fall back to MASK_ALL and stay exact (seed 9)', () => {
    const random = new Random(9);
    const soup = triangleSoup(9, 3000);
    const masks = new Uint32Array(256);
    for (let m = 0; m < 256; m++) masks[m] = random.nextUint32() | 1;
    const ids = new Uint8Array(soup.indices.length / 3);
    for (let t = 0; t < ids.length; t++) ids[t] = random.int(256);
    const materials = { ids, masks };
    const bvh = buildBVH(soup.positions, soup.indices, {}, materials);
    const rays = randomRays(19, 150, meshBounds(soup.positions));
    for (let k = 0; k < 4; k++) {
      const filter = random.nextUint32();
      expectFilteredLikeTypeScript(soup, bvh, rays, filter);
      expectFilteredLikeBruteForce(soup, materials, bvh, rays, filter);
    }
  });
});
