/** One row of the help overlay: the keys as shown, and what they do. */
export interface HelpRow {
  keys: string;
  what: string;
}

/** A group of rows: the first is the page's own keys (no title), later ones name the part that claims them. */
export interface HelpSection {
  title?: string;
  rows: readonly HelpRow[];
}

const SEEN_KEY = 'colliderscope.helpSeen';

/**
 * The help overlay: every shortcut, plus the few mouse and touch gestures. Shown on the first visit
 * (remembered in localStorage), and whenever '?' is pressed. The rows are asked for each time it opens,
 * so keys that parts of the page claim after boot are listed too.
 */
export class HelpOverlay {
  private readonly element: HTMLDivElement;
  private readonly table: HTMLDivElement;

  constructor(
    parent: HTMLElement,
    private readonly sections: () => readonly HelpSection[],
  ) {
    this.element = document.createElement('div');
    this.element.className = 'cs-help';
    this.element.dataset.testid = 'help';
    this.element.hidden = true;
    const card = document.createElement('div');
    card.className = 'cs-help-card';
    card.innerHTML =
      '<h2>Colliderscope</h2>' +
      '<p>Collision algorithms running live on a fractal terrain. Drag to orbit, wheel or pinch to zoom, ' +
      'right-drag or two fingers to pan. The panel on the right switches strategies; ⟳ controls rebuild the terrain.</p>';
    this.table = document.createElement('div');
    this.table.className = 'cs-help-keys';
    card.appendChild(this.table);
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
    // In the body, not in the page's root: a dialog covers the lil-gui panel too.
    parent.ownerDocument.body.appendChild(this.element);
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  show(): void {
    // The page's own keys in one table; the keys parts of the page claim beside it, under their owners.
    const [own, ...claimed] = this.sections();
    const row = (r: HelpRow): string => `<tr><td><kbd>${escapeHtml(r.keys)}</kbd></td><td>${escapeHtml(r.what)}</td></tr>`;
    const owners = claimed.map((s) => `<tr><th colspan="2">${escapeHtml(s.title ?? '')}</th></tr>${s.rows.map(row).join('')}`);
    this.table.innerHTML = `<table>${(own?.rows ?? []).map(row).join('')}</table>` + (owners.length > 0 ? `<table>${owners.join('')}</table>` : '');
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
