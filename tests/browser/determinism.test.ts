import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHeadlessSandbox, parseSceneText, runFixedSteps, loadAllKernels } from '../../src/core';
import { loadSceneFile, readField, SCENES_DIR } from '../../tools/sceneFiles';
import { SCREENSHOT_DIR, appStatus, openPage, useHarness, waitForBvh } from './harness';

const harness = useHarness();
const FRAMES = 12;

interface PageWithSandbox {
  colliderscope: { scenes: { sandbox: { hash(): string; hashes(): Record<string, string>; frame: number; systems: { name: string }[] } | null } };
}

describe('the page and the headless runner are one program', () => {
  it('the gusts scene, restarted and stepped 12 fixed frames with the keyboard, reaches the runner’s hash', async () => {
    await loadAllKernels();
    const runner = createHeadlessSandbox(loadSceneFile(`${SCENES_DIR}gusts.json`), { readField });
    const expected = runFixedSteps(runner, FRAMES);

    const { page, errors } = await openPage(harness, '?scene=gusts');
    await waitForBvh(page, 1);
    // The scene's systems run, and the wind's SIMD kernel has compiled (the HUD names the kernel that ran).
    await page.waitForFunction(
      () => /wind: .*WASM SIMD JIT\)/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
      undefined,
      {
        timeout: 60_000,
      },
    );
    const systems = await page.evaluate(() => (window as unknown as PageWithSandbox).colliderscope.scenes.sandbox?.systems.map((s) => s.name));
    expect(systems).toEqual(['wind', 'actors']);

    // As a person would: pause, restart (frame 0 with the scene's seeds), then step frame by frame.
    await page.keyboard.press('Space');
    await page.waitForFunction(() => (window as unknown as { colliderscope: { status: { paused: boolean } } }).colliderscope.status.paused);
    await page.keyboard.press('KeyR');
    await page.waitForFunction(() => (window as unknown as PageWithSandbox).colliderscope.scenes.sandbox?.frame === 0);
    for (let i = 0; i < FRAMES; i++) await page.keyboard.press('.');
    await page.waitForFunction((n) => (window as unknown as PageWithSandbox).colliderscope.scenes.sandbox?.frame === n, FRAMES, { timeout: 60_000 });
    // Part by part first, so a failure names the system that diverged.
    const parts = await page.evaluate(() => (window as unknown as PageWithSandbox).colliderscope.scenes.sandbox?.hashes());
    expect(parts).toEqual(runner.hashes());
    const hash = await page.evaluate(() => (window as unknown as PageWithSandbox).colliderscope.scenes.sandbox?.hash());
    expect(hash).toBe(expected);
    expect((await appStatus(page)).lastError).toBe('');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'determinism-gusts.png') });

    // Scene → save scene file: the download is a valid scene that names the same systems and settings.
    const button = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^save scene file$/ }) }).locator('button');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const saved = parseSceneText(await readFile(await download.path(), 'utf8'), download.suggestedFilename());
    expect(download.suggestedFilename()).toBe('gusts.json');
    expect(Object.keys(saved.systems)).toEqual(['wind', 'actors']);
    expect(saved.systems.actors).toEqual(runner.system('actors')!.section());
    expect(saved.terrain).toEqual(runner.terrain.params);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
