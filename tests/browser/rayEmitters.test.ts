import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  SCREENSHOT_DIR,
  openPage,
  waitForBuilds,
  useHarness,
  guiControl,
  guiFolder,
  hudMatch as hudLine,
  hudText,
  LIGHT_TERRAIN,
  waitForBvh,
  waitForFrames,
} from './harness';

const harness = useHarness();

const emitterFolder = (page: Page) => page.locator('.lil-gui', { has: page.locator(':scope > .lil-title', { hasText: /^Ray emitters$/ }) });
const control = (page: Page, label: string, within = emitterFolder(page)) => guiControl(within, page, label);

describe('ray emitters in real Chromium', () => {
  it('are off by default; once on they trace, switch strategies live and compare A with B', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    expect(await hudText(page)).not.toMatch(/rays [\d,]+ \(/);

    await page.locator('.lil-title', { hasText: /^Ray emitters$/ }).click();
    await control(page, 'ray emitters').locator('input').check();
    // Strategy A starts on the binary tree: its layout is built first, then the fan is traced.
    const first = await hudLine(page, /rays 10,000 \(coherent fan\) · A binary quantized · precomputed · one at a time[^\n]*?([\d,]+) hits/);
    expect(first).toMatch(/nodes\/ray/);

    // Live switches: the 4-way tree with batches of 64 (the SIMD kernel by default), then the vertical rain.
    const strategyA = page.locator('.lil-gui', { has: page.locator(':scope > .lil-title', { hasText: /^Strategy A$/ }) });
    await control(page, 'tree', strategyA).locator('select').selectOption('4-way');
    await control(page, 'batching', strategyA).locator('input').check();
    await control(page, 'batch size', strategyA).locator('select').selectOption('64');
    await hudLine(page, /A 4-way quantized · WebAssembly SIMD · batch 64/);
    await control(page, 'emitter').locator('select').selectOption('vertical rain');
    await hudLine(page, /rays 10,000 \(vertical rain\) · A 4-way/);

    // A/B: the same rays through B; the ratios and the agreement show.
    await control(page, 'A/B: also trace with B').locator('input').check();
    const ratio = await hudLine(page, /B \/ A|B\/A time [\d.]+× · nodes [\d.]+× · boxes [\d.]+× · triangles [\d.]+× · same hits/);
    expect(ratio).toMatch(/same hits/);
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'ray-emitters.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("race three-mesh-bvh in the page: the 'ours-vs-three-mesh-bvh' preset's A/B chart, same hits", async () => {
    // As a speaker shows it (1600×900), the chart below the timing table in view.
    const { page, errors } = await openPage(harness, `?scene=ours-vs-three-mesh-bvh${LIGHT_TERRAIN}`, { width: 1600, height: 900 });
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    // Our SIMD walk (A) against three-mesh-bvh's raycastFirst (B): a time bar each, B's with its ratio, and no differing hit.
    const pattern =
      /A\/B: A 4-way SIMD · B three-mesh-bvh · 20,000 rays · same hits · median of \d+ traces; time A [\d.]+ ms[^,]*, B [\d.]+ ms[^;]* B\/A [\d.]+×/;
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.querySelector('[data-testid="hud-bar-chart"]')?.getAttribute('aria-label') ?? ''),
      pattern.source,
      { timeout: 180_000 },
    );
    const label = (await page.locator('[data-testid="hud-bar-chart"]').getAttribute('aria-label')) ?? '';
    expect(await hudLine(page, /B three-mesh-bvh: [^\n]*?· B\/A time [\d.]+× · same hits/)).toMatch(/hits/);
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'ours-vs-three-mesh-bvh.png'), timeout: 180_000 });
    await page
      .locator('[data-testid="hud-bar-chart"]')
      .screenshot({ path: join(SCREENSHOT_DIR, 'ours-vs-three-mesh-bvh-chart.png'), timeout: 180_000 });
    console.log(`ours-vs-three-mesh-bvh: ${label}`);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);

  it("switch a collision filter: with water ignored no ray stops on a lake, and the hits change ('masks' preset)", async () => {
    const { page, errors } = await openPage(harness, '?scene=masks');
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    // The preset colours the terrain by material, with its legend, and filters water out (7: grass, rock, snow).
    const legend = page.locator('[data-testid="legends"] [data-legend="terrain materials"]');
    await legend.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await legend.textContent()).toMatch(/grass.*rock.*snow.*water/);
    const filtered = await hudLine(page, /filter keeps grass, rock, snow · A per ray: [^\n]*?masked (subtrees|tris) [\d.]+/);
    expect(filtered).toMatch(/nodes [\d.]+/);

    /** The emitter's last trace as the page holds it: hits, and how many of them landed on water. */
    const trace = (): Promise<{ hits: number; waterHits: number; filter: number }> =>
      page.evaluate(() => {
        type Emitters = { rays: { count: number }; hitsA: { triangle: Int32Array }; settings: { filter: number } };
        type Sandbox = { bvh: { masks: { materialIds: Uint8Array } }; system(name: string): Emitters | null };
        const sandbox = (window as unknown as { colliderscope: { scenes: { sandbox: Sandbox } } }).colliderscope.scenes.sandbox;
        const system = sandbox.system('rayEmitters')!;
        let hits = 0;
        let waterHits = 0;
        for (let i = 0; i < system.rays.count; i++) {
          const triangle = system.hitsA.triangle[i]!;
          if (triangle < 0) continue;
          hits++;
          if (sandbox.bvh.masks.materialIds[triangle] === 3) waterHits++;
        }
        return { hits, waterHits, filter: system.settings.filter };
      });
    const ignoringWater = await trace();
    expect(ignoringWater).toMatchObject({ filter: 7, waterHits: 0 });
    expect(ignoringWater.hits).toBeGreaterThan(0);
    await waitForFrames(page);
    // Software WebGL on a busy machine may take tens of seconds for a frame: a generous ceiling.
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'masks-ignore-water.png'), timeout: 180_000 });

    // Water back in the filter: the rays that crossed the lake stop on it.
    await page.locator('.lil-title', { hasText: /^Ray emitters$/ }).click();
    const filter = guiFolder(page, 'Filter');
    await filter.locator(':scope > .lil-title').click();
    await control(page, 'water', filter).locator('input').check();
    await page.waitForFunction(
      () => {
        type Emitters = { resultA: object | null; dirty: boolean; settings: { filter: number } };
        const app = (window as unknown as { colliderscope: { scenes: { sandbox: { system(name: string): Emitters | null } } } }).colliderscope;
        const system = app.scenes.sandbox.system('rayEmitters');
        return system !== null && system.settings.filter === 15 && system.resultA !== null && !system.dirty;
      },
      null,
      { timeout: 180_000 },
    );
    const withWater = await trace();
    expect(withWater.filter).toBe(15);
    expect(withWater.waterHits).toBeGreaterThan(0);
    expect(withWater.hits).toBeGreaterThan(ignoringWater.hits);
    await expect(control(page, 'keeps', filter).locator('input').inputValue()).resolves.toMatch(/^0x0000000f · grass, rock, snow, water$/);

    // And off again: the same hits as before (the filter is all that changed).
    await control(page, 'water', filter).locator('input').uncheck();
    await page.waitForFunction(
      () => {
        type Emitters = { resultA: object | null; dirty: boolean; settings: { filter: number } };
        const app = (window as unknown as { colliderscope: { scenes: { sandbox: { system(name: string): Emitters | null } } } }).colliderscope;
        const system = app.scenes.sandbox.system('rayEmitters');
        return system !== null && system.settings.filter === 7 && system.resultA !== null && !system.dirty;
      },
      null,
      { timeout: 180_000 },
    );
    expect(await trace()).toMatchObject({ hits: ignoringWater.hits, waterHits: 0 });
    console.log(`masks: ${ignoringWater.hits} hits ignoring water, ${withWater.hits} with water (${withWater.waterHits} on water)`);
    expect(errors).toEqual([]);
    await page.close();
  }, 600_000);
});
