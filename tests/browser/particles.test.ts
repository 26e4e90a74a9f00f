import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, openPage, pressShortcuts, waitForBuilds, useHarness, guiControl, LIGHT_TERRAIN, waitForFrames } from './harness';

const harness = useHarness();

/** Rows of the Particles folder only: other folders have an "enabled" and a "mode" too. */
const folder = (page: Page) => page.locator('.lil-gui', { has: page.locator(':scope > .lil-title', { hasText: /^Particles$/ }) });
const row = (page: Page, label: string) => guiControl(folder(page), page, label);

const hudText = (page: Page): Promise<string> =>
  page
    .locator('[data-testid="timing-hud"]')
    .textContent()
    .then((t) => t ?? '');

/** The numbers of the HUD's particle line: live particles, rays this frame, cache lookups. */
async function particleLine(page: Page): Promise<{ live: number; rays: number; lookups: number }> {
  const match = /particles: ([\d,]+) live · ([\d,]+) rays · cache ([\d,]+) lookups/.exec(await hudText(page));
  const number = (text: string | undefined): number => Number((text ?? 'NaN').replace(/,/g, ''));
  return { live: number(match?.[1]), rays: number(match?.[2]), lookups: number(match?.[3]) };
}

describe('particles in real Chromium', () => {
  it('are off at start; once on they fly, collide on a ray budget with a plane cache, and switch mode live', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBuilds(page, 1);
    await expect(hudText(page)).resolves.not.toMatch(/particles:/);
    await page.locator('.lil-title', { hasText: /^Particles$/ }).click();

    // A small showcase keeps software rendering quick; the budget scales with it.
    const count = row(page, 'particles (showcase)').locator('input').last();
    await count.fill('20000');
    await count.press('Enter');
    await row(page, 'enabled').locator('input').check();
    await page.waitForFunction(
      () => /particles: [1-9][\d,]* live/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    // Let the effects fill up (more than 500 live: the cache may answer before that), then the cache must
    // be answering and rays stay within the budget.
    await page.waitForFunction(
      () => {
        const text = document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '';
        const live = /particles: ([\d,]+) live/.exec(text);
        return live !== null && Number(live[1]!.replace(/,/g, '')) > 500 && /cache [1-9][\d,]* lookups/.test(text);
      },
      null,
      { timeout: 60_000 },
    );
    const budget = Number(await row(page, 'rays/frame (showcase)').locator('input').last().inputValue());
    const onBudget = await particleLine(page);
    expect(onBudget.live).toBeGreaterThan(500);
    expect(onBudget.rays).toBeLessThanOrEqual(budget + 4);
    await expect(hudText(page)).resolves.toMatch(/particles ms: spawn [\d.]+ · .*rays [\d.]+/);
    // Chromium has WebAssembly SIMD: the kernels load, move the particles and cast their rays, and the
    // page (cross-origin isolated) moves them on its particle pool; TypeScript can be chosen live, and
    // back, with the particles flying on.
    const hudShows = (pattern: RegExp) =>
      page.waitForFunction(
        (source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
        pattern.source,
        { timeout: 30_000 },
      );
    await hudShows(/particle kernels: move WASM SIMD · cache WASM on \d+ threads · rays WASM SIMD/);
    // Each thread's busy ms over the pooled phases (the main thread, then the workers), their wall ms, the efficiency.
    await hudShows(/particle threads [\d.]+( · [\d.]+)+ ms \/ [\d.]+ · eff \d+%/);
    await row(page, 'particle kernel').locator('select').selectOption('typescript');
    await hudShows(/particle kernels: move TypeScript · cache TypeScript · rays TypeScript/);
    expect((await particleLine(page)).live).toBeGreaterThan(500);
    await row(page, 'particle kernel').locator('select').selectOption('wasm-simd');
    await hudShows(/particle kernels: move WASM SIMD · cache WASM on \d+ threads · rays WASM SIMD/);
    expect((await particleLine(page)).live).toBeGreaterThan(500);

    // A hit filling its whole triangle (on) against storing only the column it hit: each switch starts
    // the caches afresh, and over the same frames (paused, then stepped) the footprints fill them faster.
    type Status = {
      colliderscope: {
        status: { simFrame: number; paused: boolean };
        scenes: { sandbox: { system(name: string): { metrics(): { cacheEntries: number } } } };
      };
    };
    const simFrame = (): Promise<number> => page.evaluate(() => (window as unknown as Status).colliderscope.status.simFrame);
    const entriesAfterFrames = async (frames: number): Promise<number> => {
      const from = await simFrame();
      await pressShortcuts(page, ...new Array<string>(frames).fill('.'));
      await page.waitForFunction((target) => (window as unknown as Status).colliderscope.status.simFrame >= target, from + frames, {
        timeout: 60_000,
      });
      return page.evaluate(() => (window as unknown as Status).colliderscope.scenes.sandbox.system('particles').metrics().cacheEntries);
    };
    await pressShortcuts(page, 'Space');
    await page.waitForFunction(() => (window as unknown as Status).colliderscope.status.paused, null, { timeout: 30_000 });
    await row(page, 'hit fills its triangle').locator('input').uncheck();
    const hitCellsOnly = await entriesAfterFrames(10);
    await row(page, 'hit fills its triangle').locator('input').check();
    const footprints = await entriesAfterFrames(10);
    expect(hitCellsOnly).toBeGreaterThan(0);
    expect(footprints).toBeGreaterThan(1.5 * hitCellsOnly);

    await folder(page)
      .locator('.lil-title', { hasText: /^Display$/ })
      .click();
    await row(page, 'planes (sample)').locator('input').check();
    await pressShortcuts(page, 'Space');
    await page.waitForFunction(() => !(window as unknown as Status).colliderscope.status.paused, null, { timeout: 30_000 });
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'particles.png') });

    // The reference mode casts one ray per live particle: far more than the budget.
    await row(page, 'mode').locator('select').selectOption('reference');
    await page.waitForFunction(
      (limit) => {
        const match = /particles: [\d,]+ live · ([\d,]+) rays/.exec(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '');
        return match !== null && Number(match[1]!.replace(/,/g, '')) > limit;
      },
      budget * 2,
      { timeout: 30_000 },
    );
    const reference = await particleLine(page);
    expect(reference.rays).toBeGreaterThan(budget * 2);

    await row(page, 'enabled').locator('input').uncheck();
    await page.waitForFunction(() => !/particles:/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''), null, {
      timeout: 30_000,
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
