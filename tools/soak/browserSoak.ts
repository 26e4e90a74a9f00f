import { execFileSync } from 'node:child_process';
import { chromium, type Page } from 'playwright-core';
import { preview } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH, PROJECT_ROOT } from '../chromium';
import { firstNaN, judgeSoak, type SoakSample, type SoakVerdict } from './checks';

export interface BrowserSoakOptions {
  minutes: number;
  /** Build the app first (`npm run build`); off to soak the dist/ already there. */
  build: boolean;
  /** Presets cycled through, each visited once per pass. */
  presets?: readonly string[];
  onSample?: (sample: SoakSample, pass: number) => void;
}

export interface BrowserSoakResult {
  passes: SoakSample[][];
  verdict: SoakVerdict;
  errors: string[];
  /** Where NaN appeared in a system's state, or ''. */
  nan: string;
}

/** Presets with many systems between them (the craters one edits the terrain as it runs). */
export const SOAK_PRESETS = ['craters', 'gusts', 'capsule-sweeps', 'ray-lab', 'box-crowd'] as const;
const SAMPLE_SECONDS = 5;
const PASSES_AT_LEAST = 3;

/** What the soak reads of the page (window.colliderscope). */
interface SoakWindow {
  colliderscope: {
    status: { scene: string; bvhBuilds: number };
    scenes: {
      sandbox: {
        systems: { name: string; saveState?(): unknown; metrics(): object; section(): object }[];
        terrain: { positions: Float32Array };
        timings: { window(phase: string): Float64Array };
      } | null;
      setSystem(name: string, section: object | null): unknown;
    };
  };
  gc?: () => void;
  firstNaN: typeof firstNaN;
  performance: { memory?: { usedJSHeapSize: number } };
}

/**
 * The built app (vite build, served by vite preview) in headless Chromium for `minutes`: the presets
 * cycled through the panel's menu, in each visit a crater blasted with Ctrl+Shift+click, the kernels
 * of the running systems switched, the wind's explosion detonated; every few seconds the heap after a
 * collection, the step's median time and a NaN scan of every system's state.
 */
export async function browserSoak(options: BrowserSoakOptions): Promise<BrowserSoakResult> {
  if (options.build) execFileSync('npm', ['run', '-s', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  const server = await preview({ root: PROJECT_ROOT, logLevel: 'error', preview: { port: 0, host: '127.0.0.1', open: false } });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('vite preview has no address');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'],
  });
  const errors: string[] = [];
  let nan = '';
  const passes: SoakSample[][] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(`localStorage.setItem('colliderscope.helpSeen', '1'); window.firstNaN = ${firstNaN.toString()};`);
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
    const presets = options.presets ?? SOAK_PRESETS;
    const passCount = Math.max(PASSES_AT_LEAST, Math.floor((options.minutes * 60) / (presets.length * 40)));
    const visitSeconds = (options.minutes * 60) / (passCount * presets.length);
    const started = Date.now();
    await page.goto(`${url}?scene=${presets[0]}`, { waitUntil: 'domcontentloaded' });
    for (let pass = 0; pass < passCount && nan === ''; pass++) {
      const samples: SoakSample[] = [];
      for (const preset of presets) {
        await openPreset(page, preset);
        const visitEnd = Date.now() + visitSeconds * 1000;
        const actions = [blastCrater, switchKernels, detonate];
        let nextAction = 0;
        while (Date.now() < visitEnd && nan === '') {
          await page.waitForTimeout(Math.min(SAMPLE_SECONDS * 1000, Math.max(0, visitEnd - Date.now())));
          if (nextAction < actions.length) await actions[nextAction++]!(page);
          const reading = await page.evaluate(() => {
            const w = window as unknown as SoakWindow;
            w.gc?.();
            const sandbox = w.colliderscope.scenes.sandbox;
            const steps = sandbox === null ? new Float64Array(0) : Array.from(sandbox.timings.window('step')).sort((a, b) => a - b);
            let found = sandbox === null ? '' : w.firstNaN(sandbox.terrain.positions, 'terrain.positions', 1);
            for (const system of sandbox?.systems ?? []) {
              if (found === '') found = w.firstNaN(system.saveState?.() ?? null, `${system.name}.state`, 1e7);
              if (found === '') found = w.firstNaN(system.metrics(), `${system.name}.metrics`, 1e4);
            }
            return { heap: w.performance.memory?.usedJSHeapSize ?? NaN, step: steps.length > 0 ? steps[steps.length >> 1]! : 0, nan: found };
          });
          nan = reading.nan === '' ? '' : `${preset}: ${reading.nan}`;
          const sample: SoakSample = { at: (Date.now() - started) / 1000, heapMiB: reading.heap / 1048576, stepMs: reading.step, label: preset };
          samples.push(sample);
          options.onSample?.(sample, pass);
        }
      }
      passes.push(samples);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { passes, verdict: judgeSoak(passes), errors, nan };
}

/** Chooses a preset in the panel's menu and waits for its BVH. */
async function openPreset(page: Page, preset: string): Promise<void> {
  const builds = await page.evaluate(() => (window as unknown as SoakWindow).colliderscope?.status.bvhBuilds ?? 0);
  const menu = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^preset$/ }) }).locator('select');
  if ((await menu.inputValue()) !== preset) await menu.selectOption(preset);
  await page.waitForFunction(
    ([name, before]) => {
      const status = (window as unknown as SoakWindow).colliderscope?.status;
      return status !== undefined && status.scene === name && status.bvhBuilds > before;
    },
    [preset, builds] as const,
    { timeout: 180_000 },
  );
}

/** Ctrl+Shift+click in the middle of the view: a crater. */
async function blastCrater(page: Page): Promise<void> {
  await page.mouse.move(640, 400);
  await page.keyboard.down('Control');
  await page.keyboard.down('Shift');
  await page.mouse.down();
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.keyboard.up('Control');
}

/** Every running system with a kernel switches to the other one, as its folder's menu would. */
async function switchKernels(page: Page): Promise<void> {
  await page.evaluate(() => {
    const scenes = (window as unknown as SoakWindow).colliderscope.scenes;
    for (const system of scenes.sandbox?.systems ?? []) {
      const section = system.section() as { kernel?: string };
      if (section.kernel === undefined) continue;
      scenes.setSystem(system.name, { ...section, kernel: section.kernel === 'typescript' ? 'wasm-simd' : 'typescript' });
    }
  });
}

/** The wind folder's *detonate explosion* (it turns the wind on first, and blasts a crater under it). */
async function detonate(page: Page): Promise<void> {
  await page.evaluate(() => {
    const control = [...document.querySelectorAll('.lil-controller')].find((c) => c.querySelector('.lil-name')?.textContent === 'detonate explosion');
    control?.querySelector('button')?.click();
  });
}
