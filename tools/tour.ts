/**
 * `npm run tour`: opens every slide of the talk (scenes/tour.json) in headless Chromium at 1600×900,
 * lets its systems run, and saves two screenshots per slide under test-output/tour/: the sandbox with
 * its panels, and presenter mode. Exits with status 1 when a page logs a console error or a slide does
 * not come up, so the tour can be checked before a talk.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, startHarness, PROJECT_ROOT, SCREENSHOT_DIR, type AppStatus } from './chromium';

const VIEWPORT = { width: 1600, height: 900 };
/** Frames a slide runs after its BVH arrived before the screenshot (emitters, A/B timings, particles settle). */
const SETTLE_FRAMES = 40;
/** Ceiling for one slide's terrain, BVH and settling frames under SwiftShader on a busy machine. */
const SLIDE_TIMEOUT_MS = 240_000;

interface StatusProbe {
  colliderscope?: { status: AppStatus & { bvhBuilds: number; presenting: boolean } };
}

const only = process.argv.slice(2);
const slides = JSON.parse(readFileSync(join(PROJECT_ROOT, 'scenes/tour.json'), 'utf8')) as string[];
const tour = slides.filter((name) => only.length === 0 || only.includes(name));
const outputDir = join(SCREENSHOT_DIR, 'tour');
mkdirSync(outputDir, { recursive: true });

const harness = await startHarness();
const failures: string[] = [];
try {
  for (const name of tour) {
    // Screenshots are numbered by the slide's place in the whole tour, also when only some are taken.
    const index = slides.indexOf(name);
    const { page, errors } = await openPage(harness, `?scene=${name}`, VIEWPORT);
    try {
      await page.waitForFunction(
        () => {
          const status = (window as unknown as StatusProbe).colliderscope?.status;
          return status !== undefined && status.bvhBuilds >= 1 && !status.building;
        },
        undefined,
        { timeout: SLIDE_TIMEOUT_MS },
      );
      const settled = async (): Promise<void> => {
        const from = await page.evaluate(() => (window as unknown as StatusProbe).colliderscope!.status.frames);
        await page.waitForFunction((n) => (window as unknown as StatusProbe).colliderscope!.status.frames >= n, from + SETTLE_FRAMES, {
          timeout: SLIDE_TIMEOUT_MS,
        });
      };
      await settled();
      const sandboxShot = join(outputDir, `${String(index + 1).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: sandboxShot });
      await page.keyboard.press('p');
      await page.waitForFunction(() => (window as unknown as StatusProbe).colliderscope!.status.presenting, undefined, { timeout: SLIDE_TIMEOUT_MS });
      await settled();
      const presenterShot = join(outputDir, `${String(index + 1).padStart(2, '0')}-${name}-presenter.png`);
      await page.screenshot({ path: presenterShot });
      const status = await page.evaluate(() => (window as unknown as StatusProbe).colliderscope!.status);
      if (status.scene !== name) errors.push(`the slide shows ${status.scene}, not ${name}`);
      console.log(`${errors.length === 0 ? 'ok  ' : 'FAIL'} ${name}: ${sandboxShot}, ${presenterShot}`);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
      console.log(`FAIL ${name}`);
    }
    for (const error of errors) failures.push(`${name}: ${error}`);
    await page.close();
  }
} finally {
  await harness.close();
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(`${tour.length} slides, no console error`);
