/**
 * `npm run soak`: a long run that looks for leaks, NaN creep and drift.
 *
 *   npm run soak                          the built app in headless Chromium for 10 minutes (cycling
 *                                         presets, blasting craters and explosions, switching kernels)
 *   npm run soak -- --minutes 3           shorter
 *   npm run soak -- --node --frames 100000  the core alone, every system at once, in Node
 *   npm run soak -- --plot test-output/soak-browser.json   the plot again from a run's samples
 *
 * Each writes test-output/soak-{browser,node}.png (heap and step time against time, passes shaded) and
 * a JSON of the samples beside it, and exits 1 on any NaN in a system's state, any console error (in
 * the browser), heap growth over 10% or step-time drift over 25% between the first pass after warm-up
 * and the last.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { loadAllKernels } from '../src/core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, SCREENSHOT_DIR } from './chromium';
import { browserSoak } from './soak/browserSoak';
import type { SoakSample, SoakVerdict } from './soak/checks';
import { nodeSoak } from './soak/nodeSoak';
import { plotSoak } from './soak/plot';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got ${args[i + 1]}`);
  return value;
};

let passes: SoakSample[][];
let verdict: SoakVerdict;
let name: string;
let title: string;
let axis: string;
const started = Date.now();
const replot = args.indexOf('--plot');
if (replot >= 0) {
  // Draws the plot again from a run's JSON (test-output/soak-NAME.json) without running anything.
  const file = args[replot + 1] ?? '';
  ({ passes, verdict } = JSON.parse(readFileSync(file, 'utf8')) as { passes: SoakSample[][]; verdict: SoakVerdict });
  name = file.includes('node') ? 'node' : 'browser';
  title = name === 'node' ? 'Node soak: every system, fixed frames' : 'Browser soak: the built app, presets cycled';
  axis = name === 'node' ? 'frame' : 'seconds';
} else if (args.includes('--node')) {
  if ((globalThis as { gc?: unknown }).gc === undefined)
    console.warn('soak: run with NODE_OPTIONS=--expose-gc (npm run soak does) for heap figures after collection');
  await loadAllKernels();
  const frames = option('--frames', 100_000);
  const result = nodeSoak({
    frames,
    passes: option('--passes', 5),
    samplesPerPass: option('--samples', 20),
    onSample: (sample, pass) =>
      console.log(`pass ${pass}  frame ${sample.at}  heap ${sample.heapMiB.toFixed(1)} MiB  step ${sample.stepMs.toFixed(2)} ms  (${sample.label})`),
  });
  ({ passes, verdict } = result);
  name = 'node';
  title = `Node soak: every system, ${frames.toLocaleString('en')} fixed frames`;
  axis = 'frame';
} else {
  const minutes = option('--minutes', 10);
  const result = await browserSoak({
    minutes,
    build: !args.includes('--no-build'),
    onSample: (sample, pass) =>
      console.log(
        `pass ${pass}  ${sample.at.toFixed(0)} s  heap ${sample.heapMiB.toFixed(1)} MiB  step ${sample.stepMs.toFixed(2)} ms  (${sample.label})`,
      ),
  });
  ({ passes, verdict } = result);
  if (result.errors.length > 0) verdict.failures.push(`console errors: ${result.errors.slice(0, 3).join(' | ')}`);
  if (result.nan !== '') verdict.failures.push(`NaN in ${result.nan}`);
  name = 'browser';
  title = `Browser soak: the built app, ${minutes} minutes, presets cycled`;
  axis = 'seconds';
}

const png = join(SCREENSHOT_DIR, `soak-${name}.png`);
if (replot < 0) writeFileSync(join(SCREENSHOT_DIR, `soak-${name}.json`), JSON.stringify({ verdict, passes }, null, 1));
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
await plotSoak(browser, passes, verdict, title, axis, png);
await browser.close();
const ok = verdict.failures.length === 0;
console.log(
  `${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 60000).toFixed(1)} min: heap growth ${(verdict.heapGrowth * 100).toFixed(1)}%, step drift ${(verdict.stepDrift * 100).toFixed(1)}%${ok ? '' : ` — ${verdict.failures.join('; ')}`}; plot: ${png}`,
);
process.exit(ok ? 0 : 1);
