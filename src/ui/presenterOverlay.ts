/**
 * Presenter mode's overlay: the scene's name and description in large type, and the slide position.
 * The app hides the panels around it; this only draws the words.
 */
export class PresenterOverlay {
  private readonly element: HTMLDivElement;
  private readonly title: HTMLDivElement;
  private readonly subtitle: HTMLDivElement;
  private readonly position: HTMLDivElement;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-presenter';
    this.element.dataset.testid = 'presenter';
    this.element.hidden = true;
    this.title = document.createElement('div');
    this.title.className = 'cs-presenter-title';
    this.title.dataset.testid = 'presenter-title';
    this.subtitle = document.createElement('div');
    this.subtitle.className = 'cs-presenter-subtitle';
    this.position = document.createElement('div');
    this.position.className = 'cs-presenter-position';
    this.element.append(this.title, this.subtitle, this.position);
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
    this.position.textContent = `${index + 1} / ${count}   ← → to change scene · P to leave`;
  }
}
