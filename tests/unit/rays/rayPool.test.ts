import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { Random } from '../../../src/math/random';
import { SharedMemoryFullError } from '../../../src/platform/sharedMemory';
import { castRaysBruteForce, type RayBatch, type RayHits } from '../../../src/query/rays/index';
import type { SimdRayKernel } from '../../../src/query/rays/rayKernel';
import { RayPool, type RayPoolCast, type RayPoolCastOptions } from '../../../src/query/rays/rayPool';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { whenPoolTakes } from '../platform/poolNow';
import { emptyHits, invalidRayBatch, meshBounds, nodeBoxRays, randomRays } from './raySets';

let terrain: TerrainMesh;
let bvh: BVH;
let kernel: SimdRayKernel;
let pool: RayPool;
beforeAll(async () => {
  terrain = generateTerrain({ cells: 24, seed: 29 });
  bvh = buildBVH(terrain.positions, terrain.indices, { layouts: ['quantized'] });
  const loaded = await loadSimdRays();
  expect(loaded).not.toBeNull();
  kernel = loaded!;
  // A worker descheduled for seconds on a busy machine is not dead: these pools wait for it.
  pool = await RayPool.create({ workers: 1, stragglerWaitMs: 60_000 });
});
afterAll(async () => {
  await pool?.close();
});

/** Batches one after another, as one batch. */
function concat(batches: RayBatch[]): RayBatch {
  const count = batches.reduce((sum, b) => sum + b.count, 0);
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

/** Random rays and segments, rays aimed at node box corners and edges, skimming rays, invalid rays. */
function mixedRays(seed: number): RayBatch {
  const bounds = meshBounds(terrain.positions);
  const adversarial = nodeBoxRays(bvh, terrain.positions, new Random(seed), { axes: 3, fromTarget: true, skimming: 100 }).build();
  return concat([randomRays(seed, 1500, bounds), invalidRayBatch(), adversarial, randomRays(seed + 1, 500, bounds, 6), invalidRayBatch()]);
}

/** Hits differing bit for bit (t by Object.is, so NaN equals NaN and −0 differs from +0), the first few. */
function differences(expected: RayHits, actual: RayHits, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count && out.length < 5; i++)
    if (expected.triangle[i] !== actual.triangle[i] || !Object.is(expected.t[i], actual.t[i]))
      out.push(`ray ${i}: single thread ${expected.triangle[i]} at ${expected.t[i]}, pool ${actual.triangle[i]} at ${actual.t[i]}`);
  return out;
}

async function expectSameAsKernel(rays: RayBatch, options: Partial<RayPoolCastOptions> = {}): Promise<RayPoolCast> {
  const expected = emptyHits(rays.count);
  const expectedCounters = kernel.cast(bvh, rays, expected, { mode: options.mode ?? 'closest', doubleSided: options.doubleSided ?? false });
  const actual = emptyHits(rays.count);
  const result = await pool.cast(bvh, rays, actual, options);
  expect(differences(expected, actual, rays.count)).toEqual([]);
  expect(result.counters).toEqual(expectedCounters);
  expect(result.threads).toBe(pool.workers + 1);
  return result;
}

describe('the ray pool against the single-thread SIMD kernel and brute force', () => {
  it('1, 2 and 3 workers give the single-thread hits bit for bit, and the counters (seed 301)', async () => {
    const rays = mixedRays(301);
    expect(rays.count).toBeGreaterThan(2048);
    for (const workers of [1, 2, 3]) {
      await pool.setWorkers(workers);
      expect(pool.workers).toBe(workers);
      await expectSameAsKernel(rays);
      await expectSameAsKernel(rays, { reorder: false });
      // The workers alone: the calling thread casts nothing, so every hit above came from a worker.
      const result = await expectSameAsKernel(rays, { mainThread: false });
      expect(result.chunksOnCaller).toBe(0);
    }
  });

  it('any hit, double-sided, small batches and an empty one (seed 302)', async () => {
    await pool.setWorkers(2);
    const rays = mixedRays(302);
    await expectSameAsKernel(rays, { mode: 'any' });
    await expectSameAsKernel(rays, { doubleSided: true });
    await expectSameAsKernel(invalidRayBatch());
    await expectSameAsKernel({ ...rays, count: 37 });
    await expectSameAsKernel({ ...rays, count: 0 });
  });

  it('equals brute force: hit or miss and float32 t, invalid rays NaN and −1 (seed 303)', async () => {
    await pool.setWorkers(3);
    const rays = concat([randomRays(303, 300, meshBounds(terrain.positions)), invalidRayBatch()]);
    const expected = emptyHits(rays.count);
    castRaysBruteForce(terrain.positions, terrain.indices, rays, expected, {});
    const actual = emptyHits(rays.count);
    const result = await pool.cast(bvh, rays, actual);
    const mismatches = [];
    for (let i = 0; i < rays.count; i++)
      if (expected.triangle[i]! >= 0 !== actual.triangle[i]! >= 0 || !Object.is(expected.t[i], actual.t[i])) mismatches.push(i);
    expect(mismatches).toEqual([]);
    expect(result.counters.invalid).toBe(9);
  });

  it('another BVH, then the first one again: each copied in when cast against', async () => {
    await pool.setWorkers(1);
    const other = generateTerrain({ cells: 16, seed: 5 });
    const otherBvh = buildBVH(other.positions, other.indices, { layouts: ['quantized'] });
    const rays = randomRays(304, 400, meshBounds(other.positions));
    const expected = emptyHits(rays.count);
    kernel.cast(otherBvh, rays, expected);
    const actual = emptyHits(rays.count);
    await pool.cast(otherBvh, rays, actual);
    expect(differences(expected, actual, rays.count)).toEqual([]);
    await expectSameAsKernel(mixedRays(305));
  });
});

describe('the ray pool under bad conditions', () => {
  it('a worker that exits on its first chunk: the caller finishes the batch, with a notice (seed 311)', async () => {
    await pool.setWorkers(1);
    const rays = mixedRays(311);
    const expected = emptyHits(rays.count);
    kernel.cast(bvh, rays, expected);
    const actual = emptyHits(rays.count);
    // The caller pulls nothing itself, so the worker surely claims a chunk before it dies.
    const result = await pool.cast(bvh, rays, actual, { mainThread: false, fault: { slot: 1, kind: 'exit' } });
    expect(differences(expected, actual, rays.count)).toEqual([]);
    expect(result.notices).toHaveLength(1);
    expect(result.notices[0]).toMatch(/worker 1 (died|failed)/);
    expect(result.chunksOnCaller).toBe(result.chunks);
    expect(pool.workers).toBe(0);
    // The pool goes on with what it has, and can be grown again.
    await expectSameAsKernel(rays);
    await pool.setWorkers(2);
    await expectSameAsKernel(rays);
  });

  it('a worker that throws among three: nothing lost, counters exact, a notice (seed 312)', async () => {
    await pool.setWorkers(3);
    const rays = mixedRays(312);
    const expected = emptyHits(rays.count);
    const expectedCounters = kernel.cast(bvh, rays, expected);
    const actual = emptyHits(rays.count);
    const result = await pool.cast(bvh, rays, actual, { mainThread: false, fault: { slot: 2, kind: 'throw' } });
    expect(differences(expected, actual, rays.count)).toEqual([]);
    expect(result.counters).toEqual(expectedCounters);
    // The faulty worker always fails, but the two others may have cast every chunk before it woke (the
    // cast then returns without it), so its notice comes with this cast or just after.
    const notice = 'worker 2 failed: simulated fault in a worker';
    if (result.notices.length > 0) expect(result.notices).toEqual([notice]);
    await vi.waitFor(() => expect(pool.notices).toContain(notice), { timeout: 30_000 });
    expect(pool.workers).toBe(2);
  });

  it('options out of range: a clear error, no pool', async () => {
    for (const stragglerWaitMs of [-1, Number.NaN, 120_000])
      await expect(RayPool.create({ workers: 0, stragglerWaitMs })).rejects.toThrow(/stragglerWaitMs.*a number of ms from 0 to 60000/);
    await expect(RayPool.create({ workers: 0, maximumMemoryBytes: 10 })).rejects.toThrow(/maximumMemoryBytes/);
  });

  it('a memory that cannot grow: a clear error, the caller’s hits untouched', async () => {
    const small = await RayPool.create({ workers: 1, maximumMemoryBytes: 3 * 65536 });
    try {
      const big = generateTerrain({ cells: 48, seed: 3 });
      const bigBvh = buildBVH(big.positions, big.indices, { layouts: ['quantized'] });
      const rays = randomRays(321, 100, meshBounds(big.positions));
      const hits = emptyHits(rays.count);
      hits.triangle.fill(7);
      await expect(small.cast(bigBvh, rays, hits)).rejects.toThrow(SharedMemoryFullError);
      await expect(small.cast(bigBvh, rays, hits)).rejects.toThrow(/cannot grow to \d+ bytes: its maximum is 196608 bytes/);
      expect(hits.triangle.every((t) => t === 7)).toBe(true);
      // A BVH that fits still casts, on the same pool.
      const fits = randomRays(322, 100, meshBounds(terrain.positions));
      const expected = emptyHits(fits.count);
      kernel.cast(bvh, fits, expected);
      const actual = emptyHits(fits.count);
      await small.cast(bvh, fits, actual);
      expect(differences(expected, actual, fits.count)).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('castNow: the pool without giving up the thread (a simulation step)', () => {
  async function castNowSameAsKernel(rays: RayBatch, options: Partial<RayPoolCastOptions> = {}, on: RayPool = pool): Promise<RayPoolCast> {
    const expected = emptyHits(rays.count);
    const expectedCounters = kernel.cast(bvh, rays, expected, { mode: options.mode ?? 'closest', doubleSided: options.doubleSided ?? false });
    const actual = emptyHits(rays.count);
    const result = await whenPoolTakes(() => on.castNow(bvh, rays, actual, options));
    expect(differences(expected, actual, rays.count)).toEqual([]);
    expect(result.counters).toEqual(expectedCounters);
    return result;
  }

  it('0, 1, 2 and 3 workers give the single-thread hits and counters bit for bit, with each thread’s busy time (seed 331)', async () => {
    const rays = mixedRays(331);
    for (const workers of [0, 1, 2, 3]) {
      await pool.setWorkers(workers);
      for (const options of [{}, { reorder: false }, { mode: 'any' as const }, { doubleSided: true }]) {
        const result = await castNowSameAsKernel(rays, options);
        expect(result.threads).toBe(workers + 1);
        expect(result.busyMs).toHaveLength(workers + 1);
        expect(result.busyMs.every((ms) => ms >= 0 && ms <= result.wallMs)).toBe(true);
        expect(result.notices).toEqual([]);
      }
      await castNowSameAsKernel({ ...rays, count: 0 });
      await castNowSameAsKernel({ ...rays, count: 21 });
    }
  });

  it('a worker that throws: the caller casts what it claimed, nothing lost, a notice (seed 332)', async () => {
    await pool.setWorkers(0);
    await pool.setWorkers(2);
    const rays = mixedRays(332);
    await castNowSameAsKernel(rays, { fault: { slot: 1, kind: 'throw' } });
    await vi.waitFor(() => expect(pool.notices).toContain('worker 1 failed: simulated fault in a worker'), { timeout: 30_000 });
    expect(pool.workers).toBe(1);
    await castNowSameAsKernel(rays);
  });

  it('a worker that exits mid-cast: the caller waits its bounded time, casts the chunk, and goes on (seed 333)', async () => {
    // A pool of its own with the page's short wait: the dead worker's busy word stays behind in it. With
    // a fault to simulate, the caller lets the worker claim first, so it dies inside a chunk.
    const rays = mixedRays(333);
    const dying = await RayPool.create({ workers: 1, stragglerWaitMs: 200 });
    try {
      await castNowSameAsKernel(rays, { fault: { slot: 1, kind: 'exit' } }, dying);
      expect(dying.notices).toContain('worker 1 did not finish its chunk within 200 ms; the calling thread ran it');
      await vi.waitFor(() => expect(dying.workers).toBe(0), { timeout: 30_000 });
      expect(dying.notices.some((n) => /worker 1 (died|failed)/.test(n))).toBe(true);
      await castNowSameAsKernel(rays, {}, dying);
      await dying.setWorkers(2);
      await castNowSameAsKernel(rays, {}, dying);
    } finally {
      await dying.close();
    }
  });
});
