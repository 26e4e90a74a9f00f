import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, openPage, waitForBuilds, useHarness, escapeRegExp, waitForBvh, waitForFrames } from './harness';

const harness = useHarness();

const control = (page: Page, label: string) =>
  page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) });
const hudText = async (page: Page): Promise<string> => (await page.locator('[data-testid="timing-hud"]').textContent()) ?? '';

async function setNumber(page: Page, label: string, value: number): Promise<void> {
  const input = control(page, label).locator('input').last();
  await input.fill(String(value));
  await input.press('Enter');
}

async function hudShows(page: Page, pattern: RegExp): Promise<void> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
    pattern.source,
    {
      timeout: 20_000,
    },
  );
}

/** The overlapped count in the HUD once it differs from `previous` (or once it appears). */
async function overlapped(page: Page, previous = ''): Promise<number> {
  await page.waitForFunction(
    (before) => {
      const match = /box probe: (\d+) overlapped/.exec(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '');
      return match !== null && match[0] !== before;
    },
    previous,
    { timeout: 20_000 },
  );
  return Number(/box probe: (\d+) overlapped/.exec(await hudText(page))![1]);
}

describe('the box probe in real Chromium', () => {
  it('is off by default; once on, it paints the overlapped triangles, follows its sliders and Shift+drag', async () => {
    const { page, errors } = await openPage(harness);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    expect(await hudText(page)).not.toMatch(/box probe/);

    await page.locator('.lil-title', { hasText: 'Box probe' }).click();
    await control(page, 'box probe').locator('input').check();
    const first = await overlapped(page);
    expect(first).toBeGreaterThan(0);
    expect(await hudText(page)).toMatch(/nodes [\d.kM]+ · boxes [\d.kM]+ · (leaves [\d.kM]+ · )?tris [\d.kM]+/);

    // Same overlaps with the TypeScript kernel and Möller's v1 at the leaves, and with rejected candidates shown too.
    await control(page, 'box-triangle kernel').locator('select').selectOption('TypeScript');
    await control(page, 'box-triangle test').locator('select').selectOption('v1');
    await hudShows(page, /\(v1\)/);
    expect(await overlapped(page)).toBe(first);
    await control(page, 'show rejected candidates').locator('input').check();
    await control(page, 'box-triangle test').locator('select').selectOption('optimized');
    await hudShows(page, /\(optimized\)/);
    expect(await overlapped(page)).toBe(first);
    expect(await control(page, 'exits').locator('input').inputValue()).toMatch(/axis \d+/);
    // The WebAssembly SIMD kernel, v1's twin: the same overlaps; it keeps no axis, so rejections are "separated".
    await control(page, 'box-triangle kernel').locator('select').selectOption('WebAssembly SIMD');
    await hudShows(page, /\(wasm-simd\)/);
    expect(await overlapped(page)).toBe(first);
    // The readout follows on lil-gui's next refresh.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.lil-controller')].some(
          (c) => c.querySelector('.lil-name')?.textContent === 'exits' && /separated \d+/.test(c.querySelector('input')?.value ?? ''),
        ),
      null,
      { timeout: 10_000 },
    );
    await control(page, 'box-triangle kernel').locator('select').selectOption('TypeScript');
    await hudShows(page, /\(optimized\)/);

    // Bigger and yawed: more triangles, still answered.
    await setNumber(page, 'half-size x', 40);
    const bigger = await overlapped(page, `box probe: ${first} overlapped`);
    expect(bigger).toBeGreaterThan(first);
    await setNumber(page, 'yaw °', 30);
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'box-probe.png') });

    // Shift+drag moves the centre to the terrain under the pointer (right of the timing panel, left of the GUI).
    const before = await control(page, 'centre x').locator('input').last().inputValue();
    await page.mouse.move(560, 430);
    await page.keyboard.down('Shift');
    await page.mouse.down();
    await page.mouse.move(720, 380, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await page.waitForFunction(
      (old) => {
        const inputs = [...document.querySelectorAll('.lil-controller')].filter((c) => c.querySelector('.lil-name')?.textContent === 'centre x');
        const value = inputs[0]?.querySelector('input')?.value;
        return value !== undefined && value !== old;
      },
      before,
      { timeout: 10_000 },
    );
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'box-probe-dragged.png') });
    await control(page, 'time every test here').locator('button').click();
    await page.waitForFunction(
      () => /box probe, per query: v1 [\d.]+ µs.* wasm-simd [\d.]+ µs/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 20_000 },
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs from the box-probe preset: the same overlaps as the runner, the panel showing the section', async () => {
    const { page, errors } = await openPage(harness, '?scene=box-probe');
    await waitForBvh(page);
    // `npm run scene -- scenes/box-probe.json` reports overlaps=1005.
    await hudShows(page, /box probe: 1005 overlapped/);
    await page.locator('.lil-title', { hasText: 'Box probe' }).click();
    expect(await control(page, 'box probe').locator('input').isChecked()).toBe(true);
    expect(await control(page, 'yaw °').locator('input').last().inputValue()).toBe('30');
    expect(await control(page, 'show rejected candidates').locator('input').isChecked()).toBe(true);
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'box-probe-preset.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
