import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SCREENSHOT_DIR, appStatus, openPage, useHarness, waitForBuilds } from './harness';
import { canvasPixels } from './pixels';
import type { Page } from 'playwright-core';

const harness = useHarness();

/** The input of a lil-gui controller found by its label. */
function controllerInput(page: Page, label: string) {
  return page
    .locator('.lil-controller', { has: page.locator('.lil-name', { hasText: label }) })
    .locator('input, select')
    .first();
}

async function framesAdvance(page: Page, by = 3): Promise<void> {
  const before = (await appStatus(page)).frames;
  await page.waitForFunction(
    (n) => (window as unknown as { colliderscope: { status: { frames: number } } }).colliderscope.status.frames >= n,
    before + by,
    { timeout: 30_000 },
  );
}

describe('the sandbox in real Chromium', () => {
  it('loads without console errors and shows a lit terrain', async () => {
    const { page, errors } = await openPage(harness);
    const status = await waitForBuilds(page, 1);
    await framesAdvance(page);
    expect(status.triangles).toBe(2 * 256 * 256);
    expect(status.scene).toBe('default');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'default-scene.png') });
    const pixels = await canvasPixels(page);
    // Sky alone would be one colour; a shaded terrain covers much of the view with many shades.
    expect(pixels.nonBackground).toBeGreaterThan(0.3);
    expect(pixels.distinctColours).toBeGreaterThan(100);
    await expect(page.locator('[data-testid="gui"]').isVisible()).resolves.toBe(true);
    await expect(page.locator('[data-testid="stats"]').isVisible()).resolves.toBe(true);
    await expect(page.locator('[data-testid="timing-hud"]').textContent()).resolves.toMatch(/terrain\.generate[\s\S]*render/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('regenerates the terrain when a rebuild parameter changes', async () => {
    const { page, errors } = await openPage(harness);
    await waitForBuilds(page, 1);
    await framesAdvance(page);
    const before = await canvasPixels(page);
    const cells = controllerInput(page, 'cells per side');
    await cells.fill('64');
    await cells.press('Enter');
    const status = await waitForBuilds(page, 2);
    expect(status.triangles).toBe(2 * 64 * 64);
    await framesAdvance(page);
    const kind = controllerInput(page, 'kind');
    await kind.selectOption('fbm');
    await waitForBuilds(page, 3);
    await framesAdvance(page);
    const after = await canvasPixels(page);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(after.nonBackground).toBeGreaterThan(0.3);
    await expect(controllerInput(page, 'triangles').inputValue()).resolves.toBe('8,192');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'rebuilt-fbm-64.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a clear error for a broken scene file and keeps rendering the current scene', async () => {
    const { page, errors } = await openPage(harness);
    await waitForBuilds(page, 1);
    const fileInput = page.locator('[data-testid="scene-file-input"]');
    await fileInput.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ "terrain": { "cells": 9000 } }') });
    const banner = page.locator('[data-testid="error-banner"]');
    await banner.waitFor({ state: 'visible' });
    await expect(banner.textContent()).resolves.toContain('broken.json: terrain.cells: expected an integer in [16, 2048], got 9000');
    await fileInput.setInputFiles({ name: 'typo.json', mimeType: 'application/json', buffer: Buffer.from('{ "terrain": { "cells": 64 }, }') });
    await page.waitForFunction(() => document.querySelector('[data-testid="error-banner"]')?.textContent?.includes('typo.json:1:'));
    await framesAdvance(page, 5);
    const status = await appStatus(page);
    expect(status.builds).toBe(1);
    expect(status.triangles).toBe(2 * 256 * 256);
    expect((await canvasPixels(page)).nonBackground).toBeGreaterThan(0.3);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'broken-scene-error.png') });
    // A good file still loads after the bad ones.
    await fileInput.setInputFiles({
      name: 'small.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{ "name": "small", "terrain": { "cells": 32, "kind": "fbm" } }'),
    });
    const loaded = await waitForBuilds(page, 2);
    expect(loaded.triangles).toBe(2 * 32 * 32);
    expect(loaded.scene).toBe('small');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('loads a preset from ?scene= and reports an unknown one', async () => {
    const { page } = await openPage(harness, '?scene=rolling-hills');
    const status = await waitForBuilds(page, 1);
    expect(status.scene).toBe('rolling-hills');
    await expect(controllerInput(page, 'kind').inputValue()).resolves.toBe('fbm');
    await page.close();

    const unknown = await openPage(harness, '?scene=atlantis');
    const fallback = await waitForBuilds(unknown.page, 1);
    expect(fallback.scene).toBe('default');
    await expect(unknown.page.locator('[data-testid="error-banner"]').textContent()).resolves.toMatch(/no scene preset named "atlantis"/);
    await unknown.page.close();
  });

  it('builds 2.1M triangles in a worker with a progress bar while the page keeps drawing', async () => {
    const { page, errors } = await openPage(harness, '?scene=mesa-1024');
    await page.locator('[data-testid="progress"]').waitFor({ state: 'visible' });
    // Frames keep coming while the worker builds: the main thread is free.
    await page.waitForFunction(() => (window as unknown as { colliderscope: { status: { frames: number } } }).colliderscope.status.frames >= 5);
    const status = await waitForBuilds(page, 1, 110_000);
    expect(status.triangles).toBe(2 * 1024 * 1024);
    await framesAdvance(page, 1);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'mesa-1024.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
