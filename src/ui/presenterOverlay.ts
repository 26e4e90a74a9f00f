/** What the overlay's buttons ask of the app (on a touch screen there is no keyboard to step slides). */
export interface PresenterActions {
  previous(): void;
  next(): void;
  leave(): void;
}

/**
 * Presenter mode's overlay: the scene's name and description in large type, the slide position, and
 * large previous / next / leave buttons for touch screens. The app hides the panels around it.
 */
export class PresenterOverlay {
  private readonly element: HTMLDivElement;
  private readonly title: HTMLDivElement;
  private readonly subtitle: HTMLDivElement;
  private readonly position: HTMLSpanElement;

  constructor(parent: HTMLElement, actions: PresenterActions) {
    this.element = document.createElement('div');
    this.element.className = 'cs-presenter';
    this.element.dataset.testid = 'presenter';
    this.element.hidden = true;
    this.title = document.createElement('div');
    this.title.className = 'cs-presenter-title';
    this.title.dataset.testid = 'presenter-title';
    this.subtitle = document.createElement('div');
    this.subtitle.className = 'cs-presenter-subtitle';
    const bar = document.createElement('div');
    bar.className = 'cs-presenter-bar';
    this.position = document.createElement('span');
    this.position.className = 'cs-presenter-position';
    const button = (label: string, title: string, testid: string, action: () => void): HTMLButtonElement => {
      const element = document.createElement('button');
      element.type = 'button';
      element.textContent = label;
      element.title = title;
      element.dataset.testid = testid;
      element.addEventListener('click', action);
      return element;
    };
    bar.append(
      button('‹', 'previous scene (←, PgUp)', 'presenter-previous', () => actions.previous()),
      this.position,
      button('›', 'next scene (→, PgDn)', 'presenter-next', () => actions.next()),
      button('✕', 'leave presenter mode (P, Esc)', 'presenter-leave', () => actions.leave()),
    );
    this.element.append(this.title, this.subtitle, bar);
    parent.appendChild(this.element);
  }

  set visible(value: boolean) {
    this.element.hidden = !value;
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  showSlide(title: string, description: string, index: number, count: number): void {
    this.title.textContent = title;
    this.subtitle.textContent = description;
    // A scene outside the tour shows no slide number.
    this.position.textContent = index < 0 ? `– / ${count}` : `${index + 1} / ${count}`;
  }
}
