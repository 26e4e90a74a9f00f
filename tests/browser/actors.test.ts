import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { LIGHT_TERRAIN, SCREENSHOT_DIR, openPage, waitForBuilds, waitForBvh, useHarness } from './harness';

const harness = useHarness();

/** A small window where the picture is not the point: SwiftShader draws it faster, so the pile steps faster. */
const SMALL = { width: 640, height: 400 };

const hudText = (): string => document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '';

describe('actors in real Chromium', () => {
  it('drops a pile that falls asleep, and the explosion wakes the sleepers first', async () => {
    // Settings through the URL hash, as a shared link would: a small pile (SwiftShader must keep up), out
    // of the wind so it settles, with the wind's tracers and arrows off to spare the CPU.
    const { page, errors } = await openPage(
      harness,
      `${LIGHT_TERRAIN}&Actors/count=40&Actors/enabled=true&Actors/wind=false&Wind/enabled=true&Wind/tracers=0&Wind/arrows=false&camera=45,30,185,25.6,12,153.6,50`,
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

  it('300 actors on the ridged terrain settle and sleep; the HUD counts one step’s contacts, not its substeps’ sum', async () => {
    // Fixed steps of 4/60 s, as a slow page frame gives: four substeps' worth, taken as the cap of three; no wind,
    // so the pile can rest.
    const { page, errors } = await openPage(
      harness,
      `${LIGHT_TERRAIN}&Actors/enabled=true&Actors/count=300&Run/timeScale=4&Run/fixedStep=true`,
      SMALL,
    );
    await waitForBuilds(page, 1);
    await waitForBvh(page);
    const census = (): Promise<{ asleep: number; contacts: number; substeps: number; buffer: number; frame: number }> =>
      page.evaluate(() => {
        const text = document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '';
        const match = /actors: 300 · awake \d+ · asleep (\d+) · contacts per step (\d+) .* · (\d+) substeps?/.exec(text);
        const app = (
          window as unknown as {
            colliderscope: {
              status: { simFrame: number };
              scenes: { sandbox: { system(name: string): { world: { contacts: { count: number } } } } };
            };
          }
        ).colliderscope;
        return {
          asleep: Number(match?.[1] ?? -1),
          contacts: Number(match?.[2] ?? -1),
          substeps: Number(match?.[3] ?? -1),
          buffer: app.scenes.sandbox.system('actors').world.contacts.count,
          frame: app.status.simFrame,
        };
      });
    // The pile lands: contacts appear.
    await page.waitForFunction(
      () => Number(/contacts per step (\d+)/.exec(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '')?.[1] ?? '0') > 100,
      undefined,
      { timeout: 120_000 },
    );
    // Paused, the HUD shows the last step's contacts: those in the contact buffer (its last substep's), of 3 substeps.
    await page.keyboard.press('Space');
    await page.waitForFunction(() => (window as unknown as { colliderscope: { status: { paused: boolean } } }).colliderscope.status.paused);
    const frame = (await census()).frame;
    await page.keyboard.press('.');
    await page.waitForFunction(
      (n) => (window as unknown as { colliderscope: { status: { simFrame: number } } }).colliderscope.status.simFrame > n,
      frame,
    );
    // The HUD redraws a few times a second: wait until it shows this step.
    await page.waitForFunction(
      () => {
        const app = (
          window as unknown as { colliderscope: { scenes: { sandbox: { system(name: string): { world: { contacts: { count: number } } } } } } }
        ).colliderscope;
        const count = app.scenes.sandbox.system('actors').world.contacts.count;
        return new RegExp(`contacts per step ${count} `).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '');
      },
      undefined,
      { timeout: 10_000 },
    );
    const step = await census();
    expect(step.substeps).toBe(3);
    expect(step.contacts).toBe(step.buffer);
    // Running again, half the pile and more falls asleep on the ridges.
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () =>
        Number(/actors: 300 · awake \d+ · asleep (\d+)/.exec(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '')?.[1] ?? '0') >=
        150,
      undefined,
      { timeout: 300_000 },
    );
    // The picture at the usual size (the pile stepped in a small window, which SwiftShader draws faster).
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.evaluate(() => {
      const app = (
        window as unknown as {
          colliderscope: {
            scenes: { sandbox: { system(name: string): { world: { actors: { count: number; position: Float64Array } } } } };
            stage: { setView(position: number[], target: number[], fov: number): void };
          };
        }
      ).colliderscope;
      const a = app.scenes.sandbox.system('actors').world.actors;
      const c = [0, 0, 0];
      for (let i = 0; i < a.count; i++) for (let k = 0; k < 3; k++) c[k]! += a.position[3 * i + k]! / a.count;
      app.stage.setView([c[0]! + 22, c[1]! + 14, c[2]! + 22], c, 50);
    });
    // Drawn from there before the picture is taken.
    const drawn = await page.evaluate(() => (window as unknown as { colliderscope: { status: { frames: number } } }).colliderscope.status.frames);
    await page.waitForFunction(
      (n) => (window as unknown as { colliderscope: { status: { frames: number } } }).colliderscope.status.frames > n + 1,
      drawn,
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'actors-ridged-asleep.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 480_000);
});
