import { drawBarChart, type BarChart } from './barChart';

/**
 * A dialog that shows a result (the benchmark) as a bar chart with its numbers, and as text ready to
 * copy: selectable, with a Copy button.
 */
export class ResultDialog {
  private readonly element: HTMLDivElement;
  private readonly heading: HTMLHeadingElement;
  private readonly chart: HTMLCanvasElement;
  private readonly text: HTMLTextAreaElement;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-help';
    this.element.dataset.testid = 'result-dialog';
    this.element.hidden = true;
    const card = document.createElement('div');
    card.className = 'cs-help-card cs-result-card';
    this.heading = document.createElement('h2');
    this.chart = document.createElement('canvas');
    this.chart.className = 'cs-result-chart';
    this.chart.dataset.testid = 'result-chart';
    this.chart.hidden = true;
    this.text = document.createElement('textarea');
    this.text.readOnly = true;
    this.text.spellcheck = false;
    this.text.dataset.testid = 'result-text';
    this.text.addEventListener('keydown', (event) => event.stopPropagation());
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.textContent = 'Copy';
    copy.addEventListener('click', () => {
      this.text.select();
      void navigator.clipboard?.writeText(this.text.value).catch(() => document.execCommand('copy'));
    });
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Close';
    close.dataset.testid = 'result-close';
    close.addEventListener('click', () => this.hide());
    card.append(this.heading, this.chart, this.text, copy, close);
    this.element.appendChild(card);
    // In the body, not in the page's root: a dialog covers the lil-gui panel too.
    parent.ownerDocument.body.appendChild(this.element);
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  /** Shows the text, and the chart above it when there is one (drawn once the dialog has its width). */
  show(title: string, body: string, chart?: BarChart): void {
    this.heading.textContent = title;
    this.text.value = body;
    this.text.rows = Math.min(chart === undefined ? 24 : 10, body.split('\n').length + 1);
    this.element.hidden = false;
    this.chart.hidden = chart === undefined;
    if (chart !== undefined) drawBarChart(this.chart, chart, 14);
  }

  hide(): void {
    this.element.hidden = true;
  }
}
