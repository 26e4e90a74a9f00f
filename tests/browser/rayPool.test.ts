import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  SCREENSHOT_DIR,
  guiControl,
  guiFolder,
  hudMatch,
  hudText,
  openPage,
  useHarness,
  waitForBuilds,
  waitForBvh,
  LIGHT_TERRAIN,
  waitForFrames,
} from './harness';

const harness = useHarness();

describe('the page’s ray emitters on the worker pool', () => {
  it('trace on the main thread and 2 workers, the HUD showing each thread’s busy time and the efficiency', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    // Two workers beside the main thread, whatever the machine's default.
    const threads = guiFolder(page, 'Threads');
    const workers = guiControl(threads, page, 'worker threads (0: main only)').locator('input').first();
    await workers.fill('2');
    await workers.press('Enter');
    await hudMatch(page, /3 threads for rays, crowd and particles · cross-origin isolated/, 90_000);

    // The emitters on, strategy A on the 4-way tree: the SIMD kernel one ray at a time, the pool's walk.
    const emitters = guiFolder(page, 'Ray emitters');
    await emitters.locator(':scope > .lil-title').click();
    await guiControl(emitters, page, 'ray emitters').locator('input').check();
    await guiControl(emitters, page, 'trace every frame').locator('input').check();
    const strategyA = guiFolder(page, 'Strategy A');
    await guiControl(strategyA, page, 'tree').locator('select').selectOption('4-way');
    // Busy ms of the main thread, worker 1 and worker 2, the wall time, the parallel efficiency.
    const line = await hudMatch(page, /A threads [\d.]+ · [\d.]+ · [\d.]+ ms \/ [\d.]+ · eff \d+%/, 90_000);
    expect(line.split(' · ')).toHaveLength(4);
    expect(await hudText(page)).toMatch(/A 4-way quantized · WebAssembly SIMD · one at a time · watertight/);
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'ray-pool-emitters.png') });

    // Back to the main thread alone: the per-thread line goes, the rays stay.
    await workers.fill('0');
    await workers.press('Enter');
    await hudMatch(page, /1 thread for rays, crowd and particles · cross-origin isolated/, 90_000);
    await page.waitForFunction(() => !/A threads [\d.]/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''), null, {
      timeout: 90_000,
    });
    expect(await hudText(page)).toMatch(/rays 10,000 \(coherent fan\)/);

    // The thread sweep: the scene's benchmark at 1, 2 and 3 threads, speed-ups in the result dialog
    // (2,000 rays a frame keep its 180 frames short on a software renderer).
    const rays = guiControl(emitters, page, 'rays').locator('input').first();
    await rays.fill('2000');
    await rays.press('Enter');
    const run = guiFolder(page, 'Run');
    await run.locator(':scope > .lil-title').click();
    const frames = guiControl(run, page, 'benchmark frames').locator('input').first();
    await frames.fill('30');
    await frames.press('Enter');
    // The sweep's mechanics are the point here, not its figures: a short warm-up per thread count.
    const warmup = guiControl(run, page, 'benchmark warm-up frames').locator('input').first();
    await warmup.fill('5');
    await warmup.press('Enter');
    await guiControl(threads, page, 'benchmark 1 … 3 threads').locator('button').click();
    type Status = { colliderscope: { status: { sweepThreads: number; sweepResult: string } } };
    await page.waitForFunction(() => (window as unknown as Status).colliderscope.status.sweepThreads > 0, null, { timeout: 90_000 });
    await page.waitForFunction(() => (window as unknown as Status).colliderscope.status.sweepResult !== '', null, { timeout: 300_000 });
    const text = await page.locator('[data-testid="result-text"]').inputValue();
    expect(text).toMatch(/1 thread +2 threads +3 threads/);
    // The pool's phase has a median and a speed-up at every thread count.
    expect(text).toMatch(/rayEmitters\.A +[\d.]+ ms +[\d.]+ ms [\d.]+× +[\d.]+ ms [\d.]+×/);
    expect(await page.locator('[data-testid="result-chart"]').getAttribute('aria-label')).toMatch(/whole frame.*3 threads [\d.]+×/);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'thread-sweep.png') });
    // The slider is back where it was.
    await hudMatch(page, /1 thread for rays, crowd and particles · cross-origin isolated/, 90_000);
    expect(errors).toEqual([]);
  }, 420_000);

  it('the simd-vs-typescript preset, B on 2 workers, stepped 12 frames, reaches the runner’s golden hash', async () => {
    const { page, errors } = await openPage(harness, '?scene=simd-vs-typescript');
    await waitForBvh(page, 1);
    const workers = guiControl(guiFolder(page, 'Threads'), page, 'worker threads (0: main only)').locator('input').first();
    await workers.fill('2');
    await workers.press('Enter');
    await hudMatch(page, /3 threads for rays, crowd and particles · cross-origin isolated/, 90_000);
    type PageSandbox = {
      colliderscope: {
        scenes: { sandbox: { frame: number; hash(): string; system(name: string): { metrics(): Record<string, unknown> } | null } | null };
      };
    };
    const kernelB = (): Promise<unknown> =>
      page.evaluate(() => (window as unknown as PageSandbox).colliderscope.scenes.sandbox?.system('rayEmitters')?.metrics().kernelB);
    await page.waitForFunction(
      () => /on 3 threads$/.test(String((window as unknown as PageSandbox).colliderscope.scenes.sandbox?.system('rayEmitters')?.metrics().kernelB)),
      null,
      { timeout: 90_000 },
    );
    // As a person would: pause, restart (frame 0 with the scene's seeds), then step frame by frame.
    await page.keyboard.press('Space');
    await page.waitForFunction(() => (window as unknown as { colliderscope: { status: { paused: boolean } } }).colliderscope.status.paused);
    await page.keyboard.press('KeyR');
    await page.waitForFunction(() => (window as unknown as PageSandbox).colliderscope.scenes.sandbox?.frame === 0);
    for (let i = 0; i < 12; i++) await page.keyboard.press('.');
    await page.waitForFunction(() => (window as unknown as PageSandbox).colliderscope.scenes.sandbox?.frame === 12, null, { timeout: 120_000 });
    expect(await kernelB()).toBe('WebAssembly SIMD one ray at a time on 3 threads');
    const hash = await page.evaluate(() => (window as unknown as PageSandbox).colliderscope.scenes.sandbox?.hash());
    // tests/unit/systems/goldenHashes.test.ts: the runner's hash of this preset after 12 fixed steps.
    expect(hash).toBe('a5e2341b20a244e0');
    expect(errors).toEqual([]);
  }, 300_000);
});
