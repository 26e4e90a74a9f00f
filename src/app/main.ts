import Stats from 'stats.js';
import '../ui/style.css';
import { RayEmitterSystem, type MetricValue, type Sandbox } from '../core';
import { ControlBar, type ControlActions } from '../ui/controlBar';
import { HelpOverlay } from '../ui/helpOverlay';
import { ResultDialog } from '../ui/resultDialog';
import { benchmarkChart } from '../ui/benchmarkChart';
import { threadSweepChart } from '../ui/threadSweepChart';
import type { BarChart } from '../ui/barChart';
import { ErrorBanner } from '../ui/errorBanner';
import { Panel } from '../ui/panel';
import { ProgressBar } from '../ui/progressBar';
import { DEFAULT_RUN_SETTINGS, DEFAULT_VIEW_SETTINGS, type AppSettings } from '../ui/settings';
import { TimingHud, type HudLine } from '../ui/timingHud';
import { Stage } from '../view/stage';
import { LegendPanel } from '../ui/legendPanel';
import type { Legend } from '../view/legend';
import { MATERIAL_LEGEND } from '../view/terrainColors';
import { MeshView } from '../view/meshView';
import { TerrainView } from '../view/terrainView';
import type { AppContext, AppFeature } from './feature';
import { createFeatures } from './features';
import { presetNames } from './scenes';
import { CaptureActions, recordingInfo } from './capture';
import { RunControl } from './runControl';
import { FLY_CAMERA_OWNER, Shortcuts, flyCameraClaim, pageShortcuts, type PageActions } from './shortcuts';
import { Presenter, type PresenterHost } from './presenter';
import { SceneLoader, startingScene, type SceneLoaderHost } from './sceneLoader';
import { newStatus } from './status';
import { UrlSync } from './urlSync';
import { Gestures, claimCameraGestures } from './gestures';
import { becomeCrossOriginIsolated } from './isolation';
import { PageRayThreads } from './rayThreads';
import { ThreadSweep, sweepMedians, sweepPhases, type ThreadSweepResult } from './threadSweep';

/**
 * Boot and wiring: makes the page's parts, connects the panel, the keys and the buttons to them, and runs
 * the frame loop. Run control, shortcuts, presenter mode, URL sync, capture and scene loading live in
 * their own modules.
 */
/** How often the legend panel looks at what is drawn (ms). */
const LEGEND_REFRESH_MS = 250;

class App implements SceneLoaderHost, PresenterHost {
  readonly stage: Stage;
  readonly terrainView = new TerrainView();
  readonly meshView = new MeshView();
  private readonly banner: ErrorBanner;
  readonly progress: ProgressBar;
  private readonly hud: TimingHud;
  private readonly legends: LegendPanel;
  private legendsShownAt = -Infinity;
  private readonly stats = new Stats();
  readonly panel: Panel;
  readonly settings: AppSettings;
  private lastFrame = performance.now();
  readonly features: AppFeature[] = [];
  private readonly controls: ControlBar;
  private readonly help: HelpOverlay;
  private readonly resultDialog: ResultDialog;
  private readonly runControl: RunControl;
  private readonly shortcuts: Shortcuts;
  private readonly presenter: Presenter;
  private readonly url: UrlSync;
  private readonly capture: CaptureActions;
  private readonly rayThreads: PageRayThreads;
  /** The HUD's line saying WebGL runs on the CPU, or null on a GPU (it never changes). */
  private readonly softwareLine: HudLine | null;
  private readonly threadSweep: ThreadSweep;
  readonly scenes: SceneLoader;
  /** Counters for tests and for the curious (window.colliderscope.status). */
  readonly status = newStatus();

  constructor(root: HTMLElement) {
    const names = presetNames();
    const { scene: initial, error: startupError } = startingScene();
    this.settings = {
      scene: initial.name,
      terrain: { ...initial.terrain },
      view: { ...DEFAULT_VIEW_SETTINGS, ...initial.view },
      run: { ...DEFAULT_RUN_SETTINGS },
    };

    const stage = (this.stage = new Stage(root));
    const software = stage.softwareRenderer;
    this.softwareLine =
      software === null
        ? null
        : {
            text: 'software WebGL · no antialiasing',
            detail: `WebGL runs on the CPU (${software}): drawn without multisampling, one pixel per CSS pixel, for about twice the frame rate`,
          };
    stage.scene.add(this.terrainView.group);
    stage.scene.add(this.meshView.group);
    this.banner = new ErrorBanner(root);
    this.progress = new ProgressBar(root);
    this.hud = new TimingHud(root);
    this.legends = new LegendPanel(root);
    this.stats.dom.classList.add('cs-stats');
    this.stats.dom.dataset.testid = 'stats';
    root.appendChild(this.stats.dom);
    const report = (message: string): void => this.report(message);

    this.panel = new Panel(this.settings, names, {
      terrainChanged: () => this.scenes.scheduleRebuild(),
      terrainDragged: () => this.scenes.liveRebuild(),
      viewChanged: () => this.applyView(),
      selectScene: (name) => this.scenes.selectPreset(name),
      loadSceneFile: (file) => void this.scenes.loadFile(file),
      resetCamera: () => this.scenes.applyCamera(),
      saveScene: () => this.scenes.save(),
      runChanged: () => this.applyRun(),
    });
    const refresh = (): void => this.panel.refresh();
    this.url = new UrlSync(this.panel.gui, stage, { report, refresh });
    this.scenes = new SceneLoader(this, initial);
    const run = (this.runControl = new RunControl(this.settings.run, {
      sandbox: () => this.scenes.sandbox,
      report,
      notify: (message, title) => this.notify(message, title),
      recordingInfo: (sandbox) => recordingInfo(sandbox, this.settings, this.url.link(), stage.renderer.domElement),
    }));
    this.capture = new CaptureActions(stage.renderer.domElement, { sceneName: () => this.status.scene, render: () => stage.render(), report });
    this.presenter = new Presenter(root, this);

    // One set of actions behind the keys and the control bar's buttons.
    const view = this.settings.view;
    const actions: PageActions & ControlActions = {
      togglePause: () => run.togglePause(),
      step: () => run.requestStep(),
      stepBack: () => run.stepBack(),
      restart: () => run.restart(),
      slower: () => (run.slower(), refresh()),
      faster: () => (run.faster(), refresh()),
      toggleRecording: () => run.toggleRecording(),
      exportCsv: () => this.capture.exportRecording(run.recorder, 'csv'),
      exportJson: () => this.capture.exportRecording(run.recorder, 'json'),
      benchmark: () => run.startBenchmark(),
      screenshot: () => void this.capture.screenshot(),
      toggleVideo: () => void this.capture.toggleVideo(),
      fullscreen: () => this.capture.toggleFullscreen(),
      presenter: () => this.presenter.toggle(),
      changeScene: (offset) => this.presenter.changeScene(offset),
      toggleCamera: () => this.editView(() => (view.camera = view.camera === 'orbit' ? 'fly' : 'orbit')),
      toggleWireframe: () => this.editView(() => (view.wireframe = !view.wireframe)),
      toggleHud: () => this.presenter.toggleHud() || this.editView(() => (view.hud = !view.hud)),
      help: () => this.help.toggle(),
      canClose: () => this.help.visible || this.resultDialog.visible || this.presenter.presenting,
      close: () => {
        if (this.help.visible) this.help.hide();
        else if (this.resultDialog.visible) this.resultDialog.hide();
        else this.presenter.set(false);
      },
    };
    this.shortcuts = new Shortcuts(pageShortcuts(actions));
    this.shortcuts.claim(flyCameraClaim(stage)); // features claim later, so theirs win
    this.controls = new ControlBar(root, actions);
    this.resultDialog = new ResultDialog(root);
    const gestures = new Gestures();
    claimCameraGestures(gestures);
    this.help = new HelpOverlay(root, () => [...this.shortcuts.help(), gestures.help()]);

    const threads = (this.rayThreads = new PageRayThreads(report));
    this.threadSweep = new ThreadSweep({
      setWorkers: (workers) => threads.setWorkers(workers),
      workers: () => threads.settings.workers,
      startBenchmark: () => run.startBenchmark(),
    });
    threads.install(
      this.panel.gui,
      () => {
        // Timings of the old thread count go; the hits are the same.
        const emitters = this.scenes.sandbox?.system('rayEmitters');
        if (emitters instanceof RayEmitterSystem) emitters.retrace();
      },
      () => {
        if (run.benchmarking) report('thread sweep: a benchmark is already running');
        else void this.threadSweep.start(threads.maxWorkers + 1);
      },
    );
    const context: AppContext = {
      stage,
      rayThreads: this.rayThreads,
      gui: this.panel.gui,
      root,
      settings: this.settings,
      shortcuts: this.shortcuts,
      gestures,
      sandbox: () => this.scenes.sandbox,
      sceneSwitching: () => this.scenes.switching,
      reportError: report,
      system: (name) => this.scenes.sandbox?.system(name) ?? null,
      setSystem: (name, section) => this.scenes.setSystem(name, section),
    };
    for (const feature of createFeatures()) {
      feature.install(context);
      this.features.push(feature);
    }
    this.scenes.announce(initial);
    this.panel.refresh();

    this.shortcuts.listen(window);
    this.scenes.acceptDrops(window);
    this.scenes.applyCamera();
    this.applyView();
    this.applyRun();
    this.url.restore(); // the link's terrain settings are built once, just below
    void this.scenes.rebuild();
    if (startupError !== null) this.report(startupError);
    this.url.start();
    this.help.showOnFirstVisit();
    requestAnimationFrame(this.frame);
  }

  private readonly frame = (time: number): void => {
    requestAnimationFrame(this.frame);
    const dt = Math.min((time - this.lastFrame) / 1000, 0.1);
    this.lastFrame = time;
    this.stats.begin();
    const frameStart = performance.now();
    const sandbox = this.scenes.sandbox;
    const run = this.runControl;
    const simDt = run.nextStepDt(dt);
    if (sandbox !== null) {
      if (simDt > 0) sandbox.step(simDt);
      // Ground that edits changed (made from the panel, replayed by the step, undone by step back).
      const deformed = sandbox.takeDeformedArea();
      if (deformed !== null) {
        this.terrainView.updateArea(deformed);
        for (const feature of this.features) feature.terrainDeformed?.(sandbox, deformed);
      }
      // Features get the simulated time step: 0 while paused, so their animations pause too. Each view's
      // work is timed as `view.<name>`, so the profiler shows every system's share of the frame.
      for (const feature of this.features) {
        if (feature.frame === undefined) continue;
        const start = performance.now();
        feature.frame(simDt, sandbox);
        sandbox.timings.record(`view.${feature.name}`, performance.now() - start);
      }
    }
    this.stage.update(dt);
    const renderStart = performance.now();
    this.stage.render();
    if (sandbox !== null) {
      const frameEnd = performance.now();
      sandbox.timings.record('render', frameEnd - renderStart);
      sandbox.timings.record('frame', frameEnd - frameStart);
      const benchmark = run.endFrame(sandbox, simDt, () => this.featureCounters());
      this.hud.update(sandbox.timings, this.hudLines(sandbox), this.hudCharts());
      // Legends change with settings, not per frame: collecting (and comparing) them 4 times a second is plenty.
      if (time - this.legendsShownAt >= LEGEND_REFRESH_MS) {
        this.legendsShownAt = time;
        this.legends.show(this.visibleLegends());
      }
      if (benchmark !== null) {
        const summary = run.recorder.summary();
        if (this.threadSweep.running) void this.threadSweep.finished(summary).then((result) => result !== null && this.showSweep(result));
        else this.resultDialog.show('Benchmark', benchmark, benchmarkChart(summary));
      }
    }
    this.stats.end();
    Object.assign(this.status, {
      frames: this.status.frames + 1,
      simFrame: sandbox?.frame ?? 0,
      paused: run.paused,
      recording: run.recorder.recording,
      recordedFrames: run.recorder.frames.length,
      benchmarking: run.benchmarking,
      benchmarkResult: run.benchmarkResult,
      sweepThreads: this.threadSweep.current,
      presenting: this.presenter.presenting,
      slide: this.presenter.slide,
    });
    const canStepBack = run.canStepBack;
    this.controls.show({ ...this.status, timeScale: this.settings.run.timeScale, videoRecording: this.capture.videoRecording, canStepBack });
  };

  /** Counters features show in the HUD, kept per frame in recordings ("feature.line N"). */
  /** A finished thread sweep: its table and speed-up chart in the result dialog. */
  private showSweep(result: ThreadSweepResult): void {
    const scene = this.status.scene;
    const threads = result.points.map((point) => point.threads);
    const rows = sweepPhases(result.points).map((phase) => ({ phase, medians: sweepMedians(result.points, phase) }));
    const text = [
      `scene ${scene} · ${navigator.hardwareConcurrency} hardware threads · on the pools: the ray emitters' casts, the capsule crowd's sweeps and the particles' move, cache lookups and net`,
      '',
      result.table,
    ].join('\n');
    this.status.sweepResult = text;
    this.resultDialog.show('Thread sweep', text, threadSweepChart(threads, rows));
  }

  private featureCounters(): Record<string, MetricValue> {
    const counters: Record<string, MetricValue> = {};
    for (const feature of this.features) (feature.hudLines?.() ?? []).forEach((line, i) => (counters[`${feature.name}.${i}`] = line));
    return counters;
  }

  private hudLines(sandbox: Sandbox): (string | HudLine)[] {
    const t = sandbox.terrain;
    const ground: HudLine =
      t.source !== undefined
        ? {
            text: `mesh ${t.source} · ${t.triangleCount.toLocaleString('en')} triangles`,
            detail: `mesh ${t.source} · ${t.triangleCount.toLocaleString('en')} triangles · ${t.params.worldSize.toFixed(1)} across · placed in ${t.generationMs.toFixed(0)} ms`,
          }
        : {
            text: `terrain ${t.params.cells}² · ${(t.triangleCount / 1e6).toFixed(2)}M triangles`,
            detail: `terrain ${t.params.cells}² cells · ${t.triangleCount.toLocaleString('en')} triangles · built in ${t.generationMs.toFixed(0)} ms`,
          };
    const lines: (string | HudLine)[] = [ground, this.rayThreads.line()];
    if (this.softwareLine !== null) lines.push(this.softwareLine);
    for (const feature of this.features) if (feature.hudLines !== undefined) lines.push(...feature.hudLines());
    return lines;
  }

  private hudCharts(): BarChart[] {
    const charts: BarChart[] = [];
    for (const feature of this.features) if (feature.hudCharts !== undefined) charts.push(...feature.hudCharts());
    return charts;
  }

  /** Every colour coding on screen: the terrain's, then each feature's. */
  private visibleLegends(): Legend[] {
    const legends: Legend[] = this.settings.view.colouring === 'material' ? [MATERIAL_LEGEND] : [];
    for (const feature of this.features) if (feature.legends !== undefined) legends.push(...feature.legends());
    return legends;
  }

  presetChosen(name: string): void {
    this.url.setPreset(name);
  }

  hidePanels(hidden: boolean): void {
    if (hidden) this.panel.gui.hide();
    else this.panel.gui.show();
    this.hud.large = hidden;
    this.legends.element.classList.toggle('cs-legends-large', hidden);
    this.stats.dom.hidden = hidden;
    this.controls.visible = !hidden;
  }

  applyRun(): void {
    if (this.scenes.sandbox !== null) this.scenes.sandbox.timings.enabled = this.settings.run.timings;
  }

  /** A view setting changed by a key: applied, and the panel shows it. */
  private editView(edit: () => unknown): boolean {
    edit();
    this.applyView();
    this.panel.refresh();
    return true;
  }

  applyView(): void {
    const v = this.settings.view;
    this.terrainView.applyLook({ colouring: v.colouring, wireframe: v.wireframe, flatShading: v.flatShading });
    this.meshView.applyLook({ colouring: v.colouring, wireframe: v.wireframe, flatShading: true });
    this.stage.applyLook({ fog: v.fog, fogAmount: v.fogAmount, sunElevation: v.sunElevation, sunAzimuth: v.sunAzimuth });
    if (v.camera === 'fly' && this.stage.cameraMode !== 'fly') this.sayWhoHoldsFlyKeys();
    this.stage.setCameraMode(v.camera);
    this.hud.visible = this.presenter.hudVisible(v.hud);
  }

  /** Switching to the fly camera while a feature holds W A S D (the walking character) says so, rather than flying nowhere. */
  private sayWhoHoldsFlyKeys(): void {
    const holder = this.shortcuts.activeClaim('KeyW');
    if (holder !== undefined && holder.owner !== FLY_CAMERA_OWNER) {
      this.notify(
        `W A S D walk the ${holder.owner.replace(/ \(.*$/, '').toLowerCase()} while it is on; the fly camera gets them back once it is off.`,
        'Fly camera: keys taken',
      );
    }
  }

  report(message: string): void {
    this.status.lastError = message;
    this.banner.show(message);
    console.warn(`[colliderscope] ${message}`);
  }

  notify(message: string, title: string): void {
    this.status.lastError = message;
    this.banner.show(message, title, 'notice');
    console.warn(`[colliderscope] ${title}: ${message}`);
  }

  clearReport(): void {
    this.banner.hide();
  }
}

const root = document.getElementById('app');
if (root === null) throw new Error('index.html has no #app element');
// On a static host without the isolation headers the page reloads once under the isolation worker.
becomeCrossOriginIsolated();
const app = new App(root);
(window as unknown as { colliderscope: App }).colliderscope = app;
