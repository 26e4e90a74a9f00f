import * as THREE from 'three';
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import {
  BVH_LAYOUTS,
  KERNEL_LABELS,
  MASK_ALL,
  RAY_TRIANGLE_KERNEL_NAMES,
  RayEmitterSystem,
  castRays,
  formatQueryCounters,
  loadSimdRays,
  prepareRayStrategies,
  rayEmittersNeedPreparation,
  resolveRayEmitters,
  simdRaysUnavailableReason,
  sortingsFor,
  type BVH,
  type Kernel,
  type RayEmitterSettings,
  type RayEmitterStrategy,
  type Sandbox,
  type SceneDefinition,
  type SceneRayEmitters,
  type TraceResult,
} from '../../core';
import { registerThreeMeshBVHCaster } from '../../adapters/three/threeMeshBvhCaster';
import { abChart } from '../../ui/abChart';
import { threadsLine } from './threadsLine';
import type { BarChart } from '../../ui/barChart';
import { RAY_EMITTER_LEGEND, RayEmitterView } from '../../view/rayEmitterView';
import type { Legend } from '../../view/legend';
import type { AppContext, AppFeature } from '../feature';
import { addFilterFolder, describeFilter, type FilterFolder } from './filterFolder';
import { addFocusButton, sphereAround, type FocusTarget } from './focusButton';

const EMITTER_NAMES = { 'coherent fan': 'fan', 'incoherent spray': 'spray', 'vertical rain': 'rain' } as const;
const BATCH_SIZES = ['1', '4', '16', '64', '256', 'all'] as const;
type BatchSizeName = (typeof BATCH_SIZES)[number];
/** The kernel choice by its label on screen. */
const KERNEL_CHOICES: Record<string, Kernel> = { [KERNEL_LABELS.typescript]: 'typescript', [KERNEL_LABELS['wasm-simd']]: 'wasm-simd' };

/** Strategy B's contender on screen: our walk, or another library's (registered below). */
const CONTENDERS = { 'our walk': 'ours', 'three-mesh-bvh raycastFirst': 'three-mesh-bvh' } as const;
type Contender = (typeof CONTENDERS)[keyof typeof CONTENDERS];

/** One strategy set as the panel edits it (the batch size as its menu entry, the external caster or 'ours'). */
type StrategyPanel = Omit<RayEmitterStrategy, 'batchSize' | 'external'> & { batchSize: BatchSizeName; contender: Contender };

/** The panel's state: the system's section, whether it runs, and how many rays the view draws. */
type EmitterPanel = Omit<RayEmitterSettings, 'a' | 'b'> & { enabled: boolean; drawLimit: number };

function toPanel(strategy: RayEmitterStrategy): StrategyPanel {
  const size = String(strategy.batchSize);
  const { external, ...ours } = strategy;
  return {
    ...ours,
    batchSize: (BATCH_SIZES as readonly string[]).includes(size) ? (size as BatchSizeName) : '256',
    contender: external ?? 'ours',
  };
}

function fromPanel(panel: StrategyPanel): RayEmitterStrategy {
  const { contender, ...ours } = panel;
  const strategy: RayEmitterStrategy = { ...ours, batchSize: panel.batchSize === 'all' ? 'all' : Number(panel.batchSize) };
  if (contender !== 'ours') strategy.external = contender;
  return strategy;
}

/** What a strategy set is called on screen. */
function describe(s: RayEmitterStrategy): string {
  if (s.external !== undefined) return s.external;
  const batching = s.batching ? `batch ${s.batchSize}` : 'one at a time';
  if (s.kernel === 'wasm-simd' && s.tree === '4-way' && s.layout === 'quantized' && s.triangleTest === 'watertight')
    return `4-way quantized · WebAssembly SIMD · ${batching} · watertight`;
  return `${s.tree} ${s.layout} · ${s.sorting} · ${batching} · ${s.triangleTest}${s.triangles === 'indexed' ? ' · indexed' : ''}`;
}

/**
 * The ray emitters' panel and view: the settings of the core system (src/emitters) — a coherent fan, an
 * incoherent spray or a vertical rain, strategy A and in A/B mode B — the rays drawn to their hits, the
 * last trace's counters and ratios. Ctrl+click (⌘+click) on the terrain moves the emitter. The
 * binary layout a binary-tree strategy needs is built here, after a status, before the system is
 * turned on with it (seconds on a big terrain). Off by default.
 */
export class RayEmittersFeature implements AppFeature {
  readonly name = 'rayEmitters';
  private context: AppContext | null = null;
  private readonly panel: EmitterPanel;
  private readonly a: StrategyPanel;
  private readonly b: StrategyPanel;
  private readonly kernelControllers: Controller[] = [];
  private readonly sortingControllers = new Map<StrategyPanel, Controller>();
  private readonly view = new RayEmitterView();
  /** The system's trace count the view last drew. */
  private drawnTraces = -1;
  private drawnSystem: RayEmitterSystem | null = null;
  private reportedError = '';
  /** The BVH whose binary layout is being built before the system is turned on. */
  private preparing: BVH | null = null;
  private readonly readouts = { a: '—', b: '—', ratio: '—', filter: '—', status: '' };
  private folder: GUI | null = null;
  private bFolder: GUI | null = null;
  private filterFolder: FilterFolder | null = null;
  private readonly raycaster = new THREE.Raycaster();
  private readonly ndc = new THREE.Vector2();
  private readonly pickRay = { count: 1, origins: new Float32Array(3), directions: new Float32Array(3), tMax: new Float32Array([Infinity]) };
  private readonly pickHit = { t: new Float32Array(1), triangle: new Int32Array(1) };

  constructor() {
    const { a, b, ...rest } = resolveRayEmitters({});
    this.panel = { ...rest, enabled: false, drawLimit: 100_000 };
    this.a = toPanel(a);
    this.b = toPanel(b);
  }

  install(context: AppContext): void {
    this.context = context;
    context.stage.scene.add(this.view.group);
    this.view.visible = false;
    const changed = (): void => this.apply();
    // The page has three-mesh-bvh: a scene's strategy B can race it (`"b": { "external": "three-mesh-bvh" }`).
    registerThreeMeshBVHCaster();
    const folder = context.gui.addFolder('Ray emitters');
    this.folder = folder;
    folder.add(this.panel, 'enabled').name('ray emitters').onChange(changed);
    folder.add(this.panel, 'emitter', EMITTER_NAMES).name('emitter').onChange(changed);
    folder.add(this.panel, 'rays', 1, 100_000, 1).name('rays').onChange(changed);
    const half = (context.sandbox()?.terrain.params.worldSize ?? 512) / 2;
    folder.add(this.panel, 'x', -half, half, 0.1).name('x (Ctrl+click)').onChange(changed).listen();
    folder.add(this.panel, 'z', -half, half, 0.1).name('z (Ctrl+click)').onChange(changed).listen();
    folder.add(this.panel, 'height', 0, 300, 0.5).name('height above ground').onChange(changed);
    folder.add(this.panel, 'yaw', -180, 180, 1).name('fan yaw °').onChange(changed).listen();
    folder.add(this.panel, 'pitch', -89, 89, 1).name('fan pitch °').onChange(changed);
    folder.add(this.panel, 'spread', 0, 180, 0.5).name('spread (fov ° · cone ° · rain radius)').onChange(changed);
    folder.add(this.panel, 'segment', 0, 500, 1).name('segment length (0: unbounded)').onChange(changed);
    folder.add(this.panel, 'seed', 1, 1000, 1).onChange(changed);
    folder.add(this.panel, 'everyFrame').name('trace every frame').onChange(changed);
    folder.add(this.panel, 'sweep').name('sweep the fan').onChange(changed);
    folder
      .add(this.panel, 'drawLimit', 0, 100_000, 100)
      .name('rays drawn at most')
      .onChange(() => (this.drawnTraces = -1));
    this.filterFolder = addFilterFolder(folder, this.panel, changed);
    this.strategyFolder(folder, 'Strategy A', this.a, changed);
    folder
      .add(this.panel, 'ab')
      .name('A/B: also trace with B')
      .onChange(() => {
        this.bFolder?.show(this.panel.ab);
        changed();
      });
    this.bFolder = this.strategyFolder(folder, 'Strategy B', this.b, changed);
    // B may be another library's walk over the same triangles (the fields above then do not apply).
    this.bFolder.add(this.b, 'contender', CONTENDERS).name('contender').onChange(changed);
    this.bFolder.hide();
    const readouts = folder.addFolder('Last trace');
    readouts.add(this.readouts, 'a').name('A').disable().listen();
    readouts.add(this.readouts, 'b').name('B').disable().listen();
    readouts.add(this.readouts, 'ratio').name('B / A').disable().listen();
    readouts.add(this.readouts, 'filter').name('filter').disable().listen();
    readouts.add(this.readouts, 'status').name('status').disable().listen();
    addFocusButton(folder, context, () => this.focusTarget(), 'the rays');
    folder.close();
    this.listenToPointer(context);
    void loadSimdRays().then((kernel) => {
      if (kernel === null) {
        // No SIMD here: the choice stays visible but fixed on TypeScript, its label saying why.
        for (const controller of this.kernelControllers)
          controller.setValue('typescript').name('ray kernel (WebAssembly SIMD unavailable)').disable();
        this.readouts.status = `WebAssembly SIMD unavailable: ${simdRaysUnavailableReason()}`;
      }
      // The system fell back to TypeScript until now: trace again with the kernel asked for.
      this.system?.retrace();
    });
  }

  /** A folder with one strategy set's controls; sorting choices follow the tree. */
  private strategyFolder(parent: GUI, title: string, s: StrategyPanel, changed: () => void): GUI {
    const folder = parent.addFolder(title);
    folder
      .add(s, 'tree', ['binary', '4-way'])
      .name('tree')
      .onChange(() => {
        this.refreshSortings(s);
        changed();
      });
    folder
      .add(s, 'layout', [...BVH_LAYOUTS])
      .name('layout')
      .onChange(changed);
    this.sortingControllers.set(
      s,
      folder
        .add(s, 'sorting', [...sortingsFor(s.tree)])
        .name('node sorting')
        .onChange(changed),
    );
    folder.add(s, 'batching').name('batching').onChange(changed);
    folder
      .add(s, 'batchSize', [...BATCH_SIZES])
      .name('batch size')
      .onChange(changed);
    folder
      .add(s, 'triangleTest', [...RAY_TRIANGLE_KERNEL_NAMES])
      .name('triangle test')
      .onChange(changed);
    folder.add(s, 'triangles', ['packed', 'indexed']).name('leaf triangles').onChange(changed);
    this.kernelControllers.push(folder.add(s, 'kernel', KERNEL_CHOICES).name('ray kernel').onChange(changed));
    return folder;
  }

  /** The sorting menu offers what the strategy's tree can do. */
  private refreshSortings(s: StrategyPanel): void {
    const choices = sortingsFor(s.tree);
    if (!choices.includes(s.sorting)) s.sorting = 'precomputed';
    const controller = this.sortingControllers.get(s);
    if (controller === undefined) return;
    const onChange = (): void => this.apply();
    this.sortingControllers.set(
      s,
      controller
        .options([...choices])
        .name('node sorting')
        .onChange(onChange),
    );
  }

  sceneLoaded(scene: SceneDefinition): void {
    const wanted = scene.systems.rayEmitters as SceneRayEmitters | undefined;
    if (wanted !== undefined) {
      const { a, b, ...rest } = resolveRayEmitters(wanted);
      Object.assign(this.panel, rest);
      Object.assign(this.a, toPanel(a));
      Object.assign(this.b, toPanel(b));
      this.refreshSortings(this.a);
      this.refreshSortings(this.b);
      this.bFolder?.show(this.panel.ab);
      this.filterFolder?.refresh();
      this.folder?.controllersRecursive().forEach((controller) => controller.updateDisplay());
    }
    this.panel.enabled = wanted !== undefined;
  }

  terrainChanged(sandbox: Sandbox): void {
    const half = sandbox.terrain.params.worldSize / 2;
    this.panel.x = Math.min(Math.max(this.panel.x, -half), half);
    this.panel.z = Math.min(Math.max(this.panel.z, -half), half);
  }

  frame(_dtSeconds: number, sandbox: Sandbox): void {
    const system = this.system;
    this.view.visible = system !== null;
    const switching = this.context?.sceneSwitching() === true;
    if (system === null) {
      if (this.preparing === null && !switching) this.panel.enabled = false;
      return;
    }
    if (!switching) this.panel.enabled = true;
    // The page's ray pool, when it has workers (the system falls back to this thread by itself).
    system.threads = this.context?.rayThreads.pool ?? null;
    // Paused or not, an edit shows at once (the system traces only when its settings changed).
    system.update(sandbox);
    // The system moves the fan (sweep) and keeps it on the terrain: the panel follows.
    this.panel.yaw = system.settings.yaw;
    this.panel.x = system.settings.x;
    this.panel.z = system.settings.z;
    if (system.error !== this.reportedError) {
      this.reportedError = system.error;
      if (system.error !== '') this.context?.reportError(`ray emitters: ${system.error}`);
    }
    if (system === this.drawnSystem && system.traces === this.drawnTraces) return;
    // A system just made (new settings) has not traced yet: the last picture stays until it has.
    if (system.resultA === null && system.error === '' && system !== this.drawnSystem) return;
    this.drawnSystem = system;
    this.drawnTraces = system.traces;
    this.draw(system, sandbox);
  }

  /** The emitter and where a sample of its rays ended. */
  private focusTarget(): FocusTarget | null {
    const system = this.system;
    const rays = system?.rays;
    if (system === null || rays === undefined || rays.count === 0) return null;
    const sample = Math.min(rays.count, 256);
    const points = new Float32Array(3 * (sample + 1));
    const { origins, directions } = rays;
    const { t } = system.hitsA;
    for (let k = 0; k < sample; k++) {
      const i = Math.floor((k * rays.count) / sample);
      const reach = Number.isFinite(t[i]!) ? t[i]! : 0;
      for (let a = 0; a < 3; a++) points[3 * k + a] = origins[3 * i + a]! + directions[3 * i + a]! * reach;
    }
    points.set(origins.subarray(0, 3), 3 * sample);
    return sphereAround(points, sample + 1);
  }

  legends(): readonly Legend[] {
    return this.view.group.visible ? [RAY_EMITTER_LEGEND] : [];
  }

  hudLines(): readonly string[] {
    const system = this.system;
    if (system === null || system.resultA === null) return this.panel.enabled && this.readouts.status !== '' ? [this.readouts.status] : [];
    const name = Object.entries(EMITTER_NAMES).find(([, kind]) => kind === system.settings.emitter)?.[0] ?? system.settings.emitter;
    const lines = [
      `rays ${system.rays.count.toLocaleString('en')} (${name}) · A ${describe(system.settings.a)}: ${this.line(system, system.resultA)}`,
    ];
    if (system.resultB !== null) lines.push(`B ${describe(system.settings.b)}: ${this.line(system, system.resultB)} · B/A ${this.readouts.ratio}`);
    if (system.settings.filter !== MASK_ALL) lines.push(this.readouts.filter);
    for (const [label, result] of [
      ['A', system.resultA],
      ['B', system.resultB],
    ] as const)
      if (result?.threadMs != null) lines.push(threadsLine(label, result.threadMs, result.lastMs));
    return lines;
  }

  /** In A/B mode, the last trace of A and B side by side as bars, with their numbers and ratios. */
  hudCharts(): readonly BarChart[] {
    const system = this.system;
    if (system === null || system.resultA === null || system.resultB === null) return [];
    return [abChart(system.rays.count, system.settings.a, system.resultA, system.settings.b, system.resultB, system.differing)];
  }

  /** The running emitters, if any (the scene, or this panel, turned them on). */
  private get system(): RayEmitterSystem | null {
    const system = this.context?.system('rayEmitters') ?? null;
    return system instanceof RayEmitterSystem ? system : null;
  }

  private section(): RayEmitterSettings {
    const p = this.panel;
    return {
      emitter: p.emitter,
      rays: Math.round(p.rays),
      x: p.x,
      z: p.z,
      height: p.height,
      yaw: p.yaw,
      pitch: p.pitch,
      spread: p.spread,
      segment: p.segment,
      seed: Math.round(p.seed),
      everyFrame: p.everyFrame,
      sweep: p.sweep,
      ab: p.ab,
      filter: p.filter,
      a: fromPanel(this.a),
      b: fromPanel(this.b),
    };
  }

  /**
   * Turns the system on with the panel's settings (or off). A binary-tree strategy's layout is built
   * first, a frame after its status is on screen, as the build blocks the page for seconds on a big
   * terrain; the system itself would build it inside its step, unannounced.
   */
  private apply(): void {
    const context = this.context;
    if (context === null) return;
    if (!this.panel.enabled) {
      context.setSystem('rayEmitters', null);
      return;
    }
    const section = this.section();
    const bvh = context.sandbox()?.bvh ?? null;
    if (bvh !== null && rayEmittersNeedPreparation(section, bvh)) {
      if (this.preparing === bvh) return;
      this.preparing = bvh;
      this.readouts.status = `building the binary layout over ${bvh.triangleCount.toLocaleString('en')} triangles…`;
      setTimeout(() => {
        const ms = prepareRayStrategies(bvh);
        context.sandbox()?.timings.recordEvent('rayEmitters.prepare', ms);
        this.readouts.status = `binary layout, permutations and packed triangles built in ${ms.toFixed(0)} ms`;
        this.preparing = null;
        if (context.sandbox()?.bvh === bvh) this.apply();
      }, 30);
      return;
    }
    context.setSystem('rayEmitters', section);
  }

  private draw(system: RayEmitterSystem, sandbox: Sandbox): void {
    const terrain = sandbox.terrain;
    const origin = system.origin;
    this.view.placeMarker(origin[0]!, origin[1]!, origin[2]!, Math.max(0.5, terrain.params.worldSize / 400));
    const { rays, hitsA } = system;
    this.view.setRays(
      rays.origins,
      rays.directions,
      rays.tMax,
      hitsA.t,
      hitsA.triangle,
      rays.count,
      terrain.params.worldSize * 0.75,
      Math.round(this.panel.drawLimit),
    );
    if (system.status !== '' && this.preparing === null) this.readouts.status = system.status;
    const ra = system.resultA,
      rb = system.resultB;
    this.readouts.a = ra === null ? '—' : `${describe(system.settings.a)} — ${this.line(system, ra)}`;
    // The filter's work per ray (masked subtrees and triangles among the walk's counters).
    const perRay = (label: string, result: TraceResult | null): string =>
      result === null ? '' : ` · ${label} per ray: ${formatQueryCounters(result.counters, true)}`;
    this.readouts.filter = `filter keeps ${describeFilter(system.settings.filter)}${perRay('A', ra)}${perRay('B', rb)}`;
    if (ra !== null && rb !== null) {
      const ratio = (p: number, q: number): string => (q > 0 ? (p / q).toFixed(2) : '—');
      this.readouts.b = `${describe(system.settings.b)} — ${this.line(system, rb)}`;
      const same = system.differing === 0 ? 'same hits' : `${system.differing} hits differ`;
      if (rb.external !== null) this.readouts.ratio = `time ${ratio(rb.ms, ra.ms)}× · ${same}`;
      else
        this.readouts.ratio =
          `time ${ratio(rb.ms, ra.ms)}× · nodes ${ratio(rb.counters.nodesVisited, ra.counters.nodesVisited)}× · boxes ${ratio(rb.counters.boxesTested, ra.counters.boxesTested)}× · ` +
          `triangles ${ratio(rb.counters.trianglesTested, ra.counters.trianglesTested)}× · ${system.differing === 0 ? 'same hits' : `${system.differing} hits differ`}`;
    } else {
      this.readouts.b = '—';
      this.readouts.ratio = '—';
    }
  }

  private line(system: RayEmitterSystem, result: TraceResult): string {
    const count = system.rays.count;
    const n = Math.max(count, 1);
    const c = result.counters;
    const rate = result.ms > 0 ? `${(count / result.ms / 1000).toFixed(2)} M rays/s` : '';
    // Another library counts no nodes or boxes (describe names it).
    if (result.external !== null) return `${result.ms.toFixed(2)} ms ${rate} · ${result.hits.toLocaleString('en')} hits`;
    return `${result.walk} · ${result.ms.toFixed(2)} ms ${rate} · ${(c.nodesVisited / n).toFixed(1)} nodes/ray · ${(c.boxesTested / n).toFixed(1)} boxes/ray · ${(c.trianglesTested / n).toFixed(1)} triangles/ray · ${result.hits.toLocaleString('en')} hits`;
  }

  /** Ctrl+click on the terrain moves the emitter there. */
  private listenToPointer(context: AppContext): void {
    const canvas = context.stage.renderer.domElement;
    const isMoveClick = context.gestures.claim({ owner: 'ray emitters (while on)', modifier: 'Ctrl', kind: 'click', what: 'move the emitter there' });
    canvas.addEventListener(
      'pointerdown',
      (event) => {
        if (!this.panel.enabled || !isMoveClick(event) || event.button !== 0) return;
        const sandbox = context.sandbox();
        if (sandbox === null || sandbox.bvh === null) return;
        event.stopImmediatePropagation();
        const rect = canvas.getBoundingClientRect();
        this.ndc.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
        this.raycaster.setFromCamera(this.ndc, context.stage.camera);
        this.raycaster.ray.origin.toArray(this.pickRay.origins);
        this.raycaster.ray.direction.toArray(this.pickRay.directions);
        castRays(sandbox.bvh, this.pickRay, this.pickHit);
        if (this.pickHit.triangle[0]! < 0) return;
        const t = this.pickHit.t[0]!;
        this.panel.x = this.raycaster.ray.origin.x + t * this.raycaster.ray.direction.x;
        this.panel.z = this.raycaster.ray.origin.z + t * this.raycaster.ray.direction.z;
        this.apply();
      },
      { capture: true },
    );
  }
}
