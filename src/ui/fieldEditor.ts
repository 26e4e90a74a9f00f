/**
 * The code panel of a wind effect: its source, recompiled as you type; a compile error is shown at its
 * line and column (the effect keeps running its last good program); the disassembly beside it.
 */
export interface FieldEditorCallbacks {
  /** Compile the text; return the disassembly, or throw an error with `line` and `column`. */
  compile(source: string): string;
}

export class FieldEditor {
  readonly element: HTMLDivElement;
  private readonly title: HTMLSpanElement;
  private readonly text: HTMLTextAreaElement;
  private readonly status: HTMLDivElement;
  private readonly disassembly: HTMLPreElement;
  private timer = 0;
  private callbacks: FieldEditorCallbacks | null = null;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-field-editor';
    this.element.dataset.testid = 'field-editor';
    this.element.hidden = true;
    const header = document.createElement('div');
    header.className = 'cs-field-editor-header';
    this.title = document.createElement('span');
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = '×';
    close.title = 'Close the code panel';
    close.addEventListener('click', () => (this.element.hidden = true));
    header.append(this.title, close);
    const body = document.createElement('div');
    body.className = 'cs-field-editor-body';
    this.text = document.createElement('textarea');
    this.text.spellcheck = false;
    this.text.dataset.testid = 'field-source';
    this.text.addEventListener('input', () => {
      window.clearTimeout(this.timer);
      this.timer = window.setTimeout(() => this.recompile(), 250);
    });
    // Keep typing in the editor from flying the camera or toggling panels.
    this.text.addEventListener('keydown', (event) => event.stopPropagation());
    this.disassembly = document.createElement('pre');
    this.disassembly.dataset.testid = 'field-disassembly';
    body.append(this.text, this.disassembly);
    this.status = document.createElement('div');
    this.status.className = 'cs-field-editor-status';
    this.status.dataset.testid = 'field-status';
    this.element.append(header, body, this.status);
    parent.appendChild(this.element);
  }

  open(title: string, source: string, callbacks: FieldEditorCallbacks): void {
    this.callbacks = callbacks;
    this.title.textContent = title;
    this.text.value = source;
    this.element.hidden = false;
    this.recompile();
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  private recompile(): void {
    if (this.callbacks === null) return;
    try {
      this.disassembly.textContent = this.callbacks.compile(this.text.value);
      this.status.textContent = 'compiled — running this program';
      this.status.classList.remove('cs-error-text');
      this.text.classList.remove('cs-invalid');
    } catch (error) {
      const { line, column } = error as { line?: number; column?: number };
      const message = error instanceof Error ? error.message : String(error);
      this.status.textContent = `${message} — still running the last good program`;
      this.status.classList.add('cs-error-text');
      this.text.classList.add('cs-invalid');
      if (typeof line === 'number' && typeof column === 'number') this.selectAt(line, column);
    }
  }

  /** Puts a one-character selection at the error so the editor shows where it is. */
  private selectAt(line: number, column: number): void {
    const lines = this.text.value.split('\n');
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
    offset += Math.max(column - 1, 0);
    if (document.activeElement !== this.text) this.text.setSelectionRange(offset, offset + 1);
  }
}
