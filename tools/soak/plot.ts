import type { Browser } from 'playwright-core';
import type { SoakSample, SoakVerdict } from './checks';

/**
 * The soak's memory and step-time plot as a PNG: two stacked charts against time (or frames), passes
 * shaded alternately, one colour per label, drawn on a canvas in Chromium and screenshotted (no plotting
 * library needed).
 */
export async function plotSoak(
  browser: Browser,
  passes: readonly (readonly SoakSample[])[],
  verdict: SoakVerdict,
  title: string,
  axis: string,
  file: string,
): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
  const data = JSON.stringify({ passes, verdict, title, axis });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff;font:14px sans-serif">
<canvas id="plot" width="1200" height="760"></canvas>
<script>
const { passes, verdict, title, axis } = ${data};
const canvas = document.getElementById('plot');
const g = canvas.getContext('2d');
const all = passes.flat();
const labels = [...new Set(all.map((s) => s.label))];
const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
const x0 = 80, x1 = 1160, minAt = 0, maxAt = Math.max(...all.map((s) => s.at), 1);
const xOf = (at) => x0 + ((at - minAt) / (maxAt - minAt)) * (x1 - x0);
g.fillStyle = '#000'; g.font = 'bold 18px sans-serif';
g.fillText(title, x0, 28);
g.font = '14px sans-serif';
const ok = verdict.failures.length === 0;
g.fillStyle = ok ? '#2a7a2a' : '#b00020';
g.fillText((ok ? 'passed' : 'FAILED: ' + verdict.failures.join('; ')) + ' — heap growth ' + (verdict.heapGrowth * 100).toFixed(1) + '%, step drift ' + (verdict.stepDrift * 100).toFixed(1) + '% (first pass after warm-up against the last)', x0, 50);
for (const [panel, key, unit] of [[0, 'heapMiB', 'heap after GC, MiB'], [1, 'stepMs', 'step, ms (median of each sample window)']]) {
  const top = 80 + panel * 330, bottom = top + 280;
  const values = all.map((s) => s[key]);
  const hi = Math.max(...values) * 1.1 || 1;
  const yOf = (v) => bottom - (v / hi) * (bottom - top);
  // Passes shaded alternately; pass 0 is warm-up.
  let start = minAt;
  passes.forEach((pass, k) => {
    const end = pass.length > 0 ? pass[pass.length - 1].at : start;
    g.fillStyle = k === 0 ? '#f3e9d2' : k % 2 === 1 ? '#f4f6fa' : '#e8edf5';
    g.fillRect(xOf(start), top, xOf(end) - xOf(start), bottom - top);
    g.fillStyle = '#666';
    g.fillText(k === 0 ? 'warm-up' : 'pass ' + k, xOf(start) + 4, top + 16);
    start = end;
  });
  g.strokeStyle = '#333'; g.strokeRect(x0, top, x1 - x0, bottom - top);
  g.fillStyle = '#000';
  g.fillText(unit, x0, top - 8);
  for (let t = 0; t <= 4; t++) {
    const v = (hi * t) / 4;
    g.fillText(v.toFixed(v < 10 ? 1 : 0), 20, yOf(v) + 5);
    g.strokeStyle = '#ddd'; g.beginPath(); g.moveTo(x0, yOf(v)); g.lineTo(x1, yOf(v)); g.stroke();
  }
  labels.forEach((label, i) => {
    g.strokeStyle = colours[i % colours.length]; g.fillStyle = g.strokeStyle; g.lineWidth = 2;
    // A line joins one label's samples only while nothing else ran between them (one visit of a preset).
    g.beginPath();
    all.forEach((s, j) => {
      if (s.label !== label) return;
      if (j > 0 && all[j - 1].label === label) g.lineTo(xOf(s.at), yOf(s[key]));
      else g.moveTo(xOf(s.at), yOf(s[key]));
    });
    g.stroke();
    for (const s of all.filter((s) => s.label === label)) g.fillRect(xOf(s.at) - 2, yOf(s[key]) - 2, 4, 4);
    if (panel === 0) g.fillText('■ ' + label, x0 + 10 + i * 190, 745);
  });
  g.lineWidth = 1;
}
g.fillStyle = '#000';
g.fillText(axis, x1 - 200, 745);
</script></body></html>`);
  await page.screenshot({ path: file });
  await page.close();
}
