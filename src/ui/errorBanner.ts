/** The banner's title for a refused input. */
export const NOT_APPLIED = 'Not applied — still showing the last good state';

/**
 * Shows errors a user can act on (a broken scene file, a bad parameter) over the canvas without
 * stopping anything: the sandbox keeps running on its last good state. A notice (something the page
 * cannot do, a value it corrected) uses the same place in calmer colours and its own title.
 */
export class ErrorBanner {
  private readonly element: HTMLDivElement;
  private readonly title: HTMLElement;
  private readonly text: HTMLPreElement;
  private hideTimer = 0;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-error';
    this.element.setAttribute('role', 'alert');
    this.element.dataset.testid = 'error-banner';
    this.element.hidden = true;
    const title = (this.title = document.createElement('strong'));
    title.dataset.testid = 'error-banner-title';
    this.text = document.createElement('pre');
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = '×';
    close.title = 'Dismiss';
    close.addEventListener('click', () => this.hide());
    this.element.append(close, title, this.text);
    parent.appendChild(this.element);
  }

  /** Shows `message` under `title`; a notice (`kind`) is drawn in calmer colours than an error. */
  show(message: string, title = NOT_APPLIED, kind: 'error' | 'notice' = 'error'): void {
    this.title.textContent = title;
    this.text.textContent = message;
    this.element.dataset.kind = kind;
    this.element.classList.toggle('cs-notice', kind === 'notice');
    this.element.hidden = false;
    window.clearTimeout(this.hideTimer);
    this.hideTimer = window.setTimeout(() => this.hide(), 20000);
  }

  hide(): void {
    this.element.hidden = true;
  }

  get message(): string | null {
    return this.element.hidden ? null : this.text.textContent;
  }
}
