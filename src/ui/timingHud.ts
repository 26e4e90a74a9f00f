import type { PhaseStats, TimingRing } from '../core';

const SPARK_WIDTH = 64;
const SPARK_HEIGHT = 14;
const CHART_HEIGHT = 56;
/** Phases stacked in the frame-time chart: each system's step and the render, which add up to a frame. */
const STACKED = (phase: string): boolean => phase.startsWith('step.') || phase === 'render';
const PALETTE = ['#5fb3f9', '#f5a623', '#7ed957', '#e86a92', '#b38cf2', '#4fd1c5', '#f2d45c', '#ff7b54'];

/**
 * The timing panel: every phase in the core's timing ring with now / average / min / max over the
 * window and a sparkline of the window, then a stacked chart of the per-frame phases (systems and
 * render) so a spike shows which phase caused it. Redrawn a few times a second: reading the ring is
 * cheap, rewriting the DOM every frame is not.
 */
export class TimingHud {
  private readonly element: HTMLDivElement;
  private readonly body: HTMLTableSectionElement;
  private readonly chart: HTMLCanvasElement;
  private readonly legend: HTMLDivElement;
  private readonly extra: HTMLDivElement;
  private readonly stats: PhaseStats = { now: 0, avg: 0, min: 0, max: 0, count: 0 };
  private lastDraw = 0;
  private readonly rows = new Map<string, { cells: HTMLTableCellElement[]; spark: HTMLCanvasElement }>();
  /** Large text for presenting: the panel is scaled up. */
  large = false;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-hud';
    this.element.dataset.testid = 'timing-hud';
    const table = document.createElement('table');
    table.innerHTML = '<thead><tr><th>phase (ms)</th><th>now</th><th>avg</th><th>min</th><th>max</th><th></th></tr></thead>';
    this.body = document.createElement('tbody');
    table.appendChild(this.body);
    this.chart = document.createElement('canvas');
    this.chart.className = 'cs-hud-chart';
    this.chart.height = CHART_HEIGHT;
    this.chart.width = 260;
    this.chart.dataset.testid = 'frame-chart';
    this.legend = document.createElement('div');
    this.legend.className = 'cs-hud-legend';
    this.extra = document.createElement('div');
    this.extra.className = 'cs-hud-extra';
    this.element.append(table, this.chart, this.legend, this.extra);
    parent.appendChild(this.element);
  }

  set visible(value: boolean) {
    this.element.hidden = !value;
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  update(timings: TimingRing, lines: readonly string[], force = false): void {
    const time = performance.now();
    if (!force && time - this.lastDraw < 250) return;
    this.lastDraw = time;
    this.element.classList.toggle('cs-hud-large', this.large);
    for (const phase of timings.phases) {
      let row = this.rows.get(phase);
      if (row === undefined) {
        const tr = document.createElement('tr');
        const cells = [0, 1, 2, 3, 4, 5].map(() => document.createElement('td'));
        cells[0]!.textContent = phase;
        const spark = document.createElement('canvas');
        spark.width = SPARK_WIDTH;
        spark.height = SPARK_HEIGHT;
        spark.className = 'cs-spark';
        cells[5]!.appendChild(spark);
        tr.append(...cells);
        this.body.appendChild(tr);
        row = { cells, spark };
        this.rows.set(phase, row);
      }
      const s = timings.stats(phase, this.stats);
      row.cells[1]!.textContent = s.count === 0 ? '—' : formatMs(s.now);
      row.cells[2]!.textContent = s.count === 0 ? '—' : formatMs(s.avg);
      row.cells[3]!.textContent = s.count === 0 ? '—' : formatMs(s.min);
      row.cells[4]!.textContent = s.count === 0 ? '—' : formatMs(s.max);
      drawSparkline(row.spark, timings.window(phase));
    }
    // A phase can go away (its system left the sandbox): its row goes too, instead of freezing.
    if (this.rows.size > timings.phases.length) {
      for (const [phase, row] of this.rows) {
        if (timings.has(phase)) continue;
        row.cells[0]!.parentElement?.remove();
        this.rows.delete(phase);
      }
    }
    this.drawStackedChart(timings);
    this.extra.textContent = lines.join('\n');
  }

  private drawStackedChart(timings: TimingRing): void {
    const phases = timings.phases.filter(STACKED);
    const series = phases.map((phase) => timings.window(phase));
    const frames = Math.max(0, ...series.map((s) => s.length));
    const canvas = this.chart;
    const context = canvas.getContext('2d');
    if (context === null) return;
    context.clearRect(0, 0, canvas.width, canvas.height);
    if (frames === 0) return;
    const totals = new Float64Array(frames);
    // Windows can differ in length (a phase that started later); align them on the newest frame.
    series.forEach((s) => s.forEach((value, i) => (totals[frames - s.length + i]! += value)));
    let peak = 1000 / 60;
    for (const total of totals) peak = Math.max(peak, total);
    const barWidth = canvas.width / frames;
    const scale = (canvas.height - 2) / peak;
    for (let frame = 0; frame < frames; frame++) {
      let y = canvas.height;
      series.forEach((s, k) => {
        const i = frame - (frames - s.length);
        if (i < 0) return;
        const h = s[i]! * scale;
        context.fillStyle = PALETTE[k % PALETTE.length]!;
        context.fillRect(frame * barWidth, y - h, Math.max(1, barWidth - 0.5), h);
        y -= h;
      });
    }
    // The 60 fps budget line.
    const budgetY = canvas.height - (1000 / 60) * scale;
    context.strokeStyle = 'rgba(255,255,255,0.55)';
    context.setLineDash([3, 3]);
    context.beginPath();
    context.moveTo(0, budgetY);
    context.lineTo(canvas.width, budgetY);
    context.stroke();
    context.setLineDash([]);
    const legend = phases.map((phase, k) => `<span style="color:${PALETTE[k % PALETTE.length]}">■</span> ${phase.replace(/^step\./, '')}`).join('  ');
    if (this.legend.innerHTML !== legend) this.legend.innerHTML = legend + '  <span class="cs-dim">┄ 16.7 ms</span>';
  }
}

function drawSparkline(canvas: HTMLCanvasElement, samples: Float64Array): void {
  const context = canvas.getContext('2d');
  if (context === null) return;
  context.clearRect(0, 0, canvas.width, canvas.height);
  if (samples.length < 2) return;
  let max = 0;
  for (const value of samples) max = Math.max(max, value);
  if (max <= 0) max = 1;
  context.strokeStyle = '#8fd0ff';
  context.lineWidth = 1;
  context.beginPath();
  const step = canvas.width / (samples.length - 1);
  samples.forEach((value, i) => {
    const y = canvas.height - 1 - (value / max) * (canvas.height - 2);
    if (i === 0) context.moveTo(0, y);
    else context.lineTo(i * step, y);
  });
  context.stroke();
}

function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
