import type { BVH } from '../bvh/buildBVH';
import { MASK_ALL } from '../bvh/collisionMasks';
import type { StateHasher } from '../math/hash';
import { DEFAULT_KERNEL, KERNEL_LABELS, type Kernel } from '../platform/kernels';
import { CapsuleCrowd, type CrowdState } from '../query/capsule/capsuleCrowd';
import type { CapsulePool, CapsulePoolSweep } from '../query/capsule/capsulePool';
import type { CapsuleSweeper, SweepCounters } from '../query/capsule/capsuleTypes';
import { CapsuleCharacter } from '../query/capsule/characterController';
import { simdCapsuleKernel, simdCapsulesUnavailableReason } from '../query/capsule/simdCapsules';
import { edgeMasksFor, sweepCapsules } from '../query/capsule/sweepCapsules';
import { sampleTerrainHeight, type TerrainMesh } from '../terrain/heightfield';
import type { MetricValue, SimSystem, World } from '../world/simSystem';
import { CapsuleProbe } from './capsuleProbe';
import {
  DEFAULT_CHARACTER,
  DEFAULT_CROWD,
  DEFAULT_PROBE,
  parseCapsules,
  type CapsuleCharacterSection,
  type CapsuleCrowdSection,
  type CapsuleProbeSettings,
  type SceneCapsules,
} from './capsulesSection';

/**
 * What the character is asked to do this step. The page fills it from the keys it claimed each frame;
 * headless it stays zero, so the character stands (or falls until it lands).
 */
export interface CharacterInput {
  /** Wanted horizontal direction in world x and z (length ≤ 1). */
  wishX: number;
  wishZ: number;
  jump: boolean;
  /** Runs at twice the speed. */
  fast: boolean;
}

/** The character's work in the last step (all its sub-steps together). */
export interface CharacterWork {
  sweeps: number;
  nodes: number;
  triangles: number;
  ms: number;
  /** Whether a sub-step had to push out of a contact it started in. */
  depenetrated: boolean;
}

interface CharacterState {
  position: Float64Array;
  velocity: Float64Array;
  grounded: boolean;
  groundNormal: Float64Array;
}

interface CapsulesState {
  character: CharacterState | null;
  crowd: CrowdState | null;
}

/** The character moves in sub-steps of at most this many seconds, so a long step neither skips ground nor slows the walk. */
const CHARACTER_SUB_STEP = 1 / 60;
const MAX_CHARACTER_SUB_STEPS = 15;
/** A character this far below the ground under it has fallen through what its filter lets it pass, and starts again. */
const SUNK_DEPTH = 100;
/** Height above the ground the character is dropped from. */
const DROP_HEIGHT = 1;

/**
 * Capsule sweeps as a system: a probe (one capsule swept along its motion, its contact and trace kept
 * for the view), a character (walked by collide-and-slide sweeps with an input the page sets) and a
 * crowd (capsules thrown over the terrain, swept in one batch per step). Each part runs when its
 * sub-section is there; all three sweep through one kernel switch. The probe is swept again every step
 * and whenever its settings change, so a paused page still sees it follow the pointer.
 *
 * The WebAssembly SIMD kernel is used once loaded (loadSimdCapsules; the page and the runner load it);
 * until then, or where WebAssembly SIMD is missing, TypeScript sweeps and the metrics say so. The
 * crowd's batch is swept on a pool of threads when one is given (threads), with the very same contacts.
 */
export class CapsuleSystem implements SimSystem {
  readonly name = 'capsules';
  kernel: Kernel;
  probe: CapsuleProbe | null = null;
  character: CapsuleCharacter | null = null;
  crowd: CapsuleCrowd | null = null;
  /** Filled by the page each frame; zero headless. */
  readonly input: CharacterInput = { wishX: 0, wishZ: 0, jump: false, fast: false };
  readonly characterWork: CharacterWork = { sweeps: 0, nodes: 0, triangles: 0, ms: 0, depenetrated: false };
  private characterSection: CapsuleCharacterSection | null = null;
  private crowdSection: CapsuleCrowdSection | null = null;
  /** The kernel of the last sweep. */
  private ran: Kernel | null = null;
  /** The world the parts were placed in (the terrain they stand on, the BVH they sweep). */
  private world: World;
  private terrain: TerrainMesh;
  private readonly sweeper: CapsuleSweeper = (bvh, capsules, hits, options) => {
    const simd = this.kernel === 'wasm-simd' ? simdCapsuleKernel() : null;
    this.ran = simd === null ? 'typescript' : 'wasm-simd';
    this.ranThreads = 1;
    return simd === null ? sweepCapsules(bvh, capsules, hits, options) : simd.sweep(bvh, capsules, hits, options);
  };
  /**
   * A pool of threads for the crowd's batch (src/query/capsule/capsulePool.ts), or null: the calling
   * thread alone. Used with the SIMD kernel chosen, while the pool has workers and takes the batch
   * (CapsulePool.sweepNow); otherwise the crowd sweeps on this thread. The contacts are bit for bit the
   * same either way, so the state and its hash do not depend on it.
   */
  threads: CapsulePool | null = null;
  /** Threads of the last sweep (1: the calling thread alone). */
  private ranThreads = 1;
  /**
   * The crowd's last batch on the pool: each thread's busy ms ([0] the calling thread, then the
   * workers) and the batch's wall ms; null when it ran on the calling thread alone.
   */
  crowdThreads: Readonly<Pick<CapsulePoolSweep, 'busyMs' | 'wallMs'>> | null = null;
  private readonly crowdSweeper: CapsuleSweeper = (bvh, capsules, hits, options) => {
    const pool = this.threads;
    if (this.kernel === 'wasm-simd' && pool !== null && pool.workers > 0 && options?.trace === undefined) {
      const pooled = pool.sweepNow(bvh, capsules, hits, options);
      if (pooled !== null) {
        this.ran = 'wasm-simd';
        this.ranThreads = pooled.threads;
        this.crowdThreads = pooled;
        return pooled.counters;
      }
    }
    this.crowdThreads = null;
    return this.sweeper(bvh, capsules, hits, options);
  };
  // This step's work, over all parts.
  private sweeps = 0;
  private nodes = 0;
  private triangles = 0;
  private pairsKept = 0;
  private pairsPossible = 0;
  private subtreesMasked = 0;

  constructor(section: SceneCapsules, world: World) {
    this.world = world;
    this.terrain = world.terrain;
    this.kernel = section.kernel ?? DEFAULT_KERNEL;
    this.apply(section);
  }

  /**
   * Changes the settings of the running parts, validated like a scene section (throws naming the field,
   * and nothing changes). A part keeps its state when only what does not reshape it changed: the crowd
   * keeps its capsules when only its count changes; the character keeps its place when its shape or
   * speeds change (lifted by the growth, so a bigger capsule does not start in the ground).
   */
  update(section: unknown): void {
    this.apply(parseCapsules(section, { file: 'settings', field: 'systems.capsules' }));
  }

  /** The kernel of the last sweep, and why not the chosen one when they differ. */
  kernelRan(): string {
    const ran = this.ran ?? (this.kernel === 'wasm-simd' && simdCapsuleKernel() !== null ? 'wasm-simd' : 'typescript');
    if (ran === this.kernel) return this.ranThreads > 1 ? `${KERNEL_LABELS[ran]} on ${this.ranThreads} threads` : KERNEL_LABELS[ran];
    return `${KERNEL_LABELS[ran]} (WebAssembly SIMD ${simdCapsulesUnavailableReason() || 'not loaded'})`;
  }

  terrainChanged(world: World): void {
    this.world = world;
    if (world.terrain === this.terrain) return;
    this.terrain = world.terrain;
    this.probe?.clear();
    this.dropCharacter();
    if (this.crowdSection !== null) this.crowd = this.makeCrowd(this.crowdSection);
    this.sweepProbe();
  }

  bvhChanged(world: World): void {
    this.world = world;
    // Dropped before the BVH was there (the page builds it in a worker): settle the character now.
    if (this.character !== null) this.settleCharacter(this.character);
    this.sweepProbe();
  }

  step(dt: number, world: World): void {
    if (world.terrain !== this.terrain) this.terrainChanged(world);
    this.world = world;
    this.sweeps = this.nodes = this.triangles = this.pairsKept = this.pairsPossible = this.subtreesMasked = 0;
    const bvh = world.bvh;
    if (bvh === null) return;
    this.sweepProbe();
    if (this.probe?.swept === true && this.probe.settings.enabled) world.timings.record('capsules.probe', this.probe.ms);
    if (this.character !== null) this.stepCharacter(this.character, bvh, dt, world);
    const crowd = this.crowd;
    if (crowd !== null && dt > 0 && crowd.count > 0) {
      this.prepare(bvh, crowd.filter);
      crowd.step(bvh, dt);
      world.timings.record('capsules.crowd', crowd.lastSweepMs);
      const work = crowd.lastCounters;
      if (work !== null) this.tally(crowd.count, work);
    }
  }

  metrics(): Record<string, MetricValue> {
    const probe = this.probe;
    const character = this.character;
    const metrics: Record<string, MetricValue> = {
      kernel: this.kernelRan(),
      sweeps: this.sweeps,
      nodes: this.nodes,
      triangles: this.triangles,
      pairsKept: this.pairsKept,
      pairsPossible: this.pairsPossible,
      subtreesMasked: this.subtreesMasked,
    };
    if (probe !== null && probe.settings.enabled) {
      metrics.probeContact = probe.hit ? `toi ${probe.hits.toi[0]!.toFixed(4)} on triangle ${probe.hits.triangle[0]}` : 'none';
      metrics.probeMs = round3(probe.ms);
    }
    if (character !== null) {
      metrics.character = character.grounded ? 'on the ground' : 'in the air';
      metrics.characterMs = round3(this.characterWork.ms);
    }
    if (this.crowd !== null) {
      metrics.crowd = this.crowd.count;
      metrics.crowdContacts = this.crowd.lastCounters?.hits ?? 0;
      metrics.crowdMs = round3(this.crowd.lastSweepMs);
    }
    return metrics;
  }

  /** The settings (not the kernel: both kernels give the same contacts), the probe's last contact, the character and the crowd. */
  hash(hasher: StateHasher): void {
    const probe = this.probe;
    hasher.value(probe?.settings ?? null);
    if (probe !== null && probe.swept)
      hasher.number(probe.hits.toi[0]!).word(probe.hits.triangle[0]!).array(probe.hits.point).array(probe.hits.normal);
    hasher.value(this.characterSection);
    const character = this.character;
    if (character !== null) hasher.array(character.position).array(character.velocity).boolean(character.grounded);
    hasher.value(this.crowdSection);
    if (this.crowd !== null) hasher.value(this.crowd.saveState());
  }

  section(): SceneCapsules {
    const section: SceneCapsules = {};
    if (this.probe !== null) section.probe = { ...this.probe.settings };
    if (this.characterSection !== null) section.character = { ...this.characterSection, start: [...this.characterSection.start] };
    if (this.crowdSection !== null) section.crowd = { ...this.crowdSection };
    section.kernel = this.kernel;
    return section;
  }

  saveState(): CapsulesState {
    const c = this.character;
    return {
      character:
        c === null
          ? null
          : { position: c.position.slice(), velocity: c.velocity.slice(), grounded: c.grounded, groundNormal: c.groundNormal.slice() },
      crowd: this.crowd?.saveState() ?? null,
    };
  }

  loadState(state: unknown): void {
    const s = state as CapsulesState;
    const c = this.character;
    if (c !== null && s.character !== null) {
      c.position.set(s.character.position);
      c.velocity.set(s.character.velocity);
      c.groundNormal.set(s.character.groundNormal);
      c.grounded = s.character.grounded;
    }
    if (this.crowd !== null && s.crowd !== null) this.crowd.loadState(s.crowd);
  }

  /** Makes the parts a section names (every new part built before any is replaced, so a throw changes nothing). */
  private apply(section: SceneCapsules): void {
    const probe: CapsuleProbeSettings | null = section.probe === undefined ? null : { ...DEFAULT_PROBE, ...section.probe };
    const characterSection: CapsuleCharacterSection | null =
      section.character === undefined
        ? null
        : { ...DEFAULT_CHARACTER, ...section.character, start: section.character.start ?? [...DEFAULT_CHARACTER.start] };
    const crowdSection: CapsuleCrowdSection | null = section.crowd === undefined ? null : { ...DEFAULT_CROWD, ...section.crowd };
    const old = this.characterSection;
    const reshaped = characterSection !== null && (old === null || !sameShape(old, characterSection));
    const character = reshaped ? makeCharacter(characterSection, this.sweeper) : this.character;
    const oldCrowd = this.crowdSection;
    const rethrown = crowdSection !== null && (oldCrowd === null || !sameCrowd(oldCrowd, crowdSection));
    const crowd = rethrown ? this.makeCrowd(crowdSection) : this.crowd;
    // Everything is built: from here on nothing throws (the filters were checked with the section).
    if (character !== null && characterSection !== null) character.filter = characterSection.filter ?? MASK_ALL;
    if (crowd !== null && crowdSection !== null) crowd.filter = crowdSection.filter ?? MASK_ALL;

    this.kernel = section.kernel ?? this.kernel;
    if (probe === null) this.probe = null;
    else if (this.probe === null) this.probe = new CapsuleProbe(probe);
    else this.probe.settings = probe;
    const previous = this.character;
    this.characterSection = characterSection;
    this.character = characterSection === null ? null : character;
    if (this.character !== null && characterSection !== null) {
      const moved = old === null || old.start[0] !== characterSection.start[0] || old.start[1] !== characterSection.start[1];
      if (moved || previous === null) this.dropCharacter();
      else if (this.character !== previous) {
        // Same place, raised by the growth so the bigger capsule does not start in the ground.
        const grow = characterSection.radius + characterSection.halfHeight - previous.settings.radius - previous.settings.halfHeight;
        this.character.place(previous.position[0]!, previous.position[1]! + Math.max(0, grow) + 0.05, previous.position[2]!);
        // A wider capsule can still reach into a slope beside it: settled from above, it lands on the slope instead.
        this.settleCharacter(this.character);
      }
    }
    this.crowdSection = crowdSection;
    if (crowdSection === null) this.crowd = null;
    else {
      this.crowd = crowd;
      if (crowd !== null && crowd.count !== crowdSection.count) crowd.resize(crowdSection.count);
    }
    this.sweepProbe();
  }

  /** Sweeps the probe now, when it is on and the BVH is there (its preparation kept out of its timing). */
  private sweepProbe(): void {
    const probe = this.probe;
    const bvh = this.world.bvh;
    if (probe === null || !probe.settings.enabled || bvh === null) return;
    this.prepare(bvh, probe.settings.filter ?? MASK_ALL);
    probe.sweep(this.terrain, bvh, this.sweeper);
    this.tally(1, probe.counters);
  }

  /** Edge masks are computed once per BVH and filter, and the SIMD kernel copies the BVH in once: neither belongs in a sweep's time. */
  private prepare(bvh: BVH, filter: number): void {
    edgeMasksFor(bvh, filter);
    if (this.kernel === 'wasm-simd') simdCapsuleKernel()?.prepare(bvh, true, filter);
  }

  private stepCharacter(character: CapsuleCharacter, bvh: BVH, dt: number, world: World): void {
    const work = this.characterWork;
    work.sweeps = work.nodes = work.triangles = work.ms = 0;
    work.depenetrated = false;
    if (!(dt > 0)) return;
    this.prepare(bvh, character.filter);
    const input = this.input;
    const steps = Math.min(MAX_CHARACTER_SUB_STEPS, Math.ceil(dt / CHARACTER_SUB_STEP - 1e-9));
    const started = performance.now();
    for (let step = 0; step < steps; step++) {
      // A jump leaves the ground once; the later sub-steps are in the air anyway.
      character.step(bvh, input.wishX, input.wishZ, step === 0 && input.jump, dt / steps, input.fast ? 2 : 1);
      // After every sub-step: left outside for the rest of a long frame, it can fall past the edge and walk back in under the ground.
      this.keepOnFootprint(character, bvh);
      work.sweeps += character.sweeps;
      work.nodes += character.counters.nodesVisited;
      work.triangles += character.counters.trianglesTested;
      work.depenetrated ||= character.depenetrated;
      this.tally(character.sweeps, character.counters);
    }
    work.ms = performance.now() - started;
    world.timings.record('capsules.character', work.ms);
    // Sunk through the ground its filter lets it pass (wading into a lake whose bed is water): back to its start.
    // On a mesh the top surface may be a roof over the character, so only falling below the whole mesh counts.
    const terrain = this.terrain;
    const ground = terrain.source === undefined ? sampleTerrainHeight(terrain, character.position[0]!, character.position[2]!) : terrain.minHeight;
    if (character.position[1]! < ground - SUNK_DEPTH) this.dropCharacter();
  }

  /**
   * Keeps the character on the terrain's footprint. Pulled straight back it could end inside a slope that
   * rises inwards (it slid out down that slope), so it is dropped onto the ground there from above the highest peak.
   */
  private keepOnFootprint(character: CapsuleCharacter, bvh: BVH): void {
    const half = this.terrain.params.worldSize / 2 - character.settings.radius;
    const p = character.position;
    const x = Math.max(-half, Math.min(half, p[0]!));
    const z = Math.max(-half, Math.min(half, p[2]!));
    if (x === p[0] && z === p[2]) return;
    character.teleport(bvh, x, z, this.clearHeight(character));
  }

  /** A centre height where the character touches nothing: its whole capsule above the highest peak. */
  private clearHeight(character: CapsuleCharacter): number {
    const { halfHeight, radius, skin } = character.settings;
    return this.terrain.maxHeight + halfHeight + radius + 2 * skin + 1;
  }

  /** Puts the character at its start (inside the terrain's footprint), just above the ground. */
  private dropCharacter(): void {
    const character = this.character;
    const section = this.characterSection;
    if (character === null || section === null) return;
    const half = this.terrain.params.worldSize / 2 - 2;
    const x = Math.max(-half, Math.min(half, section.start[0])),
      z = Math.max(-half, Math.min(half, section.start[1]));
    character.place(x, sampleTerrainHeight(this.terrain, x, z) + section.halfHeight + section.radius + DROP_HEIGHT, z);
    // The height above is taken under the axis: on a steep slope a wide capsule would still reach into the ground beside it.
    this.settleCharacter(character);
  }

  /**
   * Moves the character up out of the ground if it is in it: swept down from above the highest peak to where
   * it stands (CapsuleCharacter.teleport), so it ends there or on top of whatever is in between. Nothing
   * changes until this terrain's BVH is there.
   */
  private settleCharacter(character: CapsuleCharacter): void {
    const bvh = this.world.bvh;
    if (bvh === null || bvh.positions !== this.terrain.positions) return;
    const p = character.position;
    character.teleport(bvh, p[0]!, p[2]!, this.clearHeight(character));
  }

  private makeCrowd(section: CapsuleCrowdSection): CapsuleCrowd {
    const terrain = this.terrain;
    const crowd = new CapsuleCrowd((x, z) => sampleTerrainHeight(terrain, x, z), terrain.params.worldSize / 2, this.world.seed, {
      speed: section.speed,
      radius: section.radius,
      halfHeight: section.halfHeight,
      filter: section.filter ?? MASK_ALL,
    });
    crowd.sweeper = this.crowdSweeper;
    crowd.resize(section.count);
    return crowd;
  }

  private tally(sweeps: number, work: SweepCounters): void {
    this.sweeps += sweeps;
    this.nodes += work.nodesVisited;
    this.triangles += work.trianglesTested;
    this.pairsKept += work.pairsKept;
    this.pairsPossible += work.pairsPossible;
    this.subtreesMasked += work.subtreesMasked;
  }
}

const round3 = (ms: number): number => Math.round(ms * 1000) / 1000;

function makeCharacter(section: CapsuleCharacterSection, sweeper: CapsuleSweeper): CapsuleCharacter {
  const { radius, halfHeight, speed, jumpSpeed, stepHeight, maxSlopeDegrees } = section;
  const filter = section.filter ?? MASK_ALL;
  const character = new CapsuleCharacter({ radius, halfHeight, speed, jumpSpeed, stepHeight, maxSlopeDegrees, filter });
  character.sweeper = sweeper;
  return character;
}

/** Whether two character sections make the same capsule (the start aside). */
function sameShape(a: CapsuleCharacterSection, b: CapsuleCharacterSection): boolean {
  return (
    a.radius === b.radius &&
    a.halfHeight === b.halfHeight &&
    a.speed === b.speed &&
    a.jumpSpeed === b.jumpSpeed &&
    a.stepHeight === b.stepHeight &&
    a.maxSlopeDegrees === b.maxSlopeDegrees
  );
}

/** Whether two crowd sections throw the same capsules (the count aside: a resize keeps the others). */
function sameCrowd(a: CapsuleCrowdSection, b: CapsuleCrowdSection): boolean {
  return a.speed === b.speed && a.radius === b.radius && a.halfHeight === b.halfHeight;
}
