import * as THREE from 'three';
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import {
  BUILDER_LABELS,
  BVH_LAYOUTS,
  RAY_TRIANGLE_KERNEL_NAMES,
  MASK_ALL,
  castRays,
  forEachNodeBox,
  formatQueryCounters,
  traceRay,
  type BVH,
  type BVHLayoutName,
  type RayTrace,
  type RayTriangleKernelName,
  type Sandbox,
  type SceneDefinition,
  type BvhBoxSelection,
  BVH_BOX_SELECTIONS,
} from '../../core';
import { BoxOverlay, depthLegend } from '../../view/boxOverlay';
import type { Legend } from '../../view/legend';
import { HeatMapOverlay, RayProbeView } from '../../view/rayProbeView';
import type { AppContext, AppFeature } from '../feature';
import { addFilterFolder } from './filterFolder';

interface BvhSettings {
  overlay: boolean;
  depth: number;
  show: BvhBoxSelection;
  layout: BVHLayoutName;
  triangleTest: RayTriangleKernelName;
  heatMap: boolean;
  heatMapColumns: number;
  replayStep: number;
  /** Collision filter of the click ray and the heat map's rays. */
  filter: number;
}

/** Boxes drawn at most, so a 2M-triangle tree's deepest level cannot stall the page. */
const MAX_DRAWN_BOXES = 120_000;
/** Least time between two redraws of the boxes while the terrain is being sculpted. */
const BOX_REFRESH_MS = 250;

/**
 * The BVH in the sandbox: node boxes by depth, the stats, a ray cast from a click with the nodes it
 * visited replayable step by step, and a heat map of nodes visited per camera ray.
 */
export class BvhFeature implements AppFeature {
  readonly name = 'bvh';
  private context: AppContext | null = null;
  private bvh: BVH | null = null;
  private readonly settings: BvhSettings = {
    overlay: false,
    depth: 3,
    show: 'at depth',
    layout: 'quantized',
    triangleTest: 'watertight',
    heatMap: false,
    heatMapColumns: 160,
    replayStep: 0,
    filter: MASK_ALL,
  };
  private readonly overlay = new BoxOverlay(0.8);
  private readonly replay = new BoxOverlay(1);
  private readonly probe = new RayProbeView();
  private heatMap: HeatMapOverlay | null = null;
  private folder: GUI | null = null;
  private depthController: Controller | null = null;
  private replayController: Controller | null = null;
  // Child boxes of the whole tree, and each node's own box (the union of its children).
  private childBoxes = new Float32Array(0);
  private childDepth = new Uint8Array(0);
  private childLeaf = new Uint8Array(0);
  private childCount = 0;
  private nodeBoxes = new Float32Array(0);
  private nodeDepth = new Uint8Array(0);
  private subset = new Float32Array(0);
  private subsetDepth = new Uint8Array(0);
  private trace: RayTrace | null = null;
  private playing = false;
  private playClock = 0;
  private lastRayLine = '';
  private heatMapKey = '';
  /** A refit moved the boxes since they were collected. */
  private boxesStale = false;
  private boxesCollectedAt = 0;
  private heatMapClock = 0;
  private readonly readouts = { nodes: '—', memory: '—', depth: '—', fill: '—', sah: '—', build: '—' };

  install(context: AppContext): void {
    this.context = context;
    this.heatMap = new HeatMapOverlay(context.root);
    context.stage.scene.add(this.overlay.lines, this.replay.lines, this.probe.group);
    this.overlay.lines.visible = false;
    const folder: GUI = (this.folder = context.gui.addFolder('BVH'));
    folder
      .add(this.settings, 'overlay')
      .name('show boxes')
      .onChange(() => this.refreshOverlay());
    this.depthController = folder
      .add(this.settings, 'depth', 1, 16, 1)
      .name('depth')
      .onChange(() => this.refreshOverlay());
    folder
      .add(this.settings, 'show', [...BVH_BOX_SELECTIONS])
      .name('which boxes')
      .onChange(() => this.refreshOverlay());
    folder
      .add(this.settings, 'layout', [...BVH_LAYOUTS])
      .name('layout (queries)')
      .onChange(() => this.recast());
    folder
      .add(this.settings, 'triangleTest', [...RAY_TRIANGLE_KERNEL_NAMES])
      .name('triangle test')
      .onChange(() => this.recast());
    folder
      .add(this.settings, 'heatMap')
      .name('heat map (nodes/ray)')
      .onChange((on: boolean) => {
        if (this.heatMap !== null) this.heatMap.visible = on;
        this.heatMapKey = '';
      });
    folder
      .add(this.settings, 'heatMapColumns', 40, 320, 10)
      .name('heat map columns')
      .onFinishChange(() => (this.heatMapKey = ''));
    this.replayController = folder
      .add(this.settings, 'replayStep', 0, 1, 1)
      .name('replay step')
      .onChange(() => this.showReplay());
    folder.add({ play: () => this.play() }, 'play').name('▶ replay the last ray');
    addFilterFolder(
      folder,
      this.settings,
      () => {
        this.heatMapKey = '';
        this.recast();
      },
      'Click-ray filter',
    );
    const stats = folder.addFolder('Stats');
    stats.add(this.readouts, 'nodes').disable().listen();
    stats.add(this.readouts, 'memory').disable().listen();
    stats.add(this.readouts, 'depth').name('leaf depth').disable().listen();
    stats.add(this.readouts, 'fill').name('leaf fill').disable().listen();
    stats.add(this.readouts, 'sah').name('SAH cost').disable().listen();
    stats.add(this.readouts, 'build').name('build').disable().listen();
    folder.close();

    const canvas = context.stage.renderer.domElement;
    const isCastClick = context.gestures.claim({ owner: 'BVH', modifier: '', kind: 'click', what: 'cast a ray (replay it in the BVH folder)' });
    let downX = 0;
    let downY = 0;
    canvas.addEventListener('pointerdown', (event) => {
      downX = event.clientX;
      downY = event.clientY;
    });
    canvas.addEventListener('pointerup', (event) => {
      // A click, not the end of an orbit drag.
      if (event.button !== 0 || !isCastClick(event) || Math.hypot(event.clientX - downX, event.clientY - downY) > 4) return;
      const rect = canvas.getBoundingClientRect();
      this.castFromScreen(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    });
  }

  /** The scene's BVH overlays (its `view.bvh`); a scene without them shows none. */
  sceneLoaded(scene: SceneDefinition): void {
    const view = scene.view?.bvh ?? {};
    this.settings.overlay = view.boxes ?? false;
    this.settings.depth = view.depth ?? 3;
    this.settings.show = view.which ?? 'at depth';
    this.settings.heatMap = view.heatMap ?? false;
    if (this.heatMap !== null) this.heatMap.visible = this.settings.heatMap;
    this.heatMapKey = '';
    for (const controller of this.folder?.controllersRecursive() ?? []) controller.updateDisplay();
    this.refreshOverlay();
  }

  terrainChanged(): void {
    this.bvh = null;
    this.trace = null;
    this.probe.hide();
    this.replay.lines.visible = false;
    this.overlay.lines.visible = false;
    this.lastRayLine = '';
  }

  bvhChanged(sandbox: Sandbox): void {
    const bvh = sandbox.bvh;
    if (bvh === null) return;
    this.bvh = bvh;
    this.collectBoxes(bvh);
    const s = bvh.stats;
    this.readouts.nodes = `${s.nodes.toLocaleString('en')} (${s.sharedNodes} shared)`;
    this.readouts.memory = `${(s.bytes / 1048576).toFixed(2)} MiB · ${s.bytesPerTriangle.toFixed(2)} B/tri`;
    this.readouts.depth = `${s.depthMin} – ${s.depthMax}`;
    this.readouts.fill = `${(s.leafFillRate * 100).toFixed(1)}% · ${s.averageLeafSize.toFixed(2)} tri/leaf`;
    this.readouts.sah = s.sahCost.toFixed(2);
    // Which builder made the tree; a fallback (module not loaded) is marked, its reason in the stats.
    this.readouts.build = `${s.buildMs.toFixed(0)} ms · ${BUILDER_LABELS[s.builder]}${s.builderFallback !== '' ? ' (fallback)' : ''}`;
    this.depthController?.max(bvh.maxDepth + 1).updateDisplay();
    this.refreshOverlay();
    this.heatMapKey = '';
  }

  /** The refit moved boxes: the overlay and the heat map are redrawn, at most every BOX_REFRESH_MS while sculpting. */
  terrainDeformed(sandbox: Sandbox): void {
    this.boxesStale = sandbox.bvh !== null && sandbox.bvh === this.bvh;
    this.heatMapKey = '';
    if (this.bvh !== null)
      this.readouts.sah = `${this.bvh.stats.sahCost.toFixed(2)} built · ${(sandbox.lastRefit?.sahCost ?? this.bvh.stats.sahCost).toFixed(2)} now`;
  }

  frame(dtSeconds: number, sandbox: Sandbox): void {
    if (this.boxesStale && this.bvh !== null && performance.now() - this.boxesCollectedAt >= BOX_REFRESH_MS) {
      this.boxesStale = false;
      this.collectBoxes(this.bvh);
      this.refreshOverlay();
    }
    if (this.playing && this.trace !== null) {
      this.playClock += dtSeconds;
      const step = Math.min(this.trace.visited.length, Math.floor(this.playClock * 12));
      if (step !== this.settings.replayStep) {
        this.settings.replayStep = step;
        this.replayController?.updateDisplay();
        this.showReplay();
      }
      if (step >= this.trace.visited.length) this.playing = false;
    }
    if (this.settings.heatMap) this.updateHeatMap(dtSeconds, sandbox);
  }

  hudLines(): readonly string[] {
    const bvh = this.bvh;
    if (bvh === null) return ['bvh: building…'];
    const s = bvh.stats;
    const lines = [
      `bvh: ${s.nodes.toLocaleString('en')} nodes · ${s.bytesPerTriangle.toFixed(2)} B/tri · depth ${s.depthMin}–${s.depthMax} · built in ${s.buildMs.toFixed(0)} ms`,
    ];
    if (this.lastRayLine !== '') lines.push(this.lastRayLine);
    return lines;
  }

  legends(): readonly Legend[] {
    const legends: Legend[] = [];
    const bvh = this.bvh;
    if (this.overlay.lines.visible && bvh !== null) {
      const { depth, show } = this.settings;
      if (show === 'at depth') legends.push(depthLegend('BVH node boxes', depth, depth));
      else if (show === 'up to depth') legends.push(depthLegend('BVH node boxes by depth', 1, depth));
      else legends.push(depthLegend('BVH leaf boxes by depth', bvh.stats.depthMin, bvh.stats.depthMax));
    }
    if (this.replay.lines.visible && this.trace !== null) {
      let deepest = 0;
      for (const node of this.trace.visited) deepest = Math.max(deepest, this.nodeDepth[node]!);
      legends.push(depthLegend('nodes the clicked ray visited', 0, deepest));
    }
    const heat = this.heatMap?.legend ?? null;
    if (heat !== null) legends.push(heat);
    return legends;
  }

  /** Child boxes for the overlay, and per-node boxes (union of a node's children) for the replay. */
  private collectBoxes(bvh: BVH): void {
    this.boxesCollectedAt = performance.now();
    const nodeCount = (bvh.quantized ?? bvh.float)!.nodeCount;
    const childCapacity = nodeCount * 4;
    this.childBoxes = new Float32Array(childCapacity * 6);
    this.childDepth = new Uint8Array(childCapacity);
    this.childLeaf = new Uint8Array(childCapacity);
    this.nodeBoxes = new Float32Array(nodeCount * 6);
    this.nodeDepth = new Uint8Array(nodeCount);
    for (let n = 0; n < nodeCount; n++) this.nodeBoxes.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * n);
    let count = 0;
    const boxes = this.childBoxes;
    const nodeBoxes = this.nodeBoxes;
    forEachNodeBox(
      bvh,
      (minX, minY, minZ, maxX, maxY, maxZ, depth, isLeaf, node) => {
        const o = 6 * count;
        boxes[o] = minX;
        boxes[o + 1] = minY;
        boxes[o + 2] = minZ;
        boxes[o + 3] = maxX;
        boxes[o + 4] = maxY;
        boxes[o + 5] = maxZ;
        this.childDepth[count] = Math.min(depth, 255);
        this.childLeaf[count] = isLeaf ? 1 : 0;
        count++;
        const n = 6 * node;
        nodeBoxes[n] = Math.min(nodeBoxes[n]!, minX);
        nodeBoxes[n + 1] = Math.min(nodeBoxes[n + 1]!, minY);
        nodeBoxes[n + 2] = Math.min(nodeBoxes[n + 2]!, minZ);
        nodeBoxes[n + 3] = Math.max(nodeBoxes[n + 3]!, maxX);
        nodeBoxes[n + 4] = Math.max(nodeBoxes[n + 4]!, maxY);
        nodeBoxes[n + 5] = Math.max(nodeBoxes[n + 5]!, maxZ);
        this.nodeDepth[node] = Math.min(depth - 1, 255);
      },
      this.settings.layout,
    );
    this.childCount = count;
    this.subset = new Float32Array(Math.min(count, MAX_DRAWN_BOXES) * 6);
    this.subsetDepth = new Uint8Array(Math.min(count, MAX_DRAWN_BOXES));
  }

  private refreshOverlay(): void {
    const visible = this.settings.overlay && this.bvh !== null;
    this.overlay.lines.visible = visible;
    if (!visible) return;
    const { depth, show } = this.settings;
    let n = 0;
    for (let i = 0; i < this.childCount && n < MAX_DRAWN_BOXES; i++) {
      const d = this.childDepth[i]!;
      const keep = show === 'leaves' ? this.childLeaf[i] === 1 : show === 'at depth' ? d === depth : d <= depth;
      if (!keep) continue;
      this.subset.set(this.childBoxes.subarray(6 * i, 6 * i + 6), 6 * n);
      this.subsetDepth[n] = d;
      n++;
    }
    this.overlay.setBoxes({ bounds: this.subset, count: n, depth: this.subsetDepth });
  }

  private readonly raycaster = new THREE.Raycaster();
  private readonly ndc = new THREE.Vector2();
  private lastRay: { origin: THREE.Vector3; direction: THREE.Vector3 } | null = null;

  private castFromScreen(x: number, y: number): void {
    const context = this.context;
    if (context === null || this.bvh === null) return;
    this.ndc.set(x, y);
    this.raycaster.setFromCamera(this.ndc, context.stage.camera);
    this.lastRay = { origin: this.raycaster.ray.origin.clone(), direction: this.raycaster.ray.direction.clone() };
    this.recast();
  }

  /** Casts the last clicked ray again (after a layout or triangle-test change) and shows it. */
  private recast(): void {
    const bvh = this.bvh;
    const ray = this.lastRay;
    if (bvh === null || ray === null) return;
    const { origin, direction } = ray;
    const start = performance.now();
    const trace = traceRay(bvh, origin.toArray(), direction.toArray(), Infinity, {
      layout: this.settings.layout,
      triangleTest: this.settings.triangleTest,
      filter: this.settings.filter,
    });
    const ms = performance.now() - start;
    this.trace = trace;
    const size = bvh.stats.triangles > 0 ? Math.max(0.4, Math.cbrt(this.worldScale()) * 0.12) : 1;
    if (trace.triangle >= 0) {
      const end = origin.clone().addScaledVector(direction, trace.t);
      const corners = new Float32Array(9);
      const { positions, indices } = bvh;
      for (let k = 0; k < 3; k++)
        corners.set(positions.subarray(3 * indices[3 * trace.triangle + k]!, 3 * indices[3 * trace.triangle + k]! + 3), 3 * k);
      const a = new THREE.Vector3().fromArray(corners, 0);
      const normal = new THREE.Vector3().fromArray(corners, 3).sub(a).cross(new THREE.Vector3().fromArray(corners, 6).sub(a)).normalize();
      if (normal.dot(direction) > 0) normal.negate();
      this.probe.show(origin, end, { corners, normal, size });
      this.lastRayLine = `ray: triangle ${trace.triangle} at t=${trace.t.toFixed(3)} · n=(${normal.x.toFixed(2)}, ${normal.y.toFixed(2)}, ${normal.z.toFixed(2)}) · ${formatQueryCounters(trace.counters)} · ${ms.toFixed(2)} ms`;
    } else {
      this.probe.show(origin, origin.clone().addScaledVector(direction, this.worldScale() * 2), null);
      this.lastRayLine = `ray: miss · ${formatQueryCounters(trace.counters)}`;
    }
    this.settings.replayStep = trace.visited.length;
    this.replayController?.max(Math.max(trace.visited.length, 1)).updateDisplay();
    this.showReplay();
  }

  private worldScale(): number {
    return this.context?.sandbox()?.terrain.params.worldSize ?? 512;
  }

  private play(): void {
    if (this.trace === null) return;
    this.playing = true;
    this.playClock = 0;
  }

  /** The boxes of the first `replayStep` visited nodes: earlier ones by depth colour, the last in white. */
  private showReplay(): void {
    const trace = this.trace;
    if (trace === null || trace.visited.length === 0) {
      this.replay.lines.visible = false;
      return;
    }
    const steps = Math.min(this.settings.replayStep, trace.visited.length);
    const bounds = new Float32Array(6 * steps);
    const depth = new Uint8Array(steps);
    for (let i = 0; i < steps; i++) {
      const node = trace.visited[i]!;
      bounds.set(this.nodeBoxes.subarray(6 * node, 6 * node + 6), 6 * i);
      depth[i] = this.nodeDepth[node]!;
    }
    this.replay.setBoxes({ bounds, count: steps, depth });
    this.replay.lines.visible = steps > 0;
    this.lastRayLine = this.lastRayLine.replace(/ · step \d+\/\d+$/, '') + ` · step ${steps}/${trace.visited.length}`;
  }

  private heatCosts = new Float32Array(0);
  private readonly heatRays = { count: 1, origins: new Float32Array(3), directions: new Float32Array(3), tMax: new Float32Array([Infinity]) };
  private readonly heatHits = { t: new Float32Array(1), triangle: new Int32Array(1) };

  /** Recomputes the heat map when the camera or the tree changed, at most twice a second. */
  private updateHeatMap(dtSeconds: number, sandbox: Sandbox): void {
    const context = this.context;
    const bvh = sandbox.bvh;
    if (context === null || bvh === null || this.heatMap === null) return;
    this.heatMapClock += dtSeconds;
    const camera = context.stage.camera;
    const key = `${camera.matrixWorld.elements.map((v) => v.toFixed(3)).join(',')}|${this.settings.layout}|${this.settings.triangleTest}|${this.settings.heatMapColumns}|${bvh.stats.nodes}|${this.settings.filter}`;
    if (key === this.heatMapKey || this.heatMapClock < 0.5) return;
    this.heatMapKey = key;
    this.heatMapClock = 0;
    const canvas = context.stage.renderer.domElement;
    const columns = this.settings.heatMapColumns;
    const rows = Math.max(1, Math.round((columns * canvas.clientHeight) / Math.max(canvas.clientWidth, 1)));
    if (this.heatCosts.length !== columns * rows) this.heatCosts = new Float32Array(columns * rows);
    const start = performance.now();
    let nodes = 0;
    const options = { layout: this.settings.layout, triangleTest: this.settings.triangleTest, filter: this.settings.filter };
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        this.ndc.set(((column + 0.5) / columns) * 2 - 1, 1 - ((row + 0.5) / rows) * 2);
        this.raycaster.setFromCamera(this.ndc, camera);
        this.raycaster.ray.origin.toArray(this.heatRays.origins);
        this.raycaster.ray.direction.toArray(this.heatRays.directions);
        const counters = castRays(bvh, this.heatRays, this.heatHits, options);
        this.heatCosts[row * columns + column] = counters.nodesVisited;
        nodes += counters.nodesVisited;
      }
    }
    const ms = performance.now() - start;
    sandbox.timings.record('bvh.heatmap', ms);
    this.heatMap.draw(
      this.heatCosts,
      columns,
      rows,
      `nodes visited per ray · mean ${(nodes / (columns * rows)).toFixed(1)} · ${columns * rows} rays in ${ms.toFixed(0)} ms`,
    );
  }
}
