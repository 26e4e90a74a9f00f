import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { resolve } from 'node:path';
import { SCREENSHOT_DIR, closeAllPages, startHarness, type Harness } from '../../tools/chromium';

export * from '../../tools/chromium';

/** Where the browser project's global setup (buildSite.ts) builds the site, once per run. */
export const BUILT_SITE_DIR = resolve(SCREENSHOT_DIR, 'site');

/**
 * The harness for one test file: started before its tests, its pages closed after each test, all of it
 * closed at the end. The object is filled in by the time the tests run. The page is the built site
 * (what a static host serves) unless `serving` is 'dev': files whose pages import the checkout's
 * modules by path (/src/…) need the dev server.
 */
export function useHarness(serving: 'built' | 'dev' = 'built'): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    Object.assign(harness, await startHarness(serving === 'built' ? BUILT_SITE_DIR : undefined));
  });
  afterEach(async () => {
    if (harness.browser !== undefined) await closeAllPages(harness);
  });
  afterAll(async () => {
    await harness.close?.();
  });
  return harness;
}

/**
 * The URL query for tests whose subject does not depend on the terrain's resolution: a 64-cell terrain
 * builds and renders several times faster under SwiftShader than the default 256 cells.
 */
export const LIGHT_TERRAIN = '#Terrain/cells=64';

/** Text as a regular expression that matches it literally. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A lil-gui folder by its exact title (features share control names such as "enabled" or "rays"). */
export const guiFolder = (page: Page, title: string): Locator =>
  page.locator('.lil-gui', { has: page.locator(':scope > .lil-title', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) });

/** The first control labelled exactly `label` within `scope` (a folder, or the page). */
export const guiControl = (scope: Page | Locator, page: Page, label: string): Locator =>
  scope.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) }).first();

/** Presses keyboard shortcuts on the page: the focused panel control is left first (a focused input takes keys as typing). */
export async function pressShortcuts(page: Page, ...keys: string[]): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (const key of keys) await page.keyboard.press(key);
}

/** The timing HUD's text. */
export const hudText = async (page: Page): Promise<string> => (await page.locator('[data-testid="timing-hud"]').textContent()) ?? '';

/** Waits until the timing HUD matches `pattern` and returns the match. */
export async function hudMatch(page: Page, pattern: RegExp, timeout = 60_000): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
    pattern.source,
    { timeout },
  );
  return pattern.exec(await hudText(page))![0];
}

/**
 * Waits until the page has drawn `count` more frames: what a change needs to be on screen before a
 * screenshot, however slow the software renderer is (a frame can take seconds on a busy machine).
 */
export async function waitForFrames(page: Page, count = 2, timeout = 60_000): Promise<void> {
  const frames = (): Promise<number> =>
    page.evaluate(() => (window as unknown as { colliderscope: { status: { frames: number } } }).colliderscope.status.frames);
  await page.waitForFunction(
    (until) => (window as unknown as { colliderscope: { status: { frames: number } } }).colliderscope.status.frames >= until,
    (await frames()) + count,
    { timeout },
  );
}
