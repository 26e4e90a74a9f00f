import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SCREENSHOT_DIR, openPage, waitForBuilds, useHarness } from './harness';

const harness = useHarness();

const hudText = (): string => document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '';

describe('actors in real Chromium', () => {
  it('drops a pile that falls asleep, and the explosion wakes the sleepers first', async () => {
    // Settings through the URL hash, as a shared link would: a small pile (SwiftShader must keep up), out
    // of the wind so it settles, with the wind's tracers and arrows off to spare the CPU.
    const { page, errors } = await openPage(
      harness,
      '#Actors/count=40&Actors/enabled=true&Actors/wind=false&Wind/enabled=true&Wind/tracers=0&Wind/arrows=false&camera=45,30,185,25.6,12,153.6,50',
    );
    await waitForBuilds(page, 1);
    const folder = page.locator('.lil-gui').filter({ has: page.locator(':scope > .lil-title', { hasText: /^Actors$/ }) });
    const controller = (name: string) =>
      folder.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')}$`) }) });
    await page.waitForFunction(
      () => /actors: 40 · awake \d+/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      undefined,
      { timeout: 60_000 },
    );
    await page.waitForFunction(
      () =>
        Number(/actors: 40 · awake (\d+) · asleep (\d+)/.exec(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '')?.[2] ?? '0') >=
        5,
      undefined,
      { timeout: 120_000 },
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'actors-pile.png') });
    await folder.locator(':scope > .lil-title').click();
    const explode = controller('explosion (wakes first)').locator('button');
    await explode.scrollIntoViewIfNeeded();
    await explode.click();
    await page.waitForFunction(
      () => /last wake: \d+ woken/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    const text = await page.evaluate(hudText);
    expect(Number(/last wake: (\d+) woken/.exec(text)?.[1])).toBeGreaterThanOrEqual(5);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'actors-explosion.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
