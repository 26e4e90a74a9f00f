import Stats from 'stats.js';
import '../ui/style.css';
import { ColliderscopeError, Sandbox, type SceneDefinition, type TerrainMesh } from '../core';
import { ErrorBanner } from '../ui/errorBanner';
import { Panel } from '../ui/panel';
import { ProgressBar } from '../ui/progressBar';
import { DEFAULT_VIEW_SETTINGS, type AppSettings } from '../ui/settings';
import { TimingHud } from '../ui/timingHud';
import { Stage } from '../view/stage';
import { TerrainView } from '../view/terrainView';
import type { AppContext, AppFeature } from './feature';
import { FEATURES } from './features';
import { loadPreset, loadSceneFile, presetNames } from './scenes';
import { BuildSuperseded, TerrainBuilder } from './terrainBuilder';

/**
 * Boot and the frame loop. The app owns the settings object, turns GUI edits into core calls and view
 * updates, and keeps the last good state whenever a scene or a parameter is rejected.
 */
class App {
  private readonly stage: Stage;
  private readonly terrainView = new TerrainView();
  private readonly builder = new TerrainBuilder();
  private readonly banner: ErrorBanner;
  private readonly progress: ProgressBar;
  private readonly hud: TimingHud;
  private readonly stats = new Stats();
  private readonly panel: Panel;
  private readonly settings: AppSettings;
  private sandbox: Sandbox | null = null;
  private scene: SceneDefinition;
  private lastFrame = performance.now();
  private rebuildTimer = 0;
  private readonly features: AppFeature[] = [];
  /** Counters for tests and for the curious (window.colliderscope). */
  readonly status = { frames: 0, builds: 0, building: false, bvhBuilds: 0, bvhBuilding: false, bvhNodes: 0, scene: '', triangles: 0, lastError: '' as string, generationMs: 0 };

  constructor(root: HTMLElement) {
    const names = presetNames();
    const requested = new URLSearchParams(location.search).get('scene');
    let initial: SceneDefinition;
    let startupError: string | null = null;
    try {
      initial = loadPreset(requested ?? names[0] ?? 'default');
    } catch (error) {
      startupError = messageOf(error);
      initial = loadPreset(names[0] ?? 'default');
    }
    this.scene = initial;
    this.status.scene = initial.name;
    this.settings = { scene: initial.name, terrain: { ...initial.terrain }, view: { ...DEFAULT_VIEW_SETTINGS } };

    this.stage = new Stage(root);
    this.stage.scene.add(this.terrainView.group);
    this.banner = new ErrorBanner(root);
    this.progress = new ProgressBar(root);
    this.hud = new TimingHud(root);
    this.stats.dom.classList.add('cs-stats');
    this.stats.dom.dataset.testid = 'stats';
    root.appendChild(this.stats.dom);

    this.panel = new Panel(this.settings, names, {
      terrainChanged: () => this.scheduleRebuild(),
      viewChanged: () => this.applyView(),
      selectScene: (name) => this.trySelectPreset(name),
      loadSceneFile: (file) => void this.tryLoadFile(file),
      resetCamera: () => this.applyCamera(this.scene),
    });

    const context: AppContext = {
      stage: this.stage,
      gui: this.panel.gui,
      root,
      settings: this.settings,
      sandbox: () => this.sandbox,
      reportError: (message) => this.reportError(message),
    };
    for (const create of FEATURES) {
      const feature = create();
      feature.install(context);
      this.features.push(feature);
    }

    this.builder.onBvh = (bvh, mesh) => {
      this.status.bvhBuilding = false;
      this.progress.finish();
      const sandbox = this.sandbox;
      if (sandbox === null || sandbox.terrain !== mesh) return;
      sandbox.setBvh(bvh);
      this.status.bvhBuilds++;
      this.status.bvhNodes = bvh.stats.nodes;
      for (const feature of this.features) feature.bvhChanged?.(sandbox);
    };
    this.builder.onBvhError = (message) => {
      this.status.bvhBuilding = false;
      this.progress.finish();
      this.reportError(`BVH build failed: ${message}`);
    };

    this.installShortcuts();
    this.applyCamera(initial);
    this.applyView();
    void this.rebuild();
    if (startupError !== null) this.reportError(startupError);
    requestAnimationFrame(this.frame);
  }

  private readonly frame = (time: number): void => {
    requestAnimationFrame(this.frame);
    const dt = Math.min((time - this.lastFrame) / 1000, 0.1);
    this.lastFrame = time;
    this.stats.begin();
    const sandbox = this.sandbox;
    if (sandbox !== null) {
      sandbox.step(1 / 60);
      for (const feature of this.features) feature.frame?.(dt, sandbox);
    }
    this.stage.update(dt);
    const renderStart = performance.now();
    this.stage.render();
    if (sandbox !== null) {
      sandbox.timings.record('render', performance.now() - renderStart);
      this.hud.update(sandbox.timings, this.hudLines(sandbox));
    }
    this.stats.end();
    this.status.frames++;
  };

  private hudLines(sandbox: Sandbox): string[] {
    const t = sandbox.terrain;
    const lines = [`terrain ${t.params.cells}² cells · ${(t.triangleCount / 1e6).toFixed(2)}M triangles · built in ${t.generationMs.toFixed(0)} ms`];
    for (const feature of this.features) if (feature.hudLines !== undefined) lines.push(...feature.hudLines());
    return lines;
  }

  private scheduleRebuild(): void {
    window.clearTimeout(this.rebuildTimer);
    this.rebuildTimer = window.setTimeout(() => void this.rebuild(), 120);
  }

  /** Builds the terrain of the current settings in the worker; on failure the old terrain stays. */
  private async rebuild(): Promise<void> {
    const params = { ...this.settings.terrain };
    this.status.building = true;
    this.progress.start(`Building ${params.cells}² terrain`);
    let mesh: TerrainMesh;
    try {
      mesh = await this.builder.build(params, (fraction, stage) => this.progress.set(fraction, stage));
    } catch (error) {
      if (error instanceof BuildSuperseded) return;
      this.status.building = false;
      this.progress.finish();
      this.reportError(messageOf(error));
      if (this.sandbox !== null) {
        // Show the parameters that are actually on screen again.
        Object.assign(this.settings.terrain, this.sandbox.terrain.params);
        this.panel.refresh();
      }
      return;
    }
    this.status.building = false;
    this.status.bvhBuilding = true;
    this.status.builds++;
    this.status.triangles = mesh.triangleCount;
    this.status.generationMs = mesh.generationMs;
    if (this.sandbox === null) this.sandbox = new Sandbox(this.scene, mesh);
    else this.sandbox.setTerrain(mesh);
    this.terrainView.setTerrain(mesh);
    this.stage.setWorldSize(mesh.params.worldSize);
    for (const feature of this.features) feature.terrainChanged?.(this.sandbox);
    this.applyView();
    this.panel.readouts.triangles = mesh.triangleCount.toLocaleString('en');
    this.panel.readouts.generation = `${mesh.generationMs.toFixed(0)} ms`;
  }

  private applyView(): void {
    const v = this.settings.view;
    this.terrainView.applyLook({ colouring: v.colouring, wireframe: v.wireframe, flatShading: v.flatShading });
    this.stage.applyLook({ fog: v.fog, fogAmount: v.fogAmount, sunElevation: v.sunElevation, sunAzimuth: v.sunAzimuth });
    this.stage.setCameraMode(v.camera);
    this.hud.visible = v.hud;
  }

  private applyCamera(scene: SceneDefinition): void {
    this.stage.setWorldSize(scene.terrain.worldSize);
    this.stage.setView(scene.camera.position, scene.camera.target, scene.camera.fov);
  }

  /** Switches to a validated scene; everything is checked before anything changes. */
  private useScene(scene: SceneDefinition, presetName: string | null): void {
    this.scene = scene;
    this.status.scene = scene.name;
    Object.assign(this.settings.terrain, scene.terrain);
    if (presetName !== null) {
      this.settings.scene = presetName;
      const url = new URL(location.href);
      url.searchParams.set('scene', presetName);
      history.replaceState(null, '', url);
    }
    this.panel.refresh();
    this.applyCamera(scene);
    if (this.sandbox !== null) this.sandbox.scene = scene;
    void this.rebuild();
  }

  private trySelectPreset(name: string): void {
    try {
      this.useScene(loadPreset(name), name);
    } catch (error) {
      this.settings.scene = this.scene.name;
      this.panel.refresh();
      this.reportError(messageOf(error));
    }
  }

  private async tryLoadFile(file: File): Promise<void> {
    try {
      this.useScene(await loadSceneFile(file), null);
    } catch (error) {
      this.reportError(messageOf(error));
    }
  }

  private reportError(message: string): void {
    this.status.lastError = message;
    this.banner.show(message);
    console.warn(`[colliderscope] ${message}`);
  }

  private installShortcuts(): void {
    window.addEventListener('keydown', (event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.ctrlKey || event.metaKey) return;
      const v = this.settings.view;
      if (event.code === 'KeyF') v.camera = v.camera === 'orbit' ? 'fly' : 'orbit';
      else if (event.code === 'KeyG') v.wireframe = !v.wireframe;
      else if (event.code === 'KeyH') v.hud = !v.hud;
      else return;
      this.applyView();
      this.panel.refresh();
    });
    // Dropping a scene file anywhere on the page loads it.
    window.addEventListener('dragover', (event) => event.preventDefault());
    window.addEventListener('drop', (event) => {
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file !== undefined) void this.tryLoadFile(file);
    });
  }
}

function messageOf(error: unknown): string {
  if (error instanceof ColliderscopeError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

const root = document.getElementById('app');
if (root === null) throw new Error('index.html has no #app element');
const app = new App(root);
(window as unknown as { colliderscope: App }).colliderscope = app;
