import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { castRays, castRaysBruteForce, type RayBatch } from '../../../src/query/rays/index';
import type { SimdRayKernel } from '../../../src/query/rays/rayKernel';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { flatGrid, triangleSoup, type TestMesh } from '../bvh/meshes';
import { RayBuilder, cameraRays, emptyHits, invalidRayBatch, meshBounds, nodeBoxRays, randomRays } from './raySets';

let terrain: TerrainMesh;
let kernel: SimdRayKernel;
beforeAll(async () => {
  terrain = generateTerrain({ cells: 40, seed: 17 });
  const loaded = await loadSimdRays();
  // Node 20+ has WebAssembly SIMD; a null here means the module was not built (npm run build:wasm).
  expect(loaded).not.toBeNull();
  kernel = loaded!;
});

/** Batch sizes: one ray, sizes that do not divide the test batches, the GUI's sizes, and all at once. */
const BATCHES = [1, 3, 4, 16, 64, 100, 256, Infinity];
/** 0: never alone (every list batched to the leaves); 2: the default; 9: short lists go alone early. */
const ALONE = [0, 2, 9];

interface Options {
  doubleSided?: boolean;
  mode?: 'closest' | 'any';
}

type Mesh = Pick<TestMesh, 'positions' | 'indices'>;

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
 * The batched walk against the single-ray SIMD walk (itself bit for bit castRays), for every batch
 * size and alone threshold: the same invalid count, and per ray the same float32 t; the same triangle,
 * except at an exact tie, where the batched walk's triangle must itself be hit at exactly that t.
 * Any hit: the same hit-or-miss, and a hit names a triangle the ray really hits within its tMax.
 * Returns the number of ties met (rays naming another triangle at the same t).
 */
function expectSameAsSingleRay(mesh: Mesh, bvh: BVH, rays: RayBatch, options: Options = {}): number {
  const doubleSided = options.doubleSided ?? false;
  const expected = emptyHits(rays.count);
  const expectedCounters = kernel.cast(bvh, rays, expected, options);
  let ties = 0;
  const checked = new Map<string, number>();
  const hitAt = (i: number, triangle: number): number => {
    const key = `${i} ${triangle}`;
    let t = checked.get(key);
    if (t === undefined) checked.set(key, (t = hitOnTriangle(mesh, rays, i, triangle, doubleSided)));
    return t;
  };
  for (const batch of BATCHES) {
    for (const aloneBelow of ALONE) {
      const actual = emptyHits(rays.count);
      const counters = kernel.cast(bvh, rays, actual, { ...options, batch, aloneBelow });
      expect(counters.invalid).toBe(expectedCounters.invalid);
      const mismatches: string[] = [];
      for (let i = 0; i < rays.count; i++) {
        const a = actual.triangle[i]!,
          e = expected.triangle[i]!;
        let same: boolean;
        if (options.mode === 'any') {
          same = a >= 0 === e >= 0 && (a < 0 ? Object.is(actual.t[i], expected.t[i]) : hitAt(i, a) <= rays.tMax[i]!);
        } else if (a === e) same = Object.is(actual.t[i], expected.t[i]);
        else {
          same = a >= 0 && e >= 0 && Object.is(actual.t[i], expected.t[i]) && Object.is(hitAt(i, a), actual.t[i]);
          if (same) ties++;
        }
        if (!same && mismatches.length < 5)
          mismatches.push(`batch ${batch}, alone below ${aloneBelow}, ray ${i}: single ${e} at ${expected.t[i]}, batched ${a} at ${actual.t[i]}`);
      }
      expect(mismatches).toEqual([]);
    }
  }
  return ties;
}

/** Against brute force (closest hit): hit or miss and the float32 t agree for every ray. */
function expectSameAsBruteForce(mesh: Mesh, bvh: BVH, rays: RayBatch, doubleSided: boolean, batch: number): void {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { doubleSided });
  const actual = emptyHits(rays.count);
  kernel.cast(bvh, rays, actual, { doubleSided, batch });
  let mismatches = 0;
  for (let i = 0; i < rays.count; i++) {
    if (expected.triangle[i]! >= 0 !== actual.triangle[i]! >= 0 || !Object.is(expected.t[i], actual.t[i])) mismatches++;
  }
  expect(mismatches).toBe(0);
}

/** Rays whose origins lie on the terrain's vertices and edge midpoints, in random directions. */
function raysFromTheSurface(mesh: TerrainMesh, seed: number, count: number): RayBatch {
  const random = new Random(seed);
  const rays = new RayBuilder();
  const p = mesh.positions;
  for (let i = 0; i < count; i++) {
    const triangle = Math.floor(random.next() * mesh.triangleCount);
    const a = 3 * mesh.indices[3 * triangle]!,
      b = 3 * mesh.indices[3 * triangle + 1]!;
    const origin =
      random.next() < 0.5 ? [p[a]!, p[a + 1]!, p[a + 2]!] : [(p[a]! + p[b]!) / 2, (p[a + 1]! + p[b + 1]!) / 2, (p[a + 2]! + p[b + 2]!) / 2];
    const y = random.range(-1, 1);
    const angle = random.range(0, 2 * Math.PI);
    rays.add(origin, [Math.sqrt(1 - y * y) * Math.cos(angle), y, Math.sqrt(1 - y * y) * Math.sin(angle)], random.next() < 0.5 ? Infinity : 5);
  }
  return rays.build();
}

/** Axis-parallel rays straight down through the terrain's vertices and edge midpoints, and along its grid lines. */
function raysThroughTheGrid(mesh: TerrainMesh): RayBatch {
  const rays = new RayBuilder();
  const p = mesh.positions;
  const side = mesh.params.cells + 1;
  const top = mesh.maxHeight + 5;
  const half = mesh.params.worldSize / 2;
  for (let j = 0; j < side; j += 3) {
    for (let i = 0; i < side; i += 3) {
      const v = 3 * (j * side + i);
      rays.add([p[v]!, top, p[v + 2]!], [0, -1, 0]);
      rays.add([p[v]!, top, p[v + 2]!], [-0, -1, -0]);
      if (i + 1 < side) rays.add([(p[v]! + p[v + 3]!) / 2, top, p[v + 2]!], [0, -1, 0]);
      // Lying in the vertical plane of a grid line, slanting down across the terrain.
      rays.add([p[v]!, top, -half - 1], [0, -0.2, 1]);
      rays.add([-half - 1, top, p[v + 2]!], [1, -0.2, -0]);
    }
  }
  return rays.build();
}

describe('WebAssembly SIMD batched walk against the single-ray walk and brute force', () => {
  it('random incoherent rays, segments and a camera grid on a terrain, both sidednesses, both modes, every batch size (seed 301)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const bounds = meshBounds(terrain.positions);
    const rays = randomRays(301, 800, bounds);
    const segments = randomRays(302, 600, bounds, 8);
    const camera = cameraRays(30, bounds);
    for (const doubleSided of [false, true]) {
      for (const mode of ['closest', 'any'] as const) {
        expectSameAsSingleRay(terrain, bvh, rays, { doubleSided, mode });
        expectSameAsSingleRay(terrain, bvh, segments, { doubleSided, mode });
        expectSameAsSingleRay(terrain, bvh, camera, { doubleSided, mode });
      }
      expectSameAsBruteForce(terrain, bvh, rays, doubleSided, 64);
      expectSameAsBruteForce(terrain, bvh, camera, doubleSided, Infinity);
    }
    // And castRays itself, bit for bit apart from ties, through the default batch.
    const expected = emptyHits(rays.count);
    castRays(bvh, rays, expected, { layout: 'quantized' });
    const actual = emptyHits(rays.count);
    expect(castRays(bvh, rays, actual, { kernel: 'wasm-simd', batchSize: 64 }).kernel).toBe('wasm-simd');
    let sameT = 0;
    for (let i = 0; i < rays.count; i++) if (Object.is(actual.t[i], expected.t[i])) sameT++;
    expect(sameT).toBe(rays.count);
  });

  it('adversarial rays: through the terrain grid\u2019s vertices and edges, in its grid planes, from its surface (seed 303)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const grid = raysThroughTheGrid(terrain);
    const surface = raysFromTheSurface(terrain, 303, 800);
    for (const doubleSided of [false, true]) {
      for (const mode of ['closest', 'any'] as const) {
        expectSameAsSingleRay(terrain, bvh, grid, { doubleSided, mode });
        expectSameAsSingleRay(terrain, bvh, surface, { doubleSided, mode });
      }
      expectSameAsBruteForce(terrain, bvh, grid, doubleSided, 16);
      expectSameAsBruteForce(terrain, bvh, surface, doubleSided, 16);
    }
  });

  it('rays at the corners, along the edges and in the faces of node boxes, and grazing rays (seed 309)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const random = new Random(309);
    const rays = nodeBoxRays(bvh, terrain.positions, random, { axes: 3, fromTarget: true, skimming: 300 });
    const batch = rays.build();
    for (const doubleSided of [false, true]) {
      expectSameAsSingleRay(terrain, bvh, batch, { doubleSided });
      expectSameAsBruteForce(terrain, bvh, batch, doubleSided, 64);
    }
  });

  it('axis-parallel rays on a flat integer grid: crack-free at every batch size, ties decided by a real hit', () => {
    const mesh = flatGrid(8);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const rays = new RayBuilder();
    for (let i = 0; i <= 16; i++) {
      for (let j = 0; j <= 16; j++) {
        const x = i / 2,
          z = j / 2;
        rays.add([x, 5, z], [0, -1, 0]);
        rays.add([x, 5, z], [-0, -1, -0]);
        rays.add([x, 0, -3], [0, 0, 1]); // in the grid's plane
        rays.add([-3, 0, z], [1, -0, 0]);
        rays.add([x, -2, z], [0, 1, 0]); // from below: back faces
      }
    }
    const batch = rays.build();
    let ties = 0;
    for (const doubleSided of [false, true]) {
      ties += expectSameAsSingleRay(mesh, bvh, batch, { doubleSided });
      for (const size of [1, 7, Infinity]) {
        const hits = emptyHits(batch.count);
        kernel.cast(bvh, batch, hits, { doubleSided, batch: size });
        let hitCount = 0;
        for (let i = 0; i < batch.count; i++) if (hits.triangle[i]! >= 0) hitCount++;
        expect(hitCount).toBe(doubleSided ? 3 * 289 : 2 * 289); // every vertical ray hits
        expectSameAsBruteForce(mesh, bvh, batch, doubleSided, size);
      }
    }
    // Rays straight through shared vertices and edges tie, and there the walks' orders do differ.
    expect(ties).toBeGreaterThan(0);
  });

  it('a triangle soup and a one-reference-per-leaf build (seed 304)', () => {
    const soup = triangleSoup(9, 500);
    for (const options of [{}, { maxLeafSize: 1 }]) {
      const bvh = buildBVH(soup.positions, soup.indices, options);
      const rays = randomRays(304, 600, meshBounds(soup.positions));
      expectSameAsSingleRay(soup, bvh, rays, { doubleSided: true });
      expectSameAsBruteForce(soup, bvh, rays, true, 32);
    }
  });

  it('invalid rays (NaN, ∞, zero direction, tMax ≤ 0 or NaN) are flagged exactly as the single-ray walk flags them, at every batch size', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = invalidRayBatch();
    for (const batch of BATCHES) {
      const hits = emptyHits(rays.count);
      expect(kernel.cast(bvh, rays, hits, { batch }).invalid).toBe(9);
      for (let i = 1; i <= 9; i++) {
        expect(hits.triangle[i]).toBe(-1);
        expect(hits.t[i]).toBeNaN();
      }
      expect(hits.triangle[0]).toBeGreaterThanOrEqual(0);
      expect(hits.triangle[10]).toBe(hits.triangle[0]);
    }
    expectSameAsSingleRay(terrain, bvh, rays);
  });

  it('grows its memory for a bigger BVH and batch after a smaller one; an empty BVH misses everything', () => {
    const small = generateTerrain({ cells: 16, seed: 5 });
    const smallBVH = buildBVH(small.positions, small.indices);
    expectSameAsSingleRay(small, smallBVH, randomRays(305, 300, meshBounds(small.positions)));
    const before = kernel.memoryBytes;
    const large = generateTerrain({ cells: 96, seed: 6 });
    const largeBVH = buildBVH(large.positions, large.indices);
    expect(largeBVH.maxDepth).toBeGreaterThan(smallBVH.maxDepth);
    const many = randomRays(306, 30_000, meshBounds(large.positions));
    const expected = emptyHits(many.count);
    kernel.cast(largeBVH, many, expected);
    for (const batch of [256, Infinity]) {
      const actual = emptyHits(many.count);
      kernel.cast(largeBVH, many, actual, { batch });
      let sameT = 0;
      for (let i = 0; i < many.count; i++) if (Object.is(actual.t[i], expected.t[i])) sameT++;
      expect(sameT).toBe(many.count);
    }
    expect(kernel.memoryBytes).toBeGreaterThan(before);
    // Back to the small one: the work areas are laid out again for its depth.
    expectSameAsSingleRay(small, smallBVH, randomRays(307, 300, meshBounds(small.positions)));
    const empty = buildBVH(new Float32Array(0), new Uint32Array(0));
    const hits = emptyHits(10);
    const counters = kernel.cast(empty, randomRays(1, 10, { min: [0, 0, 0], max: [1, 1, 1] }), hits, { batch: 4 });
    expect(Array.from(hits.triangle)).toEqual(new Array(10).fill(-1));
    expect(Array.from(hits.t)).toEqual(new Array(10).fill(Infinity));
    expect(counters.nodesVisited).toBe(0);
  });

  it('counts its work like the single-ray walk, and refuses bad batch options with InvalidParameterError', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(308, 500, meshBounds(terrain.positions));
    const single = kernel.cast(bvh, rays, emptyHits(rays.count));
    const batched = kernel.cast(bvh, rays, emptyHits(rays.count), { batch: 1, aloneBelow: 2 });
    // A batch of one ray is a list too short to share: it walks alone, exactly as the single-ray walk.
    expect(batched).toEqual(single);
    expect(kernel.cast(bvh, rays, emptyHits(rays.count), { batch: 64 }).nodesVisited).toBeGreaterThan(0);
    for (const batch of [-1, 1.5, NaN, '4' as unknown as number])
      expect(() => kernel.cast(bvh, rays, emptyHits(rays.count), { batch })).toThrow(InvalidParameterError);
    expect(() => kernel.cast(bvh, rays, emptyHits(rays.count), { batch: 4, aloneBelow: -1 })).toThrow(/aloneBelow/);
  });
});
