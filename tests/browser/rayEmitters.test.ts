import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, openPage, waitForBuilds, useHarness, guiControl, LIGHT_TERRAIN, waitForBvh } from './harness';

const harness = useHarness();

const emitterFolder = (page: Page) => page.locator('.lil-gui', { has: page.locator(':scope > .lil-title', { hasText: /^Ray emitters$/ }) });
const control = (page: Page, label: string, within = emitterFolder(page)) => guiControl(within, page, label);
const hudText = async (page: Page): Promise<string> => (await page.locator('[data-testid="timing-hud"]').textContent()) ?? '';

/** Waits until the HUD's ray line matches `pattern` and returns it. */
async function hudLine(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
    pattern.source,
    { timeout: 60_000 },
  );
  return pattern.exec(await hudText(page))![0];
}

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
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'ray-emitters.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
