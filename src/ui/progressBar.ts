/** A progress bar for long work (terrain builds in a worker, a crack batch on the main thread), with its stage and time. */
export class ProgressBar {
  private readonly element: HTMLDivElement;
  private readonly fill: HTMLDivElement;
  private readonly label: HTMLSpanElement;
  private started = 0;
  private ticker = 0;

  constructor(parent: HTMLElement, testid = 'progress') {
    this.element = document.createElement('div');
    this.element.className = 'cs-progress';
    this.element.dataset.testid = testid;
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

  /** A fraction in [0, 1], or a negative one for a stage whose length is unknown (an animated bar). */
  set(fraction: number, stage: string): void {
    window.clearInterval(this.ticker);
    const indeterminate = fraction < 0;
    this.element.classList.toggle('cs-progress-indeterminate', indeterminate);
    const percent = indeterminate ? 100 : Math.round(Math.min(fraction, 1) * 100);
    this.fill.style.width = `${percent}%`;
    const draw = (): void => {
      const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
      this.label.textContent = indeterminate ? `${stage} · ${seconds} s` : `${stage} ${percent}% · ${seconds} s`;
    };
    draw();
    if (indeterminate) this.ticker = window.setInterval(draw, 100);
  }

  finish(): void {
    window.clearInterval(this.ticker);
    this.element.hidden = true;
  }
}
