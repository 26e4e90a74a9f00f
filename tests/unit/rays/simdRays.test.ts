import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { castRays, castRaysBruteForce, type RayBatch } from '../../../src/query/rays/index';
import type { SimdRayKernel } from '../../../src/query/rays/rayKernel';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates, type TestMesh } from '../bvh/meshes';
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

/**
 * The SIMD kernel against its TypeScript twin (castRays, quantized layout): the same triangle and the
 * same float32 t for every ray, bit for bit (the triangle tests are the same float64 operations and the
 * child order the same front-to-back rule). Returns the number of hits.
 */
function expectSameAsTypeScript(bvh: BVH, rays: RayBatch, options: { doubleSided?: boolean; mode?: 'closest' | 'any' } = {}): number {
  const expected = emptyHits(rays.count);
  const expectedCounters = castRays(bvh, rays, expected, { layout: 'quantized', ...options });
  const actual = emptyHits(rays.count);
  const counters = kernel.cast(bvh, rays, actual, options);
  expect(counters.invalid).toBe(expectedCounters.invalid);
  let hits = 0;
  const mismatches: string[] = [];
  for (let i = 0; i < rays.count; i++) {
    if (expected.triangle[i]! >= 0) hits++;
    const sameHit = expected.triangle[i]! >= 0 === actual.triangle[i]! >= 0;
    // Any hit: any triangle within tMax will do, so only hit-or-miss must agree.
    const same = options.mode === 'any' ? sameHit : expected.triangle[i] === actual.triangle[i] && Object.is(expected.t[i], actual.t[i]);
    if (!same && mismatches.length < 5)
      mismatches.push(`ray ${i}: TypeScript ${expected.triangle[i]} at ${expected.t[i]}, SIMD ${actual.triangle[i]} at ${actual.t[i]}`);
  }
  expect(mismatches).toEqual([]);
  return hits;
}

/** Every `stride`-th ray of a batch (brute force is slow; the TypeScript comparison takes them all). */
function sample(rays: RayBatch, stride: number): RayBatch {
  const count = Math.ceil(rays.count / stride);
  const out: RayBatch = { count, origins: new Float32Array(3 * count), directions: new Float32Array(3 * count), tMax: new Float32Array(count) };
  for (let i = 0; i < count; i++) {
    out.origins.set(rays.origins.subarray(3 * i * stride, 3 * i * stride + 3), 3 * i);
    out.directions.set(rays.directions.subarray(3 * i * stride, 3 * i * stride + 3), 3 * i);
    out.tMax[i] = rays.tMax[i * stride]!;
  }
  return out;
}

/** Against brute force: hit or miss and the float32 t agree for every ray. */
function expectSameAsBruteForce(mesh: { positions: Float32Array; indices: Uint32Array }, bvh: BVH, rays: RayBatch, doubleSided: boolean): void {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { doubleSided });
  const actual = emptyHits(rays.count);
  kernel.cast(bvh, rays, actual, { doubleSided });
  let mismatches = 0;
  for (let i = 0; i < rays.count; i++) {
    if (expected.triangle[i]! >= 0 !== actual.triangle[i]! >= 0 || !Object.is(expected.t[i], actual.t[i])) mismatches++;
  }
  expect(mismatches).toBe(0);
}

describe('WebAssembly SIMD rays against the TypeScript walk and brute force', () => {
  it('random rays and segments on a terrain, both sidednesses (seed 201)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices, { layouts: ['quantized'] });
    const bounds = meshBounds(terrain.positions);
    for (const doubleSided of [false, true]) {
      const rays = randomRays(201, 3000, bounds);
      expect(expectSameAsTypeScript(bvh, rays, { doubleSided })).toBeGreaterThan(300);
      expectSameAsBruteForce(terrain, bvh, sample(rays, 10), doubleSided);
      expectSameAsTypeScript(bvh, randomRays(202, 2000, bounds, 8), { doubleSided });
    }
    expectSameAsTypeScript(bvh, cameraRays(40, bounds));
  });

  it('random rays on adversarial meshes and builds (seed 203)', () => {
    const meshes: TestMesh[] = [triangleSoup(7, 600), crossedSlivers(8, 300), stackedDuplicates(30), flatGrid(10), withDegenerates(12)];
    for (const options of [{}, { spatialOverlapThreshold: 0 }, { maxLeafSize: 1 }, { shareHalfFullLeaves: false, wastedSlotPenalty: 0 }]) {
      for (const mesh of meshes) {
        const bvh = buildBVH(mesh.positions, mesh.indices, options);
        const rays = randomRays(203, 500, meshBounds(mesh.positions));
        expectSameAsTypeScript(bvh, rays, { doubleSided: true });
        expectSameAsBruteForce(mesh, bvh, sample(rays, 4), true);
      }
    }
  });

  it('axis-parallel rays through the vertices, edges and faces of a flat integer grid, ±0 directions', () => {
    const mesh = flatGrid(8);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const rays = new RayBuilder();
    for (let i = 0; i <= 16; i++) {
      for (let j = 0; j <= 16; j++) {
        const x = i / 2,
          z = j / 2;
        rays.add([x, 5, z], [0, -1, 0]); // straight down through vertices, edge midpoints, cell centres
        rays.add([x, 5, z], [-0, -1, -0]); // the same with negative zeros: the slab planes follow 1/d
        rays.add([x, 5, z], [0, -1e-30, 0]); // tiny direction
        rays.add([x, 0, -3], [0, 0, 1]); // lying in the grid plane, along z
        rays.add([-3, 0, z], [1, -0, 0]); // lying in the grid plane, along x
        rays.add([x, -2, z], [0, 1, 0]); // from below: back faces
      }
    }
    const batch = rays.build();
    for (const doubleSided of [false, true]) {
      const hits = expectSameAsTypeScript(bvh, batch, { doubleSided });
      expect(hits).toBe(doubleSided ? 4 * 289 : 3 * 289); // crack-free: every vertical ray hits
      expectSameAsBruteForce(mesh, bvh, batch, doubleSided);
    }
  });

  it('rays at the corners and edges of node boxes, axis-parallel along box edges, grazing rays (seed 204)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const random = new Random(204);
    const rays = nodeBoxRays(bvh, terrain.positions, random, { axes: 3, fromTarget: false, skimming: 400 });
    const batch = rays.build();
    expect(batch.count).toBeGreaterThan(500);
    for (const doubleSided of [false, true]) {
      expectSameAsTypeScript(bvh, batch, { doubleSided });
      expectSameAsBruteForce(terrain, bvh, sample(batch, 8), doubleSided);
    }
  });

  it('a reordered mesh (no triangle order) and any-hit rays (seed 205)', () => {
    const mesh = { positions: terrain.positions, indices: terrain.indices.slice() };
    const bvh = buildBVH(mesh.positions, mesh.indices, { reorderTriangles: true, spatialSplits: false });
    expect(bvh.triangleOrder).toBeNull();
    const rays = randomRays(205, 1500, meshBounds(mesh.positions));
    expectSameAsTypeScript(bvh, rays);
    expectSameAsTypeScript(bvh, randomRays(206, 1500, meshBounds(mesh.positions), 30), { mode: 'any', doubleSided: true });
  });

  it('invalid rays (NaN, ∞, zero-length, tMax ≤ 0 or NaN) are flagged exactly as castRays flags them', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = invalidRayBatch();
    const hits = emptyHits(rays.count);
    expect(kernel.cast(bvh, rays, hits).invalid).toBe(9);
    for (let i = 1; i <= 9; i++) {
      expect(hits.triangle[i]).toBe(-1);
      expect(hits.t[i]).toBeNaN();
    }
    expect(hits.triangle[0]).toBeGreaterThanOrEqual(0);
    expect(hits.triangle[10]).toBe(hits.triangle[0]);
    expectSameAsTypeScript(bvh, rays);
  });

  it('switches between BVHs, grows its memory for big batches, and misses everything on an empty BVH', () => {
    const small = buildBVH(terrain.positions, terrain.indices);
    const other = generateTerrain({ cells: 24, seed: 3 });
    const second = buildBVH(other.positions, other.indices);
    const big = randomRays(207, 20_000, meshBounds(terrain.positions));
    for (let round = 0; round < 2; round++) {
      expectSameAsTypeScript(small, randomRays(208, 300, meshBounds(terrain.positions)));
      expectSameAsTypeScript(second, randomRays(209, 300, meshBounds(other.positions)));
    }
    const before = kernel.memoryBytes;
    expectSameAsTypeScript(small, big);
    expect(kernel.memoryBytes).toBeGreaterThanOrEqual(before);
    const empty = buildBVH(new Float32Array(0), new Uint32Array(0));
    const hits = emptyHits(10);
    const counters = kernel.cast(empty, randomRays(1, 10, { min: [0, 0, 0], max: [1, 1, 1] }), hits);
    expect(Array.from(hits.triangle)).toEqual(new Array(10).fill(-1));
    expect(counters.nodesVisited).toBe(0);
  });

  it('casting a big batch in the order of where its rays cross the scene changes nothing but speed (seed 210)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(210, 5000, meshBounds(terrain.positions));
    const sorted = emptyHits(rays.count);
    const plain = emptyHits(rays.count);
    const a = kernel.cast(bvh, rays, sorted, { reorder: true });
    const b = kernel.cast(bvh, rays, plain, { reorder: false });
    expect(Array.from(sorted.triangle)).toEqual(Array.from(plain.triangle));
    expect(Array.from(sorted.t)).toEqual(Array.from(plain.t));
    expect(a).toEqual(b);
  });

  it("castRays with kernel 'wasm-simd' runs the loaded kernel, falls back with a reason, and checks its input", () => {
    const simd = { kernel: 'wasm-simd' } as const;
    const bvh = buildBVH(terrain.positions, terrain.indices, { layouts: ['float'] });
    const rays = randomRays(2, 4, meshBounds(terrain.positions));
    expect(() => castRays(bvh, rays, emptyHits(4), simd)).toThrow(InvalidParameterError);
    const quantized = buildBVH(terrain.positions, terrain.indices);
    expect(() => castRays(quantized, rays, emptyHits(4), { ...simd, mode: 'every' as 'any' })).toThrow(/mode/);
    expect(() => castRays(quantized, rays, emptyHits(4), { ...simd, kernel: 'gpu' as 'typescript' })).toThrow(/kernel/);
    expect(() => castRays(quantized, rays, emptyHits(3), simd)).toThrow(/hits.t/);
    expect(() => castRays(quantized, { ...rays, count: 5 }, emptyHits(5), simd)).toThrow(/rays.origins/);
    const hits = emptyHits(4);
    const report = castRays(quantized, rays, hits, simd);
    expect(report.kernel).toBe('wasm-simd');
    expect(report.fallbackReason).toBeUndefined();
    const expected = emptyHits(4);
    const reference = castRays(quantized, rays, expected);
    expect(reference.kernel).toBe('typescript');
    expect(Array.from(hits.triangle)).toEqual(Array.from(expected.triangle));
    // Options the kernel lacks: TypeScript runs, the report says why, the hits are the same.
    for (const [options, reason] of [
      [{ tree: 'binary' }, /4-way quantized/],
      [{ triangleTest: 'moller-trumbore' }, /watertight/],
    ] as const) {
      const fallback = emptyHits(4);
      const answer = castRays(quantized, rays, fallback, { ...simd, ...options });
      expect(answer.kernel).toBe('typescript');
      expect(answer.fallbackReason).toMatch(reason);
      expect(Array.from(fallback.triangle)).toEqual(Array.from(expected.triangle));
    }
    // A filter that rejects everything: no hits, whichever kernel ran (TypeScript until the kernel filters).
    const none = emptyHits(4);
    const filtered = castRays(quantized, rays, none, { ...simd, filter: 0 });
    expect(filtered.hits).toBe(0);
    expect(Array.from(none.triangle)).toEqual([-1, -1, -1, -1]);
  });

  it("without WebAssembly SIMD the loader resolves to null with a reason, and kernel 'wasm-simd' answers through TypeScript", async () => {
    vi.resetModules();
    vi.doMock('../../../src/platform/simdSupport', () => ({ isWasmSimdSupported: () => false }));
    try {
      const fresh = await import('../../../src/query/rays/simdRays');
      expect(fresh.simdRayKernel()).toBeNull();
      expect(await fresh.loadSimdRays()).toBeNull();
      expect(fresh.simdRaysUnavailableReason()).toMatch(/no WebAssembly SIMD/);
      const bvh = buildBVH(terrain.positions, terrain.indices);
      const rays = randomRays(211, 300, meshBounds(terrain.positions));
      const actual = emptyHits(rays.count);
      const expected = emptyHits(rays.count);
      const casts = await import('../../../src/query/rays/castRays');
      const report = casts.castRays(bvh, rays, actual, { kernel: 'wasm-simd' });
      expect(report.kernel).toBe('typescript');
      expect(report.fallbackReason).toMatch(/no WebAssembly SIMD/);
      castRays(bvh, rays, expected);
      expect(Array.from(actual.triangle)).toEqual(Array.from(expected.triangle));
      expect(Array.from(actual.t)).toEqual(Array.from(expected.t));
    } finally {
      vi.doUnmock('../../../src/platform/simdSupport');
      vi.resetModules();
    }
  });
});
