import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, forEachNodeBox, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { createRayData, getRayTriangleKernel } from '../../../src/query/rayTriangle/index';
import { castRays, castRaysBruteForce, createAllHitsList, type CastOptions, type RayBatch } from '../../../src/query/rays/index';
import { BINARY_SORTINGS, RAY_BATCH_SIZES, WIDE_SORTINGS } from '../../../src/query/rays/strategies';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates, type TestMesh } from '../bvh/meshes';
import { RayBuilder, cameraRays, emptyHits, meshBounds, randomRays } from './raySets';

type Mesh = { positions: Float32Array; indices: Uint32Array };

let terrain: TerrainMesh;
beforeAll(() => {
  terrain = generateTerrain({ cells: 24, seed: 41 });
});

/** Every tree × layout × sorting × batch size (0 = one ray at a time, Infinity = all). */
function everyStrategy(): Partial<CastOptions>[] {
  const all: Partial<CastOptions>[] = [];
  for (const tree of ['binary', '4-way'] as const) {
    for (const layout of ['quantized', 'float'] as const) {
      for (const sorting of tree === 'binary' ? BINARY_SORTINGS : WIDE_SORTINGS) {
        for (const batchSize of RAY_BATCH_SIZES) all.push({ tree, layout, sorting, batchSize, triangles: 'packed' });
        // The pure batched walk, without handing lone rays over to the single-ray traversal.
        for (const batchSize of [16, Infinity]) all.push({ tree, layout, sorting, batchSize, aloneBelow: 0, triangles: 'packed' });
        // Leaves read through the index buffer (the reference walk for 4-way 'tmax' one at a time).
        for (const batchSize of [0, 64]) all.push({ tree, layout, sorting, batchSize, triangles: 'indexed' });
      }
    }
  }
  return all;
}

const describeStrategy = (s: Partial<CastOptions>): string =>
  `${s.tree} ${s.layout} ${s.sorting} batch ${s.batchSize} alone below ${s.aloneBelow ?? 'default'} ${s.triangles ?? 'indexed'}`;

/**
 * Same triangle, or both miss, or t within 1e-5 relative (two triangles meeting at the hit point), for
 * every strategy; returns the brute-force hit count. Failures name the strategy and the first bad ray.
 */
function expectEveryStrategyMatches(mesh: Mesh, bvh: BVH, rays: RayBatch, extra: Partial<CastOptions> = {}, strategies = everyStrategy()): number {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, {
    triangleTest: extra.triangleTest ?? 'watertight',
    doubleSided: extra.doubleSided ?? false,
  });
  let hits = 0;
  for (let i = 0; i < rays.count; i++) if (expected.triangle[i]! >= 0) hits++;
  const actual = emptyHits(rays.count);
  const failures: string[] = [];
  for (const strategy of strategies) {
    const options = { ...strategy, ...extra };
    actual.t.fill(-7);
    actual.triangle.fill(-7);
    castRays(bvh, rays, actual, options);
    for (let i = 0; i < rays.count; i++) {
      const et = expected.t[i]!;
      const at = actual.t[i]!;
      const same = expected.triangle[i] === actual.triangle[i] && (Object.is(et, at) || Math.abs(et - at) <= 1e-5 * Math.abs(et));
      const closeEnough = expected.triangle[i]! >= 0 && actual.triangle[i]! >= 0 && Math.abs(et - at) <= 1e-5 * Math.max(Math.abs(et), 1e-30);
      if (!same && !closeEnough) {
        failures.push(`${describeStrategy(options)}: ray ${i} expected ${expected.triangle[i]}@${et}, got ${actual.triangle[i]}@${at}`);
        break;
      }
    }
  }
  expect(failures).toEqual([]);
  return hits;
}

describe('castRays strategies: every layout × sorting × batching against brute force', () => {
  it('random rays and 6-unit segments on a terrain, packed and indexed triangles (seed 201)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const bounds = meshBounds(terrain.positions);
    expect(expectEveryStrategyMatches(terrain, bvh, randomRays(201, 200, bounds))).toBeGreaterThan(30);
    expectEveryStrategyMatches(terrain, bvh, randomRays(202, 200, bounds, 6));
    const some = everyStrategy().filter((s) => s.batchSize === 0 || s.batchSize === 16);
    expectEveryStrategyMatches(terrain, bvh, randomRays(201, 200, bounds), { triangles: 'indexed' }, some);
  });

  it('coherent camera rays, and rays from above straight down (rain) mixed with slanted ones (seed 203)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const bounds = meshBounds(terrain.positions);
    expect(expectEveryStrategyMatches(terrain, bvh, cameraRays(12, bounds))).toBeGreaterThan(60);
    const random = new Random(203);
    const rays = new RayBuilder();
    for (let i = 0; i < 120; i++) {
      const origin = [random.range(bounds.min[0], bounds.max[0]), bounds.max[1] + 5, random.range(bounds.min[2], bounds.max[2])];
      rays.add(origin, i % 2 === 0 ? [0, -1, 0] : [random.range(-0.3, 0.3), -1, random.range(-0.3, 0.3)]);
    }
    expect(expectEveryStrategyMatches(terrain, bvh, rays.build())).toBeGreaterThan(90);
  });

  it('both sidednesses and every triangle test on random rays (seed 204)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(204, 100, meshBounds(terrain.positions));
    const strategies = everyStrategy().filter((s) => s.batchSize === 0 || s.batchSize === 16);
    for (const triangleTest of ['watertight', 'moller-trumbore', 'edge-plane'] as const) {
      for (const doubleSided of [false, true]) expectEveryStrategyMatches(terrain, bvh, rays, { triangleTest, doubleSided }, strategies);
    }
  });

  const meshes = (): TestMesh[] => [triangleSoup(7, 300), crossedSlivers(8, 200), stackedDuplicates(20), flatGrid(6), withDegenerates(12)];
  for (const options of [{}, { spatialOverlapThreshold: 0 }, { maxLeafSize: 1 }, { shareHalfFullLeaves: false }]) {
    it(`random rays on adversarial meshes, build ${JSON.stringify(options)} (seed 205)`, () => {
      for (const mesh of meshes()) {
        const bvh = buildBVH(mesh.positions, mesh.indices, options);
        expectEveryStrategyMatches(mesh, bvh, randomRays(205, 120, meshBounds(mesh.positions)), { doubleSided: true });
      }
    });
  }

  it('axis-parallel rays through vertices, edges and faces of a flat integer grid, and rays in its plane', () => {
    const mesh = flatGrid(6);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const rays = new RayBuilder();
    for (let i = 0; i <= 12; i++) {
      for (let j = 0; j <= 12; j++) {
        const x = i / 2,
          z = j / 2;
        rays.add([x, 5, z], [0, -1, 0]);
        rays.add([x, 0, -3], [0, 0, 1]);
        rays.add([x, -2, z], [0, 1, 0]);
        rays.add([x, 4, z], [0.25, -1, 0.5]);
      }
    }
    for (const doubleSided of [false, true]) {
      const hits = expectEveryStrategyMatches(mesh, bvh, rays.build(), { doubleSided });
      // Straight down through every grid point, slanted where they land on the grid, up only double-sided.
      expect(hits).toBeGreaterThan(doubleSided ? 2 * 169 : 169);
    }
  });

  it('rays aimed at corners and edges of node boxes (seed 206)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const random = new Random(206);
    const bounds = meshBounds(terrain.positions);
    const rays = new RayBuilder();
    forEachNodeBox(bvh, (x0, y0, z0, x1, y1, z1) => {
      if (random.next() > 0.15) return;
      const corner = [random.next() < 0.5 ? x0 : x1, random.next() < 0.5 ? y0 : y1, random.next() < 0.5 ? z0 : z1];
      rays.through(
        [random.range(bounds.min[0], bounds.max[0]), bounds.max[1] + random.range(1, 30), random.range(bounds.min[2], bounds.max[2])],
        corner,
      );
      rays.add([corner[0]!, corner[1]!, bounds.min[2] - 1], [0, 0, 1]);
    });
    expectEveryStrategyMatches(terrain, bvh, rays.build(), { doubleSided: true });
  });

  it('a batch where every ray misses, batches of one, and an empty batch', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const bounds = meshBounds(terrain.positions);
    const random = new Random(207);
    const away = new RayBuilder();
    for (let i = 0; i < 100; i++)
      away.add(
        [random.range(bounds.min[0], bounds.max[0]), bounds.max[1] + 1, random.range(bounds.min[2], bounds.max[2])],
        [random.range(-1, 1), random.range(0.1, 1), random.range(-1, 1)],
      );
    expect(expectEveryStrategyMatches(terrain, bvh, away.build())).toBe(0);
    const one = randomRays(208, 40, bounds);
    for (let i = 0; i < one.count; i++) {
      const single: RayBatch = {
        count: 1,
        origins: one.origins.slice(3 * i, 3 * i + 3),
        directions: one.directions.slice(3 * i, 3 * i + 3),
        tMax: one.tMax.slice(i, i + 1),
      };
      expectEveryStrategyMatches(terrain, bvh, single);
    }
    const none: RayBatch = { count: 0, origins: new Float32Array(0), directions: new Float32Array(0), tMax: new Float32Array(0) };
    for (const strategy of everyStrategy()) expect(castRays(bvh, none, emptyHits(0), strategy).nodesVisited).toBe(0);
  });

  it('a reordered mesh, and a mesh of one triangle', () => {
    const mesh = { positions: terrain.positions, indices: terrain.indices.slice() };
    const bvh = buildBVH(mesh.positions, mesh.indices, { reorderTriangles: true, spatialSplits: false });
    expectEveryStrategyMatches(
      mesh,
      bvh,
      randomRays(209, 150, meshBounds(mesh.positions)),
      {},
      everyStrategy().filter((s) => s.batchSize === 0 || s.batchSize === 4),
    );
    const single = { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1]), indices: new Uint32Array([0, 1, 2]) };
    const tiny = buildBVH(single.positions, single.indices);
    expect(expectEveryStrategyMatches(single, tiny, randomRays(210, 200, meshBounds(single.positions)), { doubleSided: true })).toBeGreaterThan(0);
  });
});

describe('castRays strategies: any hit, invalid rays, options', () => {
  it('any: hits exactly when brute force does, with a real hit within tMax (seed 211)', () => {
    const mesh = triangleSoup(211, 400);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const rays = randomRays(211, 300, meshBounds(mesh.positions), 40);
    const expected = emptyHits(rays.count);
    castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { doubleSided: true });
    const kernel = getRayTriangleKernel('watertight');
    const rayData = createRayData();
    const actual = emptyHits(rays.count);
    for (const strategy of everyStrategy()) {
      castRays(bvh, rays, actual, { ...strategy, mode: 'any', doubleSided: true });
      for (let i = 0; i < rays.count; i++) {
        if (actual.triangle[i]! >= 0 !== expected.triangle[i]! >= 0) throw new Error(`${describeStrategy(strategy)}: ray ${i} any-hit disagrees`);
        if (actual.triangle[i]! < 0) continue;
        const o = 3 * i;
        kernel.prepareRay(
          rays.origins[o]!,
          rays.origins[o + 1]!,
          rays.origins[o + 2]!,
          rays.directions[o]!,
          rays.directions[o + 1]!,
          rays.directions[o + 2]!,
          rayData,
        );
        const tri = actual.triangle[i]!;
        const t = kernel.intersect(
          rayData,
          mesh.positions,
          mesh.indices[3 * tri]!,
          mesh.indices[3 * tri + 1]!,
          mesh.indices[3 * tri + 2]!,
          rays.tMax[i]!,
          true,
        );
        if (!(t >= 0 && Math.fround(t) === actual.t[i]))
          throw new Error(`${describeStrategy(strategy)}: ray ${i} any-hit t ${actual.t[i]} is not a hit of ${tri} (${t})`);
      }
    }
  });

  it('invalid rays are flagged (t NaN, triangle −1) and counted by every strategy, valid ones still answered', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = new RayBuilder()
      .add([0, 100, 0], [0.1, -1, 0.2])
      .add([NaN, 100, 0], [0.1, -1, 0.2])
      .add([0, 100, 0], [0, 0, 0])
      .add([0, Infinity, 0], [0, -1, 0])
      .add([0, 100, 0], [0.1, NaN, 0.2])
      .add([0, 100, 0], [0.1, -1, 0.2], 0)
      .add([0, 100, 0], [0.1, -1, 0.2], NaN)
      .add([1, 100, 1], [0, -1, 0])
      .build();
    const expected = emptyHits(rays.count);
    castRaysBruteForce(terrain.positions, terrain.indices, rays, expected);
    for (const strategy of everyStrategy()) {
      const hits = emptyHits(rays.count);
      const counters = castRays(bvh, rays, hits, strategy);
      expect(counters.invalid).toBe(6);
      for (const i of [1, 2, 3, 4, 5, 6]) {
        expect(hits.t[i]).toBeNaN();
        expect(hits.triangle[i]).toBe(-1);
      }
      expect(hits.triangle[0]).toBe(expected.triangle[0]);
      expect(hits.triangle[7]).toBe(expected.triangle[7]);
    }
  });

  it('rejects bad options with InvalidParameterError naming the field', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices, { layouts: ['quantized'] });
    const rays = randomRays(212, 4, meshBounds(terrain.positions));
    const hits = emptyHits(4);
    const bad: [Partial<CastOptions>, string][] = [
      [{ tree: 'octree' as never }, 'tree'],
      [{ tree: 'binary', sorting: 'tmax' }, 'sorting'],
      [{ tree: '4-way', sorting: 'distance' }, 'sorting'],
      [{ batchSize: -1 }, 'batchSize'],
      [{ batchSize: 2.5 }, 'batchSize'],
      [{ batchSize: NaN }, 'batchSize'],
      [{ mode: 'all', allHits: createAllHitsList(4), batchSize: 4 }, 'mode'],
      [{ mode: 'all' }, 'allHits'],
      [{ kernel: 'gpu' as never }, 'kernel'],
      [{ triangles: 'soup' as never }, 'triangles'],
      [{ aloneBelow: -1 }, 'aloneBelow'],
      [{ tree: '4-way', layout: 'float' }, 'layout'],
      [{ triangleTest: 'nope' as never }, 'triangleTest'],
    ];
    for (const [options, field] of bad) {
      expect(() => castRays(bvh, rays, hits, options)).toThrow(InvalidParameterError);
      expect(() => castRays(bvh, rays, hits, options)).toThrow(field);
    }
    // The binary tree has its own layouts: float works even when the 4-way BVH has only quantized nodes.
    expect(() => castRays(bvh, rays, hits, { tree: 'binary', layout: 'float' })).not.toThrow();
  });

  it('counters: precomputed and distance sorting visit fewer binary nodes than no sorting on a terrain (seed 213)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(213, 600, meshBounds(terrain.positions));
    const hits = emptyHits(rays.count);
    const visits = (sorting: CastOptions['sorting']): number => castRays(bvh, rays, hits, { tree: 'binary', sorting }).nodesVisited;
    const none = visits('none');
    expect(visits('precomputed')).toBeLessThan(none);
    expect(visits('distance')).toBeLessThan(none);
    const batched = castRays(bvh, rays, hits, { tree: 'binary', sorting: 'precomputed', batchSize: 64 });
    expect(batched.boxesTested).toBe(batched.nodesVisited);
    expect(batched.trianglesTested).toBeGreaterThan(0);
  });
});
