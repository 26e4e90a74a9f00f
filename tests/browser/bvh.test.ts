import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { LIGHT_TERRAIN, SCREENSHOT_DIR, openPage, waitForBuilds, useHarness, guiFolder, guiControl, waitForBvh } from './harness';

const harness = useHarness();

/** A GUI folder by its exact title (other features have controls of the same names, e.g. 'rays'). */
const folder = guiFolder;
const control = (page: Page, label: string, within = folder(page, 'Crack explorer')) => guiControl(within, page, label);

describe('the BVH in real Chromium', () => {
  it('is built off the main thread, drawn by depth, and a click casts a ray whose visit replays', async () => {
    const { page, errors } = await openPage(harness);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    await page.locator('.lil-title', { hasText: 'BVH' }).click();
    await control(page, 'show boxes', folder(page, 'BVH')).locator('input').check();
    await expect(control(page, 'nodes', folder(page, 'BVH')).locator('input').inputValue()).resolves.toMatch(/^[\d,]+ \(\d+ shared\)$/);

    await page.mouse.click(520, 460);
    const hud = page.locator('[data-testid="timing-hud"]');
    await page.waitForFunction(() => /ray: triangle \d+ at t=/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''), null, {
      timeout: 10_000,
    });
    const text = (await hud.textContent()) ?? '';
    const [, visited] = /nodes (\d+) · boxes \d+/.exec(text) ?? [];
    expect(Number(visited)).toBeGreaterThan(1);
    expect(text).toMatch(new RegExp(`step ${visited}/${visited}`));

    // Step the replay back to the first visited node.
    const replay = control(page, 'replay step', folder(page, 'BVH')).locator('input').last();
    await replay.fill('1');
    await replay.press('Enter');
    await page.waitForFunction(() => / step 1\/\d+/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''));
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'bvh-ray-replay.png') });

    await control(page, 'heat map (nodes/ray)', folder(page, 'BVH')).locator('input').check();
    await page.waitForFunction(
      () => /nodes visited per ray · mean [\d.]+/.test(document.querySelector('[data-testid="legends"]')?.textContent ?? ''),
      null,
      { timeout: 20_000 },
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'bvh-heatmap.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the crack explorer in real Chromium', () => {
  it('fire with the panel’s defaults: a progress bar while the batch runs, then the misses of the default test drawn', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBvh(page);
    await page.locator('.lil-title', { hasText: 'Crack explorer' }).click();
    await control(page, 'fire rays through edges and vertices').locator('button').click();
    const progress = page.locator('[data-testid="crack-progress"]', { hasText: /Crack explorer: 20,000 rays × 3 triangle tests/ });
    await progress.waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForFunction(
      () => /cracks \(20,000 float32 rays\): /.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 60_000 },
    );
    await progress.waitFor({ state: 'hidden', timeout: 30_000 });
    const text = (await page.locator('[data-testid="timing-hud"]').textContent()) ?? '';
    const shown = await control(page, 'draw misses of').locator('select').inputValue();
    expect(Number(new RegExp(`${shown} (\\d+)`).exec(text)?.[1] ?? NaN)).toBeGreaterThan(0);
    const drawn = await page.evaluate(
      () =>
        (window as unknown as { colliderscope: { features: { name: string; lines?: { visible: boolean } }[] } }).colliderscope.features.find(
          (f) => f.name === 'cracks',
        )?.lines?.visible,
    );
    expect(drawn).toBe(true);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'crack-explorer-default.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fires rays through shared edges and vertices: the watertight test misses none, misses are drawn', async () => {
    const { page, errors } = await openPage(harness);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    await page.locator('.lil-title', { hasText: 'Crack explorer' }).click();
    const rays = control(page, 'rays').locator('input').last();
    await rays.fill('60000');
    await rays.press('Enter');
    await control(page, 'ray precision').locator('select').selectOption('float64');
    await control(page, 'fire rays through edges and vertices').locator('button').click();
    await page.waitForFunction(
      () => /cracks \(60,000 float64 rays\)/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    const text = (await page.locator('[data-testid="timing-hud"]').textContent()) ?? '';
    const count = (name: string): number => Number(new RegExp(`${name} (\\d+)`).exec(text)?.[1] ?? NaN);
    expect(count('watertight')).toBe(0);
    // Möller–Trumbore leaks through shared edges and vertices of a float grid.
    expect(count('moller-trumbore')).toBeGreaterThan(0);
    await control(page, 'draw misses of').locator('select').selectOption('moller-trumbore');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'crack-explorer.png') });

    // Float32 rays go through the BVH as well: zero misses there too for the default test.
    await control(page, 'ray precision').locator('select').selectOption('float32');
    await control(page, 'fire rays through edges and vertices').locator('button').click();
    await page.waitForFunction(
      () => /cracks \(60,000 float32 rays\)/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    await expect(page.locator('[data-testid="timing-hud"]').textContent()).resolves.toMatch(/watertight 0 \(BVH 0\)/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
