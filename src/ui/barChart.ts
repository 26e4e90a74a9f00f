/** One bar: its length is `value`; `text` is the number printed beside it. */
export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly colour: string;
  readonly text: string;
  /** A whisker from `low` to `high` (a spread: min–max, or p95). */
  readonly low?: number;
  readonly high?: number;
}

/** Bars measured in one unit, sharing a scale; `note` is printed after the group's title (a ratio). */
export interface BarGroup {
  readonly title: string;
  readonly bars: readonly Bar[];
  readonly note?: string;
}

/** A horizontal bar chart: groups of bars, each group on its own scale (they may have different units). */
export interface BarChart {
  /** One line per `\n`; '' for none. */
  readonly title: string;
  readonly groups: readonly BarGroup[];
}

/** Chart text for a screen reader, and for a test to read what the canvas shows. */
export function describeBarChart(chart: BarChart): string {
  const groups = chart.groups.map((group) => {
    const bars = group.bars.map((bar) => `${bar.label} ${bar.text}`).join(', ');
    return group.title === '' ? bars : `${group.title}${group.note === undefined ? '' : ` (${group.note})`}: ${bars}`;
  });
  return [chart.title.replace(/\n/g, ' · '), ...groups].join('; ');
}

/**
 * Draws a bar chart into a canvas sized to its CSS width × devicePixelRatio (crisp on any screen), its
 * height following its rows. Labels at the left, bars from a common zero, each bar's number beside it.
 */
export function drawBarChart(canvas: HTMLCanvasElement, chart: BarChart, fontCss = 12): void {
  const dpr = window.devicePixelRatio || 1;
  const rowCss = Math.round(fontCss * 1.7);
  const titleLines = chart.title === '' ? [] : chart.title.split('\n');
  const rows = chart.groups.reduce((n, group) => n + group.bars.length + (group.title === '' ? 0 : 1), titleLines.length);
  // A small gap between groups, so each metric's pair of bars reads as one.
  const gap = Math.round(rowCss * 0.3);
  const cssHeight = rows * rowCss + (chart.groups.length - 1) * gap + 6;
  if (canvas.style.height !== `${cssHeight}px`) canvas.style.height = `${cssHeight}px`;
  const cssWidth = canvas.clientWidth > 0 ? canvas.clientWidth : 420;
  const width = Math.round(cssWidth * dpr);
  const height = Math.round(cssHeight * dpr);
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const label = describeBarChart(chart);
  if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
  canvas.setAttribute('role', 'img');
  const context = canvas.getContext('2d');
  if (context === null) return;
  context.setTransform(dpr, 0, 0, dpr, 0, 0);
  context.clearRect(0, 0, cssWidth, cssHeight);
  const font = `${fontCss}px ui-monospace, Menlo, Consolas, monospace`;
  context.font = font;
  context.textBaseline = 'middle';
  const bars = chart.groups.flatMap((group) => group.bars);
  const labelWidth = Math.max(0, ...bars.map((bar) => context.measureText(bar.label).width)) + fontCss;
  const textWidth = Math.max(0, ...bars.map((bar) => context.measureText(bar.text).width)) + fontCss * 0.6;
  const barSpace = Math.max(20, cssWidth - labelWidth - textWidth - 4);
  let y = 2;
  titleLines.forEach((line, i) => {
    context.fillStyle = i === 0 ? '#e8eef4' : '#9fb6ca';
    context.font = i === 0 ? `bold ${font}` : font;
    context.fillText(line, 0, y + rowCss / 2);
    y += rowCss;
  });
  context.font = font;
  chart.groups.forEach((group, index) => {
    if (index > 0) y += gap;
    if (group.title !== '') {
      context.fillStyle = '#9fb6ca';
      context.fillText(group.title + (group.note === undefined ? '' : `   ${group.note}`), 0, y + rowCss / 2);
      y += rowCss;
    }
    let peak = 0;
    for (const bar of group.bars) peak = Math.max(peak, bar.value, bar.high ?? 0);
    const scale = peak > 0 ? barSpace / peak : 0;
    for (const bar of group.bars) {
      const middle = y + rowCss / 2;
      context.fillStyle = '#dde7f0';
      context.textAlign = 'right';
      context.fillText(bar.label, labelWidth - fontCss * 0.5, middle);
      context.textAlign = 'left';
      const length = Math.max(bar.value > 0 ? 1 : 0, Math.round(bar.value * scale));
      context.fillStyle = bar.colour;
      context.fillRect(labelWidth, Math.round(y + rowCss * 0.18), length, Math.round(rowCss * 0.64));
      let end = labelWidth + length;
      if (bar.low !== undefined && bar.high !== undefined) {
        // The spread as a whisker across the bar's end.
        const x0 = labelWidth + Math.round(bar.low * scale) + 0.5;
        const x1 = labelWidth + Math.round(bar.high * scale) + 0.5;
        context.strokeStyle = '#f4f7fa';
        context.lineWidth = 1;
        context.beginPath();
        context.moveTo(x0, middle);
        context.lineTo(x1, middle);
        context.moveTo(x0, middle - rowCss * 0.2);
        context.lineTo(x0, middle + rowCss * 0.2);
        context.moveTo(x1, middle - rowCss * 0.2);
        context.lineTo(x1, middle + rowCss * 0.2);
        context.stroke();
        end = Math.max(end, x1);
      }
      context.fillStyle = '#f4f7fa';
      context.fillText(bar.text, end + fontCss * 0.4, middle);
      y += rowCss;
    }
  });
}
