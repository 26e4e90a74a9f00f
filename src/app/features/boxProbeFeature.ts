import * as THREE from 'three';
import {
  BOX_QUERY_TESTS,
  BOX_TRIANGLE_VARIANTS,
  BoxProbeSystem,
  DEFAULT_BOX_PROBE,
  KERNELS,
  KERNEL_LABELS,
  createBoxOverlapList,
  exitKind,
  formatQueryCounters,
  loadSimdBoxTriangles,
  overlapBoxes,
  simdBoxTrianglesUnavailableReason,
  type BoxOverlapList,
  type BoxQueryCounters,
  type BoxTriangleVariant,
  type ExitKind,
  type Kernel,
  type Sandbox,
  type SceneBoxProbe,
  type SceneDefinition,
} from '../../core';
import { BoxProbeView } from '../../view/boxProbeView';
import type { AppContext, AppFeature } from '../feature';
import { cssColour, type Legend } from '../../view/legend';
import { addFocusButton, type FocusTarget } from './focusButton';
import { TerrainPicker } from './terrainPick';

/** The panel's mirror of the system's section, flattened for lil-gui, plus whether the probe runs. */
interface BoxProbePanel {
  enabled: boolean;
  centerX: number;
  centerZ: number;
  lift: number;
  halfX: number;
  halfY: number;
  halfZ: number;
  yaw: number;
  tilt: number;
  test: BoxTriangleVariant;
  kernel: Kernel;
  showRejected: boolean;
}

/** Colour per exit kind: what the overlay paints each reported triangle with. */
const KIND_COLOURS: Readonly<Record<ExitKind, THREE.Color>> = {
  contained: new THREE.Color(0x4cd964),
  overlap: new THREE.Color(0xffd60a),
  axis: new THREE.Color(0x5ac8fa),
  plane: new THREE.Color(0xaf52de),
  edge: new THREE.Color(0xff3b30),
  invalid: new THREE.Color(0x808080),
  // The SIMD test keeps no axis: everything it rejects is one colour.
  separated: new THREE.Color(0x7f8fa6),
};

/** What each exit of the box–triangle test means, for the legend. */
const EXIT_LABELS: Readonly<Record<ExitKind, string>> = {
  contained: 'inside the box (early exit)',
  overlap: 'overlaps (every axis tested)',
  axis: 'rejected on a box axis',
  plane: "rejected by the triangle's plane",
  edge: 'rejected on an edge × axis',
  invalid: 'degenerate triangle',
  separated: 'rejected (SIMD: any axis)',
};

/**
 * The box probe's panel and view. The query lives in the core (BoxProbeSystem, `systems.boxProbe`);
 * this paints the triangles it reported by the exit their box-triangle test took (green: the box
 * contains them, yellow: they reached the end of the test), optionally the rejected candidates too
 * (blue: a box axis separated them, purple: the plane, red: an edge axis), with the query's counters.
 * Move it with the sliders, or Shift+drag on the terrain; Shift+wheel scales it. Off by default.
 */
export class BoxProbeFeature implements AppFeature {
  readonly name = 'boxProbe';
  private context: AppContext | null = null;
  private readonly panel: BoxProbePanel = { enabled: false, ...flatten(DEFAULT_BOX_PROBE) };
  private readonly view = new BoxProbeView();
  /** The system and query last painted, so a frame without a new query paints nothing. */
  private painted: { system: BoxProbeSystem; query: number } | null = null;
  private comparisonList: BoxOverlapList | null = null;
  private comparison = '';
  private readonly readouts = { triangles: '—', exits: '—', work: '—', time: '—' };
  private readonly picker = new TerrainPicker();

  install(context: AppContext): void {
    this.context = context;
    context.stage.scene.add(this.view.group);
    const folder = context.gui.addFolder('Box probe');
    const changed = (): void => this.push();
    folder
      .add(this.panel, 'enabled')
      .name('box probe')
      .onChange((on: boolean) => this.context?.setSystem('boxProbe', on ? this.section() : null));
    const size = (): number => this.context?.sandbox()?.terrain.params.worldSize ?? 512;
    const half = size() / 2;
    folder.add(this.panel, 'centerX', -half, half, 0.1).name('centre x').onChange(changed).listen();
    folder.add(this.panel, 'centerZ', -half, half, 0.1).name('centre z').onChange(changed).listen();
    folder.add(this.panel, 'lift', -60, 60, 0.1).name('height above ground').onChange(changed).listen();
    folder.add(this.panel, 'halfX', 0, 120, 0.1).name('half-size x').onChange(changed).listen();
    folder.add(this.panel, 'halfY', 0, 120, 0.1).name('half-size y').onChange(changed).listen();
    folder.add(this.panel, 'halfZ', 0, 120, 0.1).name('half-size z').onChange(changed).listen();
    folder.add(this.panel, 'yaw', -90, 90, 1).name('yaw °').onChange(changed).listen();
    folder.add(this.panel, 'tilt', -90, 90, 1).name('tilt °').onChange(changed).listen();
    folder
      .add(this.panel, 'test', [...BOX_TRIANGLE_VARIANTS])
      .name('box-triangle test')
      .onChange(changed)
      .listen();
    const kernels = Object.fromEntries(KERNELS.map((kernel) => [KERNEL_LABELS[kernel], kernel]));
    const kernelControl = folder.add(this.panel, 'kernel', kernels).name('box-triangle kernel').onChange(changed).listen();
    // The SIMD twin of v1 loads in the background; until then, or without WebAssembly SIMD, the TypeScript test answers.
    void loadSimdBoxTriangles().then((loaded) => {
      if (loaded === null) kernelControl.name(`box-triangle kernel (wasm-simd unavailable: ${simdBoxTrianglesUnavailableReason()})`);
    });
    folder.add(this.panel, 'showRejected').name('show rejected candidates').onChange(changed).listen();
    folder.add({ compare: () => this.compare() }, 'compare').name('time every test here');
    const readouts = folder.addFolder('Query');
    readouts.add(this.readouts, 'triangles').disable().listen();
    readouts.add(this.readouts, 'exits').disable().listen();
    readouts.add(this.readouts, 'work').disable().listen();
    readouts.add(this.readouts, 'time').disable().listen();
    addFocusButton(folder, context, () => this.focusTarget(), 'the box');
    folder.close();
    this.listenToPointer(context);
  }

  sceneLoaded(scene: SceneDefinition): void {
    const wanted = scene.systems.boxProbe as SceneBoxProbe | undefined;
    Object.assign(this.panel, flatten({ ...DEFAULT_BOX_PROBE, ...wanted }));
    this.panel.enabled = wanted !== undefined;
  }

  terrainChanged(sandbox: Sandbox): void {
    const half = sandbox.terrain.params.worldSize / 2;
    const x = Math.min(Math.max(this.panel.centerX, -half), half);
    const z = Math.min(Math.max(this.panel.centerZ, -half), half);
    if (x === this.panel.centerX && z === this.panel.centerZ) return;
    this.panel.centerX = x;
    this.panel.centerZ = z;
    this.push();
  }

  frame(_dt: number, sandbox: Sandbox): void {
    const system = this.system;
    if (this.context?.sceneSwitching() !== true) this.panel.enabled = system !== null;
    this.view.visible = system !== null;
    if (system === null) {
      this.painted = null;
      return;
    }
    // The answer follows the settings alone: asking between steps (while paused) keeps the box under the
    // sliders and changes nothing a later step computes.
    system.update(sandbox);
    if (this.painted?.system === system && this.painted.query === system.queries) return;
    this.painted = { system, query: system.queries };
    Object.assign(this.panel, flatten(system.settings));
    this.view.setBox(system.boxes.centers, system.boxes.halfSizes, system.boxes.axes);
    const counters = system.counters;
    if (counters === null) {
      this.view.showTriangles(0);
      this.readouts.triangles = 'waiting for the BVH';
      return;
    }
    this.paint(sandbox, system.list);
    this.readouts.triangles = `${counters.hits} overlapped${counters.invalid > 0 ? ' (invalid box)' : ''}`;
    this.readouts.exits = [...system.exitsByKind()].map(([kind, count]) => `${kind} ${count}`).join(' · ') || '—';
    this.readouts.work = formatQueryCounters(counters);
    const fallback = system.settings.kernel === 'wasm-simd' && system.ran !== 'wasm-simd' ? ': wasm-simd not loaded' : '';
    this.readouts.time = `${system.queryMs.toFixed(3)} ms (${system.ran}${fallback})`;
  }

  /** The exit kinds of the triangles on screen, for the legend. */
  private readonly paintedKinds = new Set<ExitKind>();

  private focusTarget(): FocusTarget | null {
    const boxes = this.system?.boxes;
    if (boxes === undefined) return null;
    const [x = 0, y = 0, z = 0] = boxes.centers;
    const [hx = 1, hy = 1, hz = 1] = boxes.halfSizes;
    return { center: [x, y, z], radius: 1.6 * Math.hypot(hx, hy, hz) };
  }

  legends(): readonly Legend[] {
    if (!this.view.visible) return [];
    // The exits this kernel and these triangles took: the SIMD test reports no axis, the TypeScript ones do.
    const kinds = (Object.keys(KIND_COLOURS) as ExitKind[]).filter((kind) => this.paintedKinds.has(kind));
    if (kinds.length === 0) return [];
    return [
      {
        title: 'box–triangle test: exit taken',
        swatches: kinds.map((kind) => ({ label: EXIT_LABELS[kind], colour: cssColour(KIND_COLOURS[kind]) })),
      },
    ];
  }

  hudLines(): readonly string[] {
    if (this.system?.counters == null) return [];
    const lines = [`box probe: ${this.readouts.triangles} · ${this.readouts.work} · ${this.readouts.time}`];
    if (this.comparison !== '') lines.push(this.comparison);
    return lines;
  }

  /** The running box probe, if any (the scene, or this panel, turned it on). */
  private get system(): BoxProbeSystem | null {
    const system = this.context?.system('boxProbe') ?? null;
    return system instanceof BoxProbeSystem ? system : null;
  }

  private section(): SceneBoxProbe {
    const p = this.panel;
    return {
      center: [p.centerX, p.centerZ],
      lift: p.lift,
      halfSize: [p.halfX, p.halfY, p.halfZ],
      yaw: p.yaw,
      tilt: p.tilt,
      test: p.test,
      kernel: p.kernel,
      includeRejected: p.showRejected,
    };
  }

  /** Hands the panel's settings to the running probe; a bad value is reported and the last good state kept. */
  private push(): void {
    const system = this.system;
    if (system === null) return;
    try {
      system.configure(this.section());
    } catch (error) {
      this.context?.reportError((error as Error).message);
      Object.assign(this.panel, flatten(system.settings));
    }
  }

  /** The listed triangles into the overlay, coloured by exit kind. */
  private paint(sandbox: Sandbox, list: BoxOverlapList): void {
    const { positions, indices } = sandbox.terrain;
    const { positions: out, colours } = this.view.triangleBuffers(list.count);
    this.paintedKinds.clear();
    for (let i = 0; i < list.count; i++) {
      const triangle = list.triangle[i]!;
      const kind = exitKind(list.exit[i]!);
      this.paintedKinds.add(kind);
      const colour = KIND_COLOURS[kind];
      for (let v = 0; v < 3; v++) {
        const p = 3 * indices[3 * triangle + v]!;
        const o = 9 * i + 3 * v;
        out[o] = positions[p]!;
        out[o + 1] = positions[p + 1]!;
        out[o + 2] = positions[p + 2]!;
        colours[o] = colour.r;
        colours[o + 1] = colour.g;
        colours[o + 2] = colour.b;
      }
    }
    this.view.showTriangles(list.count);
  }

  /** Times the probe's box with each box-triangle test, repeated, into a list of its own; the result goes to the HUD. */
  private compare(): void {
    const sandbox = this.context?.sandbox() ?? null;
    const system = this.system;
    if (sandbox === null || sandbox.bvh === null || system === null || system.counters === null) return;
    const list = (this.comparisonList ??= createBoxOverlapList(1 << 16));
    const parts: string[] = [];
    for (const test of BOX_QUERY_TESTS) {
      let repeats = 0;
      let counters: BoxQueryCounters;
      const start = performance.now();
      do {
        counters = overlapBoxes(sandbox.bvh, system.boxes, list, { test });
        repeats++;
      } while (performance.now() - start < 100);
      const ms = (performance.now() - start) / repeats;
      parts.push(`${test} ${(ms * 1000).toFixed(1)} µs (${counters.hits})`);
    }
    this.comparison = `box probe, per query: ${parts.join(' · ')}`;
  }

  /** Shift+drag moves the box over the terrain; Shift+wheel scales it. */
  private listenToPointer(context: AppContext): void {
    const canvas = context.stage.renderer.domElement;
    let dragging = false;
    const moveTo = (event: PointerEvent): void => {
      const at = this.picker.pick(event, context);
      if (at === null) return;
      [this.panel.centerX, this.panel.centerZ] = at;
      this.push();
    };
    const owner = 'box probe (while on)';
    const isMoveDrag = context.gestures.claim({ owner, modifier: 'Shift', kind: 'press-drag', what: 'move the box over the terrain' });
    const isResizeWheel = context.gestures.claim({ owner, modifier: 'Shift', kind: 'wheel', what: 'grow or shrink the box' });
    canvas.addEventListener(
      'pointerdown',
      (event) => {
        if (this.system === null || !isMoveDrag(event) || event.button !== 0) return;
        dragging = true;
        context.stage.orbit.enabled = false;
        canvas.setPointerCapture(event.pointerId);
        event.stopImmediatePropagation();
        moveTo(event);
      },
      { capture: true },
    );
    canvas.addEventListener('pointermove', (event) => {
      if (dragging) moveTo(event);
    });
    const stop = (event: PointerEvent): void => {
      if (!dragging) return;
      dragging = false;
      context.stage.orbit.enabled = true;
      if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    };
    canvas.addEventListener('pointerup', stop);
    canvas.addEventListener('pointercancel', stop);
    canvas.addEventListener(
      'wheel',
      (event) => {
        if (this.system === null || !isResizeWheel(event)) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        const delta = event.deltaY !== 0 ? event.deltaY : event.deltaX; // some browsers turn Shift+wheel sideways
        const scale = Math.exp(-delta * 0.001);
        for (const key of ['halfX', 'halfY', 'halfZ'] as const) this.panel[key] = Math.min(120, Math.max(0.05, this.panel[key] * scale));
        this.push();
      },
      { capture: true, passive: false },
    );
  }
}

/** A section's settings as the panel's flat fields. */
function flatten(s: Readonly<Required<SceneBoxProbe>>): Omit<BoxProbePanel, 'enabled'> {
  return {
    centerX: s.center[0],
    centerZ: s.center[1],
    lift: s.lift,
    halfX: s.halfSize[0],
    halfY: s.halfSize[1],
    halfZ: s.halfSize[2],
    yaw: s.yaw,
    tilt: s.tilt,
    test: s.test,
    kernel: s.kernel,
    showRejected: s.includeRejected,
  };
}
