import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LIGHT_TERRAIN, PAGE_WAIT_CEILING_MS, SCREENSHOT_DIR, openPage, useHarness, waitForBuilds } from './harness';

const harness = useHarness();

/** The presenter's screen. */
const STAGE = { width: 1600, height: 900 };
const HUD = '[data-testid="timing-hud"]';

/** Waits until the profiler lists a row (`group:render`, `event:bvh.build`…). */
async function waitForRow(page: Page, key: string, timeout = 120_000): Promise<void> {
  await page.waitForFunction((k) => document.querySelector(`[data-testid="timing-hud"] tr[data-phase="${k}"]`) !== null, key, { timeout });
}

/** The profiler's rows in order, by key. */
const rowKeys = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="timing-hud"] tbody tr')].map((tr) => tr.dataset.phase ?? ''));

/** Each group row's swatch colour, by group. */
const groupColours = (page: Page): Promise<Record<string, string>> =>
  page.evaluate(() => {
    const colours: Record<string, string> = {};
    for (const tr of document.querySelectorAll<HTMLElement>('[data-testid="timing-hud"] tr.cs-hud-group'))
      colours[tr.dataset.phase!.replace(/^group:/, '')] = tr.querySelector<HTMLElement>('.cs-swatch')!.dataset.colour!;
    return colours;
  });

async function waitForStatus(page: Page, predicate: string, timeout = 120_000): Promise<void> {
  await page.waitForFunction(`(() => { const s = window.colliderscope.status; return ${predicate}; })()`, undefined, { timeout });
}

/** Sets a panel control as a user would (through its controller, so its change handlers run). */
async function setControl(page: Page, folder: string, property: string, value: unknown): Promise<void> {
  await page.evaluate(
    ([f, p, v]) => {
      interface C {
        property: string;
        parent: { _title: string };
        setValue(value: unknown): void;
      }
      const gui = (window as unknown as { colliderscope: { panel: { gui: { controllersRecursive(): C[] } } } }).colliderscope.panel.gui;
      const controller = gui.controllersRecursive().find((c) => c.parent._title === f && c.property === p);
      if (controller === undefined) throw new Error(`no control ${f}/${p}`);
      controller.setValue(v);
    },
    [folder, property, value] as const,
  );
}

describe('the profiler', () => {
  it('draws a crisp chart on a chosen scale, groups phases by system, lists one-off events apart', async () => {
    const page = await harness.browser.newPage({ viewport: { width: 1024, height: 640 }, deviceScaleFactor: 2 });
    page.setDefaultTimeout(PAGE_WAIT_CEILING_MS);
    await page.addInitScript(() => localStorage.setItem('colliderscope.helpSeen', '1'));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    await page.goto(`${harness.url}?scene=rolling-hills${LIGHT_TERRAIN}`);
    await waitForBuilds(page, 1);
    await waitForRow(page, 'event:bvh.build');
    await waitForRow(page, 'group:render');
    // Sized in device pixels: its CSS size × devicePixelRatio, so it is as sharp as the text.
    const size = await page.locator('[data-testid="frame-chart"]').evaluate((canvas: HTMLCanvasElement) => ({
      width: canvas.width,
      height: canvas.height,
      cssWidth: canvas.clientWidth,
      cssHeight: canvas.clientHeight,
      dpr: window.devicePixelRatio,
    }));
    expect(size.dpr).toBe(2);
    expect(size.cssWidth).toBeGreaterThan(300);
    expect(size.width).toBe(Math.round(size.cssWidth * 2));
    expect(size.height).toBe(Math.round(size.cssHeight * 2));
    // A fixed scale, 16.7 ms by default; the buttons choose another.
    const chart = page.locator('[data-testid="frame-chart"]');
    await expect(chart.getAttribute('data-scale-ms')).resolves.toBe('16.7');
    await page.locator('[data-testid="chart-scale-100"]').click();
    await expect(chart.getAttribute('data-scale-ms')).resolves.toBe('100');
    await expect(page.locator('[data-testid="chart-scale-100"]').getAttribute('class')).resolves.toMatch(/cs-active/);
    await page.locator('[data-testid="chart-scale-33"]').click();
    await expect(chart.getAttribute('data-scale-ms')).resolves.toBe('33');
    await page.locator(HUD).screenshot({ path: join(SCREENSHOT_DIR, 'profiler-hud-dpr2.png') });
    // Per-frame groups, then the rest of the frame, the whole frame, and the one-off events after it.
    const keys = await rowKeys(page);
    const frame = keys.indexOf('frame');
    expect(keys.indexOf('group:render')).toBeGreaterThanOrEqual(0);
    expect(keys.indexOf('group:render')).toBeLessThan(frame);
    expect(keys.indexOf('group:other')).toBe(frame - 1);
    expect(keys.indexOf('event:terrain.generate')).toBeGreaterThan(frame);
    expect(keys.indexOf('event:bvh.build')).toBeGreaterThan(frame);
    expect(keys.filter((key) => key.startsWith('group:')).some((key) => /generate|build/.test(key))).toBe(false);
    await expect(page.locator(`${HUD} tr[data-phase="event:bvh.build"]`).textContent()).resolves.toMatch(/bvh\.build\s*[\d.]+ ms/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps a colour per phase across scenes, stacks every running system, and reads at 14 px when presenting', async () => {
    const { page, errors } = await openPage(harness, `?scene=rolling-hills${LIGHT_TERRAIN}`, STAGE);
    await waitForBuilds(page, 1);
    // The ray emitters in A/B mode, 2,000 rays traced once (no sweep): their A/B result is a bar chart.
    await setControl(page, 'Ray emitters', 'rays', 2000);
    await setControl(page, 'Ray emitters', 'ab', true);
    await setControl(page, 'Ray emitters', 'enabled', true);
    await waitForRow(page, 'group:rayEmitters');
    await waitForRow(page, 'phase:rayEmitters.B');
    await page.waitForFunction(
      () =>
        /A\/B: A binary TS · B 4-way \w+ · 2,000 rays · same hits · median of \d+ traces; time A [\d.]+ ms[^,]*, B [\d.]+ ms.* B\/A [\d.]+×; nodes\/ray A [\d.]+, B [\d.]+ · B\/A [\d.]+×/.test(
          document.querySelector('[data-testid="hud-bar-chart"]')?.getAttribute('aria-label') ?? '',
        ),
      null,
      { timeout: 120_000 },
    );
    const abSize = await page
      .locator('[data-testid="hud-bar-chart"]')
      .evaluate((canvas: HTMLCanvasElement) => [canvas.width, Math.round(canvas.clientWidth * devicePixelRatio)]);
    expect(abSize[0]).toBe(abSize[1]);
    // The stack's legend names the groups the table lists, the emitters' included.
    await page.waitForFunction(
      () => /rayEmitters/.test(document.querySelector('[data-testid="timing-hud"] .cs-hud-legend')?.textContent ?? ''),
      null,
      {
        timeout: 60_000,
      },
    );
    await expect(page.locator(`${HUD} .cs-hud-legend`).textContent()).resolves.toMatch(/render/);
    const hillsColours = await groupColours(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'profiler-ab.png') });

    // Presenting: every piece of the panel's text is at least 14 px.
    await page.keyboard.press('p');
    await waitForStatus(page, 's.presenting');
    await page.keyboard.press('h');
    await page.waitForFunction(() => document.querySelector('[data-testid="timing-hud"]')?.classList.contains('cs-hud-large') === true, null, {
      timeout: 60_000,
    });
    const sizes = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLElement>(
          '[data-testid="timing-hud"] th, [data-testid="timing-hud"] td, [data-testid="timing-hud"] button, [data-testid="timing-hud"] .cs-hud-legend, [data-testid="timing-hud"] .cs-hud-line',
        ),
      ]
        .filter((element) => (element.textContent ?? '').trim() !== '')
        .map((element) => parseFloat(getComputedStyle(element).fontSize)),
    );
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(14);
    // The picture waits until the scene's tree is built and named in the panel.
    await page.waitForFunction(
      () =>
        !(window as unknown as { colliderscope: { status: { building: boolean } } }).colliderscope.status.building &&
        /bvh: \d/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      { timeout: 240_000 },
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'profiler-presenter.png') });
    await page.keyboard.press('Escape');
    await waitForStatus(page, '!s.presenting');
    expect(errors).toEqual([]);
    await page.close();

    // Another scene, other systems: each running system has its group, and the groups both show keep their colours.
    const other = await openPage(harness, `?scene=box-crowd${LIGHT_TERRAIN}`, STAGE);
    await waitForBuilds(other.page, 1);
    await waitForRow(other.page, 'group:actors');
    await waitForRow(other.page, 'group:broadphase');
    await waitForRow(other.page, 'group:render');
    const crowdColours = await groupColours(other.page);
    await other.page.screenshot({ path: join(SCREENSHOT_DIR, 'profiler-box-crowd.png') });
    expect(crowdColours.render).toBe(hillsColours.render);
    expect(crowdColours.other).toBe(hillsColours.other);
    expect(new Set(Object.values(crowdColours)).size).toBe(Object.keys(crowdColours).length);
    expect(other.errors).toEqual([]);
    await other.page.close();
  }, 400_000);

  it('shows the benchmark as a bar chart with its numbers', async () => {
    const { page, errors } = await openPage(harness, `?scene=capsule-sweeps${LIGHT_TERRAIN}`);
    await waitForBuilds(page, 1);
    await page.evaluate(() => {
      const app = (window as unknown as { colliderscope: { settings: { run: { benchmarkFrames: number; benchmarkWarmup: number } } } }).colliderscope;
      app.settings.run.benchmarkFrames = 20;
      // The chart is the point here, not the figures: a short warm-up.
      app.settings.run.benchmarkWarmup = 5;
    });
    await page.keyboard.press('b');
    await waitForStatus(page, '!s.benchmarking && s.benchmarkResult !== ""', 400_000);
    const chart = page.locator('[data-testid="result-chart"]');
    await expect(chart.isVisible()).resolves.toBe(true);
    const label = (await chart.getAttribute('aria-label')) ?? '';
    expect(label).toMatch(/render [\d.]+ ms \(p95 [\d.]+\)/);
    expect(label).toMatch(/whole frame [\d.]+ ms/);
    expect(label).toMatch(/capsules step [\d.]+ ms/);
    const size = await chart.evaluate((canvas: HTMLCanvasElement) => [canvas.width, Math.round(canvas.clientWidth * devicePixelRatio)]);
    expect(size[0]).toBe(size[1]);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'profiler-benchmark.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 500_000);
});
