import type { Legend } from '../view/legend';

/**
 * Every colour coding on screen explained in one place: a card per legend, stacked at the bottom right
 * above the presenter's buttons. The features say which legends their visible drawings need each
 * frame; the cards are rebuilt only when that list changes.
 */
export class LegendPanel {
  readonly element: HTMLDivElement;
  private shownKey = '';

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-legends';
    this.element.dataset.testid = 'legends';
    this.element.hidden = true;
    parent.append(this.element);
  }

  show(legends: readonly Legend[]): void {
    const key = JSON.stringify(legends);
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.element.replaceChildren(...legends.map(legendCard));
    this.element.hidden = legends.length === 0;
  }
}

function legendCard(legend: Legend): HTMLElement {
  const card = document.createElement('div');
  card.className = 'cs-legend-card';
  card.dataset.legend = legend.title;
  const title = document.createElement('div');
  title.className = 'cs-legend-title';
  title.textContent = legend.title;
  card.append(title);
  for (const swatch of legend.swatches ?? []) {
    const row = document.createElement('div');
    row.className = 'cs-legend-row';
    const chip = document.createElement('span');
    chip.className = 'cs-legend-swatch';
    chip.style.background = swatch.colour;
    const label = document.createElement('span');
    label.textContent = swatch.label;
    row.append(chip, label);
    card.append(row);
  }
  if (legend.gradient !== undefined) {
    const bar = document.createElement('div');
    bar.className = 'cs-legend-gradient';
    bar.style.background = `linear-gradient(90deg, ${legend.gradient.stops.join(', ')})`;
    const ends = document.createElement('div');
    ends.className = 'cs-legend-ends';
    const min = document.createElement('span');
    min.textContent = legend.gradient.min;
    const max = document.createElement('span');
    max.textContent = legend.gradient.max;
    ends.append(min, max);
    card.append(bar, ends);
  }
  if (legend.note !== undefined) {
    const note = document.createElement('div');
    note.className = 'cs-legend-note';
    note.textContent = legend.note;
    card.append(note);
  }
  return card;
}
