import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createHeadlessSandbox, parseSceneText, runFixedSteps, loadAllKernels } from '../../src/core';
import { readField } from '../../tools/sceneFiles';
import {
  LIGHT_TERRAIN,
  SCREENSHOT_DIR,
  appStatus,
  guiControl,
  guiFolder,
  openPage,
  pressShortcuts,
  useHarness,
  waitForBvh,
  waitForFrames,
} from './harness';

const harness = useHarness();
const FRAMES = 6;

interface PageSandbox {
  frame: number;
  hash(): string;
  hashes(): Record<string, string>;
  terrain: { heights: Float32Array };
  terrainEdits: { appliedCount: number; edits: readonly { kind: string; frame: number }[] };
  lastRefit: { ms: number; degradation: number; full: boolean } | null;
}
interface PageWindow {
  colliderscope: { scenes: { sandbox: PageSandbox } };
}

async function appliedEdits(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => (window as unknown as PageWindow).colliderscope.scenes.sandbox.terrainEdits.appliedCount === n, count, {
    timeout: 30_000,
  });
}
const heights = (page: Page): Promise<number[]> =>
  page.evaluate(() => Array.from((window as unknown as PageWindow).colliderscope.scenes.sandbox.terrain.heights));

async function openFolder(folder: Locator): Promise<void> {
  if (await folder.evaluate((element) => element.classList.contains('lil-closed'))) await folder.locator(':scope > .lil-title').click();
}

/** Holds Ctrl+Shift and presses at (x, y), dragging to (toX, toY) when given. */
async function editAt(page: Page, x: number, y: number, toX = x, toY = y): Promise<void> {
  await page.mouse.move(x, y);
  await page.keyboard.down('Control');
  await page.keyboard.down('Shift');
  await page.mouse.down();
  if (toX !== x || toY !== y) await page.mouse.move(toX, toY, { steps: 12 });
  // A brush strokes while held: hold for a few frames, a stroke or more each, whatever the frame rate.
  if (toX !== x || toY !== y) await waitForFrames(page, 3);
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.keyboard.up('Control');
}

describe('blast and sculpt in real Chromium', () => {
  it('Ctrl+Shift+click blasts a crater, a brush sculpts, undo takes one back, and the runner replays the saved scene to the same hash', async () => {
    await loadAllKernels();
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN, { width: 1280, height: 720 });
    await waitForBvh(page);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => (window as unknown as { colliderscope: { status: { paused: boolean } } }).colliderscope.status.paused);
    await page.keyboard.press('KeyR');
    await page.waitForFunction(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.frame === 0);

    const untouched = await heights(page);
    const hashBefore = await page.evaluate(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.hash());
    await editAt(page, 640, 420);
    await appliedEdits(page, 1);
    const cratered = await heights(page);
    const lowered = cratered.filter((h, i) => h < untouched[i]!).length;
    expect(lowered).toBeGreaterThan(5);
    const edits = await page.evaluate(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.terrainEdits.edits);
    expect(edits).toMatchObject([{ kind: 'crater', frame: 0 }]);
    expect(await page.evaluate(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.hash())).not.toBe(hashBefore);
    // The refit's bookkeeping was made ahead (in the terrain worker, or before the edit): even the first
    // crater refits only the triangles it moved.
    expect(await page.evaluate(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.lastRefit?.full)).toBe(false);
    // The HUD and the folder say what the refit did.
    await page.waitForFunction(
      () => /terrain: 1 edits · refit [\d.]+ ms/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      null,
      {
        timeout: 20_000,
      },
    );
    await openFolder(guiFolder(page, 'Terrain'));
    const folder = guiFolder(page, 'Blast and sculpt');
    await openFolder(folder);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.lil-controller')].some(
          (c) => c.querySelector('.lil-name')?.textContent === 'last refit' && /[\d.]+ ms · [\d,]+ nodes/.test(c.querySelector('input')?.value ?? ''),
        ),
      null,
      { timeout: 10_000 },
    );
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'terrain-crater.png') });

    // The raise brush, dragged: several strokes, each an edit.
    await guiControl(folder, page, 'Ctrl+Shift+drag').locator('select').selectOption('raise');
    await editAt(page, 560, 400, 700, 440);
    await page.waitForFunction(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.terrainEdits.appliedCount > 2, null, {
      timeout: 30_000,
    });
    const strokes = await page.evaluate(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.terrainEdits.appliedCount);
    expect(await heights(page)).not.toEqual(cratered);
    // Undo takes back the newest stroke only.
    await guiControl(folder, page, 'undo the last edit').locator('button').click();
    await appliedEdits(page, strokes - 1);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'terrain-sculpted.png') });

    // Scene → save scene file: the edits are in it, and the runner replays them to the page's hash.
    const save = guiControl(page, page, 'save scene file').locator('button');
    const [download] = await Promise.all([page.waitForEvent('download'), save.click()]);
    const saved = parseSceneText(await readFile(await download.path(), 'utf8'), download.suggestedFilename());
    expect(saved.terrainEdits).toHaveLength(strokes - 1);
    expect(saved.terrainEdits[0]).toMatchObject({ kind: 'crater', frame: 0 });
    const runner = createHeadlessSandbox(saved, { readField });
    const expected = runFixedSteps(runner, FRAMES);
    await pressShortcuts(page, ...new Array<string>(FRAMES).fill('.'));
    await page.waitForFunction((n) => (window as unknown as PageWindow).colliderscope.scenes.sandbox.frame === n, FRAMES, { timeout: 60_000 });
    expect(await page.evaluate(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.hashes())).toEqual(runner.hashes());
    expect(await page.evaluate(() => (window as unknown as PageWindow).colliderscope.scenes.sandbox.hash())).toBe(expected);

    // The wind's explosion blasts a crater under it too.
    await openFolder(guiFolder(page, 'Wind'));
    await guiControl(guiFolder(page, 'Wind'), page, 'detonate explosion').locator('button').click();
    await appliedEdits(page, strokes);
    expect((await appStatus(page)).lastError).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
