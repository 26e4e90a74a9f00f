import * as THREE from 'three';
import type GUI from 'lil-gui';
import {
  CYLINDER_SHIFT,
  CapsuleCharacter,
  CapsuleCrowd,
  DEFAULT_CHARACTER_SETTINGS,
  DEFAULT_CROWD_SETTINGS,
  PAIRS_PER_TRIANGLE,
  SPHERE1_SHIFT,
  castRays,
  createCapsuleBatch,
  createCapsuleHits,
  createCapsuleTrace,
  edgeMasksFor,
  loadSimdCapsules,
  popCount,
  sampleTerrainHeight,
  simdCapsuleKernel,
  simdCapsulesUnavailableReason,
  sweepCapsules,
  type BVH,
  type CapsuleBatch,
  type CapsuleHits,
  type Sandbox,
  type SweepCounters,
  type SweepOptions,
} from '../../core';
import { capsuleSolidGeometry, poseOnSegment } from '../../view/capsuleShapes';
import { CapsuleCrowdView } from '../../view/capsuleCrowdView';
import { CapsuleProbeView } from '../../view/capsuleProbeView';
import type { AppContext, AppFeature } from '../feature';

/** Which code sweeps the capsules (probe, character and crowd alike): same contacts either way. */
const CAPSULE_KERNELS = ['TypeScript', 'WebAssembly SIMD'] as const;
type CapsuleKernelChoice = (typeof CAPSULE_KERNELS)[number];

interface ProbeSettings {
  enabled: boolean;
  x: number;
  z: number;
  /** Height of the capsule's centre above the ground. */
  lift: number;
  /** Axis orientation: heading and elevation in degrees. */
  yaw: number;
  pitch: number;
  radius: number;
  halfHeight: number;
  /** Motion: heading, elevation (negative = down) in degrees, and length. */
  motionYaw: number;
  motionPitch: number;
  distance: number;
  edgeMasks: boolean;
  quickCull: boolean;
  colourBy: 'pairs kept' | 'pairs tested';
}

interface CharacterPanel {
  enabled: boolean;
  speed: number;
  jumpSpeed: number;
  stepHeight: number;
  maxSlopeDegrees: number;
  radius: number;
  halfHeight: number;
}

interface StressSettings {
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
 * Swept capsules in the sandbox:
 *  - a probe: one capsule swept along its motion (GUI sliders, or Alt-drag on the terrain to move its
 *    start and Alt+Shift-drag to aim it), drawn at the start, along the way and at the impact, with the contact
 *    normal and the triangles the sweep looked at coloured by the feature pairs the quick cull kept;
 *  - a character: a capsule walked with WASD and Space (jump) by collide-and-slide sweeps, with the
 *    camera following; while it is on, those keys go to it, not to the fly camera or the pause key;
 *  - a stress scene: 1 to 10,000 capsules thrown over the terrain, all swept in one batch per frame.
 * All three are off until switched on in the GUI.
 */
export class CapsuleFeature implements AppFeature {
  readonly name = 'capsules';
  private context: AppContext | null = null;
  private bvh: BVH | null = null;
  private readonly probeSettings: ProbeSettings = {
    enabled: false,
    x: 0,
    z: 0,
    lift: 6,
    yaw: 30,
    pitch: 35,
    radius: 1.5,
    halfHeight: 2.5,
    motionYaw: 20,
    motionPitch: -25,
    distance: 40,
    edgeMasks: true,
    quickCull: true,
    colourBy: 'pairs kept',
  };
  private readonly characterPanel: CharacterPanel = {
    enabled: false,
    speed: DEFAULT_CHARACTER_SETTINGS.speed,
    jumpSpeed: DEFAULT_CHARACTER_SETTINGS.jumpSpeed,
    stepHeight: DEFAULT_CHARACTER_SETTINGS.stepHeight,
    maxSlopeDegrees: DEFAULT_CHARACTER_SETTINGS.maxSlopeDegrees,
    radius: DEFAULT_CHARACTER_SETTINGS.radius,
    halfHeight: DEFAULT_CHARACTER_SETTINGS.halfHeight,
  };
  private readonly stressSettings: StressSettings = { enabled: false, count: 1000, speed: DEFAULT_CROWD_SETTINGS.speed, radius: 1, halfHeight: 1.5 };
  private readonly kernelSettings: { kernel: CapsuleKernelChoice } = { kernel: 'TypeScript' };
  /** The kernel of the last sweep, and why not SIMD when it was chosen and could not run. */
  private readonly kernelReadout = { ran: 'TypeScript' };
  /** Every sweep of the feature goes through here, so the kernel switch applies to all three. */
  private readonly sweeper = (bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits, options?: Partial<SweepOptions>): SweepCounters => {
    const kernel = this.kernelSettings.kernel === 'WebAssembly SIMD' ? simdCapsuleKernel() : null;
    if (kernel !== null) {
      this.kernelReadout.ran = 'WebAssembly SIMD';
      return kernel.sweep(bvh, capsules, hits, options);
    }
    this.kernelReadout.ran =
      this.kernelSettings.kernel === 'TypeScript'
        ? 'TypeScript'
        : `TypeScript (${simdCapsulesUnavailableReason() || 'WebAssembly SIMD still loading'})`;
    return sweepCapsules(bvh, capsules, hits, options);
  };
  private readonly probeView = new CapsuleProbeView();
  private readonly crowdView = new CapsuleCrowdView();
  private readonly characterMesh = new THREE.Mesh(new THREE.BufferGeometry(), new THREE.MeshStandardMaterial({ color: 0xffc247, roughness: 0.45 }));
  private characterShape = '';
  private probeDirty = true;
  private probeLines: string[] = [];
  // Probe scratch: one capsule, its trace and the triangles to draw.
  private readonly batch = createCapsuleBatch(1);
  private readonly hits = createCapsuleHits(1);
  private readonly trace = createCapsuleTrace(20_000);
  private corners = new Float32Array(0);
  private colours = new Float32Array(0);
  // Character.
  private character: CapsuleCharacter | null = null;
  private readonly keys = new Set<string>();
  private lastCharacterTime = 0;
  private characterMs = 0;
  private characterLine = '';
  // Stress.
  private crowd: CapsuleCrowd | null = null;
  private stressLine = '';
  // Picking.
  private readonly raycaster = new THREE.Raycaster();
  private dragging: 'start' | 'aim' | null = null;

  install(context: AppContext): void {
    this.context = context;
    this.characterMesh.visible = false;
    this.characterMesh.frustumCulled = false;
    context.stage.scene.add(this.probeView.group, this.crowdView.group, this.characterMesh);
    const folder: GUI = context.gui.addFolder('Capsule sweeps');
    const kernelControl = folder
      .add(this.kernelSettings, 'kernel', [...CAPSULE_KERNELS])
      .name('capsule kernel')
      .onChange(() => {
        this.probeDirty = true;
      });
    folder.add(this.kernelReadout, 'ran').name('kernel that ran').disable().listen();
    // The SIMD kernel loads in the background; until then, or without WebAssembly SIMD, TypeScript sweeps.
    void loadSimdCapsules().then((kernel) => {
      if (kernel === null) kernelControl.setValue('TypeScript').name('capsule kernel (WebAssembly SIMD unavailable)').disable();
      else this.probeDirty = true;
    });
    const probe = folder.addFolder('Probe');
    const p = this.probeSettings;
    const dirty = (): void => {
      this.probeDirty = true;
    };
    probe
      .add(p, 'enabled')
      .name('show probe (Alt-drag: start, Alt+Shift-drag: aim)')
      .onChange((on: boolean) => {
        if (!on) this.probeView.hide();
        else this.placeProbeAtView();
        dirty();
      });
    probe.add(p, 'x', -1000, 1000, 0.1).name('start x').listen().onChange(dirty);
    probe.add(p, 'z', -1000, 1000, 0.1).name('start z').listen().onChange(dirty);
    probe.add(p, 'lift', -5, 60, 0.1).name('start above ground').onChange(dirty);
    probe.add(p, 'yaw', -180, 180, 1).name('axis heading °').onChange(dirty);
    probe.add(p, 'pitch', -90, 90, 1).name('axis elevation °').onChange(dirty);
    probe.add(p, 'radius', 0, 10, 0.05).name('radius').onChange(dirty);
    probe.add(p, 'halfHeight', 0, 20, 0.05).name('half-height').onChange(dirty);
    probe.add(p, 'motionYaw', -180, 180, 1).name('motion heading °').listen().onChange(dirty);
    probe.add(p, 'motionPitch', -90, 90, 1).name('motion elevation °').listen().onChange(dirty);
    probe.add(p, 'distance', 0, 300, 0.5).name('motion length').listen().onChange(dirty);
    probe.add(p, 'edgeMasks').name('edge masks').onChange(dirty);
    probe.add(p, 'quickCull').name('quick cull').onChange(dirty);
    probe.add(p, 'colourBy', ['pairs kept', 'pairs tested']).name('colour triangles by').onChange(dirty);
    probe.add({ look: () => this.lookAtProbe() }, 'look').name('look at the probe');
    const c = this.characterPanel;
    const walker = folder.addFolder('Character (WASD, Space jumps)');
    walker
      .add(c, 'enabled')
      .name('walk a capsule')
      .onChange((on: boolean) => this.setCharacter(on));
    for (const [key, label, min, max, step] of [
      ['speed', 'speed', 1, 40, 0.5],
      ['jumpSpeed', 'jump speed', 0, 30, 0.5],
      ['stepHeight', 'step height', 0, 3, 0.05],
      ['maxSlopeDegrees', 'max slope °', 5, 85, 1],
      ['radius', 'radius', 0.1, 3, 0.05],
      ['halfHeight', 'half-height', 0, 4, 0.05],
    ] as const) {
      walker
        .add(c, key, min, max, step)
        .name(label)
        .onFinishChange(() => this.rebuildCharacter());
    }
    const s = this.stressSettings;
    const stress = folder.addFolder('Stress: many capsules');
    stress
      .add(s, 'enabled')
      .name('throw capsules')
      .onChange((on: boolean) => this.setStress(on));
    stress
      .add(s, 'count', 1, 10_000, 1)
      .name('capsules')
      .onFinishChange(() => this.crowd?.resize(Math.round(s.count)));
    stress
      .add(s, 'speed', 0, 100, 1)
      .name('launch speed')
      .onFinishChange(() => this.rebuildCrowd());
    stress
      .add(s, 'radius', 0.1, 5, 0.05)
      .name('radius')
      .onFinishChange(() => this.rebuildCrowd());
    stress
      .add(s, 'halfHeight', 0, 10, 0.05)
      .name('half-height')
      .onFinishChange(() => this.rebuildCrowd());
    for (const sub of [probe, walker, stress, folder]) sub.close();
    this.installInput(context);
  }

  terrainChanged(sandbox: Sandbox): void {
    this.bvh = null;
    this.probeView.hide();
    this.probeLines = [];
    const half = sandbox.terrain.params.worldSize / 2;
    this.probeSettings.x = Math.max(-half, Math.min(half, this.probeSettings.x));
    this.probeSettings.z = Math.max(-half, Math.min(half, this.probeSettings.z));
    if (this.crowd !== null) this.rebuildCrowd();
  }

  bvhChanged(sandbox: Sandbox): void {
    this.bvh = sandbox.bvh;
    this.probeDirty = true;
    if (this.character !== null) this.dropCharacter(sandbox);
  }

  frame(dtSeconds: number, sandbox: Sandbox): void {
    const bvh = this.bvh;
    if (bvh === null) return;
    if (this.probeSettings.enabled && this.probeDirty) {
      this.probeDirty = false;
      this.runProbe(sandbox, bvh);
    }
    if (this.character !== null) this.stepCharacter(sandbox, bvh);
    if (this.crowd !== null && this.stressSettings.enabled) {
      this.crowd.step(bvh, dtSeconds);
      const s = this.stressSettings;
      if (dtSeconds > 0) {
        sandbox.timings.record('capsules.crowd', this.crowd.lastSweepMs);
        const work = this.crowd.lastCounters;
        const n = this.crowd.count;
        const rate = n / Math.max(this.crowd.lastSweepMs / 1000, 1e-9);
        this.stressLine = `stress: ${n.toLocaleString('en')} capsules · one batch ${this.crowd.lastSweepMs.toFixed(2)} ms (${(rate / 1000).toFixed(0)}k sweeps/s, ${this.kernelReadout.ran}) · per sweep ${work === null ? '—' : `${(work.nodesVisited / Math.max(n, 1)).toFixed(1)} nodes, ${(work.trianglesTested / Math.max(n, 1)).toFixed(1)} triangles`} · ${work?.hits ?? 0} contacts`;
      }
      this.crowdView.update(this.crowd.count, this.crowd.centres, this.crowd.axes, this.crowd.sinceHit, s.radius, s.halfHeight);
    }
  }

  hudLines(): readonly string[] {
    const lines: string[] = [];
    if (this.probeSettings.enabled) lines.push(...this.probeLines);
    if (this.character !== null) lines.push(this.characterLine);
    if (this.crowd !== null && this.stressSettings.enabled) lines.push(this.stressLine);
    return lines;
  }

  // ── Probe ──────────────────────────────────────────────────────────────────────────────────────

  private probeGeometry(sandbox: Sandbox): { p0: number[]; p1: number[]; motion: number[] } {
    const p = this.probeSettings;
    const ground = sampleTerrainHeight(sandbox.terrain, p.x, p.z);
    const centre = [p.x, ground + p.lift, p.z];
    const degrees = Math.PI / 180;
    const axis = [
      Math.cos(p.pitch * degrees) * Math.cos(p.yaw * degrees),
      Math.sin(p.pitch * degrees),
      Math.cos(p.pitch * degrees) * Math.sin(p.yaw * degrees),
    ];
    const motion = [
      Math.cos(p.motionPitch * degrees) * Math.cos(p.motionYaw * degrees) * p.distance,
      Math.sin(p.motionPitch * degrees) * p.distance,
      Math.cos(p.motionPitch * degrees) * Math.sin(p.motionYaw * degrees) * p.distance,
    ];
    const p0 = centre.map((v, k) => v - axis[k]! * p.halfHeight);
    const p1 = centre.map((v, k) => v + axis[k]! * p.halfHeight);
    return { p0, p1, motion };
  }

  /** Brings the camera close to the probe, looking at its start across its motion. */
  private lookAtProbe(): void {
    const context = this.context;
    const sandbox = context?.sandbox() ?? null;
    if (context === null || sandbox === null) return;
    const p = this.probeSettings;
    const { p0, p1, motion } = this.probeGeometry(sandbox);
    // Frame the part of the motion that was swept: from the start to the impact.
    const toi = this.hits.triangle[0]! >= 0 ? this.hits.toi[0]! : 1;
    const centre = [0, 1, 2].map((k) => 0.5 * (p0[k]! + p1[k]!) + 0.5 * toi * motion[k]!);
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
      this.probeSettings.x = target.x;
      this.probeSettings.z = target.z;
    }
  }

  private runProbe(sandbox: Sandbox, bvh: BVH): void {
    const p = this.probeSettings;
    if (p.edgeMasks) edgeMasksFor(bvh); // computed once per BVH; kept out of the probe's timing
    if (this.kernelSettings.kernel === 'WebAssembly SIMD') simdCapsuleKernel()?.prepare(bvh, p.edgeMasks); // likewise the copy into the kernel
    const { p0, p1, motion } = this.probeGeometry(sandbox);
    this.batch.start.set(p0);
    this.batch.end.set(p1);
    this.batch.motion.set(motion);
    this.batch.radius[0] = p.radius;
    const started = performance.now();
    const work = this.sweeper(bvh, this.batch, this.hits, { edgeMasks: p.edgeMasks, quickCull: p.quickCull, trace: this.trace, traceCapsule: 0 });
    const ms = performance.now() - started;
    const hit = this.hits.triangle[0]! >= 0;
    const toi = hit ? this.hits.toi[0]! : 1;
    this.probeView.show({ p0, p1, radius: p.radius, motion, toi, hit, point: Array.from(this.hits.point), normal: Array.from(this.hits.normal) });
    this.drawTracedTriangles(bvh, hit ? this.hits.triangle[0]! : -1);
    this.probeLines = this.describeProbe(work, hit, toi, ms);
    sandbox.timings.record('capsules.probe', ms);
  }

  private drawTracedTriangles(bvh: BVH, hitTriangle: number): void {
    const trace = this.trace;
    const count = trace.count;
    if (this.corners.length < 9 * count) {
      this.corners = new Float32Array(9 * count * 2);
      this.colours = new Float32Array(this.corners.length);
    }
    const { positions, indices } = bvh;
    const byTested = this.probeSettings.colourBy === 'pairs tested';
    const colour = new THREE.Color();
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
      for (let v = 0; v < 3; v++) this.colours.set([colour.r, colour.g, colour.b], 9 * k + 3 * v);
    }
    let hitCorners: Float32Array | null = null;
    if (hitTriangle >= 0) {
      hitCorners = new Float32Array(9);
      for (let v = 0; v < 3; v++) hitCorners.set(positions.subarray(3 * indices[3 * hitTriangle + v]!, 3 * indices[3 * hitTriangle + v]! + 3), 3 * v);
    }
    this.probeView.showTriangles(this.corners, this.colours, count, hitCorners);
  }

  private describeProbe(work: SweepCounters, hit: boolean, toi: number, ms: number): string[] {
    const trace = this.trace;
    // Kept pairs by capsule part, from the trace (sphere 0, sphere 1, cylinder).
    const parts = [0, 0, 0];
    for (let k = 0; k < trace.count; k++) {
      const kept = trace.kept[k]!;
      parts[0]! += popCount(kept & ((1 << SPHERE1_SHIFT) - 1));
      parts[1]! += popCount((kept >> SPHERE1_SHIFT) & ((1 << (CYLINDER_SHIFT - SPHERE1_SHIFT)) - 1));
      parts[2]! += popCount(kept >> CYLINDER_SHIFT);
    }
    const culled = work.pairsPossible > 0 ? (100 * (1 - work.pairsKept / work.pairsPossible)).toFixed(1) : '—';
    return [
      `capsule probe: ${hit ? `contact at toi ${toi.toFixed(4)} on triangle ${this.hits.triangle[0]}` : 'no contact'} · ${ms.toFixed(3)} ms · ${this.kernelReadout.ran} · ${work.nodesVisited} nodes · ${work.trianglesTested} triangles`,
      `  pairs: ${work.pairsKept} kept of ${work.pairsPossible} possible (${PAIRS_PER_TRIANGLE}/triangle, ${culled}% culled) · ${work.pairsTested} tested after edge masks · kept by sphere 0 / sphere 1 / cylinder ${parts.join(' / ')}`,
      `  tested: sphere–vertex ${work.sphereVertex}, sphere–edge ${work.sphereEdge}, sphere–face ${work.sphereFace}, cylinder–edge ${work.cylinderEdge}, cylinder–vertex ${work.cylinderVertex}, cylinder–face ${work.cylinderFace}`,
      `  triangle colours: blue culled · purple left to a neighbour (edge mask) · green 1–2 · yellow 3–5 · red 6+ pairs`,
    ];
  }

  // ── Picking and keys ───────────────────────────────────────────────────────────────────────────

  private installInput(context: AppContext): void {
    const canvas = context.stage.renderer.domElement;
    // Capture on the root so the orbit controls and the BVH's click-to-cast never see a probe drag.
    context.root.addEventListener(
      'pointerdown',
      (event) => {
        if (!this.probeSettings.enabled || event.button !== 0 || !event.altKey || event.target !== canvas) return;
        this.dragging = event.shiftKey ? 'aim' : 'start';
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
        { keys: 'W A S D', what: 'walk (the camera follows)' },
        { keys: 'Space', what: 'jump' },
        { keys: 'Shift', what: 'run' },
      ],
      active: () => this.character !== null,
      down: (event) => this.keys.add(event.code),
      up: (event) => this.keys.delete(event.code),
      release: () => this.keys.clear(),
    });
  }

  /** Moves the probe's start (or its aim) to the terrain point under the pointer. */
  private dragTo(event: PointerEvent): void {
    const context = this.context;
    const sandbox = context?.sandbox() ?? null;
    const bvh = this.bvh;
    if (context === null || sandbox === null || bvh === null) return;
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
    const p = this.probeSettings;
    if (this.dragging === 'start') {
      p.x = x;
      p.z = z;
    } else {
      // Aim: the motion ends with the capsule's centre at the picked point, lifted by its radius.
      const { p0, p1 } = this.probeGeometry(sandbox);
      const cx = 0.5 * (p0[0]! + p1[0]!),
        cy = 0.5 * (p0[1]! + p1[1]!),
        cz = 0.5 * (p0[2]! + p1[2]!);
      const mx = x - cx,
        my = y + p.radius - cy,
        mz = z - cz;
      p.distance = Math.min(300, Math.hypot(mx, my, mz));
      p.motionYaw = (Math.atan2(mz, mx) * 180) / Math.PI;
      p.motionPitch = (Math.atan2(my, Math.hypot(mx, mz)) * 180) / Math.PI;
    }
    this.probeDirty = true;
  }

  // ── Character ──────────────────────────────────────────────────────────────────────────────────

  private setCharacter(on: boolean): void {
    const sandbox = this.context?.sandbox() ?? null;
    if (!on) {
      this.character = null;
      this.characterMesh.visible = false;
      this.keys.clear();
      return;
    }
    this.rebuildCharacter();
    if (sandbox !== null && this.bvh !== null) this.dropCharacter(sandbox);
  }

  private rebuildCharacter(): void {
    if (!this.characterPanel.enabled) return;
    const { speed, jumpSpeed, stepHeight, maxSlopeDegrees, radius, halfHeight } = this.characterPanel;
    const previous = this.character;
    try {
      this.character = new CapsuleCharacter({ speed, jumpSpeed, stepHeight, maxSlopeDegrees, radius, halfHeight });
      this.character.sweeper = this.sweeper;
    } catch (error) {
      this.context?.reportError(error instanceof Error ? error.message : String(error));
      return;
    }
    if (previous !== null) {
      // Same place, raised by the growth so the bigger capsule does not start in the ground.
      const grow = radius + halfHeight - previous.settings.radius - previous.settings.halfHeight;
      this.character.place(previous.position[0]!, previous.position[1]! + Math.max(0, grow) + 0.05, previous.position[2]!);
    }
    const key = `${radius}/${halfHeight}`;
    if (key !== this.characterShape) {
      this.characterShape = key;
      this.characterMesh.geometry.dispose();
      this.characterMesh.geometry = capsuleSolidGeometry(radius, halfHeight);
    }
    this.characterMesh.visible = true;
  }

  /** Puts the character on the ground under the camera's target and brings the camera close. */
  private dropCharacter(sandbox: Sandbox): void {
    const character = this.character;
    const context = this.context;
    if (character === null || context === null) return;
    const stage = context.stage;
    const half = sandbox.terrain.params.worldSize / 2 - 2;
    const target = stage.cameraMode === 'orbit' ? stage.orbit.target : new THREE.Vector3();
    const x = Math.max(-half, Math.min(half, target.x)),
      z = Math.max(-half, Math.min(half, target.z));
    const { radius, halfHeight } = character.settings;
    character.place(x, sampleTerrainHeight(sandbox.terrain, x, z) + halfHeight + radius + 1, z);
    const centre = new THREE.Vector3(x, character.position[1], z);
    const back = new THREE.Vector3();
    stage.camera.getWorldDirection(back);
    back.y = 0;
    if (back.lengthSq() < 1e-6) back.set(0, 0, -1);
    back.normalize().multiplyScalar(-14 * (radius + halfHeight));
    stage.setView([centre.x + back.x, centre.y + 6 * (radius + halfHeight), centre.z + back.z], [centre.x, centre.y, centre.z], stage.camera.fov);
    this.lastCharacterTime = 0;
  }

  private stepCharacter(sandbox: Sandbox, bvh: BVH): void {
    const character = this.character!;
    const context = this.context!;
    // The character is an interactive probe: it runs on real time, also while the simulation is paused.
    const now = performance.now();
    const dt = this.lastCharacterTime === 0 ? 0 : Math.min((now - this.lastCharacterTime) / 1000, 0.25);
    this.lastCharacterTime = now;
    const camera = context.stage.camera;
    const forward = new THREE.Vector3();
    camera.getWorldDirection(forward);
    forward.y = 0;
    if (forward.lengthSq() < 1e-9) forward.set(0, 0, -1);
    forward.normalize();
    const k = this.keys;
    const ahead = (k.has('KeyW') ? 1 : 0) - (k.has('KeyS') ? 1 : 0);
    const aside = (k.has('KeyD') ? 1 : 0) - (k.has('KeyA') ? 1 : 0);
    const fast = k.has('ShiftLeft') || k.has('ShiftRight') ? 2 : 1;
    const wishX = forward.x * ahead - forward.z * aside;
    const wishZ = forward.z * ahead + forward.x * aside;
    const before = [character.position[0]!, character.position[1]!, character.position[2]!];
    const started = performance.now();
    // Steps of at most 1/60 s, so a slow frame neither skips ground nor slows the walk.
    const steps = Math.ceil(dt * 60);
    let sweeps = 0,
      nodes = 0,
      triangles = 0;
    for (let step = 0; step < steps; step++) {
      character.step(bvh, wishX, wishZ, step === 0 && k.has('Space'), dt / steps, fast);
      sweeps += character.sweeps;
      nodes += character.counters.nodesVisited;
      triangles += character.counters.trianglesTested;
    }
    this.characterMs = performance.now() - started;
    if (dt > 0) sandbox.timings.record('capsules.character', this.characterMs);
    // Keep the character on the terrain's footprint.
    const half = sandbox.terrain.params.worldSize / 2 - character.settings.radius;
    if (Math.abs(character.position[0]!) > half || Math.abs(character.position[2]!) > half) {
      character.position[0] = Math.max(-half, Math.min(half, character.position[0]!));
      character.position[2] = Math.max(-half, Math.min(half, character.position[2]!));
    }
    const moved = new THREE.Vector3(character.position[0]! - before[0]!, character.position[1]! - before[1]!, character.position[2]! - before[2]!);
    // Camera follows: the orbit target and the camera move with the character (the view can still orbit).
    const stage = context.stage;
    camera.position.add(moved);
    if (stage.cameraMode === 'orbit') stage.orbit.target.add(moved);
    const h = character.settings.halfHeight;
    const [x, y, z] = [character.position[0]!, character.position[1]!, character.position[2]!];
    poseOnSegment(this.characterMesh, x, y - h, z, x, y + h, z);
    const horizontalSpeed = dt > 0 ? Math.hypot(moved.x, moved.z) / dt : 0;
    this.characterLine = `character: ${character.grounded ? 'on the ground' : 'in the air'} at (${x.toFixed(1)}, ${z.toFixed(1)}) · ${horizontalSpeed.toFixed(1)} u/s · ${sweeps} sweeps (${this.kernelReadout.ran}), ${nodes} nodes, ${triangles} triangles · ${this.characterMs.toFixed(3)} ms${character.depenetrated ? ' · pushed out of a contact' : ''}`;
  }

  // ── Stress ─────────────────────────────────────────────────────────────────────────────────────

  private setStress(on: boolean): void {
    if (on) this.rebuildCrowd();
    else {
      this.crowd = null;
      this.stressLine = '';
    }
    this.crowdView.group.visible = on;
  }

  private rebuildCrowd(): void {
    const sandbox = this.context?.sandbox() ?? null;
    const s = this.stressSettings;
    if (sandbox === null || !s.enabled) return;
    const terrain = sandbox.terrain;
    try {
      this.crowd = new CapsuleCrowd((x, z) => sampleTerrainHeight(terrain, x, z), terrain.params.worldSize / 2, sandbox.scene.seed, {
        speed: s.speed,
        radius: s.radius,
        halfHeight: s.halfHeight,
      });
      this.crowd.sweeper = this.sweeper;
      this.crowd.resize(Math.round(s.count));
    } catch (error) {
      this.context?.reportError(error instanceof Error ? error.message : String(error));
    }
  }
}
