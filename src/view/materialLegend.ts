import * as THREE from 'three';
import { TERRAIN_MATERIAL_NAMES } from '../core';
import { MATERIAL_COLOURS } from './terrainColors';

/** The key of the material colouring: a swatch and a name per terrain material, shown while it is on. */
export class MaterialLegend {
  readonly element: HTMLDivElement;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'cs-material-legend';
    this.element.dataset.testid = 'material-legend';
    const title = document.createElement('div');
    title.className = 'cs-material-legend-title';
    title.textContent = 'terrain materials';
    this.element.append(title);
    const colour = new THREE.Color();
    TERRAIN_MATERIAL_NAMES.forEach((name, id) => {
      const row = document.createElement('div');
      row.className = 'cs-material-legend-row';
      const swatch = document.createElement('span');
      swatch.className = 'cs-material-legend-swatch';
      const [r, g, b] = MATERIAL_COLOURS[id]!;
      // The vertex colours are linear; getStyle gives the sRGB the screen shows.
      swatch.style.background = colour.setRGB(r, g, b, THREE.LinearSRGBColorSpace).getStyle();
      const label = document.createElement('span');
      label.textContent = `${name} · bit ${id}`;
      row.append(swatch, label);
      this.element.append(row);
    });
    this.element.hidden = true;
    parent.append(this.element);
  }

  set visible(value: boolean) {
    this.element.hidden = !value;
  }
}
