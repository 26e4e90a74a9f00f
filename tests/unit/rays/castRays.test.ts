import { TorusGeometry } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { getRayTriangleKernel, RAY_TRIANGLE_KERNEL_NAMES, createRayData, type RayTriangleKernelName } from '../../../src/query/rayTriangle/index';
import {
  castRays,
  castRaysBruteForce,
  createAllHitsList,
  resolveCastOptions,
  traceRay,
  type CastOptions,
  type RayBatch,
  type RayHits,
} from '../../../src/query/rays/index';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates, type TestMesh } from '../bvh/meshes';
import { RayBuilder, cameraRays, emptyHits, invalidRayBatch, meshBounds, nodeBoxRays, randomRays } from './raySets';

let terrain: TerrainMesh;
beforeAll(() => {
  terrain = generateTerrain({ cells: 40, seed: 17 });
});

/**
 * Brute force is most of this file's run time and does not depend on the BVH or its layout, so each
 * (mesh, rays, triangle test, sidedness) is computed once and shared by the tests that ask again.
 */
const bruteForceMemo = new WeakMap<RayBatch, Map<string, { indices: Uint32Array; hits: RayHits }>>();
function bruteForceHits(
  mesh: { positions: Float32Array; indices: Uint32Array },
  rays: RayBatch,
  options: { triangleTest?: RayTriangleKernelName; doubleSided?: boolean },
): RayHits {
  let byOptions = bruteForceMemo.get(rays);
  if (byOptions === undefined) {
    byOptions = new Map();
    bruteForceMemo.set(rays, byOptions);
  }
  const key = `${options.triangleTest ?? 'default'}/${options.doubleSided ?? false}`;
  const known = byOptions.get(key);
  if (known !== undefined && known.indices === mesh.indices) return known.hits;
  const hits = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, hits, options);
  byOptions.set(key, { indices: mesh.indices, hits });
  return hits;
}

/** Same triangle, or both miss, or t within 1e-5 relative (two triangles meeting at the hit point). */
function expectSameAsBruteForce(
  mesh: { positions: Float32Array; indices: Uint32Array },
  bvh: BVH,
  rays: RayBatch,
  options: { layout?: 'quantized' | 'float'; triangleTest?: RayTriangleKernelName; doubleSided?: boolean } = {},
): number {
  const expected = bruteForceHits(mesh, rays, options);
  const actual = emptyHits(rays.count);
  castRays(bvh, rays, actual, options);
  let mismatches = 0;
  let hits = 0;
  for (let i = 0; i < rays.count; i++) {
    const et = expected.t[i]!;
    const at = actual.t[i]!;
    if (expected.triangle[i]! >= 0) hits++;
    const same = expected.triangle[i] === actual.triangle[i] && (Object.is(et, at) || Math.abs(et - at) <= 1e-5 * Math.abs(et));
    const closeEnough = expected.triangle[i]! >= 0 && actual.triangle[i]! >= 0 && Math.abs(et - at) <= 1e-5 * Math.max(Math.abs(et), 1e-30);
    if (!same && !closeEnough) mismatches++;
  }
  expect(mismatches).toBe(0);
  return hits;
}

describe('castRays against brute force', () => {
  let terrainRays: RayBatch | null = null;
  for (const layout of ['quantized', 'float'] as const) {
    for (const triangleTest of RAY_TRIANGLE_KERNEL_NAMES) {
      it(`random rays on a terrain, ${layout}, ${triangleTest}, both sidednesses (seed 101)`, () => {
        const bvh = buildBVH(terrain.positions, terrain.indices);
        const rays = (terrainRays ??= randomRays(101, 1500, meshBounds(terrain.positions)));
        for (const doubleSided of [false, true]) {
          const hits = expectSameAsBruteForce(terrain, bvh, rays, { layout, triangleTest, doubleSided });
          expect(hits).toBeGreaterThan(100);
        }
      });
    }
  }

  it('coherent camera rays and short segments on a terrain (seed 102)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const bounds = meshBounds(terrain.positions);
    expectSameAsBruteForce(terrain, bvh, cameraRays(40, bounds));
    expectSameAsBruteForce(terrain, bvh, randomRays(102, 1500, bounds, 8));
  });

  // Made once: every build option below is checked on the same meshes and rays (and brute-force answers).
  let adversarial: { mesh: TestMesh; rays: RayBatch }[] | null = null;
  const meshes = (): { mesh: TestMesh; rays: RayBatch }[] =>
    (adversarial ??= [triangleSoup(7, 600), crossedSlivers(8, 300), stackedDuplicates(30), flatGrid(10), withDegenerates(12)].map((mesh) => ({
      mesh,
      rays: randomRays(103, 700, meshBounds(mesh.positions)),
    })));
  for (const options of [
    {},
    { spatialOverlapThreshold: 0 },
    { shareHalfFullLeaves: false, wastedSlotPenalty: 0 },
    { maxLeafSize: 1 },
    { sweptRadius: 3 },
    { exactSweepLimit: 4, bins: 4 },
  ]) {
    it(`random rays on adversarial meshes, build ${JSON.stringify(options)} (seed 103)`, () => {
      for (const { mesh, rays } of meshes()) {
        const bvh = buildBVH(mesh.positions, mesh.indices, options);
        for (const layout of ['quantized', 'float'] as const) expectSameAsBruteForce(mesh, bvh, rays, { layout, doubleSided: true });
      }
    });
  }

  it('axis-parallel rays through vertices, edges and faces of a flat integer grid (all quantized box faces lie on the rays)', () => {
    const mesh = flatGrid(8);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const rays = new RayBuilder();
    for (let i = 0; i <= 16; i++) {
      for (let j = 0; j <= 16; j++) {
        const x = i / 2,
          z = j / 2;
        rays.add([x, 5, z], [0, -1, 0]); // straight down through vertices, edge midpoints, cell centres
        rays.add([x, 5, z], [0, -1e-30, 0]); // tiny direction
        rays.add([x, 0, -3], [0, 0, 1]); // lying in the grid plane, along z
        rays.add([-3, 0, z], [1, 0, 0]); // lying in the grid plane, along x
        rays.add([x, -2, z], [0, 1, 0]); // from below: back faces
      }
    }
    const batch = rays.build();
    for (const layout of ['quantized', 'float'] as const) {
      for (const doubleSided of [false, true]) {
        const hits = expectSameAsBruteForce(mesh, bvh, batch, { layout, doubleSided });
        // Rays lying in the triangles' plane hit nothing (every kernel refuses a ray parallel to the plane).
        expect(hits).toBe(doubleSided ? 3 * 289 : 2 * 289);
      }
    }
  });

  it('rays aimed at the corners and edges of node boxes, and grazing rays (seed 104)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const random = new Random(104);
    const rays = nodeBoxRays(bvh, terrain.positions, random, { axes: 1, fromTarget: false, skimming: 400 });
    const batch = rays.build();
    expect(batch.count).toBeGreaterThan(500);
    for (const layout of ['quantized', 'float'] as const) expectSameAsBruteForce(terrain, bvh, batch, { layout, doubleSided: true });
  });

  it('a reordered mesh gives the brute-force answer on the reordered indices (seed 105)', () => {
    const mesh = { positions: terrain.positions, indices: terrain.indices.slice() };
    const bvh = buildBVH(mesh.positions, mesh.indices, { reorderTriangles: true, spatialSplits: false });
    expect(bvh.triangleOrder).toBeNull();
    expectSameAsBruteForce(mesh, bvh, randomRays(105, 1500, meshBounds(mesh.positions)));
  });
});

describe('any-hit and all-hits', () => {
  it('any: hits exactly when brute force does, with a real hit within tMax (seed 106)', () => {
    const mesh = triangleSoup(106, 500);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const rays = randomRays(106, 1500, meshBounds(mesh.positions), 40);
    const expected = emptyHits(rays.count);
    castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { doubleSided: true });
    const actual = emptyHits(rays.count);
    const anyCounters = castRays(bvh, rays, actual, { mode: 'any', doubleSided: true });
    const closestCounters = castRays(bvh, rays, emptyHits(rays.count), { doubleSided: true });
    expect(anyCounters.trianglesTested).toBeLessThanOrEqual(closestCounters.trianglesTested);
    const kernel = getRayTriangleKernel('watertight');
    const rayData = createRayData();
    for (let i = 0; i < rays.count; i++) {
      expect(actual.triangle[i]! >= 0).toBe(expected.triangle[i]! >= 0);
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
      expect(t).toBeGreaterThanOrEqual(0);
      expect(Math.fround(t)).toBe(actual.t[i]);
    }
  });

  for (const options of [{}, { spatialOverlapThreshold: 0 }]) {
    it(`all: the same set of triangles as brute force, no duplicates, closest in hits, build ${JSON.stringify(options)} (seed 107)`, () => {
      const mesh = crossedSlivers(107, 300);
      const bvh = buildBVH(mesh.positions, mesh.indices, options);
      const rays = randomRays(107, 800, meshBounds(mesh.positions));
      const list = createAllHitsList(200_000);
      const hits = emptyHits(rays.count);
      castRays(bvh, rays, hits, { mode: 'all', allHits: list, doubleSided: true });
      expect(list.dropped).toBe(0);
      const found = new Map<number, Set<number>>();
      for (let i = 0; i < list.count; i++) {
        const set = found.get(list.ray[i]!) ?? new Set<number>();
        expect(set.has(list.triangle[i]!)).toBe(false);
        set.add(list.triangle[i]!);
        found.set(list.ray[i]!, set);
      }
      const kernel = getRayTriangleKernel('watertight');
      const rayData = createRayData();
      const closest = emptyHits(rays.count);
      castRaysBruteForce(mesh.positions, mesh.indices, rays, closest, { doubleSided: true });
      for (let i = 0; i < rays.count; i++) {
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
        const expected = new Set<number>();
        for (let tri = 0; tri < mesh.indices.length / 3; tri++) {
          if (
            kernel.intersect(
              rayData,
              mesh.positions,
              mesh.indices[3 * tri]!,
              mesh.indices[3 * tri + 1]!,
              mesh.indices[3 * tri + 2]!,
              rays.tMax[i]!,
              true,
            ) >= 0
          )
            expected.add(tri);
        }
        expect([...(found.get(i) ?? [])].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
        expect(hits.t[i]).toBe(closest.t[i]);
      }
    });
  }

  it('all: a triangle met through a leaf node shared by two parents is listed once (seed 5)', () => {
    // three's TorusGeometry(1, 1, 40, 10) without spatial splits: any duplicate can only come from a
    // shared node. These rays met four triangles twice before the walk de-duplicated for shared nodes.
    const torus = new TorusGeometry(1, 1, 40, 10);
    const bvh = buildBVH(new Float32Array(torus.getAttribute('position').array), new Uint32Array(torus.getIndex()!.array), { spatialSplits: false });
    expect(bvh.hasDuplicateReferences).toBe(false);
    expect(bvh.stats.sharedNodes).toBeGreaterThan(0);
    const random = new Random(5);
    const rays = new RayBuilder();
    for (let i = 0; i < 5000; i++) {
      const origin = [random.range(-4, 4), random.range(-4, 4), random.range(-4, 4)];
      rays.add(origin, [random.range(-1, 1) - 0.2 * origin[0]!, random.range(-1, 1) - 0.2 * origin[1]!, random.range(-1, 1) - 0.2 * origin[2]!]);
    }
    const batch = rays.build();
    const list = createAllHitsList(100_000);
    castRays(bvh, batch, emptyHits(batch.count), { mode: 'all', allHits: list, doubleSided: true });
    expect(list.count).toBeGreaterThan(2000);
    const seen = new Set<number>();
    let duplicates = 0;
    for (let i = 0; i < list.count; i++) {
      const key = list.ray[i]! * bvh.triangleCount + list.triangle[i]!;
      if (seen.has(key)) duplicates++;
      seen.add(key);
    }
    expect(duplicates).toBe(0);
  });

  it('all: hits past capacity are counted as dropped', () => {
    const mesh = stackedDuplicates(10);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const list = createAllHitsList(4);
    const rays = new RayBuilder().add([0.2, 1, 0.2], [0, -1, 0]).build();
    castRays(bvh, rays, emptyHits(1), { mode: 'all', allHits: list, doubleSided: true });
    expect(list.count).toBe(4);
    expect(list.dropped).toBe(6);
  });
});

describe('invalid rays and options', () => {
  it('flags NaN/∞ origins or directions, zero directions and tMax ≤ 0 or NaN as invalid misses, never crashing', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = invalidRayBatch();
    for (const layout of ['quantized', 'float'] as const) {
      const hits = emptyHits(rays.count);
      const counters = castRays(bvh, rays, hits, { layout });
      expect(counters.invalid).toBe(9);
      for (let i = 1; i <= 9; i++) {
        expect(hits.triangle[i]).toBe(-1);
        expect(hits.t[i]).toBeNaN();
      }
      expect(hits.triangle[0]).toBeGreaterThanOrEqual(0);
      expect(hits.triangle[10]).toBe(hits.triangle[0]);
    }
  });

  it('an empty BVH misses every ray', () => {
    const bvh = buildBVH(new Float32Array(0), new Uint32Array(0));
    const rays = randomRays(1, 10, { min: [0, 0, 0], max: [1, 1, 1] });
    const hits = emptyHits(10);
    const counters = castRays(bvh, rays, hits);
    expect(Array.from(hits.triangle)).toEqual(new Array(10).fill(-1));
    expect(counters.nodesVisited).toBe(0);
  });

  it('resolves frozen options once and keeps checking bad ones', () => {
    const frozen = Object.freeze({ kernel: 'wasm-simd', mode: 'closest', doubleSided: true } as const);
    const first = resolveCastOptions(frozen);
    expect(resolveCastOptions(frozen)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toMatchObject({ kernel: 'wasm-simd', mode: 'closest', doubleSided: true, tree: '4-way' });
    const open = { mode: 'any' as const };
    expect(resolveCastOptions(open)).not.toBe(resolveCastOptions(open));
    const bad = Object.freeze({ mode: 'nearest' } as unknown as Partial<CastOptions>);
    expect(() => resolveCastOptions(bad)).toThrow(InvalidParameterError);
    expect(() => resolveCastOptions(bad)).toThrow(InvalidParameterError);
  });

  it('rejects bad options and buffers with InvalidParameterError', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices, { layouts: ['quantized'] });
    const rays = randomRays(2, 4, meshBounds(terrain.positions));
    expect(() => castRays(bvh, rays, emptyHits(4), { layout: 'float' })).toThrow(InvalidParameterError);
    expect(() => castRays(bvh, rays, emptyHits(4), { mode: 'every' as 'all' })).toThrow(/mode/);
    expect(() => castRays(bvh, rays, emptyHits(4), { mode: 'all' })).toThrow(/allHits/);
    expect(() => castRays(bvh, rays, emptyHits(4), { triangleTest: 'fast' as 'watertight' })).toThrow(/triangleTest/);
    expect(() => castRays(bvh, rays, emptyHits(3))).toThrow(/hits.t/);
    expect(() => castRays(bvh, { ...rays, count: 5 }, emptyHits(5))).toThrow(/rays.origins/);
    expect(() => castRays(bvh, { ...rays, count: -1 }, emptyHits(4))).toThrow(/rays.count/);
  });
});

describe('traceRay', () => {
  it('returns the castRays hit and the nodes visited in order, root first (seed 108)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(108, 200, meshBounds(terrain.positions));
    const hits = emptyHits(rays.count);
    castRays(bvh, rays, hits);
    for (let i = 0; i < rays.count; i++) {
      const o = 3 * i;
      const trace = traceRay(bvh, rays.origins.subarray(o, o + 3), rays.directions.subarray(o, o + 3));
      expect(trace.triangle).toBe(hits.triangle[i]);
      expect(Math.fround(trace.t)).toBe(hits.t[i]);
      expect(trace.visited.length).toBe(trace.counters.nodesVisited);
      if (trace.visited.length > 0) expect(trace.visited[0]).toBe(0);
      for (const node of trace.visited) expect(node).toBeLessThan(bvh.stats.nodes);
    }
    const invalid = traceRay(bvh, [0, 0, 0], [0, 0, 0]);
    expect(invalid.valid).toBe(false);
    expect(invalid.triangle).toBe(-1);
  });
});
