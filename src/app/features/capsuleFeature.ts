import * as THREE from 'three';
import type GUI from 'lil-gui';
import {
  CYLINDER_SHIFT,
  CapsuleSystem,
  DEFAULT_CHARACTER,
  DEFAULT_CROWD,
  DEFAULT_PROBE,
  KERNELS,
  KERNEL_LABELS,
  PAIRS_PER_TRIANGLE,
  SPHERE1_SHIFT,
  castRays,
  loadSimdCapsules,
  popCount,
  simdCapsulesUnavailableReason,
  type BVH,
  type CapsuleProbe,
  type CapsuleProbeSettings,
  type Kernel,
  type Sandbox,
  type SceneCapsules,
  type SceneDefinition,
} from '../../core';
import { capsuleSolidGeometry, poseOnSegment } from '../../view/capsuleShapes';
import { CAPSULE_CROWD_LEGEND, CapsuleCrowdView } from '../../view/capsuleCrowdView';
import { cssColour, type Legend } from '../../view/legend';
import { CapsuleProbeView } from '../../view/capsuleProbeView';
import type { AppContext, AppFeature } from '../feature';
import { addFocusButton, sphereAround, type FocusTarget } from './focusButton';
import { threadsLine } from './threadsLine';

interface CharacterPanel {
  enabled: boolean;
  speed: number;
  jumpSpeed: number;
  stepHeight: number;
  maxSlopeDegrees: number;
  radius: number;
  halfHeight: number;
  start: [number, number];
}

interface StressPanel {
  enabled: boolean;
  count: number;
  speed: number;
  radius: number;
  halfHeight: number;
}

/** Colours of traced triangles: culled entirely, all kept pairs left to a neighbour, then by count. */
const CULLED = new THREE.Color(0x2a4b8d);
const MASKED = new THREE.Color(0x9b59d0);
const FEW = new THREE.Color(0x3ccf6e);
const SOME = new THREE.Color(0xf2d13c);
const MANY = new THREE.Color(0xf0503c);
const KEYS = ['KeyW', 'KeyA', 'KeyS', 'KeyD', 'Space', 'ShiftLeft', 'ShiftRight'];

/**
 * The capsule sweeps' panel and view. The sweeps themselves are the core CapsuleSystem (src/capsules),
 * stepped by the sandbox; this feature turns its parts on and off, sets their settings, and draws:
 *  - the probe: one capsule swept along its motion (GUI sliders, or Alt-drag on the terrain to move its
 *    start and Alt+Shift-drag to aim it), drawn at the start, along the way and at the impact, with the
 *    contact normal and the triangles the sweep looked at coloured by the feature pairs the quick cull kept;
 *  - the character: WASD and Space (jump) fill the system's input, and the camera follows it; while it is
 *    on, those keys go to it, not to the fly camera or the pause key. It moves with the simulation, so it
 *    stands still while paused;
 *  - the stress crowd: 1 to 10,000 capsules thrown over the terrain, all swept in one batch per step.
 * All three are off until switched on here or by a scene.
 */
export class CapsuleFeature implements AppFeature {
  readonly name = 'capsules';
  private context: AppContext | null = null;
  private readonly probePanel: CapsuleProbeSettings = { ...DEFAULT_PROBE, enabled: false };
  /** How the traced triangles are coloured: the view's choice, not the system's. */
  private readonly probeLook: { colourBy: 'pairs kept' | 'pairs tested' } = { colourBy: 'pairs kept' };
  private readonly characterPanel: CharacterPanel = { ...DEFAULT_CHARACTER, start: [...DEFAULT_CHARACTER.start], enabled: false };
  private readonly stressPanel: StressPanel = { ...DEFAULT_CROWD, enabled: false };
  private readonly kernelPanel: { kernel: Kernel } = { kernel: 'wasm-simd' };
  /** The kernel of the last sweep, and why not SIMD when it was chosen and could not run. */
  private readonly kernelReadout = { ran: '' };
  private readonly probeView = new CapsuleProbeView();
  private readonly crowdView = new CapsuleCrowdView();
  private readonly characterMesh = new THREE.Mesh(new THREE.BufferGeometry(), new THREE.MeshStandardMaterial({ color: 0xffc247, roughness: 0.45 }));
  private characterShape = '';
  /** The probe result drawn last (its object and revision), so the triangles are copied only when it changes. */
  private drawnProbe: CapsuleProbe | null = null;
  private drawnRevision = -1;
  private drawnColouring = '';
  private corners = new Float32Array(0);
  private colours = new Float32Array(0);
  private readonly colour = new THREE.Color();
  private readonly hitCorners = new Float32Array(9);
  // Character: held keys, and where it was last frame (the camera follows its moves).
  private readonly keys = new Set<string>();
  private readonly forward = new THREE.Vector3();
  private readonly lastCharacter = new THREE.Vector3();
  private followed: unknown = null;
  // Picking.
  private readonly raycaster = new THREE.Raycaster();
  private dragging: 'start' | 'aim' | null = null;

  install(context: AppContext): void {
    this.context = context;
    this.characterMesh.visible = false;
    this.characterMesh.frustumCulled = false;
    this.crowdView.group.visible = false;
    context.stage.scene.add(this.probeView.group, this.crowdView.group, this.characterMesh);
    const folder: GUI = context.gui.addFolder('Capsule sweeps');
    const apply = (): void => {
      this.apply();
    };
    const kernels = Object.fromEntries(KERNELS.map((kernel) => [KERNEL_LABELS[kernel], kernel]));
    const kernelControl = folder.add(this.kernelPanel, 'kernel', kernels).name('capsule kernel').onChange(apply);
    folder.add(this.kernelReadout, 'ran').name('kernel that ran').disable().listen();
    // The SIMD kernel loads in the background; until then, or without WebAssembly SIMD, TypeScript sweeps.
    void loadSimdCapsules().then((kernel) => {
      if (kernel === null) kernelControl.name(`capsule kernel (TypeScript only: ${simdCapsulesUnavailableReason()})`);
    });
    const probe = folder.addFolder('Probe');
    const gestures = document.createElement('div');
    gestures.className = 'cs-legend';
    gestures.textContent = 'Alt-drag on the terrain: start · Alt+Shift-drag: aim';
    probe.$children.prepend(gestures);
    const p = this.probePanel;
    probe
      .add(p, 'enabled')
      .name('show probe')
      .onChange((on: boolean) => {
        if (on) this.placeProbeAtView();
        apply();
      });
    probe.add(p, 'x', -1000, 1000, 0.1).name('start x').listen().onChange(apply);
    probe.add(p, 'z', -1000, 1000, 0.1).name('start z').listen().onChange(apply);
    probe.add(p, 'lift', -5, 60, 0.1).name('start above ground').onChange(apply);
    probe.add(p, 'yaw', -180, 180, 1).name('axis heading °').onChange(apply);
    probe.add(p, 'pitch', -90, 90, 1).name('axis elevation °').onChange(apply);
    probe.add(p, 'radius', 0, 10, 0.05).name('radius').onChange(apply);
    probe.add(p, 'halfHeight', 0, 20, 0.05).name('half-height').onChange(apply);
    probe.add(p, 'motionYaw', -180, 180, 1).name('motion heading °').listen().onChange(apply);
    probe.add(p, 'motionPitch', -90, 90, 1).name('motion elevation °').listen().onChange(apply);
    probe.add(p, 'distance', 0, 300, 0.5).name('motion length').listen().onChange(apply);
    probe.add(p, 'edgeMasks').name('edge masks').onChange(apply);
    probe.add(p, 'quickCull').name('quick cull').onChange(apply);
    probe.add(this.probeLook, 'colourBy', ['pairs kept', 'pairs tested']).name('colour triangles by');
    probe.add({ look: () => this.lookAtProbe() }, 'look').name('look at the probe');
    const c = this.characterPanel;
    const walker = folder.addFolder('Character (WASD, Space jumps)');
    walker
      .add(c, 'enabled')
      .name('walk a capsule')
      .listen()
      .onChange((on: boolean) => this.setCharacter(on));
    for (const [key, label, min, max, step] of [
      ['speed', 'speed', 1, 40, 0.5],
      ['jumpSpeed', 'jump speed', 0, 30, 0.5],
      ['stepHeight', 'step height', 0, 3, 0.05],
      ['maxSlopeDegrees', 'max slope °', 5, 85, 1],
      ['radius', 'radius', 0.1, 3, 0.05],
      ['halfHeight', 'half-height', 0, 4, 0.05],
    ] as const) {
      walker.add(c, key, min, max, step).name(label).onFinishChange(apply);
    }
    const s = this.stressPanel;
    const stress = folder.addFolder('Stress: many capsules');
    stress.add(s, 'enabled').name('throw capsules').listen().onChange(apply);
    stress.add(s, 'count', 1, 10_000, 1).name('capsules').onFinishChange(apply);
    stress.add(s, 'speed', 0, 100, 1).name('launch speed').onFinishChange(apply);
    stress.add(s, 'radius', 0.1, 5, 0.05).name('radius').onFinishChange(apply);
    stress.add(s, 'halfHeight', 0, 10, 0.05).name('half-height').onFinishChange(apply);
    addFocusButton(folder, context, () => this.focusTarget(), 'the capsules');
    for (const sub of [probe, walker, stress, folder]) sub.close();
    this.installInput(context);
  }

  sceneLoaded(scene: SceneDefinition): void {
    const section = scene.systems.capsules as SceneCapsules | undefined;
    Object.assign(this.probePanel, DEFAULT_PROBE, section?.probe ?? {}, { enabled: section?.probe !== undefined && section.probe.enabled !== false });
    Object.assign(this.characterPanel, DEFAULT_CHARACTER, section?.character ?? {}, { enabled: section?.character !== undefined });
    this.characterPanel.start = [...(section?.character?.start ?? DEFAULT_CHARACTER.start)];
    Object.assign(this.stressPanel, DEFAULT_CROWD, section?.crowd ?? {}, { enabled: section?.crowd !== undefined });
    this.kernelPanel.kernel = section?.kernel ?? 'wasm-simd';
  }

  terrainChanged(sandbox: Sandbox): void {
    // Keep the probe's start on the new terrain's footprint.
    const half = sandbox.terrain.params.worldSize / 2;
    const p = this.probePanel;
    const x = Math.max(-half, Math.min(half, p.x)),
      z = Math.max(-half, Math.min(half, p.z));
    if (x !== p.x || z !== p.z) {
      p.x = x;
      p.z = z;
      if (this.system() !== null) this.apply();
    }
    this.followed = null;
  }

  frame(): void {
    const system = this.system();
    // The page's capsule pool, when it has workers (the crowd falls back to this thread by itself).
    if (system !== null) system.threads = this.context?.rayThreads.capsulePoolForCrowd() ?? null;
    this.kernelReadout.ran = system?.kernelRan() ?? '';
    this.drawProbe(system);
    this.followCharacter(system);
    const crowd = system?.crowd ?? null;
    if (this.context?.sceneSwitching() !== true) this.stressPanel.enabled = crowd !== null;
    this.crowdView.group.visible = crowd !== null;
    if (crowd !== null)
      this.crowdView.update(crowd.count, crowd.centres, crowd.axes, crowd.sinceHit, crowd.settings.radius, crowd.settings.halfHeight);
  }

  /** The probe's sweep, else the character, else the crowd. */
  private focusTarget(): FocusTarget | null {
    const system = this.system();
    const probe = system?.probe ?? null;
    if (probe !== null && probe.settings.enabled && probe.swept) {
      const ends = [...probe.p0, ...probe.p1, probe.p0[0]! + probe.motion[0]!, probe.p0[1]! + probe.motion[1]!, probe.p0[2]! + probe.motion[2]!];
      const around = sphereAround(ends, 3);
      if (around !== null) return { center: around.center, radius: around.radius + probe.settings.radius };
    }
    const character = system?.character ?? null;
    if (character !== null) {
      const [x = 0, y = 0, z = 0] = character.position;
      return { center: [x, y, z], radius: 8 };
    }
    const crowd = system?.crowd ?? null;
    return crowd === null ? null : sphereAround(crowd.centres, crowd.count);
  }

  legends(): readonly Legend[] {
    const legends: Legend[] = [];
    if (this.drawnProbe !== null) {
      const pairs = this.probeLook.colourBy === 'pairs tested' ? 'pair tests' : 'pairs kept';
      legends.push({
        title: 'capsule probe: triangles it reached',
        swatches: [
          { label: 'culled before any feature test', colour: cssColour(CULLED) },
          { label: 'every pair left to a neighbour', colour: cssColour(MASKED) },
          { label: `1–2 ${pairs}`, colour: cssColour(FEW) },
          { label: `3–5 ${pairs}`, colour: cssColour(SOME) },
          { label: `6 or more ${pairs}`, colour: cssColour(MANY) },
        ],
      });
    }
    if (this.crowdView.group.visible) legends.push(CAPSULE_CROWD_LEGEND);
    return legends;
  }

  hudLines(): readonly string[] {
    const system = this.system();
    if (system === null) return [];
    const lines: string[] = [];
    const ran = system.kernelRan();
    const probe = system.probe;
    if (probe !== null && probe.settings.enabled && probe.swept) lines.push(...this.describeProbe(probe, ran));
    const character = system.character;
    if (character !== null) {
      const work = system.characterWork;
      const [x = 0, z = 0] = [character.position[0], character.position[2]];
      const speed = Math.hypot(character.velocity[0]!, character.velocity[2]!);
      lines.push(
        `character: ${character.grounded ? 'on the ground' : 'in the air'} at (${x.toFixed(1)}, ${z.toFixed(1)}) · ${speed.toFixed(1)} u/s · ${work.sweeps} sweeps (${ran}), ${work.nodes} nodes, ${work.triangles} triangles · ${work.ms.toFixed(3)} ms${work.depenetrated ? ' · pushed out of a contact' : ''}`,
      );
    }
    const crowd = system.crowd;
    if (crowd !== null) {
      const work = crowd.lastCounters;
      const n = crowd.count;
      const ms = crowd.lastSweepMs;
      const rate = n / Math.max(ms / 1000, 1e-9);
      lines.push(
        `stress: ${n.toLocaleString('en')} capsules · one batch ${ms.toFixed(2)} ms (${(rate / 1000).toFixed(0)}k sweeps/s, ${ran}) · per sweep ${work === null ? '—' : `${(work.nodesVisited / Math.max(n, 1)).toFixed(1)} nodes, ${(work.trianglesTested / Math.max(n, 1)).toFixed(1)} triangles`} · ${work?.hits ?? 0} contacts`,
      );
      const pooled = system.crowdThreads;
      if (pooled !== null) lines.push(threadsLine('stress', pooled.busyMs, pooled.wallMs));
    }
    return lines;
  }

  private system(): CapsuleSystem | null {
    const system = this.context?.system('capsules') ?? null;
    return system instanceof CapsuleSystem ? system : null;
  }

  /** The section the panel describes: the parts switched on, and the kernel. */
  private section(): SceneCapsules | null {
    const probe = { ...this.probePanel };
    const { enabled: walking, ...character } = this.characterPanel;
    const { enabled: throwing, ...crowd } = this.stressPanel;
    if (!probe.enabled && !walking && !throwing) return null;
    return {
      ...(probe.enabled ? { probe } : {}),
      ...(walking ? { character: { ...character, start: [...character.start] } } : {}),
      ...(throwing ? { crowd: { ...crowd, count: Math.round(crowd.count) } } : {}),
      kernel: this.kernelPanel.kernel,
    };
  }

  /**
   * Hands the panel's settings to the running system (validated there; an error is shown and the system
   * keeps its last good settings), starts it when the first part is switched on, stops it with the last.
   */
  private apply(): CapsuleSystem | null {
    const context = this.context;
    if (context === null) return null;
    const section = this.section();
    const running = this.system();
    if (section === null || running === null) {
      const system = context.setSystem('capsules', section);
      return system instanceof CapsuleSystem ? system : null;
    }
    try {
      running.update(section);
    } catch (error) {
      context.reportError(error instanceof Error ? error.message : String(error));
    }
    return running;
  }

  // ── Probe ──────────────────────────────────────────────────────────────────────────────────────

  /** Brings the camera close to the probe, looking at its start across its motion. */
  private lookAtProbe(): void {
    const context = this.context;
    const probe = this.system()?.probe ?? null;
    if (context === null || probe === null || !probe.swept) return;
    const { p0, p1, motion } = probe;
    // Frame the part of the motion that was swept: from the start to the impact.
    const toi = probe.hit ? probe.hits.toi[0]! : 1;
    const centre = [0, 1, 2].map((k) => 0.5 * (p0[k]! + p1[k]!) + 0.5 * toi * motion[k]!);
    const p = probe.settings;
    const size = Math.max(15, 5 * (p.radius + p.halfHeight), 1.3 * toi * p.distance);
    const side = [-motion[2]!, 0, motion[0]!];
    const length = Math.hypot(side[0]!, side[2]!) || 1;
    const eye = [centre[0]! + (side[0]! / length) * size, centre[1]! + 0.6 * size, centre[2]! + (side[2]! / length) * size];
    context.stage.setView(eye, centre, context.stage.camera.fov);
  }

  /** Puts the probe's start where the orbit camera looks, when that is on the terrain. */
  private placeProbeAtView(): void {
    const context = this.context;
    const sandbox = context?.sandbox() ?? null;
    if (context === null || sandbox === null || context.stage.cameraMode !== 'orbit') return;
    const target = context.stage.orbit.target;
    const half = sandbox.terrain.params.worldSize / 2;
    if (Math.abs(target.x) < half && Math.abs(target.z) < half) {
      this.probePanel.x = target.x;
      this.probePanel.z = target.z;
    }
  }

  /** Draws the probe's last sweep, copying its triangles only when the result or the colouring changed. */
  private drawProbe(system: CapsuleSystem | null): void {
    const probe = system?.probe ?? null;
    const bvh = this.context?.sandbox()?.bvh ?? null;
    if (probe === null || !probe.settings.enabled || !probe.swept || bvh === null) {
      if (this.drawnProbe !== null) this.probeView.hide();
      this.drawnProbe = null;
      return;
    }
    const colouring = this.probeLook.colourBy;
    if (probe === this.drawnProbe && probe.revision === this.drawnRevision && colouring === this.drawnColouring) return;
    this.drawnProbe = probe;
    this.drawnRevision = probe.revision;
    this.drawnColouring = colouring;
    const hit = probe.hit;
    const hits = probe.hits;
    this.probeView.show({
      p0: Array.from(probe.p0),
      p1: Array.from(probe.p1),
      radius: probe.settings.radius,
      motion: Array.from(probe.motion),
      toi: hit ? hits.toi[0]! : 1,
      hit,
      point: Array.from(hits.point),
      normal: Array.from(hits.normal),
    });
    this.drawTracedTriangles(probe, bvh, hit ? hits.triangle[0]! : -1);
  }

  private drawTracedTriangles(probe: CapsuleProbe, bvh: BVH, hitTriangle: number): void {
    const trace = probe.trace;
    const count = trace.count;
    if (this.corners.length < 9 * count) {
      this.corners = new Float32Array(9 * count * 2);
      this.colours = new Float32Array(this.corners.length);
    }
    const { positions, indices } = bvh;
    const byTested = this.probeLook.colourBy === 'pairs tested';
    const colour = this.colour;
    for (let k = 0; k < count; k++) {
      const t = trace.triangle[k]!;
      for (let v = 0; v < 3; v++) {
        const index = 3 * indices[3 * t + v]!;
        this.corners[9 * k + 3 * v] = positions[index]!;
        this.corners[9 * k + 3 * v + 1] = positions[index + 1]!;
        this.corners[9 * k + 3 * v + 2] = positions[index + 2]!;
      }
      const kept = trace.kept[k]!;
      const tested = trace.tested[k]!;
      const pairs = popCount(byTested ? tested : kept);
      if (kept === 0) colour.copy(CULLED);
      else if (tested === 0) colour.copy(MASKED);
      else if (pairs === 0) colour.copy(CULLED);
      else if (pairs <= 2) colour.copy(FEW);
      else if (pairs <= 5) colour.copy(SOME);
      else colour.copy(MANY);
      for (let v = 0; v < 3; v++) {
        this.colours[9 * k + 3 * v] = colour.r;
        this.colours[9 * k + 3 * v + 1] = colour.g;
        this.colours[9 * k + 3 * v + 2] = colour.b;
      }
    }
    if (hitTriangle >= 0) {
      for (let v = 0; v < 3; v++) {
        const index = 3 * indices[3 * hitTriangle + v]!;
        this.hitCorners.set(positions.subarray(index, index + 3), 3 * v);
      }
    }
    this.probeView.showTriangles(this.corners, this.colours, count, hitTriangle >= 0 ? this.hitCorners : null);
  }

  private describeProbe(probe: CapsuleProbe, ran: string): string[] {
    const trace = probe.trace;
    const work = probe.counters;
    // Kept pairs by capsule part, from the trace (sphere 0, sphere 1, cylinder).
    const parts = [0, 0, 0];
    for (let k = 0; k < trace.count; k++) {
      const kept = trace.kept[k]!;
      parts[0]! += popCount(kept & ((1 << SPHERE1_SHIFT) - 1));
      parts[1]! += popCount((kept >> SPHERE1_SHIFT) & ((1 << (CYLINDER_SHIFT - SPHERE1_SHIFT)) - 1));
      parts[2]! += popCount(kept >> CYLINDER_SHIFT);
    }
    const culled = work.pairsPossible > 0 ? (100 * (1 - work.pairsKept / work.pairsPossible)).toFixed(1) : '—';
    const contact = probe.hit ? `contact at toi ${probe.hits.toi[0]!.toFixed(4)} on triangle ${probe.hits.triangle[0]}` : 'no contact';
    return [
      `capsule probe: ${contact} · ${probe.ms.toFixed(3)} ms · ${ran} · ${work.nodesVisited} nodes · ${work.trianglesTested} triangles`,
      `  pairs: ${work.pairsKept} kept of ${work.pairsPossible} possible (${PAIRS_PER_TRIANGLE}/triangle, ${culled}% culled) · ${work.pairsTested} tested after edge masks · kept by sphere 0 / sphere 1 / cylinder ${parts.join(' / ')}`,
      `  tested: sphere–vertex ${work.sphereVertex}, sphere–edge ${work.sphereEdge}, sphere–face ${work.sphereFace}, cylinder–edge ${work.cylinderEdge}, cylinder–vertex ${work.cylinderVertex}, cylinder–face ${work.cylinderFace}`,
      `  triangle colours: blue culled · purple left to a neighbour (edge mask) · green 1–2 · yellow 3–5 · red 6+ pairs`,
    ];
  }

  // ── Picking and keys ───────────────────────────────────────────────────────────────────────────

  private installInput(context: AppContext): void {
    const canvas = context.stage.renderer.domElement;
    const owner = 'capsule probe (while shown)';
    const isStartDrag = context.gestures.claim({ owner, modifier: 'Alt', kind: 'press-drag', what: 'move its start over the terrain' });
    const isAimDrag = context.gestures.claim({ owner, modifier: 'Alt+Shift', kind: 'press-drag', what: 'aim its motion' });
    // Capture on the root so the orbit controls and the BVH's click-to-cast never see a probe drag.
    context.root.addEventListener(
      'pointerdown',
      (event) => {
        if (!this.probePanel.enabled || event.button !== 0 || event.target !== canvas) return;
        if (isAimDrag(event)) this.dragging = 'aim';
        else if (isStartDrag(event)) this.dragging = 'start';
        else return;
        event.stopPropagation();
        event.preventDefault();
        this.dragTo(event);
      },
      { capture: true },
    );
    window.addEventListener('pointermove', (event) => {
      if (this.dragging !== null) this.dragTo(event);
    });
    context.root.addEventListener(
      'pointerup',
      (event) => {
        if (this.dragging === null) return;
        this.dragging = null;
        event.stopPropagation();
      },
      { capture: true },
    );
    // While the character walks, its keys are its own (before the fly camera and the pause shortcut).
    context.shortcuts.claim({
      owner: 'Character (while “walk a capsule” is on)',
      codes: KEYS,
      help: [
        { keys: 'W A S D', what: 'walk (the camera follows; it moves with the simulation, so not while paused)' },
        { keys: 'Space', what: 'jump' },
        { keys: 'Shift', what: 'run' },
      ],
      active: () => this.system()?.character != null,
      down: (event) => this.keys.add(event.code),
      up: (event) => this.keys.delete(event.code),
      release: () => this.keys.clear(),
    });
  }

  /** Moves the probe's start (or its aim) to the terrain point under the pointer. */
  private dragTo(event: PointerEvent): void {
    const context = this.context;
    const bvh = context?.sandbox()?.bvh ?? null;
    if (context === null || bvh === null) return;
    const rect = context.stage.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, context.stage.camera);
    const { origin, direction } = this.raycaster.ray;
    const rays = {
      count: 1,
      origins: Float32Array.of(origin.x, origin.y, origin.z),
      directions: Float32Array.of(direction.x, direction.y, direction.z),
      tMax: Float32Array.of(Infinity),
    };
    const hits = { t: new Float32Array(1), triangle: new Int32Array(1) };
    castRays(bvh, rays, hits, { doubleSided: true });
    if (hits.triangle[0]! < 0) return;
    const t = hits.t[0]!;
    const x = origin.x + t * direction.x,
      y = origin.y + t * direction.y,
      z = origin.z + t * direction.z;
    const p = this.probePanel;
    const probe = this.system()?.probe ?? null;
    if (this.dragging === 'start') {
      p.x = x;
      p.z = z;
    } else if (probe !== null && probe.swept) {
      // Aim: the motion ends with the capsule's centre at the picked point, lifted by its radius.
      const cx = 0.5 * (probe.p0[0]! + probe.p1[0]!),
        cy = 0.5 * (probe.p0[1]! + probe.p1[1]!),
        cz = 0.5 * (probe.p0[2]! + probe.p1[2]!);
      const mx = x - cx,
        my = y + p.radius - cy,
        mz = z - cz;
      p.distance = Math.min(300, Math.hypot(mx, my, mz));
      p.motionYaw = (Math.atan2(mz, mx) * 180) / Math.PI;
      p.motionPitch = (Math.atan2(my, Math.hypot(mx, mz)) * 180) / Math.PI;
    }
    this.apply();
  }

  // ── Character ──────────────────────────────────────────────────────────────────────────────────

  /** Drops the character under the camera's target (its new start) and brings the camera close, or takes it away. */
  private setCharacter(on: boolean): void {
    const context = this.context;
    const sandbox = context?.sandbox() ?? null;
    if (!on || context === null || sandbox === null) {
      this.keys.clear();
      this.apply();
      return;
    }
    const stage = context.stage;
    const half = sandbox.terrain.params.worldSize / 2 - 2;
    const target = stage.cameraMode === 'orbit' ? stage.orbit.target : new THREE.Vector3();
    this.characterPanel.start = [Math.max(-half, Math.min(half, target.x)), Math.max(-half, Math.min(half, target.z))];
    const character = this.apply()?.character ?? null;
    if (character === null) return;
    const { radius, halfHeight } = character.settings;
    const centre = new THREE.Vector3(character.position[0], character.position[1], character.position[2]);
    const back = new THREE.Vector3();
    stage.camera.getWorldDirection(back);
    back.y = 0;
    if (back.lengthSq() < 1e-6) back.set(0, 0, -1);
    back.normalize().multiplyScalar(-14 * (radius + halfHeight));
    stage.setView([centre.x + back.x, centre.y + 6 * (radius + halfHeight), centre.z + back.z], [centre.x, centre.y, centre.z], stage.camera.fov);
    this.followed = character;
    this.lastCharacter.copy(centre);
  }

  /**
   * Fills the character's input from the held keys (relative to the camera's heading), poses its mesh,
   * and moves the camera by however far the simulation moved it since the last frame.
   */
  private followCharacter(system: CapsuleSystem | null): void {
    const character = system?.character ?? null;
    if (this.context?.sceneSwitching() !== true) this.characterPanel.enabled = character !== null;
    this.characterMesh.visible = character !== null;
    const context = this.context;
    if (system === null || character === null || context === null) {
      this.followed = null;
      return;
    }
    const camera = context.stage.camera;
    const forward = this.forward;
    camera.getWorldDirection(forward);
    forward.y = 0;
    if (forward.lengthSq() < 1e-9) forward.set(0, 0, -1);
    forward.normalize();
    const k = this.keys;
    const ahead = (k.has('KeyW') ? 1 : 0) - (k.has('KeyS') ? 1 : 0);
    const aside = (k.has('KeyD') ? 1 : 0) - (k.has('KeyA') ? 1 : 0);
    const input = system.input;
    input.wishX = forward.x * ahead - forward.z * aside;
    input.wishZ = forward.z * ahead + forward.x * aside;
    input.jump = k.has('Space');
    input.fast = k.has('ShiftLeft') || k.has('ShiftRight');
    const [x = 0, y = 0, z = 0] = character.position;
    if (this.followed === character) {
      // The orbit target and the camera move with the character (the view can still orbit).
      const dx = x - this.lastCharacter.x,
        dy = y - this.lastCharacter.y,
        dz = z - this.lastCharacter.z;
      camera.position.x += dx;
      camera.position.y += dy;
      camera.position.z += dz;
      if (context.stage.cameraMode === 'orbit')
        context.stage.orbit.target.set(context.stage.orbit.target.x + dx, context.stage.orbit.target.y + dy, context.stage.orbit.target.z + dz);
    }
    this.followed = character;
    this.lastCharacter.set(x, y, z);
    const { radius, halfHeight } = character.settings;
    const shape = `${radius}/${halfHeight}`;
    if (shape !== this.characterShape) {
      this.characterShape = shape;
      this.characterMesh.geometry.dispose();
      this.characterMesh.geometry = capsuleSolidGeometry(radius, halfHeight);
    }
    poseOnSegment(this.characterMesh, x, y - halfHeight, z, x, y + halfHeight, z);
  }
}
