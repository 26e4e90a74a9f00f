import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, waitForBuilds, waitForBvh, useHarness, guiFolder, guiControl, LIGHT_TERRAIN, SCREENSHOT_DIR } from './harness';

const harness = useHarness();

const folder = guiFolder;
const control = (page: Page, label: string, within: ReturnType<typeof folder>) => guiControl(within, page, label);

async function hudLine(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
    pattern.source,
    { timeout: 60_000 },
  );
  return pattern.exec((await page.locator('[data-testid="timing-hud"]').textContent()) ?? '')![0];
}

describe('WebAssembly SIMD ray kernel in real Chromium', () => {
  it('loads through Vite and traces the emitter rays live, with the same hits as the TypeScript walk', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    await page.locator('.lil-title', { hasText: /^Ray emitters$/ }).click();
    const emitters = folder(page, 'Ray emitters');
    await control(page, 'ray emitters', emitters).locator('input').check();
    const strategyA = folder(page, 'Strategy A');
    await control(page, 'tree', strategyA).locator('select').selectOption('4-way');
    await control(page, 'ray kernel', strategyA).locator('select').selectOption('WebAssembly SIMD');
    const line = await hudLine(
      page,
      /A 4-way quantized · WebAssembly SIMD · one at a time · watertight: WebAssembly SIMD one ray at a time · [^\n]*?([\d,]+) hits/,
    );
    expect(line).toMatch(/nodes\/ray/);
    // B: the TypeScript 4-way walk in batches; the A/B readout compares the hits.
    const ab = control(page, 'A/B: also trace with B', emitters);
    await ab.scrollIntoViewIfNeeded();
    await ab.locator('input').check();
    expect(await hudLine(page, /B\/A time [\d.]+× · nodes [\d.]+× · boxes [\d.]+× · triangles [\d.]+× · (same hits|\d+ hits differ)/)).toMatch(
      /same hits/,
    );

    // Batching on: A's SIMD kernel takes the batched walk, the HUD and the panel say so, same hits as B.
    await control(page, 'batch size', strategyA).locator('select').selectOption('64');
    await control(page, 'batching', strategyA).locator('input').check();
    const batched = await hudLine(
      page,
      /A 4-way quantized · WebAssembly SIMD · batch 64 · watertight: WebAssembly SIMD batched walk, batch 64 · [^\n]*?([\d,]+) hits/,
    );
    expect(batched).toMatch(/nodes\/ray/);
    expect(await hudLine(page, /B\/A time [\d.]+× · nodes [\d.]+× · boxes [\d.]+× · triangles [\d.]+× · (same hits|\d+ hits differ)/)).toMatch(
      /same hits/,
    );
    await expect
      .poll(() => control(page, 'A', folder(page, 'Last trace')).locator('input').inputValue(), { timeout: 30_000 })
      .toMatch(/WebAssembly SIMD batched walk, batch 64/);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'simd-rays-batched.png') });

    // Every batch size, 'all' included, then back to TypeScript: the readout follows each switch.
    for (const size of ['1', '4', '16', '256', 'all']) {
      await control(page, 'batch size', strategyA).locator('select').selectOption(size);
      await hudLine(page, new RegExp(`WebAssembly SIMD batched walk, batch ${size} · `));
      expect(await hudLine(page, /B\/A time [^\n]*· (same hits|\d+ hits differ)/)).toMatch(/same hits/);
    }
    await control(page, 'ray kernel', strategyA).locator('select').selectOption('TypeScript');
    await hudLine(page, /A 4-way quantized · precomputed · batch all · watertight: TypeScript · /);
    expect(errors).toEqual([]);
    await page.close();
  });
});
