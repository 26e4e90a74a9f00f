import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LIGHT_TERRAIN, SCREENSHOT_DIR, openPage, useHarness, waitForBuilds } from './harness';

const harness = useHarness();

interface TalkStatus {
  frames: number;
  simFrame: number;
  paused: boolean;
  recording: boolean;
  recordedFrames: number;
  benchmarking: boolean;
  benchmarkResult: string;
  presenting: boolean;
  slide: number;
  scene: string;
  builds: number;
  lastError: string;
}

/** A small window for tests whose point is not the picture: SwiftShader draws it several times faster. */
const SMALL = { width: 800, height: 500 };
/** The talk scene on a 64-cell terrain, for tests of the controls. */
const LIGHT = `?scene=rolling-hills${LIGHT_TERRAIN}`;

const status = (page: Page): Promise<TalkStatus> =>
  page.evaluate(() => (window as unknown as { colliderscope: { status: TalkStatus } }).colliderscope.status);

async function waitFor(page: Page, predicate: string, timeout = 60_000): Promise<void> {
  await page.waitForFunction(`(() => { const s = window.colliderscope.status; return ${predicate}; })()`, undefined, { timeout });
}

/** Every GUI setting of the page as "Folder/property" → value (what the URL must carry). */
function guiValues(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => {
    interface C {
      property: string;
      _disabled: boolean;
      getValue(): unknown;
      parent: { _title: string; parent?: unknown };
    }
    const gui = (window as unknown as { colliderscope: { panel: { gui: { controllersRecursive(): C[] } } } }).colliderscope.panel.gui;
    const values: Record<string, unknown> = {};
    for (const c of gui.controllersRecursive()) {
      const v = c.getValue();
      if (c._disabled || typeof v === 'function' || typeof v === 'object') continue;
      values[`${c.parent._title}/${c.property}`] = v;
    }
    return values;
  });
}

/** Sets a GUI setting as a user would (through its controller, so its change handlers run). */
async function setSetting(page: Page, folder: string, property: string, value: unknown): Promise<void> {
  await page.evaluate(
    ([f, p, v]) => {
      interface C {
        property: string;
        parent: { _title: string };
        load(value: unknown): void;
      }
      const gui = (window as unknown as { colliderscope: { panel: { gui: { controllersRecursive(): C[] } } } }).colliderscope.panel.gui;
      const controller = gui.controllersRecursive().find((c) => c.parent._title === f && c.property === p);
      if (controller === undefined) throw new Error(`no setting ${f}/${p}`);
      controller.load(v);
    },
    [folder, property, value] as const,
  );
}

/** Distinct colours and the share of non-uniform pixels in a PNG, decoded by the browser. */
function pngColours(page: Page, png: Buffer): Promise<{ width: number; distinct: number }> {
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4 * 7) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return { width: image.width, distinct: colours.size };
  }, png.toString('base64'));
}

describe('talk-ready controls in real Chromium', () => {
  it('shows the help on the first visit only', async () => {
    const { page, errors } = await openPage(harness, '?scene=rolling-hills', undefined, true);
    const help = page.locator('[data-testid="help"]');
    await expect(help.isVisible()).resolves.toBe(true);
    await expect(help.textContent()).resolves.toMatch(/Space[\s\S]*pause[\s\S]*presenter/);
    // One gesture table: every mouse gesture once, each with its owner.
    const text = (await help.textContent()) ?? '';
    for (const gesture of [
      'clickBVH: cast a ray',
      'Ctrl+clickray emitters',
      'Alt+dragcapsule probe',
      'Alt+Shift+dragcapsule probe',
      'Shift+dragbox probe',
      'Shift+wheelbox probe',
      'Ctrl+Shift+dragblast and sculpt',
    ]) {
      expect(text).toContain(gesture);
    }
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'help-overlay.png') });
    await page.locator('[data-testid="help-close"]').click();
    await expect(help.isVisible()).resolves.toBe(false);
    await page.reload();
    await waitForBuilds(page, 1);
    await expect(page.locator('[data-testid="help"]').isVisible()).resolves.toBe(false);
    await page.keyboard.press('?');
    await expect(page.locator('[data-testid="help"]').isVisible()).resolves.toBe(true);
    // Keys claimed by parts of the page are listed under their owner.
    await expect(page.locator('[data-testid="help"]').textContent()).resolves.toMatch(/Fly camera \(F\)W A S Dmove[\s\S]*Character/);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'help-shortcuts.png') });
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-testid="help"]').isVisible()).resolves.toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pauses, single-steps, steps back and restarts', async () => {
    const { page, errors } = await openPage(harness, LIGHT, SMALL);
    await waitForBuilds(page, 1);
    await waitFor(page, 's.simFrame > 10');
    await page.keyboard.press(' ');
    await waitFor(page, 's.paused');
    const paused = (await status(page)).simFrame;
    const frames = (await status(page)).frames;
    await waitFor(page, `s.frames > ${frames + 10}`);
    expect((await status(page)).simFrame).toBe(paused);
    await page.locator('[data-testid="control-step"]').click();
    await waitFor(page, `s.simFrame === ${paused + 1}`);
    await page.keyboard.press('.');
    await waitFor(page, `s.simFrame === ${paused + 2}`);
    await page.keyboard.press(',');
    await page.keyboard.press(',');
    await page.keyboard.press(',');
    await waitFor(page, `s.simFrame === ${paused - 1}`);
    await page.keyboard.press('r');
    await waitFor(page, 's.simFrame === 0');
    await page.locator('[data-testid="control-pause"]').click();
    await waitFor(page, '!s.paused && s.simFrame > 5');
    expect((await status(page)).lastError).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('step back with a system that keeps no history says which one, as a notice rather than an error', async () => {
    const { page, errors } = await openPage(harness, `${LIGHT}&Particles/enabled=true`, SMALL);
    await waitForBuilds(page, 1);
    await page.waitForFunction(() => /particles/i.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''), undefined, {
      timeout: 60_000,
    });
    await waitFor(page, 's.simFrame > 5');
    await page.keyboard.press(',');
    const banner = page.locator('[data-testid="error-banner"]');
    await banner.waitFor({ state: 'visible' });
    await expect(banner.textContent()).resolves.toMatch(
      /Step back is not available in this scene.*The particles system keeps no history of its states/,
    );
    await expect(banner.textContent()).resolves.not.toMatch(/Not applied/);
    await expect(banner.getAttribute('data-kind')).resolves.toBe('notice');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'step-back-notice.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('presenter mode: H shows the timing panel clear of the slide title; after Esc the checkbox matches it', async () => {
    const { page, errors } = await openPage(harness, LIGHT);
    await waitForBuilds(page, 1);
    await page.keyboard.press('p');
    await waitFor(page, 's.presenting');
    await page.keyboard.press('h');
    const hud = page.locator('[data-testid="timing-hud"]');
    await expect(hud.isVisible()).resolves.toBe(true);
    // The panel is redrawn a few times a second: wait until it holds its rows.
    await page.waitForFunction(() => /render/.test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''));
    // The large panel takes its place once presenter mode's class lands (a frame later on a slow page): poll for it.
    const clear = await page
      .waitForFunction(
        () => {
          const hudRect = document.querySelector('[data-testid="timing-hud"]')!.getBoundingClientRect();
          return ['.cs-presenter-title', '.cs-presenter-subtitle'].every((part) => {
            const box = document.querySelector(part)!.getBoundingClientRect();
            return !(box.left < hudRect.right && hudRect.left < box.right && box.top < hudRect.bottom && hudRect.top < box.bottom);
          });
        },
        undefined,
        { timeout: 120_000 },
      )
      .then(() => true)
      .catch(() => false);
    expect(clear, 'the slide title and subtitle stay clear of the timing panel').toBe(true);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'presenter-hud.png') });
    await page.keyboard.press('Escape');
    await waitFor(page, '!s.presenting');
    const checkbox = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^timing HUD \(H\)$/ }) }).locator('input');
    await expect(checkbox.isChecked()).resolves.toBe(await hud.isVisible());
    expect(errors).toEqual([]);
    await page.close();
  });

  it('records frames and exports a CSV whose rows match the frames run, and a JSON with settings', async () => {
    const { page, errors } = await openPage(harness, LIGHT, SMALL);
    await waitForBuilds(page, 1);
    await page.keyboard.press('k');
    await waitFor(page, 's.recording && s.recordedFrames >= 40');
    await page.locator('[data-testid="control-record"]').click();
    await waitFor(page, '!s.recording');
    const recorded = (await status(page)).recordedFrames;
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="control-csv"]').click()]);
    expect(csvDownload.suggestedFilename()).toMatch(/^colliderscope-rolling-hills-.*\.csv$/);
    const csv = readFileSync(await csvDownload.path())
      .toString('utf8')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(recorded + 1);
    const header = csv[0]!.split(',');
    expect(header.slice(0, 2)).toEqual(['frame', 'time']);
    expect(header).toContain('render ms');
    expect(header).toContain('step ms');
    const frameNumbers = csv.slice(1).map((row) => Number(row.split(',')[0]));
    for (let i = 1; i < frameNumbers.length; i++) expect(frameNumbers[i]).toBe(frameNumbers[i - 1]! + 1);
    const renderColumn = header.indexOf('render ms');
    for (const row of csv.slice(1)) expect(Number(row.split(',')[renderColumn])).toBeGreaterThan(0);

    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="control-json"]').click()]);
    const json = JSON.parse(readFileSync(await jsonDownload.path()).toString('utf8')) as {
      info: { scene: string; settings: { url: string }; machine: { cores: number } };
      frames: unknown[];
    };
    expect(json.info.scene).toBe('rolling-hills');
    expect(json.info.settings.url).toMatch(/#.*camera=/);
    expect(json.info.machine.cores).toBeGreaterThan(0);
    expect(json.frames).toHaveLength(recorded);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs a benchmark of a fixed number of frames and shows a table to copy', async () => {
    const { page, errors } = await openPage(harness, LIGHT, SMALL);
    await waitForBuilds(page, 1);
    await setSetting(page, 'Run', 'benchmarkFrames', 20);
    // A short warm-up: the table and its mechanics are the point here, not the figures.
    await setSetting(page, 'Run', 'benchmarkWarmup', 5);
    await page.keyboard.press('b');
    await waitFor(page, 's.benchmarking');
    await waitFor(page, '!s.benchmarking && s.benchmarkResult !== ""', 120_000);
    const result = (await status(page)).benchmarkResult;
    expect(result).toMatch(/20 frames of 1\/60 s after 5 warm-up frames/);
    expect(result).toMatch(/^step\s+20\s/m);
    expect(result).toMatch(/^render\s+20\s/m);
    await expect(page.locator('[data-testid="result-dialog"]').isVisible()).resolves.toBe(true);
    await expect(page.locator('[data-testid="result-text"]').inputValue()).resolves.toBe(result);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'benchmark-result.png') });
    await page.locator('[data-testid="result-close"]').click();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('puts every setting in the URL hash, and a link reproduces them', async () => {
    const { page, errors } = await openPage(harness, LIGHT, SMALL);
    await waitForBuilds(page, 1);
    await setSetting(page, 'Terrain', 'cells', 48);
    await waitForBuilds(page, 2);
    await setSetting(page, 'Terrain', 'seed', 4242);
    await setSetting(page, 'View', 'wireframe', true);
    await setSetting(page, 'View', 'fogAmount', 0.6);
    await setSetting(page, 'View', 'colouring', 'slope');
    await setSetting(page, 'Run', 'timeScale', 0.5);
    await setSetting(page, 'Run', 'fixedStep', true);
    await waitForBuilds(page, 3);
    // Every value set, not only some: the hash is written a moment after each change.
    await page.waitForFunction(
      () =>
        ['wireframe=true', 'seed=4242', 'fogAmount=0.6', 'colouring=slope', 'timeScale=0.5', 'fixedStep=true'].every((part) =>
          location.hash.includes(part),
        ),
      undefined,
      { timeout: 30_000 },
    );
    const link = await page.evaluate(() => location.href);
    const expected = await guiValues(page);

    const copy = await openPage(harness, '', SMALL);
    await copy.page.goto(link, { waitUntil: 'domcontentloaded' });
    await waitForBuilds(copy.page, 1);
    const restored = await guiValues(copy.page);
    expect(restored).toEqual(expected);
    expect(restored['Terrain/cells']).toBe(48);
    expect(restored['View/colouring']).toBe('slope');
    const cameraOf = (p: Page) => p.evaluate(() => location.hash.match(/camera=([^&]+)/)?.[1]);
    await expect(cameraOf(copy.page)).resolves.toBe(await cameraOf(page));
    expect((await status(copy.page)).lastError).toBe('');
    expect(errors).toEqual([]);
    expect(copy.errors).toEqual([]);

    // A link pasted into the same tab applies at once; a damaged one applies what it can and says what it ignored.
    await copy.page.evaluate(() => (location.hash = '#View/fogAmount=lots&Nope/x=1&View/wireframe=false&Run/timeScale=2'));
    await copy.page.waitForFunction(
      () => (window as unknown as { colliderscope: { status: { lastError: string } } }).colliderscope.status.lastError !== '',
    );
    const damaged = await guiValues(copy.page);
    expect(damaged['View/wireframe']).toBe(false);
    expect(damaged['Run/timeScale']).toBe(2);
    expect(damaged['View/fogAmount']).toBe(0.6);
    expect((await status(copy.page)).lastError).toMatch(/fogAmount: expected a number.*Nope\/x: no such setting/);
  });

  it('presenter mode hides the panels and steps through the tour like slides; screenshots are not blank', async () => {
    // Two light slides of the tour (scenes/tour.json): the wind VM, then the actors.
    const { page, errors } = await openPage(harness, '?scene=wind-vm');
    await waitForBuilds(page, 1);
    await page.keyboard.press('p');
    await waitFor(page, 's.presenting');
    await expect(page.locator('[data-testid="gui"]').isVisible()).resolves.toBe(false);
    await expect(page.locator('[data-testid="controls"]').isVisible()).resolves.toBe(false);
    // The slide shows the scene's title, not its file name, and where it is in the tour.
    await expect(page.locator('[data-testid="presenter-title"]').textContent()).resolves.toBe('A wind field compiled to bytecode');
    const first = (await status(page)).slide;
    expect(first).toBeGreaterThanOrEqual(0);
    await expect(page.locator('.cs-presenter-position').textContent()).resolves.toMatch(new RegExp(`^${first + 1} / \\d+$`));
    await page.keyboard.press('ArrowRight');
    await waitFor(page, `s.slide === ${first + 1} && s.scene === 'actors'`);
    await waitForBuilds(page, 2);
    await expect(page.locator('[data-testid="presenter-title"]').textContent()).resolves.toBe('300 actors on the terrain');
    // A scene states every system: the wind is off on the actors' slide, the actors on.
    await page.waitForFunction(() => {
      const names = (
        window as unknown as { colliderscope: { scenes: { sandbox: { systems: { name: string }[] } } } }
      ).colliderscope.scenes.sandbox.systems.map((s) => s.name);
      return names.join() === 'actors';
    });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'presenter.png') });
    await page.keyboard.press('PageUp');
    await waitFor(page, `s.slide === ${first} && s.scene === 'wind-vm'`);
    await waitForBuilds(page, 3);
    // The on-screen buttons do the same for a touch screen.
    await page.locator('[data-testid="presenter-next"]').click();
    await waitFor(page, `s.slide === ${first + 1}`);
    await page.locator('[data-testid="presenter-previous"]').click();
    await waitFor(page, `s.slide === ${first} && s.scene === 'wind-vm'`);
    await page.locator('[data-testid="presenter-leave"]').click();
    await waitFor(page, '!s.presenting');
    // The HUD hides while presenting and H shows it for the talk; leaving shows the View setting again,
    // and the panel's checkbox agrees with what is shown.
    const hud = page.locator('[data-testid="timing-hud"]');
    const hudBox = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^timing HUD \(H\)$/ }) }).locator('input');
    await expect(hud.isVisible()).resolves.toBe(true);
    await page.keyboard.press('p');
    await waitFor(page, 's.presenting');
    await expect(hud.isVisible()).resolves.toBe(false);
    await page.keyboard.press('h');
    await expect(hud.isVisible()).resolves.toBe(true);
    await page.keyboard.press('h');
    await expect(hud.isVisible()).resolves.toBe(false);
    await page.keyboard.press('Escape');
    await waitFor(page, '!s.presenting');
    await expect(page.locator('[data-testid="gui"]').isVisible()).resolves.toBe(true);
    await expect(hud.isVisible()).resolves.toBe(true);
    await expect(hudBox.isChecked()).resolves.toBe(true);
    await page.keyboard.press('h');
    await expect(hud.isVisible()).resolves.toBe(false);
    await expect(hudBox.isChecked()).resolves.toBe(false);
    await page.keyboard.press('p');
    await waitFor(page, 's.presenting');
    await page.keyboard.press('h');
    await expect(hud.isVisible()).resolves.toBe(true);
    await page.keyboard.press('p');
    await waitFor(page, '!s.presenting');
    await expect(hud.isVisible()).resolves.toBe(false);
    await expect(hudBox.isChecked()).resolves.toBe(false);
    await page.keyboard.press('h');

    const [shot] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="control-screenshot"]').click()]);
    expect(shot.suggestedFilename()).toMatch(/\.png$/);
    const png = readFileSync(await shot.path());
    const colours = await pngColours(page, png);
    expect(colours.width).toBeGreaterThan(600);
    expect(colours.distinct).toBeGreaterThan(100);
    expect(errors).toEqual([]);
    await page.close();
  });
});
