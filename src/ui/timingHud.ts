import type { PhaseStats, TimingRing } from '../core';
import { drawBarChart, type BarChart } from './barChart';
import { FrameStack, OTHER_KEY } from './frameStack';
import { groupColour, phaseColour, phaseGroup } from './phaseColours';
import { FRAME_PHASE, type PhaseGroupLayout } from './profileLayout';

/** The chart scales a user can choose, in milliseconds: 60 fps, 30 fps, 10 fps. */
export const CHART_SCALES = [1000 / 60, 1000 / 30, 100] as const;
const SPARK_WIDTH = 64;
const SPARK_HEIGHT = 14;
/** Frames the chart and the group rows span (two seconds at 60 fps). */
const FRAMES = 120;
/** Frames over which a view's cost decides whether its group is listed (half a second at 60 fps). */
const RECENT_FRAMES = 30;

/** A line under the timing table: short on screen, its detail on hover. */
export interface HudLine {
  readonly text: string;
  readonly detail?: string;
}

interface Row {
  readonly tr: HTMLTableRowElement;
  readonly cells: HTMLTableCellElement[];
  readonly spark: HTMLCanvasElement;
}

/**
 * The timing panel, readable from the back of a room: per-frame phases grouped by system (each group's
 * share of the frame, then its finer phases indented), the rest of the frame as `other`, the whole frame
 * as a total row, and one-off events (builds, generation) listed apart with their time. Below, a stacked
 * chart of the last two seconds on a fixed scale the user picks (16.7 / 33 / 100 ms; a taller frame is
 * clipped and marked), drawn at the screen's pixel density. Every phase keeps one colour everywhere
 * (phaseColours). The frame's samples are taken every frame; the DOM is rewritten a few times a second.
 */
export class TimingHud {
  private readonly element: HTMLDivElement;
  private readonly body: HTMLTableSectionElement;
  private readonly chart: HTMLCanvasElement;
  private readonly legend: HTMLDivElement;
  private readonly extra: HTMLDivElement;
  private readonly charts: HTMLDivElement;
  private readonly clipNote: HTMLSpanElement;
  private readonly scaleButtons: HTMLButtonElement[] = [];
  private readonly stats: PhaseStats = { now: 0, avg: 0, min: 0, max: 0, count: 0 };
  private readonly stack = new FrameStack(FRAMES);
  private lastDraw = 0;
  private readonly rows = new Map<string, Row>();
  private readonly chartCanvases: HTMLCanvasElement[] = [];
  /** The chart's full height in milliseconds. */
  private scale: number = CHART_SCALES[0];
  /** Large text for presenting. */
  large = false;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-hud';
    this.element.dataset.testid = 'timing-hud';
    const table = document.createElement('table');
    table.innerHTML = '<thead><tr><th>per frame, ms</th><th>now</th><th>avg</th><th>max</th><th></th></tr></thead>';
    this.body = document.createElement('tbody');
    table.appendChild(this.body);
    const scales = document.createElement('div');
    scales.className = 'cs-hud-scales';
    const label = document.createElement('span');
    label.textContent = 'scale';
    scales.appendChild(label);
    this.clipNote = document.createElement('span');
    this.clipNote.className = 'cs-hud-clipped';
    this.clipNote.dataset.testid = 'chart-clipped';
    scales.appendChild(this.clipNote);
    for (const ms of CHART_SCALES) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = `${formatScale(ms)} ms`;
      button.dataset.testid = `chart-scale-${formatScale(ms)}`;
      button.addEventListener('click', () => this.setScale(ms));
      this.scaleButtons.push(button);
      scales.appendChild(button);
    }
    this.chart = document.createElement('canvas');
    this.chart.className = 'cs-hud-chart';
    this.chart.dataset.testid = 'frame-chart';
    this.legend = document.createElement('div');
    this.legend.className = 'cs-hud-legend';
    this.extra = document.createElement('div');
    this.extra.className = 'cs-hud-extra';
    this.extra.dataset.testid = 'hud-lines';
    this.charts = document.createElement('div');
    this.charts.className = 'cs-hud-charts';
    // Two parts: stacked in the corner normally, side by side when presenting (wide and short).
    const main = document.createElement('div');
    main.className = 'cs-hud-main';
    main.append(table);
    const side = document.createElement('div');
    side.className = 'cs-hud-side';
    side.append(scales, this.chart, this.legend, this.extra, this.charts);
    this.element.append(main, side);
    parent.appendChild(this.element);
    this.setScale(this.scale);
  }

  set visible(value: boolean) {
    this.element.hidden = !value;
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  /** The chart's scale in milliseconds (one of CHART_SCALES). */
  get scaleMs(): number {
    return this.scale;
  }

  setScale(ms: number): void {
    this.scale = ms;
    this.chart.dataset.scaleMs = formatScale(ms);
    this.scaleButtons.forEach((button, i) => button.classList.toggle('cs-active', CHART_SCALES[i] === ms));
    this.lastDraw = 0;
  }

  /**
   * Called every frame after the frame's phases were recorded: samples the frame, and a few times a
   * second rewrites the table, the chart, the lines and the features' charts.
   */
  update(timings: TimingRing, lines: readonly (string | HudLine)[], charts: readonly BarChart[] = [], force = false): void {
    this.stack.sample(timings);
    const time = performance.now();
    if (!force && time - this.lastDraw < 250) return;
    this.lastDraw = time;
    this.element.classList.toggle('cs-hud-large', this.large);
    this.writeRows(timings);
    this.drawStackedChart();
    this.writeLines(lines);
    this.drawCharts(charts);
  }

  private writeRows(timings: TimingRing): void {
    const layout = this.stack.layout;
    const wanted: string[] = [];
    for (const group of layout.groups) {
      if (!this.shows(group, timings)) continue;
      const key = `group:${group.group}`;
      const row = this.row(key, group.group, groupColour(group.group), 'cs-hud-group');
      this.fillFromStack(row, group.group);
      wanted.push(key);
      // A group's finer rows: its own parts when it has more than one (simulation and view), and its details.
      const details = group.parts.length > 1 || group.details.length > 0 ? [...(group.parts.length > 1 ? group.parts : []), ...group.details] : [];
      for (const phase of details) {
        const detailKey = `phase:${phase}`;
        const detail = this.row(detailKey, detailName(phase), phaseColour(phase), 'cs-hud-detail');
        this.fillFromRing(detail, timings, phase);
        wanted.push(detailKey);
      }
    }
    const other = this.row(`group:${OTHER_KEY}`, 'other', groupColour(OTHER_KEY), 'cs-hud-group');
    other.tr.title = 'the rest of the frame: history, camera, the page itself';
    this.fillFromStack(other, OTHER_KEY);
    wanted.push(`group:${OTHER_KEY}`);
    const frame = this.row('frame', 'whole frame', groupColour(FRAME_PHASE), 'cs-hud-total');
    frame.tr.dataset.testid = 'frame-total';
    this.fillFromStack(frame, FRAME_PHASE);
    wanted.push('frame');
    if (layout.events.length > 0) {
      const heading = this.row('events', 'one-off', '', 'cs-hud-heading');
      heading.cells[1]!.textContent = 'last';
      heading.cells[2]!.textContent = 'times';
      wanted.push('events');
      for (const phase of layout.events) {
        const key = `event:${phase}`;
        const row = this.row(key, phase, phaseColour(phase), 'cs-hud-event');
        row.tr.dataset.testid = 'timing-event';
        const s = timings.stats(phase, this.stats);
        row.cells[1]!.textContent = s.count === 0 ? '—' : `${formatMs(s.now)} ms`;
        row.cells[2]!.textContent = timings.keptCount(phase) > 1 ? `×${timings.keptCount(phase)}` : '';
        wanted.push(key);
      }
    }
    // The body's rows in order: existing ones move, new ones were made by row(), gone ones are removed.
    wanted.forEach((key) => this.body.appendChild(this.rows.get(key)!.tr));
    const keep = new Set(wanted);
    for (const [key, row] of this.rows) {
      if (keep.has(key)) continue;
      row.tr.remove();
      this.rows.delete(key);
    }
  }

  /**
   * A group is listed while its system runs (it has a step), or while its view costs a measurable share
   * of the recent frames on average, or its finer phases have samples (a heat map drawn by a view).
   */
  private shows(group: PhaseGroupLayout, timings: TimingRing): boolean {
    if (group.parts.some((phase) => phase.startsWith('step.')) || group.group === 'render') return true;
    return this.stack.stats(group.group, RECENT_FRAMES).avg >= 0.1 || group.details.some((phase) => timings.stats(phase, this.stats).count > 0);
  }

  private row(key: string, name: string, colour: string, className: string): Row {
    let row = this.rows.get(key);
    if (row !== undefined) return row;
    const tr = document.createElement('tr');
    tr.className = className;
    tr.dataset.phase = key;
    const cells = [0, 1, 2, 3, 4].map(() => document.createElement('td'));
    if (colour !== '') {
      const swatch = document.createElement('span');
      swatch.className = 'cs-swatch';
      swatch.style.background = colour;
      swatch.dataset.colour = colour;
      cells[0]!.appendChild(swatch);
    }
    cells[0]!.append(name);
    const spark = document.createElement('canvas');
    spark.className = 'cs-spark';
    if (className !== 'cs-hud-event' && className !== 'cs-hud-heading') cells[4]!.appendChild(spark);
    tr.append(...cells);
    row = { tr, cells, spark };
    this.rows.set(key, row);
    return row;
  }

  private fillFromStack(row: Row, key: string): void {
    const s = this.stack.stats(key);
    writeStats(row, s.count, s.now, s.avg, s.max);
    const count = Math.min(this.stack.count, FRAMES);
    const samples = new Float64Array(count);
    for (let age = 0; age < count; age++) samples[count - 1 - age] = key === FRAME_PHASE ? this.stack.total(age) : this.stack.value(key, age);
    drawSparkline(row.spark, samples, key === FRAME_PHASE ? '#f4f7fa' : groupColour(key));
  }

  private fillFromRing(row: Row, timings: TimingRing, phase: string): void {
    const s = timings.stats(phase, this.stats);
    writeStats(row, s.count, s.now, s.avg, s.max);
    drawSparkline(row.spark, timings.window(phase), phaseColour(phase));
  }

  private drawStackedChart(): void {
    const canvas = this.chart;
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const height = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const context = canvas.getContext('2d');
    if (context === null) return;
    context.clearRect(0, 0, width, height);
    const keys = this.stack.keys;
    const frames = Math.min(this.stack.count, FRAMES);
    const barWidth = width / FRAMES;
    const yOf = (ms: number): number => height - (Math.min(ms, this.scale) / this.scale) * height;
    let clipped = 0;
    let tallest = 0;
    for (let age = 0; age < frames; age++) {
      const x = width - (age + 1) * barWidth;
      let bottom = 0;
      for (const key of keys) {
        const value = this.stack.value(key, age);
        if (value <= 0) continue;
        const top = bottom + value;
        if (bottom >= this.scale) break;
        context.fillStyle = groupColour(key);
        const y0 = Math.round(yOf(bottom));
        const y1 = Math.round(yOf(top));
        context.fillRect(Math.floor(x), y1, Math.max(1, Math.ceil(barWidth - dpr * 0.5)), y0 - y1);
        bottom = top;
      }
      const total = this.stack.total(age);
      if (total > this.scale) {
        // Clipped: a red cap on the bar says it goes on above the chart.
        clipped++;
        tallest = Math.max(tallest, total);
        context.fillStyle = '#ff4d4d';
        context.fillRect(Math.floor(x), 0, Math.max(1, Math.ceil(barWidth)), Math.round(3 * dpr));
      }
    }
    // Budget lines: 60 fps, and 30 fps where it fits, labelled at the right.
    const fontPx = Math.round((this.large ? 14 : 11) * dpr);
    context.font = `${fontPx}px ui-monospace, Menlo, Consolas, monospace`;
    context.textAlign = 'right';
    context.textBaseline = 'bottom';
    for (const budget of CHART_SCALES) {
      if (budget >= this.scale) break;
      const y = Math.round(yOf(budget)) + 0.5;
      context.strokeStyle = 'rgba(255,255,255,0.6)';
      context.lineWidth = Math.max(1, Math.round(dpr));
      context.setLineDash([4 * dpr, 4 * dpr]);
      context.beginPath();
      context.moveTo(0, y);
      context.lineTo(width, y);
      context.stroke();
      context.setLineDash([]);
      label(context, `${formatScale(budget)} ms`, width - 3 * dpr, y - 2 * dpr, dpr);
    }
    context.textAlign = 'left';
    context.textBaseline = 'top';
    label(context, `${formatScale(this.scale)} ms`, 3 * dpr, 2 * dpr, dpr);
    const note = clipped === 0 ? '' : `▲ ${clipped} clipped · tallest ${formatMs(tallest)} ms`;
    if (this.clipNote.textContent !== note) this.clipNote.textContent = note;
    this.chart.dataset.clipped = String(clipped);
    const legend = keys
      .filter((key) => key === OTHER_KEY || this.rows.has(`group:${key}`))
      .map((key) => `<span class="cs-swatch" style="background:${groupColour(key)}"></span>${key}`)
      .join(' ');
    if (this.legend.innerHTML !== legend) this.legend.innerHTML = legend;
  }

  private writeLines(lines: readonly (string | HudLine)[]): void {
    const nodes = this.extra.children;
    lines.forEach((line, i) => {
      const text = typeof line === 'string' ? line : line.text;
      const detail = typeof line === 'string' ? line : (line.detail ?? line.text);
      let node = nodes[i] as HTMLDivElement | undefined;
      if (node === undefined) {
        node = document.createElement('div');
        node.className = 'cs-hud-line';
        this.extra.appendChild(node);
      }
      // The newline keeps the panel's text one line per line for a reader of textContent (hidden by nowrap).
      if (node.textContent !== `${text}\n`) node.textContent = `${text}\n`;
      if (node.title !== detail) node.title = detail;
    });
    while (nodes.length > lines.length) nodes[nodes.length - 1]!.remove();
  }

  private drawCharts(charts: readonly BarChart[]): void {
    while (this.chartCanvases.length < charts.length) {
      const canvas = document.createElement('canvas');
      canvas.className = 'cs-bar-chart';
      canvas.dataset.testid = 'hud-bar-chart';
      this.charts.appendChild(canvas);
      this.chartCanvases.push(canvas);
    }
    while (this.chartCanvases.length > charts.length) this.chartCanvases.pop()!.remove();
    charts.forEach((chart, i) => drawBarChart(this.chartCanvases[i]!, chart, this.large ? 14 : 12));
  }
}

/** Chart text on a dark plate, readable over the bars. */
function label(context: CanvasRenderingContext2D, text: string, x: number, y: number, dpr: number): void {
  const width = context.measureText(text).width;
  const height = parseFloat(context.font) || 11 * dpr;
  const left = context.textAlign === 'right' ? x - width : x;
  const top = context.textBaseline === 'bottom' ? y - height : y;
  context.fillStyle = 'rgba(12, 20, 30, 0.75)';
  context.fillRect(left - 2 * dpr, top - dpr, width + 4 * dpr, height + 2 * dpr);
  context.fillStyle = 'rgba(255, 255, 255, 0.9)';
  context.fillText(text, x, y);
}

/** A detail row's name: the phase without its group (`solve` for `actors.solve`, `sim` for `step.actors`). */
function detailName(phase: string): string {
  if (phase.startsWith('step.')) return 'simulation';
  if (phase.startsWith('view.')) return 'view';
  const group = phaseGroup(phase);
  return phase.startsWith(`${group}.`) ? phase.slice(group.length + 1) : phase;
}

function writeStats(row: Row, count: number, now: number, avg: number, max: number): void {
  row.cells[1]!.textContent = count === 0 ? '—' : formatMs(now);
  row.cells[2]!.textContent = count === 0 ? '—' : formatMs(avg);
  row.cells[3]!.textContent = count === 0 ? '—' : formatMs(max);
}

function drawSparkline(canvas: HTMLCanvasElement, samples: Float64Array, colour: string): void {
  const dpr = window.devicePixelRatio || 1;
  const width = Math.round(SPARK_WIDTH * dpr);
  const height = Math.round(SPARK_HEIGHT * dpr);
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const context = canvas.getContext('2d');
  if (context === null) return;
  context.clearRect(0, 0, width, height);
  if (samples.length < 2) return;
  let max = 0;
  for (const value of samples) max = Math.max(max, value);
  if (max <= 0) max = 1;
  context.strokeStyle = colour;
  context.lineWidth = Math.max(1, dpr);
  context.beginPath();
  const step = width / (samples.length - 1);
  samples.forEach((value, i) => {
    const y = height - dpr - (value / max) * (height - 2 * dpr);
    if (i === 0) context.moveTo(0, y);
    else context.lineTo(i * step, y);
  });
  context.stroke();
}

function formatScale(ms: number): string {
  return ms < 20 ? ms.toFixed(1) : ms.toFixed(0);
}

export function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
