import GUI, { type Controller } from 'lil-gui';
import { TERRAIN_KINDS, TERRAIN_NUMBER_RULES, type TerrainParams } from '../core';
import { TERRAIN_COLOURINGS } from '../view/terrainColors';
import { toggleFoldersReliably } from './folderToggle';
import type { AppSettings } from './settings';

export interface PanelActions {
  /** A terrain parameter changed: rebuild (the app debounces and runs the build in a worker). */
  terrainChanged(): void;
  /** A terrain slider is moving: rebuild as fast as the worker keeps up (terrainChanged follows on release). */
  terrainDragged(): void;
  /** A view setting changed: apply live. */
  viewChanged(): void;
  selectScene(name: string): void;
  loadSceneFile(file: File): void;
  resetCamera(): void;
  /** Downloads what runs now as a scene file (terrain, camera, every running system's settings). */
  saveScene(): void;
  /** A run setting (time scale, fixed step, timing switch) changed: apply live. */
  runChanged(): void;
}

const REBUILD = ' ⟳';

/** Readouts the panel shows and the app updates. */
export interface PanelReadouts {
  triangles: string;
  generation: string;
}

/**
 * The lil-gui panel. Controls marked ⟳ rebuild the terrain in a worker; the others apply live.
 * Slider ranges come from the core's parameter rules, so the GUI cannot offer an invalid value.
 */
export class Panel {
  readonly gui: GUI;
  readonly readouts: PanelReadouts = { triangles: '—', generation: '—' };
  private readonly sceneController: Controller;
  private readonly terrainControllers: Controller[] = [];

  constructor(settings: AppSettings, sceneNames: readonly string[], actions: PanelActions) {
    this.gui = new GUI({ title: 'Colliderscope' });
    this.gui.domElement.dataset.testid = 'gui';
    // A label cut short by the panel's width shows in full on hover.
    this.gui.domElement.addEventListener('mouseover', (event) => {
      const name = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('.lil-name') : null;
      if (name !== null && name.scrollWidth > name.clientWidth) name.title = name.textContent;
    });
    toggleFoldersReliably(this.gui);

    const sceneFolder = this.gui.addFolder('Scene');
    this.sceneController = sceneFolder
      .add(settings, 'scene', [...sceneNames])
      .name('preset')
      .onChange((name: string) => actions.selectScene(name));
    const fileInput = document.createElement('input');
    fileInput.type = 'file';
    fileInput.accept = '.json,application/json,.obj,.stl,.gltf,.glb';
    fileInput.hidden = true;
    fileInput.dataset.testid = 'scene-file-input';
    fileInput.addEventListener('change', () => {
      const file = fileInput.files?.[0];
      if (file !== undefined) actions.loadSceneFile(file);
      fileInput.value = '';
    });
    document.body.appendChild(fileInput);
    sceneFolder.add({ load: () => fileInput.click() }, 'load').name('load scene or mesh file…');
    sceneFolder.add({ save: () => actions.saveScene() }, 'save').name('save scene file');
    sceneFolder.add({ reset: () => actions.resetCamera() }, 'reset').name('reset camera');

    const terrain = this.gui.addFolder('Terrain');
    const legend = document.createElement('div');
    legend.className = 'cs-legend';
    legend.textContent = '⟳ rebuilds the terrain in a worker, live while its slider moves; other controls apply live';
    terrain.$children.prepend(legend);
    const t = settings.terrain;
    const add = (key: Exclude<keyof TerrainParams, 'kind'>, step: number, label: string = key): void => {
      const rule = TERRAIN_NUMBER_RULES[key];
      const min = rule.minInclusive ? rule.min : rule.min + step;
      const max = key === 'seed' ? 99999 : key === 'worldSize' ? 4096 : key === 'heightScale' ? 500 : rule.max;
      const controller = terrain
        .add(t, key, min, max, step)
        .name(label + REBUILD)
        .onFinishChange(() => actions.terrainChanged());
      // The terrain follows a dragged slider live; the size of the grid and of the world only on
      // release (a drag through 2,048 cells would build millions of triangles on the way).
      if (key !== 'cells' && key !== 'worldSize') controller.onChange(() => actions.terrainDragged());
      this.terrainControllers.push(controller);
    };
    this.terrainControllers.push(
      terrain
        .add(t, 'kind', [...TERRAIN_KINDS])
        .name('kind' + REBUILD)
        .onChange(() => actions.terrainChanged()),
    );
    add('seed', 1);
    add('octaves', 0.5);
    add('lacunarity', 0.05);
    add('H', 0.05);
    add('gain', 0.1);
    add('offset', 0.05);
    add('baseFrequency', 0.25, 'base frequency');
    add('heightScale', 1, 'height scale');
    add('worldSize', 16, 'world size');
    add('cells', 16, 'cells per side');
    // The materials of the collision masks (View → colouring → material shows them).
    add('waterLevel', 0.01, 'water level');
    add('rockSlope', 1, 'rock slope °');
    add('snowLevel', 0.01, 'snow level');
    terrain
      .add({ randomSeed: () => ((t.seed = Math.floor(Math.random() * 100000)), this.refresh(), actions.terrainChanged()) }, 'randomSeed')
      .name('random seed' + REBUILD);
    terrain.add(this.readouts, 'triangles').name('triangles').disable().listen();
    terrain.add(this.readouts, 'generation').name('generation').disable().listen();

    const view = this.gui.addFolder('View');
    const v = settings.view;
    const live = (c: Controller): Controller => c.onChange(() => actions.viewChanged());
    live(view.add(v, 'camera', ['orbit', 'fly']).name('camera (F)'));
    live(view.add(v, 'colouring', [...TERRAIN_COLOURINGS]));
    live(view.add(v, 'wireframe').name('wireframe (G)'));
    live(view.add(v, 'flatShading').name('flat shading'));
    live(view.add(v, 'fog'));
    live(view.add(v, 'fogAmount', 0, 1, 0.01).name('fog amount'));
    live(view.add(v, 'sunElevation', 2, 90, 1).name('sun elevation'));
    live(view.add(v, 'sunAzimuth', 0, 360, 1).name('sun azimuth'));
    live(view.add(v, 'hud').name('timing HUD (H)'));
    live(view.add(v, 'keepCamera').name('keep camera on scene switch'));

    const run = this.gui.addFolder('Run');
    const r = settings.run;
    const runLive = (c: Controller): Controller => c.onChange(() => actions.runChanged());
    runLive(run.add(r, 'timeScale', 0.05, 4, 0.05).name('time scale (− =)'));
    runLive(run.add(r, 'fixedStep').name('fixed time step'));
    runLive(run.add(r, 'timings').name('per-phase timing'));
    run.add(r, 'benchmarkFrames', 30, 3000, 10).name('benchmark frames');
    run.add(r, 'benchmarkWarmup', 0, 300, 5).name('benchmark warm-up frames');
    run.close();
  }

  /** Shows the settings object's current values (after a scene load or a keyboard shortcut). */
  refresh(): void {
    for (const controller of this.gui.controllersRecursive()) controller.updateDisplay();
    this.sceneController.updateDisplay();
  }
}
