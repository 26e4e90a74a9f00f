import type { PhaseStats, TimingRing } from '../core';

/**
 * The timing HUD: every phase in the core's timing ring with now / average / max over the window, in
 * milliseconds. Redrawn a few times a second (reading is cheap; rewriting the DOM every frame is not).
 */
export class TimingHud {
  private readonly element: HTMLDivElement;
  private readonly body: HTMLTableSectionElement;
  private readonly extra: HTMLDivElement;
  private readonly stats: PhaseStats = { now: 0, avg: 0, min: 0, max: 0, count: 0 };
  private lastDraw = 0;
  private readonly rows = new Map<string, HTMLTableCellElement[]>();

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-hud';
    this.element.dataset.testid = 'timing-hud';
    const table = document.createElement('table');
    table.innerHTML = '<thead><tr><th>phase</th><th>now</th><th>avg</th><th>max</th></tr></thead>';
    this.body = document.createElement('tbody');
    table.appendChild(this.body);
    this.extra = document.createElement('div');
    this.extra.className = 'cs-hud-extra';
    this.element.append(table, this.extra);
    parent.appendChild(this.element);
  }

  set visible(value: boolean) {
    this.element.hidden = !value;
  }

  update(timings: TimingRing, lines: readonly string[], force = false): void {
    const time = performance.now();
    if (!force && time - this.lastDraw < 250) return;
    this.lastDraw = time;
    for (const phase of timings.phases) {
      let cells = this.rows.get(phase);
      if (cells === undefined) {
        const row = document.createElement('tr');
        cells = [0, 1, 2, 3].map(() => document.createElement('td'));
        cells[0]!.textContent = phase;
        row.append(...cells);
        this.body.appendChild(row);
        this.rows.set(phase, cells);
      }
      const s = timings.stats(phase, this.stats);
      cells[1]!.textContent = formatMs(s.now);
      cells[2]!.textContent = formatMs(s.avg);
      cells[3]!.textContent = formatMs(s.max);
    }
    this.extra.textContent = lines.join('\n');
  }
}

function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
