import * as THREE from 'three';
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import {
  BINARY_SORTINGS,
  BVH_LAYOUTS,
  RAY_TRIANGLE_KERNEL_NAMES,
  WIDE_SORTINGS,
  castRays,
  castRaysWith,
  emitRays,
  hasBinaryBVH,
  loadSimdRays,
  prepareRayStrategies,
  simdRayKernel,
  simdRaysUnavailableReason,
  sampleTerrainHeight,
  type BVH,
  type BVHLayoutName,
  type NodeSorting,
  type RayBatch,
  type RayCounters,
  type RayEmitterKind,
  type RayHits,
  type RayStrategy,
  type RayTree,
  type RayTriangleKernelName,
  type Sandbox,
} from '../../core';
import { RayEmitterView } from '../../view/rayEmitterView';
import type { AppContext, AppFeature } from '../feature';

const EMITTER_NAMES: Record<string, RayEmitterKind> = { 'coherent fan': 'fan', 'incoherent spray': 'spray', 'vertical rain': 'rain' };
const BATCH_SIZES = ['1', '4', '16', '64', '256', 'all'] as const;
type BatchSizeName = (typeof BATCH_SIZES)[number];
const TREES: Record<string, RayTree> = { binary: 'binary', '4-way': '4-way' };
/** Which code walks the 4-way quantized tree: our TypeScript or the WebAssembly SIMD kernel. */
const RAY_KERNELS = ['TypeScript', 'WebAssembly SIMD'] as const;
type RayKernelChoice = (typeof RAY_KERNELS)[number];

/** One strategy set as the GUI edits it. */
interface StrategySettings {
  tree: RayTree;
  layout: BVHLayoutName;
  sorting: NodeSorting;
  batching: boolean;
  batchSize: BatchSizeName;
  triangleTest: RayTriangleKernelName;
  triangles: 'packed' | 'indexed';
  kernel: RayKernelChoice;
}

interface EmitterSettings {
  enabled: boolean;
  emitter: string;
  rays: number;
  x: number;
  z: number;
  height: number;
  yaw: number;
  pitch: number;
  spread: number;
  /** 0: unbounded rays. */
  segment: number;
  seed: number;
  everyFrame: boolean;
  sweep: boolean;
  ab: boolean;
  drawLimit: number;
}

interface TraceResult {
  counters: RayCounters;
  ms: number;
  hits: number;
  /** Which kernel ran, and why not SIMD when it was asked for and could not be used. */
  kernel: string;
}

/**
 * Why the SIMD kernel cannot run a strategy set ('' when it can): it walks the 4-way quantized tree with
 * the watertight test, one ray at a time or, with batching on, in batches of the chosen size (its
 * batched walk); node sorting and leaf-triangle choices do not apply to it (its own front-to-back order
 * and packed leaf triangles).
 */
function simdRefusal(s: StrategySettings, bvh: BVH): string {
  if (simdRayKernel() === null) return simdRaysUnavailableReason() || 'WebAssembly SIMD still loading';
  if (s.tree !== '4-way' || s.layout !== 'quantized' || bvh.quantized === null) return 'SIMD walks the 4-way quantized tree only';
  if (s.triangleTest !== 'watertight') return 'SIMD uses the watertight test only';
  return '';
}

/** What a strategy set is called on screen. */
function describe(s: StrategySettings): string {
  const batching = s.batching ? `batch ${s.batchSize}` : 'one at a time';
  if (s.kernel === 'WebAssembly SIMD' && s.tree === '4-way' && s.layout === 'quantized' && s.triangleTest === 'watertight')
    return `4-way quantized · WebAssembly SIMD · ${batching} · watertight`;
  return `${s.tree} ${s.layout} · ${s.sorting} · ${batching} · ${s.triangleTest}${s.triangles === 'indexed' ? ' · indexed' : ''}`;
}

/** A strategy set's batch size, for the TypeScript strategies and the SIMD kernel alike: 0 (one ray at a time) unless batching is on. */
function batchSizeOf(s: StrategySettings): number {
  return s.batching ? (s.batchSize === 'all' ? Infinity : Number(s.batchSize)) : 0;
}

function toStrategy(s: StrategySettings): Partial<RayStrategy> {
  return {
    tree: s.tree,
    layout: s.layout,
    sorting: s.sorting,
    batchSize: batchSizeOf(s),
    triangleTest: s.triangleTest,
    triangles: s.triangles,
  };
}

/**
 * Ray emitters on the terrain: a coherent fan (a camera-like grid), an incoherent spray or a vertical
 * rain, 1 to 100,000 rays drawn as segments to their hits. The strategy that traces them (tree layout,
 * node sorting, batching, triangle test) switches live; the last trace's counters and time are shown.
 * A/B mode traces the same rays with a second strategy set and shows the ratios. Ctrl+click (or
 * Alt+click) on the terrain moves the emitter. Off by default.
 */
export class RayEmittersFeature implements AppFeature {
  readonly name = 'rayEmitters';
  private context: AppContext | null = null;
  private readonly settings: EmitterSettings = {
    enabled: false,
    emitter: 'coherent fan',
    rays: 10_000,
    x: 0,
    z: 0,
    height: 40,
    yaw: 45,
    pitch: -25,
    spread: 60,
    segment: 0,
    seed: 1,
    everyFrame: false,
    sweep: false,
    ab: false,
    drawLimit: 100_000,
  };
  private readonly a: StrategySettings = {
    tree: 'binary',
    layout: 'quantized',
    sorting: 'precomputed',
    batching: false,
    batchSize: '256',
    triangleTest: 'watertight',
    triangles: 'packed',
    kernel: 'TypeScript',
  };
  private readonly b: StrategySettings = {
    tree: '4-way',
    layout: 'quantized',
    sorting: 'tmax',
    batching: true,
    batchSize: '256',
    triangleTest: 'watertight',
    triangles: 'packed',
    kernel: 'TypeScript',
  };
  private readonly kernelControllers: Controller[] = [];
  private readonly view = new RayEmitterView();
  private rays: RayBatch = { count: 0, origins: new Float32Array(0), directions: new Float32Array(0), tMax: new Float32Array(0) };
  private hitsA: RayHits = { t: new Float32Array(0), triangle: new Int32Array(0) };
  private hitsB: RayHits = { t: new Float32Array(0), triangle: new Int32Array(0) };
  private resultA: TraceResult | null = null;
  private resultB: TraceResult | null = null;
  private differing = 0;
  private dirty = true;
  private preparing: BVH | null = null;
  private status = '';
  private readonly readouts = { a: '—', b: '—', ratio: '—', status: '' };
  private bFolder: GUI | null = null;
  private readonly raycaster = new THREE.Raycaster();
  private readonly ndc = new THREE.Vector2();
  private readonly pickRay = { count: 1, origins: new Float32Array(3), directions: new Float32Array(3), tMax: new Float32Array([Infinity]) };
  private readonly pickHit = { t: new Float32Array(1), triangle: new Int32Array(1) };

  install(context: AppContext): void {
    this.context = context;
    context.stage.scene.add(this.view.group);
    const changed = (): void => {
      this.dirty = true;
    };
    const folder = context.gui.addFolder('Ray emitters');
    folder.add(this.settings, 'enabled').name('ray emitters').onChange(changed);
    folder.add(this.settings, 'emitter', Object.keys(EMITTER_NAMES)).name('emitter').onChange(changed);
    folder.add(this.settings, 'rays', 1, 100_000, 1).name('rays').onChange(changed);
    const half = (context.sandbox()?.terrain.params.worldSize ?? 512) / 2;
    folder.add(this.settings, 'x', -half, half, 0.1).name('x (Ctrl+click)').onChange(changed).listen();
    folder.add(this.settings, 'z', -half, half, 0.1).name('z (Ctrl+click)').onChange(changed).listen();
    folder.add(this.settings, 'height', 0, 300, 0.5).name('height above ground').onChange(changed);
    folder.add(this.settings, 'yaw', -180, 180, 1).name('fan yaw °').onChange(changed).listen();
    folder.add(this.settings, 'pitch', -89, 89, 1).name('fan pitch °').onChange(changed);
    folder.add(this.settings, 'spread', 0, 180, 0.5).name('spread (fov ° · cone ° · rain radius)').onChange(changed);
    folder.add(this.settings, 'segment', 0, 500, 1).name('segment length (0: unbounded)').onChange(changed);
    folder.add(this.settings, 'seed', 1, 1000, 1).onChange(changed);
    folder.add(this.settings, 'everyFrame').name('trace every frame');
    folder.add(this.settings, 'sweep').name('sweep the fan');
    folder.add(this.settings, 'drawLimit', 0, 100_000, 100).name('rays drawn at most').onChange(changed);
    this.strategyFolder(folder, 'Strategy A', this.a, changed);
    folder
      .add(this.settings, 'ab')
      .name('A/B: also trace with B')
      .onChange((on: boolean) => {
        this.bFolder?.show(on);
        changed();
      });
    this.bFolder = this.strategyFolder(folder, 'Strategy B', this.b, changed);
    this.bFolder.hide();
    const readouts = folder.addFolder('Last trace');
    readouts.add(this.readouts, 'a').name('A').disable().listen();
    readouts.add(this.readouts, 'b').name('B').disable().listen();
    readouts.add(this.readouts, 'ratio').name('B / A').disable().listen();
    readouts.add(this.readouts, 'status').name('status').disable().listen();
    folder.close();
    this.listenToPointer(context);
    void loadSimdRays().then((kernel) => {
      if (kernel === null) {
        // No SIMD here: the choice stays visible but fixed on TypeScript, its label saying why.
        for (const controller of this.kernelControllers)
          controller.setValue('TypeScript').name('ray kernel (WebAssembly SIMD unavailable)').disable();
        this.readouts.status = `WebAssembly SIMD unavailable: ${simdRaysUnavailableReason()}`;
      }
      this.dirty = true;
    });
  }

  /** A folder with one strategy set's controls; sorting choices follow the tree. */
  private strategyFolder(parent: GUI, title: string, s: StrategySettings, changed: () => void): GUI {
    const folder = parent.addFolder(title);
    let sorting: Controller | null = null;
    const sortingsFor = (tree: RayTree): readonly string[] => (tree === 'binary' ? BINARY_SORTINGS : WIDE_SORTINGS);
    folder
      .add(s, 'tree', TREES)
      .name('tree')
      .onChange((tree: RayTree) => {
        const choices = sortingsFor(tree);
        if (!choices.includes(s.sorting)) s.sorting = 'precomputed';
        sorting = sorting!
          .options([...choices])
          .name('node sorting')
          .onChange(changed);
        changed();
      });
    folder
      .add(s, 'layout', [...BVH_LAYOUTS])
      .name('layout')
      .onChange(changed);
    sorting = folder
      .add(s, 'sorting', [...sortingsFor(s.tree)])
      .name('node sorting')
      .onChange(changed);
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
    this.kernelControllers.push(
      folder
        .add(s, 'kernel', [...RAY_KERNELS])
        .name('ray kernel')
        .onChange(changed),
    );
    return folder;
  }

  terrainChanged(sandbox: Sandbox): void {
    const half = sandbox.terrain.params.worldSize / 2;
    this.settings.x = Math.min(Math.max(this.settings.x, -half), half);
    this.settings.z = Math.min(Math.max(this.settings.z, -half), half);
    this.resultA = this.resultB = null;
    this.dirty = true;
  }

  bvhChanged(): void {
    this.dirty = true;
  }

  frame(dtSeconds: number, sandbox: Sandbox): void {
    const { enabled, sweep, everyFrame } = this.settings;
    this.view.visible = enabled;
    if (!enabled) return;
    if (sweep) {
      this.settings.yaw = ((this.settings.yaw + 20 * dtSeconds + 540) % 360) - 180;
      this.dirty = true;
    }
    if (!(this.dirty || everyFrame)) return;
    const bvh = sandbox.bvh;
    if (bvh === null) {
      this.readouts.status = 'waiting for the BVH';
      return;
    }
    if (!this.ready(bvh)) return;
    this.dirty = false;
    try {
      this.trace(sandbox, bvh);
    } catch (error) {
      this.context?.reportError(`ray emitters: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  hudLines(): readonly string[] {
    if (!this.settings.enabled || this.resultA === null) return this.settings.enabled && this.status !== '' ? [this.status] : [];
    const lines = [`rays ${this.rays.count.toLocaleString('en')} (${this.settings.emitter}) · A ${describe(this.a)}: ${this.line(this.resultA)}`];
    if (this.settings.ab && this.resultB !== null) lines.push(`B ${describe(this.b)}: ${this.line(this.resultB)} · B/A ${this.readouts.ratio}`);
    return lines;
  }

  /** The binary layout is built on the main thread the first time a strategy needs it (seconds on a big terrain). */
  private ready(bvh: BVH): boolean {
    const needsBinary = this.a.tree === 'binary' || (this.settings.ab && this.b.tree === 'binary');
    if (!needsBinary || hasBinaryBVH(bvh)) return true;
    if (this.preparing === bvh) return false;
    this.preparing = bvh;
    this.status = this.readouts.status = `building the binary layout over ${bvh.triangleCount.toLocaleString('en')} triangles…`;
    // Let the status reach the screen before the build blocks the page.
    setTimeout(() => {
      const ms = prepareRayStrategies(bvh);
      this.status = this.readouts.status = `binary layout, permutations and packed triangles built in ${ms.toFixed(0)} ms`;
      this.preparing = null;
      this.dirty = true;
    }, 30);
    return false;
  }

  private trace(sandbox: Sandbox, bvh: BVH): void {
    const s = this.settings;
    const terrain = sandbox.terrain;
    const ground = sampleTerrainHeight(terrain, s.x, s.z);
    const kind = EMITTER_NAMES[s.emitter] ?? 'fan';
    const y = kind === 'rain' ? terrain.maxHeight + s.height : ground + s.height;
    this.rays = emitRays(
      {
        kind,
        x: s.x,
        y,
        z: s.z,
        yaw: s.yaw,
        pitch: s.pitch,
        spread: s.spread,
        count: Math.round(s.rays),
        length: s.segment > 0 ? s.segment : Infinity,
        seed: s.seed,
      },
      this.rays,
    );
    const count = this.rays.count;
    if (this.hitsA.t.length < count) {
      this.hitsA = { t: new Float32Array(count), triangle: new Int32Array(count) };
      this.hitsB = { t: new Float32Array(count), triangle: new Int32Array(count) };
    }
    this.resultA = this.run(bvh, this.a, this.hitsA);
    sandbox.timings.record('rays.emit.A', this.resultA.ms);
    this.resultB = null;
    this.differing = 0;
    if (s.ab) {
      this.resultB = this.run(bvh, this.b, this.hitsB);
      sandbox.timings.record('rays.emit.B', this.resultB.ms);
      for (let i = 0; i < count; i++) {
        const ta = this.hitsA.t[i]!,
          tb = this.hitsB.t[i]!;
        if (!(ta === tb || Math.abs(ta - tb) <= 1e-5 * Math.abs(ta) || (ta !== ta && tb !== tb))) this.differing++;
      }
    }
    const size = Math.max(0.5, terrain.params.worldSize / 400);
    this.view.placeMarker(s.x, y, s.z, size);
    this.view.setRays(
      this.rays.origins,
      this.rays.directions,
      this.rays.tMax,
      this.hitsA.t,
      this.hitsA.triangle,
      count,
      terrain.params.worldSize * 0.75,
      Math.round(s.drawLimit),
    );
    this.readouts.a = `${describe(this.a)} — ${this.line(this.resultA)}`;
    if (this.resultB !== null) {
      const ra = this.resultA,
        rb = this.resultB;
      const ratio = (x: number, y: number): string => (y > 0 ? (x / y).toFixed(2) : '—');
      this.readouts.b = `${describe(this.b)} — ${this.line(rb)}`;
      this.readouts.ratio =
        `time ${ratio(rb.ms, ra.ms)}× · nodes ${ratio(rb.counters.nodesVisited, ra.counters.nodesVisited)}× · boxes ${ratio(rb.counters.boxesTested, ra.counters.boxesTested)}× · ` +
        `triangles ${ratio(rb.counters.trianglesTested, ra.counters.trianglesTested)}× · ${this.differing === 0 ? 'same hits' : `${this.differing} hits differ`}`;
    } else {
      this.readouts.b = '—';
      this.readouts.ratio = '—';
    }
  }

  private run(bvh: BVH, settings: StrategySettings, hits: RayHits): TraceResult {
    const refusal = settings.kernel === 'WebAssembly SIMD' ? simdRefusal(settings, bvh) : '';
    const simd = settings.kernel === 'WebAssembly SIMD' && refusal === '' ? simdRayKernel() : null;
    const start = performance.now();
    const batch = batchSizeOf(settings);
    const counters = simd !== null ? simd.cast(bvh, this.rays, hits, { batch }) : castRaysWith(bvh, this.rays, hits, toStrategy(settings));
    const ms = performance.now() - start;
    let hitCount = 0;
    for (let i = 0; i < this.rays.count; i++) if (hits.triangle[i]! >= 0) hitCount++;
    const simdWalk = batch === 0 ? 'one ray at a time' : `batched walk, batch ${settings.batchSize}`;
    const kernel = simd !== null ? `WebAssembly SIMD ${simdWalk}` : refusal === '' ? 'TypeScript' : `TypeScript (${refusal})`;
    return { counters, ms, hits: hitCount, kernel };
  }

  private line(result: TraceResult): string {
    const n = Math.max(this.rays.count, 1);
    const c = result.counters;
    const rate = result.ms > 0 ? `${(this.rays.count / result.ms / 1000).toFixed(2)} M rays/s` : '';
    return `${result.kernel} · ${result.ms.toFixed(2)} ms ${rate} · ${(c.nodesVisited / n).toFixed(1)} nodes/ray · ${(c.boxesTested / n).toFixed(1)} boxes/ray · ${(c.trianglesTested / n).toFixed(1)} triangles/ray · ${result.hits.toLocaleString('en')} hits`;
  }

  /** Ctrl+click or Alt+click on the terrain moves the emitter there. */
  private listenToPointer(context: AppContext): void {
    const canvas = context.stage.renderer.domElement;
    canvas.addEventListener(
      'pointerdown',
      (event) => {
        if (!this.settings.enabled || !(event.ctrlKey || event.altKey) || event.button !== 0) return;
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
        this.settings.x = this.raycaster.ray.origin.x + t * this.raycaster.ray.direction.x;
        this.settings.z = this.raycaster.ray.origin.z + t * this.raycaster.ray.direction.z;
        this.dirty = true;
      },
      { capture: true },
    );
  }
}
