import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { LIGHT_TERRAIN, SCREENSHOT_DIR, appStatus, guiControl, guiFolder, openPage, useHarness, waitForBuilds } from './harness';
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
    await expect(page.locator('[data-testid="timing-hud"]').textContent()).resolves.toMatch(
      /render[\s\S]*whole frame[\s\S]*one-off[\s\S]*terrain\.generate/,
    );
    // SwiftShader draws on the CPU: the stage says so and draws without multisampling, at 1× pixels.
    await expect(page.locator('[data-testid="timing-hud"]').textContent()).resolves.toMatch(/software WebGL · no antialiasing/);
    const drawing = await page.evaluate(() => {
      const canvas = document.querySelector('canvas')!;
      const gl = canvas.getContext('webgl2')!;
      return { samples: gl.getParameter(gl.SAMPLES) as number, width: canvas.width, cssWidth: canvas.clientWidth };
    });
    expect(drawing).toEqual({ samples: 0, width: drawing.cssWidth, cssWidth: drawing.cssWidth });
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

    // Dragging the seed slider rebuilds live, before the release; the release lands on the seed shown.
    const slider = guiFolder(page, 'Terrain')
      .locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^seed/ }) })
      .locator('.lil-slider')
      .first();
    const box = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    const buildsBefore = (await appStatus(page)).builds;
    await page.mouse.move(box.x + 0.2 * box.width, y);
    await page.mouse.down();
    for (let step = 1; step <= 30; step++) {
      await page.mouse.move(box.x + (0.2 + step * 0.01) * box.width, y);
      if ((await appStatus(page)).builds >= buildsBefore + 2) break;
      await page.waitForTimeout(150);
    }
    await page.waitForFunction(
      (n) => (window as unknown as { colliderscope: { status: { builds: number } } }).colliderscope.status.builds >= n,
      buildsBefore + 2,
      { timeout: 30_000 },
    );
    await page.mouse.up();
    await page.waitForFunction(
      () => {
        const app = (
          window as unknown as {
            colliderscope: {
              status: { building: boolean; bvhBuilding: boolean };
              settings: { terrain: { seed: number } };
              scenes: { sandbox: { terrain: { params: { seed: number } } } };
            };
          }
        ).colliderscope;
        return !app.status.building && !app.status.bvhBuilding && app.scenes.sandbox.terrain.params.seed === app.settings.terrain.seed;
      },
      null,
      { timeout: 30_000 },
    );
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
    // The good file applied: the banner about the bad ones is gone and the preset menu names the scene shown.
    await expect(banner.isVisible()).resolves.toBe(false);
    await expect(guiControl(page, page, 'preset').locator('.lil-display').textContent()).resolves.toBe('small');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a link with out-of-range terrain values still shows a terrain: the values are reported and replaced', async () => {
    const { page, errors } = await openPage(harness, '#Terrain/cells=5000&Terrain/worldSize=-1&Terrain/seed=7');
    const status = await waitForBuilds(page, 1);
    // The scene's values replace the bad ones; the good one (seed) applies.
    expect(status.triangles).toBe(2 * 256 * 256);
    await expect(controllerInput(page, 'cells per side').inputValue()).resolves.toBe('256');
    await expect(controllerInput(page, 'world size').inputValue()).resolves.toBe('512');
    await expect(controllerInput(page, 'seed').inputValue()).resolves.toBe('7');
    const banner = page.locator('[data-testid="error-banner"]');
    await expect(banner.textContent()).resolves.toMatch(/cells: expected an integer in \[16, 2048\], got 5000 \(using 256\)/);
    await expect(banner.textContent()).resolves.toMatch(/worldSize: .*got -1 \(using 512\)/);
    await expect(banner.textContent()).resolves.not.toMatch(/last good state/);
    await framesAdvance(page);
    expect((await canvasPixels(page)).nonBackground).toBeGreaterThan(0.3);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'bad-link-replaced.png') });
    // A bad value pasted later is replaced by the one on screen; the terrain stays.
    await page.evaluate(() => (location.hash = '#Terrain/kind=perlin'));
    await page.waitForFunction(() =>
      /kind: expected one of .*got "perlin" \(using ridged\)/.test(document.querySelector('[data-testid="error-banner"]')?.textContent ?? ''),
    );
    await expect(controllerInput(page, 'kind').inputValue()).resolves.toBe('ridged');
    // The settings are those on screen again: nothing to rebuild, the terrain stays.
    expect((await waitForBuilds(page, 1)).triangles).toBe(2 * 256 * 256);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the README’s first load: every subsystem is off until a preset or the panel turns it on', async () => {
    const { page, errors } = await openPage(harness, `?scene=default${LIGHT_TERRAIN}`);
    await waitForBuilds(page, 1);
    await framesAdvance(page);
    const systems = await page.evaluate(
      () =>
        (window as unknown as { colliderscope: { scenes: { sandbox: { systems: { name: string }[] } | null } } }).colliderscope.scenes.sandbox
          ?.systems.length,
    );
    expect(systems).toBe(0);
    await expect(page.locator('[data-testid="timing-hud"]').textContent()).resolves.not.toMatch(/wind:|tracers/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('panel folders: nested folders settle to their height and every checkbox stays inside the panel', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN, { width: 1600, height: 900 });
    await waitForBuilds(page, 1);
    // Opened one after the other at once, as a user clicking through does (the inner one mid-animation of the outer).
    await guiFolder(page, 'Capsule sweeps').locator(':scope > .lil-title').click();
    await guiFolder(page, 'Probe').locator(':scope > .lil-title').click();
    await guiFolder(page, 'Stress: many capsules').locator(':scope > .lil-title').click();
    // Folders still held at a fixed height, by title (named in the failure message).
    const heldFolders = (): Promise<string[]> =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[data-testid="gui"] .lil-children')]
          .filter((children) => children.style.height !== '')
          .map((children) => `${children.parentElement?.querySelector(':scope > .lil-title')?.textContent}: ${children.style.height}`),
      );
    await expect.poll(heldFolders, { timeout: 60_000, interval: 250 }).toEqual([]);
    // The probe folder ends above the next folder's title: nothing draws over what follows.
    const probe = await guiFolder(page, 'Probe').boundingBox();
    const next = await guiFolder(page, 'Character (WASD, Space jumps)').locator(':scope > .lil-title').boundingBox();
    expect(probe!.y + probe!.height).toBeLessThanOrEqual(next!.y + 1);
    const show = guiControl(guiFolder(page, 'Probe'), page, 'show probe').locator('input');
    await show.scrollIntoViewIfNeeded();
    const panel = (await page.locator('[data-testid="gui"]').boundingBox())!;
    const outside = await page.evaluate((right) => {
      const boxes = [...document.querySelectorAll<HTMLInputElement>('[data-testid="gui"] input[type="checkbox"]')].filter(
        (box) => box.offsetParent !== null,
      );
      return boxes.filter((box) => box.getBoundingClientRect().right > right).map((box) => box.closest('.lil-controller')?.textContent);
    }, panel.x + panel.width);
    expect(outside).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'capsule-probe-folder.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

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

  it('builds 2.1M triangles in a worker with a progress bar while the page keeps drawing; the scene left stops its systems', async () => {
    // From a scene with the wind on to one with no system: the wind must not survive the switch, though
    // the page keeps drawing the scene it leaves (and its panels) while the new terrain builds.
    const { page, errors } = await openPage(harness, '?scene=wind-vm');
    await waitForBuilds(page, 1);
    const systems = (): Promise<string[]> =>
      page.evaluate(() =>
        (window as unknown as { colliderscope: { scenes: { sandbox: { systems: { name: string }[] } } } }).colliderscope.scenes.sandbox.systems.map(
          (system) => system.name,
        ),
      );
    expect(await systems()).toEqual(['wind']);
    const framesBefore = (await appStatus(page)).frames;
    await guiControl(page, page, 'preset').locator('select').selectOption('mesa-1024');
    await page.locator('[data-testid="progress"]').waitFor({ state: 'visible' });
    // Frames keep coming while the worker builds: the main thread is free.
    await page.waitForFunction(
      (n) => (window as unknown as { colliderscope: { status: { frames: number } } }).colliderscope.status.frames >= n,
      framesBefore + 5,
    );
    const status = await waitForBuilds(page, 2, 110_000);
    expect(status.triangles).toBe(2 * 1024 * 1024);
    // The scene states no system: none runs, and the Wind folder's switch is off.
    expect(await systems()).toEqual([]);
    await framesAdvance(page, 2);
    expect(await systems()).toEqual([]);
    await expect(guiControl(guiFolder(page, 'Wind'), page, 'wind').locator('input').first().isChecked()).resolves.toBe(false);
    await framesAdvance(page, 1);
    // Software WebGL draws 2M triangles slowly on a busy machine: a ceiling, not an expectation.
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'mesa-1024.png'), timeout: 120_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 360_000);
});
