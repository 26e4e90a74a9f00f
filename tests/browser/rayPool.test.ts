import { describe, expect, it } from 'vitest';
import { openPage, useHarness, LIGHT_TERRAIN } from './harness';

const harness = useHarness();

type RayPoolModule = typeof import('../../src/query/rays/rayPool');
type SimdRaysModule = typeof import('../../src/query/rays/simdRays');
type BvhModule = typeof import('../../src/bvh/index');
type TerrainModule = typeof import('../../src/terrain/index');
type Modules = [RayPoolModule, SimdRaysModule, BvhModule, TerrainModule];

describe('the ray worker pool in real Chromium', () => {
  it('the dev server isolates the page; two Web Workers over shared memory give the single-thread hits', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    // The page imports the modules itself (a string, so the test runner leaves its import() alone).
    await page.evaluate(
      `Promise.all(['/src/query/rays/rayPool.ts', '/src/query/rays/simdRays.ts', '/src/bvh/index.ts', '/src/terrain/index.ts'].map((p) => import(p)))
        .then((modules) => { window.poolTestModules = modules; })`,
    );
    const result = await page.evaluate(async () => {
      const [{ RayPool }, { loadSimdRays }, { buildBVH }, { generateTerrain }] = (window as unknown as { poolTestModules: Modules }).poolTestModules;
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
    await page.waitForFunction(
      () => /1 thread · cross-origin isolated/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      {
        timeout: 90_000,
      },
    );
    expect(errors).toEqual([]);
  });
});
