import Stats from 'stats.js';
import '../ui/style.css';
import {
  ColliderscopeError,
  FrameRecorder,
  Sandbox,
  describesSystems,
  disableSystem,
  enableSystem,
  installSceneSystems,
  type SimSystem,
  type SystemContext,
  type MetricValue,
  type RecordingInfo,
  type SceneDefinition,
  type TerrainMesh,
} from '../core';
import { ControlBar } from '../ui/controlBar';
import { HelpOverlay, type Shortcut } from '../ui/helpOverlay';
import { PresenterOverlay } from '../ui/presenterOverlay';
import { ResultDialog } from '../ui/resultDialog';
import { ErrorBanner } from '../ui/errorBanner';
import { Panel } from '../ui/panel';
import { ProgressBar } from '../ui/progressBar';
import { DEFAULT_RUN_SETTINGS, DEFAULT_VIEW_SETTINGS, type AppSettings } from '../ui/settings';
import { TimingHud } from '../ui/timingHud';
import { Stage } from '../view/stage';
import { TerrainView } from '../view/terrainView';
import type { AppContext, AppFeature } from './feature';
import { FEATURES } from './features';
import { loadPreset, loadSceneFile, presetNames, readField } from './scenes';
import { BuildSuperseded, TerrainBuilder } from './terrainBuilder';
import { VideoCapture, canvasPng, download, downloadText, stamp } from './capture';
import { applyState, encodeState } from './urlState';

/** States kept for stepping back. */
const HISTORY_FRAMES = 120;
/** Frames run before a benchmark starts recording (JIT warm-up, first uploads). */
const BENCHMARK_WARMUP = 30;

const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Space', what: 'pause / run' },
  { keys: '.', what: 'single step (while paused)' },
  { keys: ',', what: 'step back one frame' },
  { keys: 'R', what: 'restart with the same seed' },
  { keys: '− / =', what: 'slower / faster (time scale)' },
  { keys: 'K', what: 'start / stop recording timings and counters' },
  { keys: 'B', what: 'benchmark the current scene' },
  { keys: 'C', what: 'screenshot (PNG)' },
  { keys: 'V', what: 'start / stop video capture' },
  { keys: 'X', what: 'fullscreen' },
  { keys: 'P', what: 'presenter mode (panels hidden, scenes as slides)' },
  { keys: '← / →, PgUp / PgDn', what: 'previous / next scene' },
  { keys: 'F', what: 'orbit / fly camera (fly: WASD, Q/E down/up, drag to look)' },
  { keys: 'G', what: 'wireframe' },
  { keys: 'H', what: 'timing panel' },
  { keys: '?', what: 'this help' },
  { keys: 'Esc', what: 'close dialogs, leave presenter mode' },
];

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
  private readonly controls: ControlBar;
  private readonly help: HelpOverlay;
  private readonly presenterOverlay: PresenterOverlay;
  private readonly resultDialog: ResultDialog;
  private readonly recorder = new FrameRecorder();
  private readonly video = new VideoCapture();
  private paused = false;
  /** The scene names its systems and they have not been installed on its terrain yet. */
  private systemsPending = false;
  private pendingSteps = 0;
  private presenting = false;
  private hudBeforePresenting = true;
  /** Frames left to run in the benchmark: warm-up first (negative: not benchmarking). */
  private benchmarkLeft = -1;
  private hashTimer = 0;
  private lastHash = '';
  /** Counters for tests and for the curious (window.colliderscope). */
  readonly status = {
    frames: 0,
    builds: 0,
    building: false,
    bvhBuilds: 0,
    bvhBuilding: false,
    bvhNodes: 0,
    scene: '',
    triangles: 0,
    lastError: '' as string,
    generationMs: 0,
    /** The simulation's own frame counter (pauses, steps back, restarts). */
    simFrame: 0,
    paused: false,
    recording: false,
    recordedFrames: 0,
    benchmarking: false,
    benchmarkResult: '',
    presenting: false,
    slide: -1,
  };

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
    this.settings = { scene: initial.name, terrain: { ...initial.terrain }, view: { ...DEFAULT_VIEW_SETTINGS }, run: { ...DEFAULT_RUN_SETTINGS } };

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
      runChanged: () => this.applyRun(),
    });
    this.controls = new ControlBar(root, {
      togglePause: () => this.togglePause(),
      step: () => this.requestStep(),
      stepBack: () => this.stepBack(),
      restart: () => this.restart(),
      toggleRecording: () => this.toggleRecording(),
      exportCsv: () => this.exportRecording('csv'),
      exportJson: () => this.exportRecording('json'),
      benchmark: () => this.startBenchmark(),
      screenshot: () => void this.screenshot(),
      toggleVideo: () => void this.toggleVideo(),
      fullscreen: () => this.toggleFullscreen(),
      presenter: () => this.setPresenting(!this.presenting),
      help: () => this.help.toggle(),
    });
    this.presenterOverlay = new PresenterOverlay(root, {
      previous: () => this.changeScene(-1),
      next: () => this.changeScene(1),
      leave: () => this.setPresenting(false),
    });
    this.resultDialog = new ResultDialog(root);
    this.help = new HelpOverlay(root, SHORTCUTS);

    const context: AppContext = {
      stage: this.stage,
      gui: this.panel.gui,
      root,
      settings: this.settings,
      sandbox: () => this.sandbox,
      reportError: (message) => this.reportError(message),
      system: (name) => this.sandbox?.system(name) ?? null,
      setSystem: (name, section) => this.setSystem(name, section),
    };
    for (const create of FEATURES) {
      const feature = create();
      feature.install(context);
      this.features.push(feature);
    }
    if (describesSystems(this.scene.systems)) {
      for (const feature of this.features) feature.sceneLoaded?.(this.scene);
      this.systemsPending = true;
    }
    this.panel.refresh();

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
    this.applyRun();
    this.restoreFromHash();
    window.clearTimeout(this.rebuildTimer); // the link's terrain settings are built once, just below
    void this.rebuild();
    if (startupError !== null) this.reportError(startupError);
    this.panel.gui.onFinishChange(() => this.scheduleHashWrite());
    window.setInterval(() => this.scheduleHashWrite(), 1000);
    // A link pasted into this tab's address bar changes only the hash: apply it like a fresh load.
    window.addEventListener('hashchange', () => {
      if (location.hash !== this.lastHash) this.restoreFromHash();
    });
    this.help.showOnFirstVisit();
    requestAnimationFrame(this.frame);
  }

  private readonly frame = (time: number): void => {
    requestAnimationFrame(this.frame);
    const dt = Math.min((time - this.lastFrame) / 1000, 0.1);
    this.lastFrame = time;
    this.stats.begin();
    const sandbox = this.sandbox;
    const run = this.settings.run;
    let simDt = 0;
    if (this.benchmarkLeft >= 0) simDt = 1 / 60;
    else if (!this.paused) simDt = (run.fixedStep ? 1 / 60 : dt) * run.timeScale;
    else if (this.pendingSteps > 0) {
      this.pendingSteps--;
      simDt = (1 / 60) * run.timeScale;
    }
    if (sandbox !== null) {
      if (simDt > 0) sandbox.step(simDt);
      // Features get the simulated time step: 0 while paused, so their animations pause too.
      for (const feature of this.features) feature.frame?.(simDt, sandbox);
    }
    this.stage.update(dt);
    const renderStart = performance.now();
    this.stage.render();
    if (sandbox !== null) {
      sandbox.timings.record('render', performance.now() - renderStart);
      if (simDt > 0 || this.benchmarkLeft >= 0) this.recorder.capture(sandbox, this.featureCounters());
      this.hud.update(sandbox.timings, this.hudLines(sandbox));
      this.advanceBenchmark(sandbox);
    }
    this.stats.end();
    this.status.frames++;
    this.status.simFrame = sandbox?.frame ?? 0;
    this.status.paused = this.paused;
    this.status.recording = this.recorder.recording;
    this.status.recordedFrames = this.recorder.frames.length;
    this.controls.show({
      paused: this.paused,
      recording: this.recorder.recording,
      recordedFrames: this.recorder.frames.length,
      videoRecording: this.video.recording,
      canStepBack: sandbox !== null && sandbox.history.length > 0,
      benchmarking: this.benchmarkLeft >= 0,
      timeScale: run.timeScale,
    });
  };

  /** Counters features show in the HUD, kept per frame in recordings ("feature.line N"). */
  private featureCounters(): Record<string, MetricValue> {
    const counters: Record<string, MetricValue> = {};
    for (const feature of this.features) {
      const lines = feature.hudLines?.() ?? [];
      lines.forEach((line, i) => (counters[`${feature.name}.${i}`] = line));
    }
    return counters;
  }

  /** The sandbox's catalog context: the systems it makes see it as their world. */
  private systemContext(sandbox: Sandbox): SystemContext {
    return { world: sandbox, readField };
  }

  /** Turns a catalog system on from a section, or off; a bad section is reported and nothing changes. */
  private setSystem(name: string, section: object | null): SimSystem | null {
    const sandbox = this.sandbox;
    if (sandbox === null) return null;
    try {
      if (section === null) disableSystem(sandbox, name);
      else enableSystem(sandbox, name, section, this.systemContext(sandbox));
    } catch (error) {
      this.reportError(messageOf(error));
    }
    return sandbox.system(name) ?? null;
  }

  private applyRun(): void {
    const run = this.settings.run;
    if (this.sandbox !== null) this.sandbox.timings.enabled = run.timings;
  }

  private togglePause(): void {
    this.paused = !this.paused;
    this.pendingSteps = 0;
  }

  private requestStep(): void {
    this.paused = true;
    this.pendingSteps++;
  }

  private stepBack(): void {
    const sandbox = this.sandbox;
    if (sandbox === null) return;
    this.paused = true;
    this.pendingSteps = 0;
    if (!sandbox.stepBack())
      this.reportError(
        sandbox.rewindable
          ? 'Nothing older to step back to (the last 120 frames are kept).'
          : 'A running subsystem cannot save its state, so stepping back is off for this scene.',
      );
  }

  private restart(): void {
    const sandbox = this.sandbox;
    if (sandbox === null) return;
    if (!sandbox.restart())
      this.reportError('A running subsystem cannot save its state, so this scene cannot restart in place; reload the page for a clean start.');
    sandbox.timings.clear();
  }

  private recordingInfo(): RecordingInfo {
    const sandbox = this.sandbox!;
    return {
      scene: sandbox.scene.name,
      seed: sandbox.scene.seed,
      settings: { ...this.settings, url: location.origin + location.pathname + location.search + encodeState(this.panel.gui, this.stage.getView()) },
      machine: {
        userAgent: navigator.userAgent,
        cores: navigator.hardwareConcurrency ?? 0,
        devicePixelRatio: window.devicePixelRatio,
        canvas: `${this.stage.renderer.domElement.width}×${this.stage.renderer.domElement.height}`,
      },
      startedAt: new Date().toISOString(),
    };
  }

  private toggleRecording(): void {
    if (this.recorder.recording) {
      this.recorder.stop();
      return;
    }
    if (this.sandbox === null) return;
    this.recorder.start(this.recordingInfo(), this.sandbox);
  }

  private exportRecording(format: 'csv' | 'json'): void {
    if (this.recorder.frames.length === 0) {
      this.reportError('Nothing recorded yet: press ● (K) to record, run some frames, then export.');
      return;
    }
    const name = `colliderscope-${this.status.scene}-${stamp()}.${format}`;
    if (format === 'csv') downloadText(this.recorder.toCsv(), name, 'text/csv');
    else downloadText(this.recorder.toJson(), name, 'application/json');
  }

  /** Restart with the scene's seeds, fixed 1/60 s steps, warm-up, then record a fixed number of frames. */
  private startBenchmark(): void {
    const sandbox = this.sandbox;
    if (sandbox === null || this.benchmarkLeft >= 0) return;
    if (this.recorder.recording) this.recorder.stop();
    this.restart();
    this.paused = false;
    this.benchmarkLeft = BENCHMARK_WARMUP + this.settings.run.benchmarkFrames;
    this.status.benchmarking = true;
  }

  private advanceBenchmark(sandbox: Sandbox): void {
    if (this.benchmarkLeft < 0) return;
    if (this.benchmarkLeft === this.settings.run.benchmarkFrames) {
      sandbox.timings.clear();
      this.recorder.start(this.recordingInfo(), sandbox);
    }
    this.benchmarkLeft--;
    if (this.benchmarkLeft >= 0) return;
    this.recorder.stop();
    this.status.benchmarking = false;
    const info = this.recorder.info!;
    const table = [
      `scene ${info.scene} · seed ${info.seed} · ${this.recorder.frames.length} frames of 1/60 s after ${BENCHMARK_WARMUP} warm-up frames`,
      `${String(info.machine.userAgent)} · ${String(info.machine.cores)} cores · canvas ${String(info.machine.canvas)}`,
      String((info.settings as { url: string }).url),
      '',
      this.recorder.summaryTable(),
    ].join('\n');
    this.status.benchmarkResult = table;
    this.resultDialog.show('Benchmark', table);
  }

  private async screenshot(): Promise<void> {
    try {
      this.stage.render();
      download(await canvasPng(this.stage.renderer.domElement), `colliderscope-${this.status.scene}-${stamp()}.png`);
    } catch (error) {
      this.reportError(`Screenshot failed: ${messageOf(error)}`);
    }
  }

  private async toggleVideo(): Promise<void> {
    try {
      if (this.video.recording) download(await this.video.stop(), `colliderscope-${this.status.scene}-${stamp()}.webm`);
      else this.video.start(this.stage.renderer.domElement);
    } catch (error) {
      this.reportError(`Video capture failed: ${messageOf(error)}`);
    }
  }

  private toggleFullscreen(): void {
    if (document.fullscreenElement !== null) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch((error: unknown) => this.reportError(`Fullscreen refused: ${messageOf(error)}`));
  }

  /** Presenter mode: panels hidden, the scene's title large, arrow keys walk the presets like slides. */
  private setPresenting(on: boolean): void {
    if (on === this.presenting) return;
    this.presenting = on;
    this.status.presenting = on;
    if (on) {
      this.hudBeforePresenting = this.settings.view.hud;
      this.settings.view.hud = false;
      this.panel.gui.hide();
    } else {
      this.settings.view.hud = this.hudBeforePresenting;
      this.panel.gui.show();
    }
    this.hud.large = on;
    this.stats.dom.hidden = on;
    this.controls.visible = !on;
    this.presenterOverlay.visible = on;
    this.applyView();
    if (on) this.showSlide(Math.max(0, presetNames().indexOf(this.settings.scene)));
  }

  private showSlide(index: number): void {
    const names = presetNames();
    if (names.length === 0) return;
    const i = ((index % names.length) + names.length) % names.length;
    this.status.slide = i;
    if (names[i] !== this.settings.scene) this.trySelectPreset(names[i]!, true);
    else this.applyCamera(this.scene);
    this.presenterOverlay.showSlide(this.scene.name, this.scene.description, i, names.length);
  }

  private changeScene(offset: number): void {
    const names = presetNames();
    const current = Math.max(0, names.indexOf(this.settings.scene));
    if (this.presenting) this.showSlide(current + offset);
    else if (names.length > 0) this.trySelectPreset(names[(current + offset + names.length) % names.length]!);
  }

  /** Applies the URL hash's settings through the GUI (as if the user had set them) and its camera. */
  private restoreFromHash(): void {
    if (location.hash.length <= 1) return;
    const state = applyState(this.panel.gui, location.hash, (key) => (key.startsWith('Scene/') ? 0 : 1));
    if (state.camera !== null) this.stage.setView(state.camera.position, state.camera.target, state.camera.fov);
    if (state.problems.length > 0) this.reportError(`Some settings in the link were ignored: ${state.problems.join('; ')}`);
    this.panel.refresh();
  }

  private scheduleHashWrite(): void {
    window.clearTimeout(this.hashTimer);
    this.hashTimer = window.setTimeout(() => {
      const hash = encodeState(this.panel.gui, this.stage.getView());
      if (hash === this.lastHash) return;
      this.lastHash = hash;
      history.replaceState(null, '', location.pathname + location.search + hash);
    }, 150);
  }

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
    if (this.sandbox === null) {
      this.sandbox = new Sandbox(this.scene, mesh, 120, HISTORY_FRAMES);
      this.applyRun();
    } else this.sandbox.setTerrain(mesh);
    this.terrainView.setTerrain(mesh);
    this.stage.setWorldSize(mesh.params.worldSize);
    for (const feature of this.features) feature.terrainChanged?.(this.sandbox);
    if (this.systemsPending) {
      // The scene's systems start on its own terrain, exactly as the headless runner starts them.
      this.systemsPending = false;
      try {
        installSceneSystems(this.sandbox, this.scene, this.systemContext(this.sandbox));
      } catch (error) {
        this.reportError(messageOf(error));
      }
    }
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
  private useScene(scene: SceneDefinition, presetName: string | null, sceneCamera = !this.settings.view.keepCamera): void {
    this.scene = scene;
    this.status.scene = scene.name;
    Object.assign(this.settings.terrain, scene.terrain);
    if (presetName !== null) {
      this.settings.scene = presetName;
      const url = new URL(location.href);
      url.searchParams.set('scene', presetName);
      history.replaceState(null, '', url);
    }
    if (describesSystems(scene.systems)) {
      for (const feature of this.features) feature.sceneLoaded?.(scene);
      this.systemsPending = true;
    }
    this.panel.refresh();
    if (sceneCamera || scene.terrain.worldSize !== this.stage.worldSizeShown) this.applyCamera(scene);
    if (this.sandbox !== null) this.sandbox.scene = scene;
    void this.rebuild();
  }

  private trySelectPreset(name: string, sceneCamera?: boolean): void {
    try {
      this.useScene(loadPreset(name), name, sceneCamera);
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

  /** The run-control, capture and presenting shortcuts; true when the key was one of them. */
  private handleControlKey(event: KeyboardEvent): boolean {
    const run = this.settings.run;
    switch (event.key) {
      case ' ':
        this.togglePause();
        return true;
      case '.':
        this.requestStep();
        return true;
      case ',':
        this.stepBack();
        return true;
      case '-':
        run.timeScale = Math.max(0.05, Math.round(run.timeScale * 50) / 100);
        this.panel.refresh();
        return true;
      case '=':
      case '+':
        run.timeScale = Math.min(4, Math.round(run.timeScale * 200) / 100);
        this.panel.refresh();
        return true;
      case '?':
        this.help.toggle();
        return true;
      case 'Escape':
        if (this.help.visible) this.help.hide();
        else if (this.resultDialog.visible) this.resultDialog.hide();
        else if (this.presenting) this.setPresenting(false);
        else return false;
        return true;
      case 'ArrowRight':
      case 'PageDown':
        this.changeScene(1);
        return true;
      case 'ArrowLeft':
      case 'PageUp':
        this.changeScene(-1);
        return true;
    }
    switch (event.code) {
      case 'KeyR':
        this.restart();
        return true;
      case 'KeyK':
        this.toggleRecording();
        return true;
      case 'KeyB':
        this.startBenchmark();
        return true;
      case 'KeyC':
        void this.screenshot();
        return true;
      case 'KeyV':
        void this.toggleVideo();
        return true;
      case 'KeyX':
        this.toggleFullscreen();
        return true;
      case 'KeyP':
        this.setPresenting(!this.presenting);
        return true;
    }
    return false;
  }

  private installShortcuts(): void {
    window.addEventListener('keydown', (event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.ctrlKey || event.metaKey) return;
      if (this.handleControlKey(event)) {
        event.preventDefault();
        return;
      }
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
