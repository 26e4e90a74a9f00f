import {
  Sandbox,
  disableSystem,
  enableSystem,
  installSceneSystems,
  currentScene,
  defaultCamera,
  resolveTerrainParams,
  type SceneDefinition,
  type SimSystem,
  type SystemContext,
  type TerrainMesh,
  type TerrainParams,
} from '../core';
import type { Panel } from '../ui/panel';
import type { ProgressBar } from '../ui/progressBar';
import type { AppSettings } from '../ui/settings';
import type { Stage } from '../view/stage';
import type { MeshView } from '../view/meshView';
import type { TerrainView } from '../view/terrainView';
import { downloadText, messageOf } from './capture';
import type { AppFeature } from './feature';
import { droppedMeshScene, DROPPED_MESH_CELLS, meshSceneCamera } from './meshScenes';
import { fetchSceneMesh, loadPreset, loadSceneFile, presetNames, presetPath, readField } from './scenes';
import type { AppStatus } from './status';
import { BuildSuperseded, TerrainBuilder } from './terrainBuilder';

/** States kept for stepping back. */
const HISTORY_FRAMES = 120;
/** Frames the timing ring keeps. */
const TIMING_FRAMES = 120;
/** How long terrain edits rest before the terrain is rebuilt. */
const REBUILD_DELAY_MS = 120;

/** The scene the page opens with: `?scene=NAME`, else the first preset (with the reason when NAME failed). */
export function startingScene(): { scene: SceneDefinition; error: string | null } {
  const first = presetNames()[0] ?? 'default';
  const requested = new URLSearchParams(location.search).get('scene');
  try {
    return { scene: loadPreset(requested ?? first), error: null };
  } catch (error) {
    return { scene: loadPreset(first), error: messageOf(error) };
  }
}

/** The page's parts a scene switch and a terrain build reach. */
export interface SceneLoaderHost {
  readonly settings: AppSettings;
  readonly status: AppStatus;
  readonly features: readonly AppFeature[];
  readonly stage: Stage;
  readonly terrainView: TerrainView;
  /** Draws the ground when it is a mesh file (the terrain view is hidden meanwhile). */
  readonly meshView: MeshView;
  readonly panel: Panel;
  readonly progress: ProgressBar;
  /** The preset's name goes into the URL. */
  presetChosen(name: string): void;
  /** The run settings apply to a new sandbox. */
  applyRun(): void;
  /** The view settings apply again (after a new terrain). */
  applyView(): void;
  report(message: string): void;
  /** Shows a notice under its own title (not an error: something was corrected or cannot be done). */
  notify(message: string, title: string): void;
  /** Takes down the banner (a good scene replaced the one it was about). */
  clearReport(): void;
}

/**
 * The scene on screen and its sandbox: switching scenes (everything validated before anything changes),
 * building the terrain in a worker (the old terrain stays on failure), installing the BVH when it
 * arrives, and telling the features each time.
 */
export class SceneLoader {
  scene: SceneDefinition;
  /** Null until the first terrain is built. */
  sandbox: Sandbox | null = null;
  private readonly builder = new TerrainBuilder();
  private rebuildTimer = 0;
  /** The settings of the newest build asked of the worker (null before the first). */
  private requested: TerrainParams | null = null;
  /** A slider moved while a build was in flight: rebuild with the newest settings when it ends. */
  private liveWaiting = false;
  /** The scene names its systems and they have not been installed on its terrain yet. */
  private systemsPending = false;
  /** The next build is a scene's, whose camera is already set: it must not be refitted. */
  private sceneCameraSet = true;
  /** Counts mesh files asked to open: an older one still being read is dropped when a newer one arrives. */
  private meshOpenings = 0;
  /** The terrain settings were refused once on this mesh scene (said once, not at every slider step). */
  private meshSettingsRefused = false;

  constructor(
    private readonly host: SceneLoaderHost,
    initial: SceneDefinition,
  ) {
    this.scene = initial;
    host.status.scene = initial.name;
    this.builder.onBvh = (bvh, mesh) => {
      host.status.bvhBuilding = false;
      host.progress.finish();
      const sandbox = this.sandbox;
      if (sandbox !== null && sandbox.terrain === mesh) {
        sandbox.setBvh(bvh);
        host.status.bvhBuilds++;
        host.status.bvhNodes = bvh.stats.nodes;
        host.status.bvhTriangles = bvh.stats.triangles;
        for (const feature of host.features) feature.bvhChanged?.(sandbox);
      }
      this.buildEnded();
    };
    this.builder.onBvhError = (message) => {
      host.status.bvhBuilding = false;
      host.progress.finish();
      host.report(`BVH build failed: ${message}`);
      this.buildEnded();
    };
  }

  /** Hands a scene to the features (before its terrain is built): each takes its section, or turns off without one. */
  /** A scene was chosen over a running one and its systems wait for its terrain (see AppContext.sceneSwitching). */
  get switching(): boolean {
    return this.systemsPending && this.sandbox !== null;
  }

  announce(scene: SceneDefinition): void {
    for (const feature of this.host.features) feature.sceneLoaded?.(scene);
    this.systemsPending = true;
  }

  /** Turns a catalog system on from a section, or off; a bad section is reported and nothing changes. */
  setSystem(name: string, section: object | null): SimSystem | null {
    const sandbox = this.sandbox;
    if (sandbox === null) return null;
    try {
      if (section === null) disableSystem(sandbox, name);
      else enableSystem(sandbox, name, section, systemContext(sandbox));
    } catch (error) {
      this.host.report(messageOf(error));
    }
    return sandbox.system(name) ?? null;
  }

  /**
   * Downloads what runs now as a scene file: loaded again, or run headless with `npm run scene`, it
   * starts the same systems with the same settings on the same terrain, seen from this camera.
   */
  save(): void {
    const sandbox = this.sandbox;
    if (sandbox === null) {
      this.host.report('Nothing to save yet: the terrain is still being built.');
      return;
    }
    const view = this.host.stage.getView();
    const camera = {
      position: [view.position[0]!, view.position[1]!, view.position[2]!] as [number, number, number],
      target: [view.target[0]!, view.target[1]!, view.target[2]!] as [number, number, number],
      fov: view.fov,
    };
    const json = currentScene(sandbox, camera);
    // The page's terrain colouring goes with it (e.g. the materials a filter is about).
    json.view = { colouring: this.host.settings.view.colouring };
    downloadText(`${JSON.stringify(json, null, 2)}\n`, `${sandbox.scene.name}.json`, 'application/json');
  }

  /** Puts the scene's camera back. */
  applyCamera(scene = this.scene): void {
    const terrain = this.sandbox?.terrain;
    if (scene.terrainMesh !== undefined && terrain?.source !== undefined) {
      // A mesh scene's terrain settings are placeholders until its mesh is placed: its bounds decide.
      const camera = meshSceneCamera(scene, terrain);
      this.host.stage.setWorldSize(terrain.params.worldSize);
      this.host.stage.setView(camera.position, camera.target, camera.fov);
      return;
    }
    this.host.stage.setWorldSize(scene.terrain.worldSize);
    this.host.stage.setView(scene.camera.position, scene.camera.target, scene.camera.fov);
  }

  scheduleRebuild(): void {
    if (this.refuseOnMesh()) return;
    window.clearTimeout(this.rebuildTimer);
    this.rebuildTimer = window.setTimeout(() => void this.rebuild({ onlyIfChanged: true }), REBUILD_DELAY_MS);
  }

  /**
   * A terrain slider is being dragged: rebuild as often as the worker keeps up, never cutting a build
   * short. With a build in flight the newest settings wait for it (only the newest: the drag may have
   * moved on many steps); settings out of range mid-drag are skipped quietly (the release reports them).
   */
  liveRebuild(): void {
    if (this.refuseOnMesh()) return;
    if (this.builder.busy) {
      this.liveWaiting = true;
      return;
    }
    this.liveWaiting = false;
    const params = { ...this.host.settings.terrain };
    try {
      resolveTerrainParams(params);
    } catch {
      return;
    }
    if (sameTerrain(params, this.requested)) return;
    void this.rebuild({ onlyIfChanged: true });
  }

  /**
   * On a mesh scene the terrain settings describe the mesh as placed and do not build anything: a slider
   * moved springs back, with a notice the first time. Returns whether the ground is a mesh.
   */
  private refuseOnMesh(): boolean {
    const terrain = this.sandbox?.terrain;
    if (this.scene.terrainMesh === undefined || terrain?.source === undefined) return false;
    Object.assign(this.host.settings.terrain, terrain.params);
    this.host.panel.refresh();
    if (!this.meshSettingsRefused) {
      this.meshSettingsRefused = true;
      this.host.notify(
        `The ground is the mesh ${JSON.stringify(terrain.source)}: the terrain settings only describe it. Choose a generated scene to shape a terrain.`,
        'Terrain settings do not apply to a mesh',
      );
    }
    return true;
  }

  /** After a build ended (terrain and BVH): the settings a drag moved to meanwhile follow. */
  private buildEnded(): void {
    if (this.liveWaiting) this.liveRebuild();
  }

  /**
   * Replaces every terrain setting outside its domain (a link's `cells=5000`, `kind=perlin`) by the value on
   * screen, or before any terrain exists by the scene's, and says so: a bad value never reaches the build,
   * so there is always a terrain to show.
   */
  private validTerrainSettings(): TerrainParams {
    const { settings, panel } = this.host;
    const fallback = this.sandbox?.terrain.params ?? this.scene.terrain;
    const problems: string[] = [];
    for (const key of Object.keys(settings.terrain) as (keyof TerrainParams)[]) {
      try {
        resolveTerrainParams({ [key]: settings.terrain[key] });
      } catch (error) {
        Object.assign(settings.terrain, { [key]: fallback[key] });
        problems.push(`${messageOf(error)} (using ${String(fallback[key])})`);
      }
    }
    if (problems.length > 0) {
      panel.refresh();
      this.host.notify(problems.join('\n'), 'Out-of-range terrain settings were replaced');
    }
    return { ...settings.terrain };
  }

  /**
   * Builds the terrain of the current settings in the worker; on failure the old terrain stays.
   * `onlyIfChanged`: nothing to do when those are the settings of the newest build asked for already
   * (a slider released where the live rebuild left it).
   */
  async rebuild(options: { onlyIfChanged?: boolean } = {}): Promise<void> {
    window.clearTimeout(this.rebuildTimer);
    if (this.scene.terrainMesh !== undefined) {
      // The page's first scene is a mesh scene (already announced): its mesh opens now. Later, nothing to rebuild.
      if (this.sandbox === null) {
        const scene = this.scene;
        const path = presetPath(this.host.settings.scene);
        await this.openMesh({ scene, file: scene.terrainMesh!.file, bytes: () => fetchSceneMesh(scene, path), presetName: null, announced: true });
      }
      return;
    }
    const { settings, status, progress, panel } = this.host;
    const params = this.validTerrainSettings();
    if (options.onlyIfChanged === true && sameTerrain(params, this.requested)) return;
    this.requested = params;
    const shown = this.sandbox?.terrain.params ?? null;
    status.building = true;
    progress.start(`Building ${params.cells}² terrain`);
    let mesh: TerrainMesh;
    try {
      mesh = await this.builder.build(params, (fraction, stage) => progress.set(fraction, stage));
    } catch (error) {
      if (error instanceof BuildSuperseded) return;
      this.requested = this.sandbox?.terrain.params ?? null;
      status.building = false;
      progress.finish();
      this.host.report(messageOf(error));
      if (this.sandbox !== null) {
        // Show the parameters that are actually on screen again.
        Object.assign(settings.terrain, this.sandbox.terrain.params);
        panel.refresh();
      } else if (JSON.stringify(params) !== JSON.stringify(this.scene.terrain)) {
        // Nothing on screen yet: the scene's own terrain is the last good state.
        Object.assign(settings.terrain, this.scene.terrain);
        panel.refresh();
        void this.rebuild();
      }
      return;
    }
    this.showTerrain(mesh, shown);
  }

  /**
   * A terrain arrived from the worker (generated, or a mesh file placed): it becomes the sandbox's, is drawn,
   * the scene's systems start on it if they wait, and the features hear of it. Its BVH follows through onBvh.
   */
  private showTerrain(mesh: TerrainMesh, shown: TerrainParams | null): void {
    const { status, panel } = this.host;
    status.building = false;
    status.bvhBuilding = true;
    status.builds++;
    status.triangles = mesh.triangleCount;
    status.generationMs = mesh.generationMs;
    status.meshFile = mesh.source ?? '';
    if (this.sandbox === null) {
      this.sandbox = new Sandbox(this.scene, mesh, TIMING_FRAMES, HISTORY_FRAMES);
      // Edits stretched the refitted tree too far: a fresh one is built in the worker and swapped in when ready.
      this.sandbox.onBvhDegraded = (sandbox) => {
        if (this.builder.rebuildBvh(sandbox.terrain)) this.host.status.bvhBuilding = true;
      };
      this.host.applyRun();
    } else this.sandbox.setTerrain(mesh);
    const { terrainView, meshView } = this.host;
    if (mesh.source === undefined) {
      terrainView.setTerrain(mesh);
      meshView.clear();
    } else meshView.setMesh(mesh);
    terrainView.group.visible = mesh.source === undefined;
    this.host.stage.setWorldSize(mesh.params.worldSize);
    // A world or height scale changed from the panel: the camera frames the new terrain.
    if (!this.sceneCameraSet && shown !== null && (shown.worldSize !== mesh.params.worldSize || shown.heightScale !== mesh.params.heightScale)) {
      const camera = defaultCamera(mesh.params);
      this.host.stage.setView(camera.position, camera.target, camera.fov);
    }
    this.sceneCameraSet = false;
    if (this.systemsPending) {
      // The scene's systems start on its own terrain, exactly as the headless runner starts them; then
      // the features, so a system a link turned on (`#Particles/enabled=true`) starts beside them.
      this.systemsPending = false;
      try {
        installSceneSystems(this.sandbox, this.scene, systemContext(this.sandbox));
      } catch (error) {
        this.host.report(messageOf(error));
      }
    }
    for (const feature of this.host.features) feature.terrainChanged?.(this.sandbox);
    this.host.applyView();
    panel.readouts.triangles = mesh.triangleCount.toLocaleString('en');
    panel.readouts.generation = `${mesh.generationMs.toFixed(0)} ms${mesh.heightsKernel === 'wasm' ? ' · WebAssembly' : ''}`;
  }

  /** Switches to a preset; `sceneCamera` (default: unless View → keep camera) moves to the scene's camera. */
  selectPreset(name: string, sceneCamera?: boolean): void {
    let scene: SceneDefinition;
    try {
      scene = loadPreset(name);
    } catch (error) {
      this.host.settings.scene = this.scene.name;
      this.host.panel.refresh();
      this.host.report(messageOf(error));
      return;
    }
    if (scene.terrainMesh === undefined) this.use(scene, name, sceneCamera);
    else {
      const path = presetPath(name);
      void this.openMesh({ scene, file: scene.terrainMesh.file, bytes: () => fetchSceneMesh(scene, path), presetName: name, sceneCamera });
    }
  }

  /** Dropping a scene file anywhere on the page loads it. */
  acceptDrops(target: Window): void {
    target.addEventListener('dragover', (event) => event.preventDefault());
    target.addEventListener('drop', (event) => {
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file !== undefined) void this.loadFile(file);
    });
  }

  /** Opens a dropped or chosen file: a scene file, or a mesh file as a scene of its own (see droppedMeshScene). */
  async loadFile(file: File): Promise<void> {
    try {
      const dropped = await loadSceneFile(file);
      if (dropped.kind === 'mesh') {
        await this.openMesh({ scene: null, file: dropped.name, bytes: () => Promise.resolve(dropped.bytes), presetName: null, sceneCamera: true });
      } else if (dropped.scene.terrainMesh !== undefined) {
        const scene = dropped.scene;
        await this.openMesh({ scene, file: scene.terrainMesh!.file, bytes: () => fetchSceneMesh(scene, file.name), presetName: null });
      } else this.use(dropped.scene, null);
    } catch (error) {
      this.host.report(messageOf(error));
    }
  }

  /**
   * Opens a scene whose ground is a mesh file: the file is read, parsed and placed in the worker with
   * the progress bar, and only once it is good does the scene switch (a file that does not parse, has no
   * triangles or too many leaves the scene on screen running, and says why). `scene` null: a mesh file
   * alone, whose scene is made from its bounds. The camera goes to the scene's (or frames the mesh) unless
   * View → keep camera holds it.
   */
  private async openMesh(request: MeshOpening): Promise<void> {
    const { settings, status, progress, panel } = this.host;
    const opening = ++this.meshOpenings;
    const scene = request.scene;
    status.building = true;
    progress.start(`Opening ${request.file}`);
    let terrain: TerrainMesh;
    let opened: SceneDefinition;
    try {
      const bytes = await request.bytes();
      if (opening !== this.meshOpenings) return;
      const params = scene?.terrain ?? settings.terrain;
      const file = { name: request.file, bytes, scale: scene?.terrainMesh?.scale ?? 1, cells: scene?.terrain.cells ?? DROPPED_MESH_CELLS };
      terrain = await this.builder.buildMesh(file, params, (fraction, stage) => progress.set(fraction, stage));
      if (opening !== this.meshOpenings) return;
      opened = scene ?? droppedMeshScene(request.file, terrain);
    } catch (error) {
      if (error instanceof BuildSuperseded || opening !== this.meshOpenings) return;
      status.building = false;
      progress.finish();
      this.host.report(messageOf(error));
      if (this.sandbox !== null) {
        // The scene on screen goes on; the menu names it again.
        settings.scene = status.scene;
        panel.refresh();
      } else if (request.scene !== this.scene) {
        // Dropped while the page's first scene was still building, which it cut short: that scene builds again.
        void this.rebuild();
      } else {
        // Nothing on screen yet (a link to a mesh scene that failed): the first generated preset instead.
        const fallback = presetNames().find((name) => loadPreset(name).terrainMesh === undefined);
        if (fallback !== undefined) this.selectPreset(fallback, true);
      }
      return;
    }
    if (request.announced !== true) this.switchTo(opened, request.presetName);
    this.sceneCameraSet = true;
    this.meshSettingsRefused = false;
    // As for generated scenes: the kept camera moves anyway when the world it looked at changes size.
    const sceneCamera = request.sceneCamera ?? !settings.view.keepCamera;
    const resized = terrain.params.worldSize !== this.host.stage.worldSizeShown;
    this.showTerrain(terrain, null);
    Object.assign(settings.terrain, terrain.params);
    panel.refresh();
    if (sceneCamera || resized) this.applyCamera(opened);
  }

  /** Switches to a validated scene; everything is checked before anything changes. */
  private use(scene: SceneDefinition, presetName: string | null, sceneCamera = !this.host.settings.view.keepCamera): void {
    // A mesh file still being read for an earlier choice is dropped: this scene was chosen after it.
    this.meshOpenings++;
    this.switchTo(scene, presetName);
    const { stage } = this.host;
    if (sceneCamera || scene.terrain.worldSize !== stage.worldSizeShown) this.applyCamera(scene);
    this.sceneCameraSet = true;
    void this.rebuild();
  }

  /** Makes a validated scene the current one: settings, menu, URL, features; its terrain is built by the caller. */
  private switchTo(scene: SceneDefinition, presetName: string | null): void {
    const { settings, status, panel } = this.host;
    this.scene = scene;
    status.scene = scene.name;
    Object.assign(settings.terrain, scene.terrain);
    if (scene.view?.colouring !== undefined) settings.view.colouring = scene.view.colouring;
    // The preset menu names what is shown: the preset, or a loaded file's scene.
    settings.scene = presetName ?? scene.name;
    if (presetName !== null) this.host.presetChosen(presetName);
    // Whatever the banner said about an earlier attempt, this scene applies.
    this.host.clearReport();
    this.announce(scene);
    panel.refresh();
    if (this.sandbox !== null) this.sandbox.scene = scene;
  }
}

/** A mesh scene to open: its scene (null: a mesh file alone), the mesh file's name and how to read its bytes. */
interface MeshOpening {
  scene: SceneDefinition | null;
  file: string;
  bytes: () => Promise<Uint8Array>;
  /** The preset it is, for the menu and the URL (null: a file). */
  presetName: string | null;
  /** Whether the camera moves to the scene's (default: unless View → keep camera). */
  sceneCamera?: boolean;
  /** The scene was announced to the features already (the page's first scene). */
  announced?: boolean;
}

/** The catalog's context for systems made on the page: the sandbox is their world. */
function systemContext(sandbox: Sandbox): SystemContext {
  return { world: sandbox, readField };
}

/** Whether two terrain settings build the same terrain. */
function sameTerrain(a: TerrainParams, b: TerrainParams | null): boolean {
  if (b === null) return false;
  for (const key of Object.keys(a) as (keyof TerrainParams)[]) if (!Object.is(a[key], b[key])) return false;
  return true;
}
