import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import { MASK_ALL, TERRAIN_MATERIAL_NAMES, materialFilter, type TerrainMaterialName } from '../../core';

/** A query's settings that carry a 32-bit collision filter. */
export interface Filtered {
  filter: number;
}

/** The filter sub-folder of a query's panel folder: call refresh() after the filter changed elsewhere (a scene load). */
export interface FilterFolder {
  readonly folder: GUI;
  refresh(): void;
}

/** The filter on screen: every material, none, or the materials it keeps. */
export function describeFilter(filter: number): string {
  if (filter >>> 0 === MASK_ALL) return 'all materials';
  const kept = TERRAIN_MATERIAL_NAMES.filter((name) => (filter & materialFilter([name])) !== 0);
  const others = filter & ~materialFilter(TERRAIN_MATERIAL_NAMES);
  const extra = others !== 0 ? ` + 0x${(others >>> 0).toString(16)}` : '';
  return kept.length === 0 && others === 0 ? 'nothing (every triangle ignored)' : `${kept.join(', ') || '—'}${extra}`;
}

/**
 * Adds a "filter" sub-folder to a query's folder: one checkbox per terrain material (on: the query
 * sees it; water off is the common "ignore water") and a read-out of the 32-bit filter. A checkbox
 * flips its material's bit only, so the bits of other meshes' materials stay as a scene file set them.
 * Wiring a query: `addFilterFolder(folder, settings, () => this.apply())`.
 */
export function addFilterFolder(parent: GUI, target: Filtered, changed: () => void, title = 'Filter'): FilterFolder {
  const folder = parent.addFolder(title);
  folder.domElement.dataset.testid = 'filter-folder';
  const boxes = {} as Record<TerrainMaterialName, boolean>;
  const readout = { filter: '' };
  const controllers: Controller[] = [];
  const read = (): void => {
    for (const name of TERRAIN_MATERIAL_NAMES) boxes[name] = (target.filter & materialFilter([name])) !== 0;
    readout.filter = `0x${(target.filter >>> 0).toString(16).padStart(8, '0')} · ${describeFilter(target.filter)}`;
  };
  read();
  for (const name of TERRAIN_MATERIAL_NAMES) {
    const bit = materialFilter([name]);
    controllers.push(
      folder
        .add(boxes, name)
        .name(name)
        .onChange((on: boolean) => {
          target.filter = (on ? target.filter | bit : target.filter & ~bit) >>> 0;
          read();
          changed();
        }),
    );
  }
  folder.add(readout, 'filter').name('keeps').disable().listen();
  folder.close();
  return {
    folder,
    refresh(): void {
      read();
      for (const controller of controllers) controller.updateDisplay();
    },
  };
}
