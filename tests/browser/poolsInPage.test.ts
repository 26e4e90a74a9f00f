import { describe, expect, it } from 'vitest';
import { hudMatch, openPage, useHarness, LIGHT_TERRAIN } from './harness';

// The pages import the pools' modules by path: the dev server serves them.
const harness = useHarness('dev');

type CapsulePoolModule = typeof import('../../src/query/capsule/capsulePool');
type SimdCapsulesModule = typeof import('../../src/query/capsule/simdCapsules');
type CapsuleModule = typeof import('../../src/query/capsule/index');
type BvhModule = typeof import('../../src/bvh/index');
type TerrainModule = typeof import('../../src/terrain/index');
type CapsuleModules = [CapsulePoolModule, SimdCapsulesModule, CapsuleModule, BvhModule, TerrainModule];

type RayPoolModule = typeof import('../../src/query/rays/rayPool');
type SimdRaysModule = typeof import('../../src/query/rays/simdRays');
type RayModules = [RayPoolModule, SimdRaysModule, BvhModule, TerrainModule];

describe('the capsule worker pool in real Chromium', () => {
  it('two Web Workers over shared memory give the single-thread contacts, and the page starts its capsule pool', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    // The page imports the modules itself (a string, so the test runner leaves its import() alone).
    await page.evaluate(
      `Promise.all(['/src/query/capsule/capsulePool.ts', '/src/query/capsule/simdCapsules.ts', '/src/query/capsule/index.ts', '/src/bvh/index.ts', '/src/terrain/index.ts'].map((p) => import(p)))
        .then((modules) => { window.capsulePoolTestModules = modules; })`,
    );
    const result = await page.evaluate(async () => {
      const [{ CapsulePool }, { loadSimdCapsules }, { createCapsuleBatch, createCapsuleHits }, { buildBVH }, { generateTerrain }] = (
        window as unknown as { capsulePoolTestModules: CapsuleModules }
      ).capsulePoolTestModules;
      const mesh = generateTerrain({ cells: 24, seed: 41 });
      const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
      const count = 2000;
      const batch = createCapsuleBatch(count);
      let seed = 7;
      const next = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
      for (let i = 0; i < count; i++) {
        const x = 60 * next(),
          y = 20 + 20 * next(),
          z = 60 * next();
        batch.start.set([x, y, z], 3 * i);
        batch.end.set([x + next(), y + next(), z + next()], 3 * i);
        batch.motion.set([10 * next(), -30, 10 * next()], 3 * i);
        batch.radius[i] = 0.5 + 0.4 * next();
      }
      const kernel = (await loadSimdCapsules())!;
      const expected = createCapsuleHits(count);
      kernel.sweep(bvh, batch, expected);
      const pool = await CapsulePool.create({ workers: 2 });
      const actual = createCapsuleHits(count);
      const sweep = await pool.sweep(bvh, batch, actual, { mainThread: false });
      await pool.close();
      let differ = 0;
      let hits = 0;
      for (let i = 0; i < count; i++) {
        let same = expected.triangle[i] === actual.triangle[i] && Object.is(expected.toi[i], actual.toi[i]);
        for (let a = 0; a < 3 && same; a++)
          same = Object.is(expected.point[3 * i + a], actual.point[3 * i + a]) && Object.is(expected.normal[3 * i + a], actual.normal[3 * i + a]);
        if (!same) differ++;
        if (actual.triangle[i]! >= 0) hits++;
      }
      return { isolated: crossOriginIsolated, differ, hits, threads: sweep.threads, onCaller: sweep.chunksOnCaller, notices: sweep.notices };
    });
    expect(result).toMatchObject({ isolated: true, differ: 0, threads: 3, onCaller: 0, notices: [] });
    expect(result.hits).toBeGreaterThan(200);
    // The page's ray pool started (the HUD's threads line); its capsule pool waits for a crowd to ask.
    await hudMatch(page, /\d threads? for rays, crowd and particles · cross-origin isolated/, 90_000);
    expect(errors).toEqual([]);
  });
});

describe('the ray worker pool in real Chromium', () => {
  it('the dev server isolates the page; two Web Workers over shared memory give the single-thread hits', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    // The page imports the modules itself (a string, so the test runner leaves its import() alone).
    await page.evaluate(
      `Promise.all(['/src/query/rays/rayPool.ts', '/src/query/rays/simdRays.ts', '/src/bvh/index.ts', '/src/terrain/index.ts'].map((p) => import(p)))
        .then((modules) => { window.poolTestModules = modules; })`,
    );
    const result = await page.evaluate(async () => {
      const [{ RayPool }, { loadSimdRays }, { buildBVH }, { generateTerrain }] = (window as unknown as { poolTestModules: RayModules })
        .poolTestModules;
      const mesh = generateTerrain({ cells: 24, seed: 41 });
      const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
      const count = 3000;
      const rays = {
        count,
        origins: new Float32Array(3 * count),
        directions: new Float32Array(3 * count),
        tMax: new Float32Array(count).fill(Infinity),
      };
      let seed = 7;
      const next = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
      for (let i = 0; i < count; i++) {
        rays.origins.set([60 * next(), 40 + 20 * next(), 60 * next()], 3 * i);
        rays.directions.set([next(), -1, next()], 3 * i);
      }
      const kernel = (await loadSimdRays())!;
      const expected = { t: new Float32Array(count), triangle: new Int32Array(count) };
      kernel.cast(bvh, rays, expected);
      const pool = await RayPool.create({ workers: 2 });
      const actual = { t: new Float32Array(count), triangle: new Int32Array(count) };
      const cast = await pool.cast(bvh, rays, actual, { mainThread: false });
      await pool.close();
      let differ = 0;
      let hits = 0;
      for (let i = 0; i < count; i++) {
        if (expected.triangle[i] !== actual.triangle[i] || !Object.is(expected.t[i], actual.t[i])) differ++;
        if (actual.triangle[i]! >= 0) hits++;
      }
      return { isolated: crossOriginIsolated, differ, hits, threads: cast.threads, onCaller: cast.chunksOnCaller, notices: cast.notices };
    });
    expect(result).toMatchObject({ isolated: true, differ: 0, threads: 3, onCaller: 0, notices: [] });
    expect(result.hits).toBeGreaterThan(300);
    await hudMatch(page, /\d threads? for rays, crowd and particles · cross-origin isolated/, 90_000);
    expect(errors).toEqual([]);
  });
});
