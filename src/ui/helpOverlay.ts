/** One keyboard shortcut as the help overlay lists it. */
export interface Shortcut {
  keys: string;
  what: string;
}

const SEEN_KEY = 'colliderscope.helpSeen';

/**
 * The help overlay: every shortcut, plus the few mouse and touch gestures. Shown on the first visit
 * (remembered in localStorage), and whenever '?' is pressed.
 */
export class HelpOverlay {
  private readonly element: HTMLDivElement;

  constructor(parent: HTMLElement, shortcuts: readonly Shortcut[]) {
    this.element = document.createElement('div');
    this.element.className = 'cs-help';
    this.element.dataset.testid = 'help';
    this.element.hidden = true;
    const card = document.createElement('div');
    card.className = 'cs-help-card';
    const rows = shortcuts.map((s) => `<tr><td><kbd>${escapeHtml(s.keys)}</kbd></td><td>${escapeHtml(s.what)}</td></tr>`).join('');
    card.innerHTML =
      '<h2>Colliderscope</h2>' +
      '<p>Collision algorithms running live on a fractal terrain. Drag to orbit, wheel or pinch to zoom, ' +
      'right-drag or two fingers to pan. The panel on the right switches strategies; ⟳ controls rebuild the terrain.</p>' +
      `<table>${rows}</table>`;
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Got it';
    close.dataset.testid = 'help-close';
    close.addEventListener('click', () => this.hide());
    card.appendChild(close);
    this.element.appendChild(card);
    this.element.addEventListener('click', (event) => {
      if (event.target === this.element) this.hide();
    });
    parent.appendChild(this.element);
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  show(): void {
    this.element.hidden = false;
  }

  hide(): void {
    this.element.hidden = true;
    try {
      localStorage.setItem(SEEN_KEY, '1');
    } catch {
      // Storage can be unavailable (private mode); the overlay then shows on every visit.
    }
  }

  toggle(): void {
    if (this.visible) this.hide();
    else this.show();
  }

  /** Shows the overlay unless this browser has closed it before. */
  showOnFirstVisit(): void {
    let seen: boolean;
    try {
      seen = localStorage.getItem(SEEN_KEY) === '1';
    } catch {
      seen = false;
    }
    if (!seen) this.show();
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
