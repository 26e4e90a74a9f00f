import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { LIGHT_TERRAIN, SCREENSHOT_DIR, openPage, waitForBuilds, useHarness, guiFolder, guiControl, waitForBvh, waitForFrames } from './harness';

const harness = useHarness();

const hudText = async (page: Page): Promise<string> => (await page.locator('[data-testid="timing-hud"]').textContent()) ?? '';
const folder = guiFolder;
const control = (scope: ReturnType<typeof folder>, page: Page, label: string) => guiControl(scope, page, label);
/** Opens a GUI folder by its exact title (no-op when open), without waiting for animations. */
const openFolder = (page: Page, title: string) =>
  page.evaluate((name) => {
    const button = [...document.querySelectorAll<HTMLButtonElement>('.lil-title')].find((b) => b.textContent === name);
    if (button === undefined) throw new Error(`no GUI folder ${name}`);
    if (button.getAttribute('aria-expanded') !== 'true') button.click();
  }, title);
const waitForHud = (page: Page, pattern: RegExp, timeout = 30_000) =>
  page.waitForFunction((source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''), pattern.source, {
    timeout,
  });

describe('capsule sweeps in real Chromium', () => {
  it('off by default; the probe sweeps and follows Alt-drag, the character walks with WASD, the stress scene throws capsules', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    expect(await hudText(page)).not.toMatch(/capsule probe|character:|stress:/);

    await openFolder(page, 'Capsule sweeps');
    const probe = folder(page, 'Probe');
    await openFolder(page, 'Probe');
    await control(probe, page, 'show probe')
      .locator('input')
      .evaluate((box: HTMLInputElement) => box.checked || box.click());
    await waitForHud(page, /capsule probe: contact at toi [\d.]+ on triangle \d+/);
    expect(await hudText(page)).toMatch(/pairs: \d+ kept of \d+ possible/);
    await control(probe, page, 'look at the probe')
      .locator('button')
      .evaluate((button: HTMLButtonElement) => button.click());
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'capsule-probe.png') });

    // Alt-drag moves the start to the terrain under the pointer.
    const startX = control(probe, page, 'start x').locator('input').last();
    const before = await startX.inputValue();
    await page.mouse.move(500, 520);
    await page.keyboard.down('Alt');
    await page.mouse.down();
    await page.mouse.move(760, 430, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Alt');
    await expect.poll(() => startX.inputValue(), { timeout: 30_000 }).not.toBe(before);
    await control(probe, page, 'show probe')
      .locator('input')
      .evaluate((box: HTMLInputElement) => box.click());

    // The character: W walks it (the fly camera and the pause key do not get the keys), Space jumps.
    const walker = folder(page, 'Character (WASD, Space jumps)');
    await openFolder(page, 'Character (WASD, Space jumps)');
    await control(walker, page, 'walk a capsule')
      .locator('input')
      .evaluate((box: HTMLInputElement) => box.checked || box.click());
    await waitForHud(page, /character: on the ground at/);
    // In fly mode WASD also moves the fly camera, unless the character has claimed the keys.
    await page.locator('canvas').first().focus();
    await page.keyboard.press('f');
    // Not silently: a notice says who holds W A S D.
    await expect.poll(() => page.locator('[data-testid="error-banner"]').textContent(), { timeout: 30_000 }).toMatch(/W A S D walk the character/);
    /** The character's place (from the HUD) and the camera's, read together. */
    const where = () =>
      page.evaluate(() => {
        const hud = document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '';
        const match = /character: [a-z ]+ at \((-?[\d.]+), (-?[\d.]+)\)/.exec(hud);
        const camera = (window as unknown as { colliderscope: { stage: { camera: { position: { x: number; z: number } } } } }).colliderscope.stage
          .camera.position;
        return { x: Number(match?.[1]), z: Number(match?.[2]), cameraX: camera.x, cameraZ: camera.z };
      });
    const start = await where();
    // W held until the character has walked half a unit (SwiftShader may draw a frame a second, and the
    // character moves with the simulation's steps), then released.
    await page.keyboard.down('KeyW');
    await expect
      .poll(
        async () => {
          const now = await where();
          return Math.hypot(now.x - start.x, now.z - start.z);
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0.5);
    await page.keyboard.up('KeyW');
    await waitForFrames(page);
    const end = await where();
    expect(Math.hypot(end.x - start.x, end.z - start.z)).toBeGreaterThan(0.5);
    // The camera followed the character and no more: flying would have added tens of units per frame.
    expect(Math.abs(end.cameraX - start.cameraX - (end.x - start.x))).toBeLessThan(2);
    expect(Math.abs(end.cameraZ - start.cameraZ - (end.z - start.z))).toBeLessThan(2);
    await page.keyboard.press('Space');
    await waitForHud(page, /character: in the air/, 5_000).catch(() => undefined);
    const paused = () => page.evaluate(() => (window as unknown as { colliderscope: { status: { paused: boolean } } }).colliderscope.status.paused);
    expect(await paused()).toBe(false);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'capsule-character.png') });
    // The help lists the character's keys under its name.
    await page.keyboard.press('?');
    await expect(page.locator('[data-testid="help"]').textContent()).resolves.toMatch(/Character \(while “walk a capsule” is on\)W A S Dwalk/);
    await page.keyboard.press('Escape');
    await control(walker, page, 'walk a capsule')
      .locator('input')
      .evaluate((box: HTMLInputElement) => box.click());
    // Without the character, Space pauses again (and runs again), and F goes back to orbiting.
    await page.keyboard.press('Space');
    await expect.poll(paused, { timeout: 10_000 }).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(paused, { timeout: 10_000 }).toBe(false);
    await page.keyboard.press('f');

    // The stress scene: a few hundred capsules in one batch per frame.
    const stress = folder(page, 'Stress: many capsules');
    await openFolder(page, 'Stress: many capsules');
    const count = control(stress, page, 'capsules').locator('input').last();
    // Typed as lil-gui expects (input, then blur for its finish-change), whether or not the folder has
    // finished its opening animation.
    await count.evaluate((input: HTMLInputElement) => {
      input.value = '300';
      input.dispatchEvent(new Event('input'));
      input.dispatchEvent(new Event('blur'));
    });
    await control(stress, page, 'throw capsules')
      .locator('input')
      .evaluate((box: HTMLInputElement) => box.checked || box.click());
    await waitForHud(page, /stress: 300 capsules · one batch [\d.]+ ms/);
    // Framed by the folder's focus button (the camera was wherever the character left it).
    await control(folder(page, 'Capsule sweeps'), page, '⌖ focus the camera on the capsules')
      .locator('button')
      .evaluate((button: HTMLButtonElement) => button.click());
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'capsule-stress.png') });
    expect(await hudText(page)).toMatch(/\d+ contacts/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the capsule kernel switch: the probe and the stress scene sweep in WebAssembly SIMD (the default) or TypeScript, with the same contact, and say which ran', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    await openFolder(page, 'Capsule sweeps');
    const sweeps = folder(page, 'Capsule sweeps');
    const kernel = control(sweeps, page, 'capsule kernel').locator('select');
    const ran = control(sweeps, page, 'kernel that ran').locator('input');
    expect(await kernel.inputValue()).toBe('WebAssembly SIMD');

    const probe = folder(page, 'Probe');
    await openFolder(page, 'Probe');
    await control(probe, page, 'show probe')
      .locator('input')
      .evaluate((box: HTMLInputElement) => box.checked || box.click());
    const contact = /capsule probe: (contact at toi [\d.]+ on triangle \d+|no contact) · [\d.]+ ms · ([A-Za-z ]+) ·/;
    await waitForHud(page, /capsule probe: .* · WebAssembly SIMD ·/);
    const simd = contact.exec(await hudText(page))!;
    await expect.poll(() => ran.inputValue(), { timeout: 10_000 }).toBe('WebAssembly SIMD');

    await kernel.selectOption('TypeScript');
    await waitForHud(page, /capsule probe: .* · TypeScript ·/);
    const typescript = contact.exec(await hudText(page))!;
    expect(typescript[1]).toBe(simd[1]);
    await expect.poll(() => ran.inputValue(), { timeout: 10_000 }).toBe('TypeScript');
    await kernel.selectOption('WebAssembly SIMD');
    await control(probe, page, 'look at the probe')
      .locator('button')
      .evaluate((button: HTMLButtonElement) => button.click());
    await control(sweeps, page, 'capsule kernel').scrollIntoViewIfNeeded();
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'capsule-kernel-probe.png') });

    // The stress scene's batch follows the switch live, both ways.
    const stress = folder(page, 'Stress: many capsules');
    await openFolder(page, 'Stress: many capsules');
    await control(stress, page, 'capsules')
      .locator('input')
      .last()
      .evaluate((input: HTMLInputElement) => {
        input.value = '2000';
        input.dispatchEvent(new Event('input'));
        input.dispatchEvent(new Event('blur'));
      });
    await control(stress, page, 'throw capsules')
      .locator('input')
      .evaluate((box: HTMLInputElement) => box.checked || box.click());
    // The crowd's batch sweeps on the page's capsule pool when it has workers (same contacts).
    await waitForHud(page, /stress: 2,000 capsules · one batch [\d.]+ ms \(\d+k sweeps\/s, WebAssembly SIMD( on \d threads)?\)/);
    // With one worker beside the main thread, the batch runs on two threads and says how each was used.
    const workers = control(folder(page, 'Threads'), page, 'worker threads (0: main only)').locator('input').first();
    await workers.fill('1');
    await workers.press('Enter');
    await waitForHud(page, /stress: 2,000 capsules · one batch [\d.]+ ms \(\d+k sweeps\/s, WebAssembly SIMD on 2 threads\)/);
    await waitForHud(page, /stress threads [\d.]+ · [\d.]+ ms \/ [\d.]+ · eff \d+%/);
    await waitForFrames(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'capsule-kernel-stress.png') });
    await kernel.selectOption('TypeScript');
    await waitForHud(page, /stress: 2,000 capsules · one batch [\d.]+ ms \(\d+k sweeps\/s, TypeScript\)/);
    await expect.poll(() => ran.inputValue(), { timeout: 10_000 }).toBe('TypeScript');
    expect(errors).toEqual([]);
    await page.close();
  });
});
