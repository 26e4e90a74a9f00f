import * as THREE from 'three';
import {
  BOX_QUERY_TESTS,
  EXIT_COUNT,
  castRays,
  createBoxOverlapList,
  exitKind,
  overlapBoxes,
  sampleTerrainHeight,
  type BoxBatch,
  type BoxQueryCounters,
  type BoxQueryTest,
  type ExitKind,
  type Sandbox,
  loadSimdBoxTriangles,
  simdBoxTriangleKernel,
  simdBoxTrianglesUnavailableReason,
} from '../../core';
import { BoxProbeView } from '../../view/boxProbeView';
import type { AppContext, AppFeature } from '../feature';

interface BoxProbeSettings {
  enabled: boolean;
  centerX: number;
  centerZ: number;
  /** Centre height above the terrain surface under it. */
  lift: number;
  halfX: number;
  halfY: number;
  halfZ: number;
  /** Rotation about the vertical axis, degrees; 0 keeps the box axis-aligned. */
  yaw: number;
  /** Tilt about the box's own x axis, degrees. */
  tilt: number;
  test: BoxQueryTest;
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

/**
 * A box probe on the terrain: one box (oriented when yawed or tilted) queried against the terrain BVH,
 * the overlapped triangles painted by the exit their box-triangle test took (green: the box contains
 * them, yellow: they reached the end of the test), optionally the rejected candidates too (blue: a box
 * axis separated them, purple: the plane, red: an edge axis), with the query's counters. Move it with
 * the sliders, or Shift+drag on the terrain; Shift+wheel scales it. Off by default.
 */
export class BoxProbeFeature implements AppFeature {
  readonly name = 'boxProbe';
  private context: AppContext | null = null;
  private readonly settings: BoxProbeSettings = {
    enabled: false,
    centerX: 0,
    centerZ: 0,
    lift: 0,
    halfX: 12,
    halfY: 8,
    halfZ: 12,
    yaw: 0,
    tilt: 0,
    test: 'optimized',
    showRejected: false,
  };
  private readonly view = new BoxProbeView();
  private readonly boxes: BoxBatch = { count: 1, centers: new Float32Array(3), halfSizes: new Float32Array(3), axes: new Float32Array(9) };
  private list = createBoxOverlapList(1 << 14);
  private counters: BoxQueryCounters | null = null;
  private queryMs = 0;
  private dirty = true;
  private comparison = '';
  private readonly readouts = { triangles: '—', exits: '—', work: '—', time: '—' };
  private readonly raycaster = new THREE.Raycaster();
  private readonly ndc = new THREE.Vector2();
  private readonly rayBatch = { count: 1, origins: new Float32Array(3), directions: new Float32Array(3), tMax: new Float32Array([Infinity]) };
  private readonly rayHits = { t: new Float32Array(1), triangle: new Int32Array(1) };

  install(context: AppContext): void {
    this.context = context;
    context.stage.scene.add(this.view.group);
    const folder = context.gui.addFolder('Box probe');
    const changed = (): void => {
      this.dirty = true;
    };
    folder.add(this.settings, 'enabled').name('box probe').onChange(changed);
    const size = (): number => this.context?.sandbox()?.terrain.params.worldSize ?? 512;
    const half = size() / 2;
    folder.add(this.settings, 'centerX', -half, half, 0.1).name('centre x').onChange(changed).listen();
    folder.add(this.settings, 'centerZ', -half, half, 0.1).name('centre z').onChange(changed).listen();
    folder.add(this.settings, 'lift', -60, 60, 0.1).name('height above ground').onChange(changed);
    folder.add(this.settings, 'halfX', 0, 120, 0.1).name('half-size x').onChange(changed).listen();
    folder.add(this.settings, 'halfY', 0, 120, 0.1).name('half-size y').onChange(changed).listen();
    folder.add(this.settings, 'halfZ', 0, 120, 0.1).name('half-size z').onChange(changed).listen();
    folder.add(this.settings, 'yaw', -90, 90, 1).name('yaw °').onChange(changed);
    folder.add(this.settings, 'tilt', -90, 90, 1).name('tilt °').onChange(changed);
    const testControl = folder
      .add(this.settings, 'test', [...BOX_QUERY_TESTS])
      .name('box-triangle test')
      .onChange(changed);
    // The SIMD twin loads in the background; until then, or without WebAssembly SIMD, the optimized test answers.
    void loadSimdBoxTriangles().then((loaded) => {
      if (loaded === null) testControl.name(`box-triangle test (wasm-simd unavailable: ${simdBoxTrianglesUnavailableReason()})`);
      else changed();
    });
    folder.add(this.settings, 'showRejected').name('show rejected candidates').onChange(changed);
    folder.add({ compare: () => this.compare() }, 'compare').name('time every test here');
    const readouts = folder.addFolder('Query');
    readouts.add(this.readouts, 'triangles').disable().listen();
    readouts.add(this.readouts, 'exits').disable().listen();
    readouts.add(this.readouts, 'work').disable().listen();
    readouts.add(this.readouts, 'time').disable().listen();
    readouts.add({ legend: 'green contained · yellow overlap · blue axis · purple plane · red edge' }, 'legend').name('colours').disable();
    folder.close();
    this.listenToPointer(context);
  }

  terrainChanged(sandbox: Sandbox): void {
    const half = sandbox.terrain.params.worldSize / 2;
    this.settings.centerX = Math.min(Math.max(this.settings.centerX, -half), half);
    this.settings.centerZ = Math.min(Math.max(this.settings.centerZ, -half), half);
    this.counters = null;
    this.dirty = true;
  }

  bvhChanged(): void {
    this.dirty = true;
  }

  frame(_dt: number, sandbox: Sandbox): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.view.visible = this.settings.enabled;
    if (!this.settings.enabled) return;
    this.placeBox(sandbox);
    if (sandbox.bvh === null || sandbox.bvh.quantized === null) {
      this.view.showTriangles(0);
      this.readouts.triangles = 'waiting for the BVH';
      return;
    }
    this.query(sandbox);
  }

  hudLines(): readonly string[] {
    if (!this.settings.enabled || this.counters === null) return [];
    const lines = [`box probe: ${this.readouts.triangles} · ${this.readouts.work} · ${this.readouts.time}`];
    if (this.comparison !== '') lines.push(this.comparison);
    return lines;
  }

  /** Centre on the terrain plus the lift; axes from yaw and tilt. */
  private placeBox(sandbox: Sandbox): void {
    const s = this.settings;
    const ground = sampleTerrainHeight(sandbox.terrain, s.centerX, s.centerZ);
    this.boxes.centers.set([s.centerX, ground + s.lift, s.centerZ]);
    this.boxes.halfSizes.set([s.halfX, s.halfY, s.halfZ]);
    const yaw = (s.yaw * Math.PI) / 180,
      tilt = (s.tilt * Math.PI) / 180;
    const cy = Math.cos(yaw),
      sy = Math.sin(yaw),
      ct = Math.cos(tilt),
      st = Math.sin(tilt);
    // Rows: the box's x axis (yawed), its y and z axes (yawed, then tilted about x).
    const axes = s.yaw === 0 && s.tilt === 0 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : [cy, 0, -sy, sy * st, ct, cy * st, sy * ct, -st, cy * ct];
    this.boxes.axes!.set(axes);
    this.view.setBox(this.boxes.centers, this.boxes.halfSizes, this.boxes.axes!);
  }

  private query(sandbox: Sandbox): void {
    const bvh = sandbox.bvh!;
    const options = { test: this.settings.test, includeRejected: this.settings.showRejected };
    let start = performance.now();
    let counters = overlapBoxes(bvh, this.boxes, this.list, options);
    if (this.list.dropped > 0) {
      this.list = createBoxOverlapList(2 * (this.list.count + this.list.dropped));
      start = performance.now();
      counters = overlapBoxes(bvh, this.boxes, this.list, options);
    }
    this.queryMs = performance.now() - start;
    sandbox.timings.record('boxProbe.query', this.queryMs);
    this.counters = counters;
    this.paint(sandbox);

    const exits = this.list.exitCounts;
    const byKind = new Map<ExitKind, number>();
    for (let e = 0; e < EXIT_COUNT; e++) if (exits[e]! > 0) byKind.set(exitKind(e), (byKind.get(exitKind(e)) ?? 0) + exits[e]!);
    this.readouts.triangles = `${counters.overlaps} overlapped${counters.invalidBoxes > 0 ? ' (invalid box)' : ''}`;
    this.readouts.exits = [...byKind.entries()].map(([kind, count]) => `${kind} ${count}`).join(' · ') || '—';
    this.readouts.work = `${counters.nodesVisited} nodes · ${counters.boxNodeTests} box tests · ${counters.triangleTests} triangle tests`;
    const ran = this.settings.test === 'wasm-simd' && simdBoxTriangleKernel() === null ? 'optimized: wasm-simd not loaded' : this.settings.test;
    this.readouts.time = `${this.queryMs.toFixed(3)} ms (${ran})`;
  }

  /** The listed triangles into the overlay, coloured by exit kind. */
  private paint(sandbox: Sandbox): void {
    const { positions, indices } = sandbox.terrain;
    const list = this.list;
    const { positions: out, colours } = this.view.triangleBuffers(list.count);
    for (let i = 0; i < list.count; i++) {
      const triangle = list.triangle[i]!;
      const colour = KIND_COLOURS[exitKind(list.exit[i]!)];
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

  /** Runs the query with each box-triangle test, repeated, on this box; the result goes to the HUD. */
  private compare(): void {
    const sandbox = this.context?.sandbox() ?? null;
    if (sandbox === null || sandbox.bvh === null || !this.settings.enabled) return;
    const parts: string[] = [];
    for (const test of BOX_QUERY_TESTS) {
      let repeats = 0;
      let counters: BoxQueryCounters;
      const start = performance.now();
      do {
        counters = overlapBoxes(sandbox.bvh, this.boxes, this.list, { test });
        repeats++;
      } while (performance.now() - start < 100);
      const ms = (performance.now() - start) / repeats;
      parts.push(`${test} ${(ms * 1000).toFixed(1)} µs (${counters.overlaps})`);
    }
    this.comparison = `box probe, per query: ${parts.join(' · ')}`;
    this.dirty = true;
  }

  /** Shift+drag moves the box over the terrain; Shift+wheel scales it. */
  private listenToPointer(context: AppContext): void {
    const canvas = context.stage.renderer.domElement;
    let dragging = false;
    const moveTo = (event: PointerEvent): void => {
      const sandbox = context.sandbox();
      if (sandbox === null || sandbox.bvh === null) return;
      const rect = canvas.getBoundingClientRect();
      this.ndc.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
      this.raycaster.setFromCamera(this.ndc, context.stage.camera);
      this.raycaster.ray.origin.toArray(this.rayBatch.origins);
      this.raycaster.ray.direction.toArray(this.rayBatch.directions);
      castRays(sandbox.bvh, this.rayBatch, this.rayHits);
      if (this.rayHits.triangle[0]! < 0) return;
      const t = this.rayHits.t[0]!;
      this.settings.centerX = this.raycaster.ray.origin.x + t * this.raycaster.ray.direction.x;
      this.settings.centerZ = this.raycaster.ray.origin.z + t * this.raycaster.ray.direction.z;
      this.dirty = true;
    };
    canvas.addEventListener(
      'pointerdown',
      (event) => {
        if (!this.settings.enabled || !event.shiftKey || event.button !== 0) return;
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
        if (!this.settings.enabled || !event.shiftKey) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        const delta = event.deltaY !== 0 ? event.deltaY : event.deltaX; // some browsers turn Shift+wheel sideways
        const scale = Math.exp(-delta * 0.001);
        for (const key of ['halfX', 'halfY', 'halfZ'] as const) this.settings[key] = Math.min(120, Math.max(0.05, this.settings[key] * scale));
        this.dirty = true;
      },
      { capture: true, passive: false },
    );
  }
}
