/**
 * Shows errors a user can act on (a broken scene file, a bad parameter) over the canvas without
 * stopping anything: the sandbox keeps running on its last good state.
 */
export class ErrorBanner {
  private readonly element: HTMLDivElement;
  private readonly text: HTMLPreElement;
  private hideTimer = 0;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-error';
    this.element.setAttribute('role', 'alert');
    this.element.dataset.testid = 'error-banner';
    this.element.hidden = true;
    const title = document.createElement('strong');
    title.textContent = 'Not applied — still showing the last good state';
    this.text = document.createElement('pre');
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = '×';
    close.title = 'Dismiss';
    close.addEventListener('click', () => this.hide());
    this.element.append(close, title, this.text);
    parent.appendChild(this.element);
  }

  show(message: string): void {
    this.text.textContent = message;
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
