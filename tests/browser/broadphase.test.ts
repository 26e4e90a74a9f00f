import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SCREENSHOT_DIR, openPage, waitForBuilds, useHarness, LIGHT_TERRAIN } from './harness';

const harness = useHarness();

describe('broad-phase in real Chromium', () => {
  it('is off at start; once enabled it draws boxes, reports pairs, and switches strategy live', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBuilds(page, 1);
    const hud = page.locator('[data-testid="timing-hud"]');
    await expect(hud.textContent()).resolves.not.toMatch(/broad-phase:/);
    await page.locator('.lil-title', { hasText: 'Broad-phase' }).click();
    // Rows of this folder only: other folders have an "enabled" too.
    const folder = page.locator('xpath=//*[contains(@class,"lil-gui")][./*[contains(@class,"lil-title")][normalize-space(.)="Broad-phase"]]');
    const row = (name: string) => folder.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: name }) }).first();
    // A small scene keeps software rendering quick.
    await row('boxes N').locator('select').selectOption('1024');
    await row('enabled').locator('input').check();
    await page.waitForFunction(
      () => /broad-phase: regions · orbits 1,024 boxes/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    await page.waitForFunction(
      () => /broad-phase: [1-9][\d,]* pairs/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    await row('strategy (live)').locator('select').selectOption('sap');
    await page.waitForFunction(
      () => /broad-phase: sap · orbits/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    await page.waitForFunction(() => /broad-phase: .*swaps/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''), null, {
      timeout: 30_000,
    });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'broadphase.png') });
    await row('enabled').locator('input').uncheck();
    await page.waitForFunction(() => !/broad-phase:/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''), null, {
      timeout: 30_000,
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('scene files with systems in real Chromium', () => {
  it('turn on the systems they name with their settings, and off the ones another such scene leaves out', async () => {
    const { page, errors } = await openPage(harness, '?scene=box-crowd', { width: 960, height: 600 });
    await waitForBuilds(page, 1);
    const hudMatches = (pattern: RegExp) =>
      page.waitForFunction(
        (source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
        pattern.source,
        { timeout: 60_000 },
      );
    await hudMatches(/broad-phase: regions · orbits 8,192 boxes/);
    await hudMatches(/actors: 300 /);
    const enabled = (folder: string) =>
      page
        .locator('xpath=//*[contains(@class,"lil-gui")][./*[contains(@class,"lil-title")][normalize-space(.)="' + folder + '"]]')
        .locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^enabled$/ }) })
        .first()
        .locator('input');
    await expect(enabled('Broad-phase').isChecked()).resolves.toBe(true);
    await expect(enabled('Particles').isChecked()).resolves.toBe(false);

    await page
      .locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^preset$/ }) })
      .locator('select')
      .selectOption('particle-storm');
    await waitForBuilds(page, 2);
    await hudMatches(/particles: [1-9][\d,]* live/);
    await expect(page.locator('[data-testid="timing-hud"]').textContent()).resolves.not.toMatch(/broad-phase:|actors:/);
    // Their rows leave the timing panel with them.
    await page.waitForFunction(
      () => !/step\.broadphase|step\.actors/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 10_000 },
    );
    await expect(enabled('Broad-phase').isChecked()).resolves.toBe(false);
    await expect(enabled('Particles').isChecked()).resolves.toBe(true);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'scene-particle-storm.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
