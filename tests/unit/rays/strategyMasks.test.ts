import { beforeAll, describe, expect, it } from 'vitest';
import { MASK_ALL, buildBVH, type BVH, type MaterialInput } from '../../../src/bvh/index';
import { Random } from '../../../src/math/random';
import { castRays, castRaysBruteForce, type CastOptions, type RayBatch } from '../../../src/query/rays/index';
import { BINARY_SORTINGS, WIDE_SORTINGS } from '../../../src/query/rays/strategies';
import { generateTerrain, materialFilter, terrainMaterialInput, type TerrainMesh } from '../../../src/terrain/index';
import { triangleSoup } from '../bvh/meshes';
import { cameraRays, emptyHits, meshBounds, randomRays } from './raySets';

type Mesh = { positions: Float32Array; indices: Uint32Array };

/** Every tree × layout × sorting, one at a time and in batches (with and without lone rays walking alone), packed and indexed. */
function strategies(): Partial<CastOptions>[] {
  const all: Partial<CastOptions>[] = [];
  for (const tree of ['binary', '4-way'] as const)
    for (const layout of ['quantized', 'float'] as const)
      for (const sorting of tree === 'binary' ? BINARY_SORTINGS : WIDE_SORTINGS) {
        for (const batchSize of [0, 4, 64, Infinity]) all.push({ tree, layout, sorting, batchSize, triangles: 'packed' });
        all.push({ tree, layout, sorting, batchSize: 16, aloneBelow: 0, triangles: 'indexed' });
        all.push({ tree, layout, sorting, batchSize: 0, triangles: 'indexed' });
      }
  return all;
}

const describeStrategy = (s: Partial<CastOptions>): string =>
  `${s.tree} ${s.layout} ${s.sorting} batch ${s.batchSize} alone below ${s.aloneBelow ?? 'default'} ${s.triangles} ${s.mode ?? 'closest'}`;

/**
 * Every strategy with `filter` against the brute force that skips filtered triangles: the same
 * triangle (or two kept triangles meeting at the same t), and every hit's triangle kept by the filter.
 * Returns the failures (strategy, filter, first bad ray) and the brute-force hit count.
 */
function compare(mesh: Mesh, materials: MaterialInput, bvh: BVH, rays: RayBatch, filter: number, failures: string[]): number {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { filter, materials });
  let hits = 0;
  for (let i = 0; i < rays.count; i++) if (expected.triangle[i]! >= 0) hits++;
  const actual = emptyHits(rays.count);
  for (const strategy of strategies()) {
    actual.t.fill(-7);
    actual.triangle.fill(-7);
    const report = castRays(bvh, rays, actual, { ...strategy, filter });
    const name = `${describeStrategy(strategy)} filter 0x${filter.toString(16)}`;
    if (report.hits !== hits) failures.push(`${name}: ${report.hits} hits, brute force ${hits}`);
    if (filter === 0 && report.trianglesTested !== 0) failures.push(`${name}: filter 0 tested ${report.trianglesTested} triangles`);
    for (let i = 0; i < rays.count; i++) {
      const e = expected.triangle[i]!;
      const a = actual.triangle[i]!;
      const et = expected.t[i]!;
      const at = actual.t[i]!;
      const sameT = Object.is(et, at) || Math.abs(et - at) <= 1e-5 * Math.abs(et);
      const kept = a < 0 || (materials.masks[materials.ids[a]!]! & filter) !== 0;
      if (!((e === a || (e >= 0 && a >= 0)) && sameT && kept)) {
        failures.push(`${name}: ray ${i} expected ${e}@${et}, got ${a}@${at}`);
        break;
      }
    }
  }
  return hits;
}

/** Any hit with a filter: a hit exactly when the brute force finds one, on a triangle the filter keeps. */
function compareAny(mesh: Mesh, materials: MaterialInput, bvh: BVH, rays: RayBatch, filter: number, failures: string[]): void {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { filter, materials });
  const actual = emptyHits(rays.count);
  for (const strategy of strategies()) {
    castRays(bvh, rays, actual, { ...strategy, mode: 'any', filter });
    for (let i = 0; i < rays.count; i++) {
      const a = actual.triangle[i]!;
      if (a >= 0 !== expected.triangle[i]! >= 0 || (a >= 0 && (materials.masks[materials.ids[a]!]! & filter) === 0)) {
        failures.push(`${describeStrategy({ ...strategy, mode: 'any' })} filter 0x${filter.toString(16)}: ray ${i} got ${a}`);
        break;
      }
    }
  }
}

let terrain: TerrainMesh;
let terrainBvh: BVH;
let terrainRays: RayBatch;
beforeAll(() => {
  terrain = generateTerrain({ cells: 24, seed: 17, waterLevel: 0.2, snowLevel: 0.7 });
  terrainBvh = buildBVH(terrain.positions, terrain.indices, { layouts: ['quantized', 'float'] }, terrainMaterialInput(terrain));
  const bounds = meshBounds(terrain.positions);
  const random = randomRays(31, 150, bounds);
  const camera = cameraRays(8, bounds);
  terrainRays = {
    count: random.count + camera.count,
    origins: Float32Array.from([...random.origins.subarray(0, 3 * random.count), ...camera.origins.subarray(0, 3 * camera.count)]),
    directions: Float32Array.from([...random.directions.subarray(0, 3 * random.count), ...camera.directions.subarray(0, 3 * camera.count)]),
    tMax: Float32Array.from([...random.tMax.subarray(0, random.count), ...camera.tMax.subarray(0, camera.count)]),
  };
});

describe('castRays strategies × collision filter against brute force', () => {
  it('terrain materials (seed 17): everything, nothing, no water, water only, random filters', () => {
    const input = terrainMaterialInput(terrain);
    const random = new Random(1717);
    const filters = [MASK_ALL, 0, materialFilter(['grass', 'rock', 'snow']), materialFilter(['water']), materialFilter(['rock', 'snow'])];
    for (let k = 0; k < 3; k++) filters.push(random.int(2 ** 32) >>> 0);
    const failures: string[] = [];
    for (const filter of filters) compare(terrain, input, terrainBvh, terrainRays, filter, failures);
    compareAny(terrain, input, terrainBvh, terrainRays, materialFilter(['grass', 'snow']), failures);
    expect(failures).toEqual([]);
  });

  it('random material tables and random 32-bit filters on triangle soups (seeds 40..43)', () => {
    const failures: string[] = [];
    for (let seed = 40; seed < 44; seed++) {
      const random = new Random(seed);
      const mesh = triangleSoup(seed, 300);
      const tableSize = 1 + random.int(seed === 43 ? 256 : 12);
      // Sparse masks (a few bits each, some none) so that filters reject whole subtrees.
      const masks = Uint32Array.from({ length: tableSize }, () => (random.int(4) === 0 ? 0 : (1 << random.int(32)) | (1 << random.int(32))) >>> 0);
      const ids = Uint8Array.from({ length: mesh.indices.length / 3 }, () => random.int(tableSize));
      const materials: MaterialInput = { ids, masks };
      const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized', 'float'] }, materials);
      const rays = randomRays(seed, 120, meshBounds(mesh.positions), 40);
      const filters = [MASK_ALL, 0, masks[0]! || 1, (random.int(2 ** 32) & random.int(2 ** 32)) >>> 0, random.int(2 ** 32) >>> 0];
      for (const filter of filters) compare(mesh, materials, bvh, rays, filter, failures);
      compareAny(mesh, materials, bvh, rays, filters[3]!, failures);
    }
    expect(failures).toEqual([]);
  });

  it('a filter that rejects a material cuts subtrees in every walk, and fewer nodes are visited', () => {
    const noWater = materialFilter(['grass', 'rock', 'snow']);
    const water = materialFilter(['water']);
    for (const strategy of strategies()) {
      const all = castRays(terrainBvh, terrainRays, emptyHits(terrainRays.count), strategy);
      const wet = castRays(terrainBvh, terrainRays, emptyHits(terrainRays.count), { ...strategy, filter: water });
      const dry = castRays(terrainBvh, terrainRays, emptyHits(terrainRays.count), { ...strategy, filter: noWater });
      expect(all.subtreesMasked + all.trianglesMasked, describeStrategy(strategy)).toBe(0);
      expect(wet.subtreesMasked, describeStrategy(strategy)).toBeGreaterThan(0);
      expect(wet.nodesVisited, describeStrategy(strategy)).toBeLessThan(all.nodesVisited);
      expect(dry.subtreesMasked + dry.trianglesMasked, describeStrategy(strategy)).toBeGreaterThan(0);
    }
  });
});
