/** A progress bar for long work done off the main thread (terrain builds), with its stage and time. */
export class ProgressBar {
  private readonly element: HTMLDivElement;
  private readonly fill: HTMLDivElement;
  private readonly label: HTMLSpanElement;
  private started = 0;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-progress';
    this.element.dataset.testid = 'progress';
    this.element.hidden = true;
    const track = document.createElement('div');
    track.className = 'cs-progress-track';
    this.fill = document.createElement('div');
    this.fill.className = 'cs-progress-fill';
    track.appendChild(this.fill);
    this.label = document.createElement('span');
    this.element.append(this.label, track);
    parent.appendChild(this.element);
  }

  start(title: string): void {
    this.started = performance.now();
    this.element.hidden = false;
    this.set(0, title);
  }

  set(fraction: number, stage: string): void {
    const percent = Math.round(Math.min(Math.max(fraction, 0), 1) * 100);
    this.fill.style.width = `${percent}%`;
    this.label.textContent = `${stage} ${percent}% · ${((performance.now() - this.started) / 1000).toFixed(1)} s`;
  }

  finish(): void {
    this.element.hidden = true;
  }
}
