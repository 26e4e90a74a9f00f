import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { SharedMemoryFullError } from '../../../src/platform/sharedMemory';
import {
  createCapsuleBatch,
  createCapsuleHits,
  createCapsuleTrace,
  type CapsuleBatch,
  type CapsuleHits,
  type SweepOptions,
} from '../../../src/query/capsule/index';
import type { SimdCapsuleKernel } from '../../../src/query/capsule/capsuleKernel';
import { CapsulePool, type CapsulePoolSweep, type CapsulePoolSweepOptions } from '../../../src/query/capsule/capsulePool';
import { loadSimdCapsules } from '../../../src/query/capsule/simdCapsules';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, stackedDuplicates } from '../bvh/meshes';
import { centreAbove, compareWithReference, randomSweeps, type SweepShape } from './capsuleCheck';
import { needles, sharpRidges } from './heightfields';
import { whenPoolTakes } from '../platform/poolNow';

const BENCH_LIKE: SweepShape = { halfLength: [0, 1.5], radius: [0.05, 0.8], motion: [0.5, 8] };

let terrain: TerrainMesh;
let bvh: BVH;
let kernel: SimdCapsuleKernel;
let pool: CapsulePool;
beforeAll(async () => {
  terrain = generateTerrain({ cells: 24, worldSize: 40, heightScale: 10, seed: 71 });
  bvh = buildBVH(terrain.positions, terrain.indices);
  const loaded = await loadSimdCapsules();
  expect(loaded).not.toBeNull();
  kernel = loaded!;
  // A worker descheduled for seconds on a busy machine is not dead: this pool waits for it.
  pool = await CapsulePool.create({ workers: 1, stragglerWaitMs: 60_000 });
});
afterAll(async () => {
  await pool?.close();
});

const terrainCentre = (lift: [number, number]) => centreAbove((x, z) => sampleTerrainHeight(terrain, x, z), lift);

/** Capsules with NaN, infinite and negative inputs, at the front, the middle and the end of a batch. */
function withInvalid(batch: CapsuleBatch): CapsuleBatch {
  const out = createCapsuleBatch(batch.count);
  out.start.set(batch.start.subarray(0, 3 * batch.count));
  out.end.set(batch.end.subarray(0, 3 * batch.count));
  out.motion.set(batch.motion.subarray(0, 3 * batch.count));
  out.radius.set(batch.radius.subarray(0, batch.count));
  out.start[0] = NaN;
  out.radius[Math.floor(batch.count / 2)] = -1;
  out.motion[3 * (batch.count - 1) + 1] = Infinity;
  return out;
}

/** Random sweeps from above and from under the surface, long capsules, spheres, and invalid ones. */
function mixedCapsules(seed: number): CapsuleBatch {
  const parts = [
    randomSweeps(seed, 900, BENCH_LIKE, terrainCentre([0, 4])),
    randomSweeps(seed + 1, 300, BENCH_LIKE, terrainCentre([-3, 4])),
    randomSweeps(seed + 2, 150, { halfLength: [2, 6], radius: [0.02, 0.3], motion: [0.5, 6] }, terrainCentre([0, 3])),
    randomSweeps(seed + 3, 150, { halfLength: [0, 0], radius: [0.05, 2], motion: [0.5, 6] }, terrainCentre([-0.6, 0.6])),
  ];
  const count = parts.reduce((sum, b) => sum + b.count, 0);
  const out = createCapsuleBatch(count);
  let at = 0;
  for (const b of parts) {
    out.start.set(b.start.subarray(0, 3 * b.count), 3 * at);
    out.end.set(b.end.subarray(0, 3 * b.count), 3 * at);
    out.motion.set(b.motion.subarray(0, 3 * b.count), 3 * at);
    out.radius.set(b.radius.subarray(0, b.count), at);
    at += b.count;
  }
  return withInvalid(out);
}

/** Contacts differing bit for bit (by Object.is: NaN equals NaN, −0 differs from +0), the first few. */
function differences(expected: CapsuleHits, actual: CapsuleHits, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count && out.length < 5; i++) {
    let same = expected.triangle[i] === actual.triangle[i] && Object.is(expected.toi[i], actual.toi[i]);
    for (let a = 0; a < 3 && same; a++)
      same = Object.is(expected.point[3 * i + a], actual.point[3 * i + a]) && Object.is(expected.normal[3 * i + a], actual.normal[3 * i + a]);
    if (!same) out.push(`capsule ${i}: single thread ${expected.triangle[i]} at ${expected.toi[i]}, pool ${actual.triangle[i]} at ${actual.toi[i]}`);
  }
  return out;
}

async function expectSameAsKernel(
  target: BVH,
  batch: CapsuleBatch,
  options: Partial<CapsulePoolSweepOptions> = {},
): Promise<{ sweep: CapsulePoolSweep; hits: CapsuleHits }> {
  const expected = createCapsuleHits(batch.count);
  // The single-thread kernel gets the sweep's own options (the pool's mainThread and fault are not its).
  const sweepOptions: Partial<SweepOptions> = {};
  if (options.edgeMasks !== undefined) sweepOptions.edgeMasks = options.edgeMasks;
  if (options.quickCull !== undefined) sweepOptions.quickCull = options.quickCull;
  if (options.filter !== undefined) sweepOptions.filter = options.filter;
  const expectedCounters = kernel.sweep(target, batch, expected, sweepOptions);
  const actual = createCapsuleHits(batch.count);
  const sweep = await pool.sweep(target, batch, actual, options);
  expect(differences(expected, actual, batch.count)).toEqual([]);
  expect(sweep.counters).toEqual(expectedCounters);
  expect(sweep.threads).toBe(pool.workers + 1);
  return { sweep, hits: actual };
}

describe('the capsule pool against the single-thread SIMD kernel, the TypeScript sweep and brute force', () => {
  it('1, 2 and 3 workers give the single-thread contacts and counters bit for bit (seed 901)', async () => {
    const batch = mixedCapsules(901);
    for (const workers of [1, 2, 3]) {
      await pool.setWorkers(workers);
      expect(pool.workers).toBe(workers);
      const { sweep } = await expectSameAsKernel(bvh, batch);
      expect(sweep.counters.invalid).toBe(3);
      await expectSameAsKernel(bvh, batch, { edgeMasks: false });
      // The workers alone: the calling thread sweeps nothing, so every contact above came from a worker.
      const alone = await expectSameAsKernel(bvh, batch, { mainThread: false });
      expect(alone.sweep.chunksOnCaller).toBe(0);
    }
  });

  it('sweepNow: 0, 1, 2 and 3 workers, the same contacts and counters, and each thread’s busy time (seed 902)', async () => {
    const batch = mixedCapsules(902);
    const expected = createCapsuleHits(batch.count);
    const expectedCounters = kernel.sweep(bvh, batch, expected, { quickCull: false });
    for (const workers of [0, 1, 2, 3]) {
      await pool.setWorkers(workers);
      const actual = createCapsuleHits(batch.count);
      const sweep = await whenPoolTakes(() => pool.sweepNow(bvh, batch, actual, { quickCull: false }));
      expect(differences(expected, actual, batch.count)).toEqual([]);
      expect(sweep.counters).toEqual(expectedCounters);
      expect(sweep.busyMs).toHaveLength(workers + 1);
      expect(sweep.notices).toEqual([]);
    }
  });

  it('equals the TypeScript sweep (time and hit) and, through it, brute force, from anywhere without edge masks (seed 903)', async () => {
    await pool.setWorkers(2);
    // Edge masks make a sweep one-sided (from under the surface it passes through), which brute force is not.
    const options = { edgeMasks: false };
    const batch = randomSweeps(903, 500, BENCH_LIKE, terrainCentre([-1, 4]));
    const reference = compareWithReference(terrain, bvh, batch, options);
    expect(reference.failures.slice(0, 5)).toEqual([]);
    expect(reference.grazes).toBeLessThanOrEqual(1);
    const { hits } = await expectSameAsKernel(bvh, batch, options);
    const mismatches: number[] = [];
    for (let i = 0; i < batch.count; i++)
      if (reference.ours.triangle[i]! >= 0 !== hits.triangle[i]! >= 0 || !Object.is(reference.ours.toi[i], hits.toi[i])) mismatches.push(i);
    expect(mismatches).toEqual([]);
    expect(reference.hits).toBeGreaterThan(100);
  });

  it('adversarial meshes: sharp ridges, needles, crossed slivers, stacked duplicates (seeds 911–914)', async () => {
    await pool.setWorkers(3);
    const fields = [sharpRidges(), needles(31)];
    for (const [index, field] of fields.entries()) {
      const fieldBvh = buildBVH(field.positions, field.indices);
      const batch = randomSweeps(911 + index, 400, BENCH_LIKE, (random) => [random.range(-9, 9), random.range(-2, 6), random.range(-9, 9)]);
      await expectSameAsKernel(fieldBvh, batch);
      await expectSameAsKernel(fieldBvh, batch, { edgeMasks: false, quickCull: false });
    }
    for (const [index, mesh] of [crossedSlivers(913, 120), stackedDuplicates(12)].entries()) {
      const meshBvh = buildBVH(mesh.positions, mesh.indices);
      const batch = randomSweeps(913 + index, 300, { halfLength: [0, 4], radius: [0.05, 2], motion: [1, 40] }, (random) => [
        random.range(-50, 50),
        random.range(-50, 50),
        random.range(-50, 50),
      ]);
      await expectSameAsKernel(meshBvh, batch);
    }
    // Back to the terrain: copied in again when swept against.
    await expectSameAsKernel(bvh, mixedCapsules(915));
  });

  it('a collision filter, small batches and an empty one (seed 921)', async () => {
    await pool.setWorkers(2);
    const random = new Random(921);
    const triangles = terrain.indices.length / 3;
    const materials = { ids: Uint8Array.from({ length: triangles }, () => random.int(3)), masks: Uint32Array.from([1, 2, 4]) };
    const filtered = buildBVH(terrain.positions, terrain.indices, {}, materials);
    const batch = mixedCapsules(921);
    for (const filter of [0, 1, 5]) await expectSameAsKernel(filtered, batch, { filter });
    await expectSameAsKernel(bvh, { ...batch, count: 3 });
    await expectSameAsKernel(bvh, { ...batch, count: 0 });
  });
});

describe('the capsule pool under bad conditions', () => {
  it('a worker that exits on its first chunk: the caller finishes the batch, with a notice (seed 931)', async () => {
    await pool.setWorkers(1);
    const batch = mixedCapsules(931);
    const expected = createCapsuleHits(batch.count);
    kernel.sweep(bvh, batch, expected);
    const actual = createCapsuleHits(batch.count);
    // The caller pulls nothing itself, so the worker surely claims a chunk before it dies.
    const sweep = await pool.sweep(bvh, batch, actual, { mainThread: false, fault: { slot: 1, kind: 'exit' } });
    expect(differences(expected, actual, batch.count)).toEqual([]);
    expect(sweep.notices).toHaveLength(1);
    expect(sweep.notices[0]).toMatch(/worker 1 (died|failed)/);
    expect(sweep.chunksOnCaller).toBe(sweep.chunks);
    expect(pool.workers).toBe(0);
    // The pool goes on with what it has, and can be grown again.
    await expectSameAsKernel(bvh, batch);
    await pool.setWorkers(2);
    await expectSameAsKernel(bvh, batch);
  });

  it('sweepNow with a worker that throws among three: nothing lost, counters exact, a notice (seed 932)', async () => {
    await pool.setWorkers(3);
    const batch = mixedCapsules(932);
    const expected = createCapsuleHits(batch.count);
    const expectedCounters = kernel.sweep(bvh, batch, expected);
    const actual = createCapsuleHits(batch.count);
    const sweep = await whenPoolTakes(() => pool.sweepNow(bvh, batch, actual, { fault: { slot: 2, kind: 'throw' } }));
    expect(differences(expected, actual, batch.count)).toEqual([]);
    expect(sweep.counters).toEqual(expectedCounters);
    // The thrown error reaches the pool as a message: poll for it, then the pool has two workers.
    await expect.poll(() => pool.workers, { timeout: 60_000 }).toBe(2);
    expect(pool.notices.some((notice) => /worker 2 failed: simulated fault/.test(notice))).toBe(true);
    await expectSameAsKernel(bvh, batch);
  });

  it('bad input: a trace, bad options and short buffers are refused, changing nothing', async () => {
    await pool.setWorkers(1);
    const batch = mixedCapsules(941);
    const hits = createCapsuleHits(batch.count);
    hits.toi.fill(7);
    const trace = { trace: createCapsuleTrace(8) } as unknown as Partial<CapsulePoolSweepOptions>;
    await expect(pool.sweep(bvh, batch, hits, trace)).rejects.toThrow(InvalidParameterError);
    await expect(pool.sweep(bvh, batch, hits, { edgeMasks: 'yes' } as unknown as Partial<SweepOptions>)).rejects.toThrow(InvalidParameterError);
    await expect(pool.sweep(bvh, batch, createCapsuleHits(3))).rejects.toThrow(InvalidParameterError);
    expect(hits.toi.every((t) => t === 7)).toBe(true);
    // The pool still sweeps after refusing.
    await expectSameAsKernel(bvh, batch);
  });

  it('a memory that cannot grow: a clear error, the caller’s contacts untouched', async () => {
    const small = await CapsulePool.create({ workers: 0, maximumMemoryBytes: 2 * 65536 });
    try {
      const batch = mixedCapsules(951);
      const hits = createCapsuleHits(batch.count);
      hits.toi.fill(7);
      await expect(small.sweep(bvh, batch, hits)).rejects.toThrow(SharedMemoryFullError);
      expect(hits.toi.every((t) => t === 7)).toBe(true);
    } finally {
      await small.close();
    }
  });
});
