import { MASK_ALL, checkFilter } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import { Random } from '../math/random';
import type { StateHasher } from '../math/hash';
import { KERNELS, type Kernel } from '../platform/kernels';
import type { SimSystem, WindSampler, World } from '../world/simSystem';
import { PARTICLE_MODES, type ParticleMode, type SceneParticles } from './particlesSection';

export { PARTICLE_MODES, type ParticleMode };
import type { ShowcaseOptions } from './showcase';
import type { TerrainMesh } from '../terrain/heightfield';
import { effectCapacity, validateEffectParams, type ParticleEffectParams } from './effectParams';
import { NO_PLANE_OFFSET, PLANE_NONE, ParticleBuffers } from './particleBuffers';
import { ParticleEffect, type EffectCursorState } from './particleEffect';
import { PlaneCache, type PlaneCacheState } from './planeCache';
import { countFallThrough, type FallThroughCount } from './fallThrough';
import { moveEffect, type MoveLists, type MoveStep } from './moveParticles';
import { PlaneRaycaster, RAY_PICKS, type RayPick } from './raycastPlanes';
import { askCache } from './askCache';
import { CACHE_KEYINGS, type CacheKeying } from './cacheKey';
import { TerrainHeightSampler } from './terrainHeight';
import { HeightfieldNet } from './heightfieldNet';
import type { BVH } from '../bvh/buildBVH';
import { simdParticleKernel, type EffectListEnds, type ResidentKernel } from './particleKernel';
import type { ParticlePool } from './particlePool';
import { simdRayKernel } from '../query/rays/simdRays';

/** 'budget': each effect spends its raycast budget on random particles; 'reference': one raycast per particle per frame. */

export interface ParticleSystemOptions {
  mode: ParticleMode;
  /** m/s², downwards (−y). */
  gravity: number;
  /** Whether particles drift with the wind (the field given, or the one the wind tracers use). */
  wind: boolean;
  /** Checks every particle against the true surface each frame (the fell-through counters). */
  checkFallThrough: boolean;
  /** Turns particles that fell through red. */
  highlightFellThrough: boolean;
  /**
   * Besides at spawn and after each bounce, a particle asks the cache whenever it enters a new cell or
   * turns to a new direction (off: only spawn and bounces, as in the original scheme).
   */
  cellLookups: boolean;
  /** What cache entries are keyed by (see CacheKeying). */
  keying: CacheKeying;
  /**
   * With surface keys, a raycast hit gives its plane to every cache column over its triangle, not only
   * to the column it hit (see SurfaceStores).
   */
  footprints: boolean;
  /** Which particles budget rays go to. */
  pick: RayPick;
  /**
   * Which code moves the particles and casts their rays: the WebAssembly SIMD kernels once loaded
   * (loadSimdParticles, loadSimdRays; the same results bit for bit), else TypeScript.
   */
  kernel: ParticleKernel;
  /**
   * On a heightfield terrain, puts back on the ground every particle whose centre ended a step below it
   * (HeightfieldNet): the exact backstop under the planes. Off: the planes alone.
   */
  heightfieldNet: boolean;
  /** Collision filter of the raycasts (32-bit): only triangles whose material mask shares a bit with it
   *  give planes (bvh.masks; without water's bit the particles fall through the lakes). */
  filter: number;
  seed: number;
}

export const PARTICLE_KERNELS = KERNELS;
export type ParticleKernel = Kernel;

export const DEFAULT_PARTICLE_OPTIONS: Readonly<ParticleSystemOptions> = Object.freeze({
  mode: 'budget',
  gravity: 9.81,
  wind: false,
  checkFallThrough: true,
  highlightFellThrough: true,
  cellLookups: true,
  keying: 'surface',
  footprints: true,
  pick: 'needy',
  kernel: 'wasm-simd',
  heightfieldNet: true,
  filter: MASK_ALL,
  seed: 1,
});

/** Work done in the last step. */
export interface ParticleFrameCounters {
  alive: number;
  spawned: number;
  raycasts: number;
  rayHits: number;
  /** Particles that needed a raycast (about to meet a plane that is not their own look-ahead). */
  needy: number;
  cacheLookups: number;
  cacheHits: number;
  cacheMisses: number;
  cacheInserts: number;
  cacheEvictions: number;
  bounces: number;
  /** Particles found below the true surface (by more than their radius) for the first time this life. */
  fellThrough: number;
  /** Particles below the true surface now. */
  below: number;
  /** Particles the heightfield net put back on the ground (their planes let them through). */
  caught: number;
}

/** Sums since the last resetTotals(): the quality of a run. */
export interface ParticleTotals {
  frames: number;
  /** Particle lives seen: those alive at the reset plus every spawn since. */
  lives: number;
  /** Lives that fell through at some point. */
  fellThroughLives: number;
  /** Σ alive and Σ below over the frames: the share of particle-frames spent below the surface. */
  particleFrames: number;
  belowFrames: number;
  raycasts: number;
  bounces: number;
  /** Σ caught over the frames: particle-frames the heightfield net put back on the ground. */
  caught: number;
}

/** Milliseconds of each phase of the last step. */
export interface ParticlePhaseMs {
  spawn: number;
  wind: number;
  move: number;
  cache: number;
  rays: number;
  ground: number;
  verify: number;
}

export const PARTICLE_PHASES: readonly (keyof ParticlePhaseMs)[] = ['spawn', 'wind', 'move', 'cache', 'rays', 'ground', 'verify'];

export interface ParticleSystemState {
  buffers: ReturnType<ParticleBuffers['snapshot']>;
  cursors: EffectCursorState[];
  caches: PlaneCacheState[];
  random: number;
  totals: ParticleTotals;
}

const RED = [255, 40, 40];

/**
 * Particles that collide through one plane each. Every step: spawn (with a plane-cache lookup), drift
 * with gravity, drag and optionally the wind (sampled in one batch), test each particle against its own
 * plane (a dot product and a compare) and bounce, look the cache up again after each bounce, then spend
 * each effect's raycast budget along the trajectories of random particles — one castRays batch for
 * all effects — and put the planes found into the particles and the caches.
 */
export class ParticleSystem implements SimSystem {
  readonly name = 'particles';
  readonly options: ParticleSystemOptions;
  /** The wind to drift in; null uses the field of the sandbox's wind tracers, if any. */
  windField: WindSampler | null = null;
  effects: ParticleEffect[] = [];
  /** The showcase this system was made from (particles alive, rays per frame), for its scene section. */
  showcase: Partial<ShowcaseOptions> = {};
  buffers: ParticleBuffers;
  readonly frame: ParticleFrameCounters = {
    alive: 0,
    spawned: 0,
    raycasts: 0,
    rayHits: 0,
    needy: 0,
    cacheLookups: 0,
    cacheHits: 0,
    cacheMisses: 0,
    cacheInserts: 0,
    cacheEvictions: 0,
    bounces: 0,
    fellThrough: 0,
    below: 0,
    caught: 0,
  };
  readonly totals: ParticleTotals = {
    frames: 0,
    lives: 0,
    fellThroughLives: 0,
    particleFrames: 0,
    belowFrames: 0,
    raycasts: 0,
    bounces: 0,
    caught: 0,
  };
  readonly phaseMs: ParticlePhaseMs = { spawn: 0, wind: 0, move: 0, cache: 0, rays: 0, ground: 0, verify: 0 };
  private random: Random;
  private heightSampler: TerrainHeightSampler | null = null;
  /** The heightfield net of the terrain (null for a mesh terrain), and the BVH and filter its materials were kept for. */
  private net: HeightfieldNet | null = null;
  private netBvh: BVH | null = null;
  private netFilter = 0;
  /** The kernel buffers whose memory holds the terrain's heights as they are now (null: none does). */
  private heightsLoadedInto: ParticleBuffers | null = null;
  private terrain: TerrainMesh | null = null;
  /** Set when the SIMD kernel could not get memory for these effects (cleared when they change). */
  private simdMemoryRefused = '';
  /** The pool the WebAssembly phases run on (usePool), or null for this thread alone. */
  private pool: ParticlePool | null = null;
  /**
   * Where the move left each effect's lists: its live count, and its askers (the slots that ask their
   * effect's cache this step: they bounced, or entered a new cell), effect e's being
   * askers[askersEnd[e−1] .. askersEnd[e]), and its urgent and later needy.
   */
  private listEnds: EffectListEnds = emptyListEnds(0);
  /** Where each effect's list of particles under the ground ends in buffers.askers (the net's scan on a kernel). */
  private foundEnd = new Int32Array(0);
  /** How far the move filled the buffers' lists this step. */
  private readonly lists: MoveLists = { askCount: 0, urgentEnd: 0, laterStart: 0, bounces: 0, alive: 0 };
  private readonly moveStep: MoveStep = { dt: 0, gravity: 0, withWind: false, cellLookups: true, surfaceKeys: true, half: 0, floor: 0 };
  private readonly fallThrough: FallThroughCount = { below: 0, fresh: 0 };
  /** The raycast phase's batch and bookkeeping (public for drawing the last rays). */
  readonly raycaster = new PlaneRaycaster();

  constructor(effects: readonly ParticleEffectParams[], options: Partial<ParticleSystemOptions> = {}, rewindable = true) {
    this.options = { ...DEFAULT_PARTICLE_OPTIONS, ...options };
    validateOptions(this.options);
    this.random = new Random(this.options.seed);
    this.buffers = new ParticleBuffers(0);
    this.setEffects(effects);
    this.rewindable = rewindable;
  }

  /** Total particle slots. */
  get capacity(): number {
    return this.buffers.capacity;
  }

  /** Replaces every effect: buffers are rebuilt and every particle and cache starts empty. */
  setEffects(effects: readonly ParticleEffectParams[]): void {
    effects.forEach((params, i) => validateEffectParams(params, `effects[${i}]`));
    let start = 0;
    this.effects = effects.map((params) => {
      const effect = new ParticleEffect(structuredClone(params), start);
      start += effect.capacity;
      return effect;
    });
    this.simdMemoryRefused = '';
    this.buffers = (this.wantsSimd() ? this.kernelBuffers(start) : null) ?? new ParticleBuffers(start);
    this.listEnds = emptyListEnds(effects.length);
    this.foundEnd = new Int32Array(effects.length);
    this.resetTotals();
  }

  /**
   * Changes some parameters of one effect. Particles keep flying when the slot count stays the same;
   * a new cell size or cache size starts that effect's cache afresh; a new slot count (rate × lifetime)
   * rebuilds every effect.
   */
  updateEffect(index: number, changes: Partial<ParticleEffectParams>): void {
    const effect = this.effects[index];
    if (effect === undefined) throw new InvalidParameterError('index', `an effect index below ${this.effects.length}`, index);
    const params: ParticleEffectParams = { ...effect.params, ...structuredClone(changes) };
    validateEffectParams(params, `effects[${index}]`);
    if (effectCapacity(params) !== effect.capacity) {
      this.setEffects(this.effects.map((e, i) => (i === index ? params : e.params)));
      return;
    }
    const old = effect.params;
    effect.params = params;
    if (params.cacheSize !== old.cacheSize || params.cellSide !== old.cellSide || params.cellHeight !== old.cellHeight) {
      effect.cache = new PlaneCache(params.cacheSize, params.cellSide, params.cellHeight);
    }
  }

  /** Kills every particle and empties every cache (the world changed under them). */
  reset(): void {
    const b = this.buffers;
    b.lifetimes.fill(0);
    b.ages.fill(0);
    b.colours.fill(0);
    for (const effect of this.effects) {
      effect.cache.clear();
      effect.spawnCarry = effect.budgetCarry = 0;
      effect.cursor = 0;
      effect.alive = 0;
    }
    this.resetTotals();
  }

  /** Starts a new measurement window: the particles alive now are its first lives. */
  resetTotals(): void {
    const t = this.totals;
    t.frames = t.particleFrames = t.belowFrames = t.raycasts = t.bounces = t.caught = 0;
    t.lives = 0;
    t.fellThroughLives = 0;
    const { lifetimes, fellThrough } = this.buffers;
    for (let i = 0; i < lifetimes.length; i++) {
      if (lifetimes[i]! > 0) {
        t.lives++;
        t.fellThroughLives += fellThrough[i]!;
      }
    }
  }

  terrainChanged(world: World): void {
    this.terrain = world.terrain;
    this.heightSampler = new TerrainHeightSampler(world.terrain);
    this.net = world.terrain.source === undefined ? new HeightfieldNet(world.terrain) : null;
    this.netBvh = null;
    this.heightsLoadedInto = null;
    this.reset();
  }

  /**
   * The ground changed under `area` (minX, minZ, maxX, maxZ): cache entries of its columns (and one
   * column around, where a hit's triangle reaches) are dropped, and the particles over it forget their
   * planes and ask again; one the ground rose above is put back on it, so it is not counted as having
   * fallen through. With trajectory keying an entry's plane may lie far from its cell: the whole cache goes.
   */
  terrainDeformed(_world: World, area: Float64Array): void {
    this.heightsLoadedInto = null;
    const minX = area[0]!;
    const minZ = area[1]!;
    const maxX = area[2]!;
    const maxZ = area[3]!;
    for (const effect of this.effects) {
      const cache = effect.cache;
      if (this.options.keying === 'trajectory') cache.clear();
      else cache.dropColumns(cache.cellX(minX) - 1, cache.cellX(minZ) - 1, cache.cellX(maxX) + 1, cache.cellX(maxZ) + 1);
    }
    const { positions, velocities, planes, planeSources, touching, cellStamps, lifetimes } = this.buffers;
    const sampler = this.heightSampler;
    for (const effect of this.effects) {
      const margin = effect.params.radius;
      const end = effect.start + effect.capacity;
      for (let i = effect.start; i < end; i++) {
        if (lifetimes[i] === 0) continue;
        const x = positions[4 * i]!;
        const z = positions[4 * i + 2]!;
        if (x < minX - margin || x > maxX + margin || z < minZ - margin || z > maxZ + margin) continue;
        planes[4 * i] = 0;
        planes[4 * i + 1] = 1;
        planes[4 * i + 2] = 0;
        planes[4 * i + 3] = NO_PLANE_OFFSET;
        planeSources[i] = PLANE_NONE;
        touching[i] = 0;
        // A stamp no cell has: the particle asks its cache on the next move.
        cellStamps[i] = cellStamps[i]! ^ 1;
        const ground = sampler === null ? NaN : sampler.heightAt(x, z) + margin;
        if (positions[4 * i + 1]! < ground) {
          positions[4 * i + 1] = ground;
          if (velocities[4 * i + 1]! < 0) velocities[4 * i + 1] = 0;
        }
      }
    }
  }

  step(dt: number, world: World): void {
    if (this.terrain !== world.terrain) this.terrainChanged(world);
    const frame = this.frame;
    for (const effect of this.effects) effect.cache.resetCounters();
    // The pool's work counts this step's jobs (the timing panel's threads line).
    this.pool?.resetWork();
    frame.spawned = frame.raycasts = frame.rayHits = frame.bounces = frame.fellThrough = frame.below = frame.caught = 0;
    const phase = this.phaseMs;

    let start = performance.now();
    for (const effect of this.effects)
      frame.spawned += effect.spawn(dt, this.buffers, this.random, this.options.gravity, this.options.keying === 'surface');
    this.totals.lives += frame.spawned;
    let now = performance.now();
    phase.spawn = now - start;

    start = now;
    const wind = this.options.wind ? (this.windField ?? world.wind) : null;
    if (wind !== null) {
      wind.setTime(world.time);
      wind.sample(this.buffers.positions, this.buffers.wind, this.buffers.capacity);
    }
    now = performance.now();
    phase.wind = now - start;

    start = now;
    this.moveIntoKernelMemory();
    this.move(dt, wind !== null, world.terrain);
    frame.alive = this.lists.alive;
    frame.bounces = this.lists.bounces;

    now = performance.now();
    phase.move = now - start;

    start = now;
    const bvh = world.bvh;
    const reference = this.options.mode === 'reference';
    if (bvh !== null) {
      const raycaster = this.raycaster;
      frame.raycasts = raycaster.pick(
        this.effects,
        reference,
        this.options.pick,
        this.buffers.live,
        this.buffers.needy,
        this.listEnds.urgentEnd,
        this.listEnds.laterStart,
        this.buffers.planeSources,
        this.random,
      );
      raycaster.build(this.effects, this.buffers, this.options.gravity, dt);
      raycaster.cast(bvh, this.options.kernel === 'wasm-simd', this.options.filter);
      frame.rayHits = raycaster.apply(
        this.effects,
        this.buffers,
        bvh,
        this.options.gravity,
        this.options.keying,
        this.options.footprints,
        !reference,
      );
    }
    now = performance.now();
    phase.rays = now - start;

    start = now;
    // The reference mode is raycasts alone: every particle casts its own ray each frame.
    if (!reference) this.askCaches(dt);
    now = performance.now();
    phase.cache = now - start;

    start = now;
    if (this.options.heightfieldNet) this.catchFallen(world.bvh);
    now = performance.now();
    phase.ground = now - start;

    start = now;
    if (this.options.checkFallThrough) this.verify();
    now = performance.now();
    phase.verify = now - start;

    let lookups = 0,
      hits = 0,
      misses = 0,
      inserts = 0,
      evictions = 0;
    for (const effect of this.effects) {
      const c = effect.cache.counters;
      lookups += c.lookups;
      hits += c.hits;
      misses += c.misses;
      inserts += c.inserts;
      evictions += c.evictions;
    }
    frame.cacheLookups = lookups;
    frame.cacheHits = hits;
    frame.cacheMisses = misses;
    frame.cacheInserts = inserts;
    frame.cacheEvictions = evictions;
    const totals = this.totals;
    totals.frames++;
    totals.particleFrames += frame.alive;
    totals.belowFrames += frame.below;
    totals.raycasts += frame.raycasts;
    totals.bounces += frame.bounces;
    totals.caught += frame.caught;
    const timings = world.timings;
    for (const name of PARTICLE_PHASES) timings.record(`particles.${name}`, phase[name]);
  }

  /**
   * Which phases run on WebAssembly now (the rest run in TypeScript): the move and the rays on SIMD
   * kernels, the cache lookups on the move's module once every cache lives in its memory.
   */
  simdInUse(): { move: boolean; cache: boolean; rays: boolean } {
    const kernel = this.kernel();
    const move = kernel !== null && kernel.holds(this.buffers);
    return {
      move,
      cache: move && this.cachesResident(kernel),
      rays: this.options.kernel === 'wasm-simd' && simdRayKernel() !== null,
    };
  }

  /** Whether the SIMD move should run: chosen, and loaded. */
  private wantsSimd(): boolean {
    return this.options.kernel === 'wasm-simd' && (this.pool !== null || simdParticleKernel() !== null) && this.simdMemoryRefused === '';
  }

  /** The WebAssembly kernel the phases run on when the SIMD move is wanted: the pool when one is given, else the single-thread kernel. */
  private kernel(): ResidentKernel | null {
    return this.wantsSimd() ? (this.pool ?? simdParticleKernel()) : null;
  }

  /**
   * Runs the move, the cache lookups and the net's scan on a pool of threads (null: on this thread
   * alone). The particles and caches move into the pool's memory at the next step, flying on unchanged;
   * every particle, list and count is the same as on one thread.
   */
  usePool(pool: ParticlePool | null): void {
    if (pool === this.pool) return;
    this.pool = pool;
    this.simdMemoryRefused = '';
    this.heightsLoadedInto = null;
  }

  /** The pool the phases run on, if any. */
  get threadPool(): ParticlePool | null {
    return this.pool;
  }

  /** Why the SIMD move is not running although chosen and loaded ('' when it runs or was not chosen). */
  simdRefusal(): string {
    return this.simdMemoryRefused;
  }

  /**
   * The SIMD move and the WebAssembly cache phase work on particles and caches in the kernel module's
   * memory: when that kernel is chosen (or has just loaded) and they are elsewhere — or an effect got a
   * new cache (new cell or cache size) — all of them move into a new module memory once, flying on
   * unchanged and keeping every entry. Switching back to TypeScript leaves them where they are
   * (TypeScript works on either).
   */
  private moveIntoKernelMemory(): void {
    const kernel = this.kernel();
    if (kernel === null || (kernel.holds(this.buffers) && this.cachesResident(kernel) && kernel.heightRoom(this.buffers) >= this.heightCount()))
      return;
    const resident = this.kernelBuffers(this.buffers.capacity);
    if (resident === null) return;
    resident.copyFrom(this.buffers);
    this.buffers = resident;
  }

  /** The heights the kernel memory needs room for: the terrain's grid when the heightfield net scans it. */
  private heightCount(): number {
    return this.net !== null && this.options.heightfieldNet ? this.terrain!.heights.length : 0;
  }

  /** Whether every effect's cache lives in the kernel memory of the buffers. */
  private cachesResident(kernel: ResidentKernel): boolean {
    return this.effects.every((effect) => kernel.holdsCache(this.buffers, effect.cache));
  }

  /**
   * Buffers in a module memory of their own, into which the effects' caches move; null when the engine
   * refuses the memory (the particles and caches then stay where they are, and simdRefusal() says why).
   */
  private kernelBuffers(capacity: number): ParticleBuffers | null {
    try {
      return this.kernel()!.createResident(
        capacity,
        this.effects.map((effect) => effect.cache),
        this.heightCount(),
      );
    } catch (error) {
      this.simdMemoryRefused = `no WebAssembly memory for ${capacity.toLocaleString('en')} particles (${error instanceof Error ? error.message : String(error)})`;
      return null;
    }
  }

  /** Integrates, tests each particle against its plane and bounces, effect by effect. */
  private move(dt: number, withWind: boolean, terrain: TerrainMesh): void {
    const step = this.moveStep;
    step.dt = dt;
    step.gravity = this.options.gravity;
    step.withWind = withWind;
    step.cellLookups = this.options.cellLookups;
    step.surfaceKeys = this.options.keying === 'surface';
    step.half = terrain.params.worldSize / 2;
    step.floor = terrain.minHeight - 0.25 * terrain.params.worldSize;
    const lists = this.lists;
    lists.askCount = lists.bounces = lists.alive = 0;
    const ends = this.listEnds;
    const kernel = this.kernel();
    if (kernel === null || !kernel.moveEffects(this.buffers, this.effects, step, lists, ends)) {
      for (let e = 0; e < this.effects.length; e++) {
        const effect = this.effects[e]!;
        const aliveBefore = lists.alive;
        moveEffect(this.buffers, effect.start, effect.start + effect.capacity, effect.params, step, lists);
        ends.alive[e] = lists.alive - aliveBefore;
        ends.askersEnd[e] = lists.askCount;
        ends.urgentEnd[e] = lists.urgentEnd;
        ends.laterStart[e] = lists.laterStart;
      }
    }
    let needy = 0;
    for (let e = 0; e < this.effects.length; e++) {
      const effect = this.effects[e]!;
      effect.alive = ends.alive[e]!;
      needy += ends.urgentEnd[e]! - effect.start + effect.start + effect.capacity - ends.laterStart[e]!;
    }
    this.frame.needy = needy;
  }

  /** Puts the particles under a heightfield terrain back on it (HeightfieldNet). */
  private catchFallen(bvh: BVH | null): void {
    const net = this.net;
    if (net === null) return;
    const filter = this.options.filter;
    if (bvh !== this.netBvh || filter !== this.netFilter) {
      // The raycasts' filter on the BVH's material masks: a BVH built without materials gives every
      // triangle material 0; one built with them has the terrain's.
      const masks = bvh?.masks;
      net.keepMaterials(
        (m) => masks === undefined || ((masks.materialCount === 1 ? masks.materialMasks[0]! : masks.materialMasks[m]!) & filter) !== 0,
      );
      this.netBvh = bvh;
      this.netFilter = filter;
    }
    const b = this.buffers;
    // The scan runs on the SIMD move's module when the particles are there (same particles found).
    let kernel = this.kernel();
    if (kernel !== null && this.heightsLoadedInto !== b) {
      if (kernel.loadHeights(b, this.terrain!.heights)) this.heightsLoadedInto = b;
      else kernel = null;
    }
    let caught = 0;
    const foundEnd = this.foundEnd;
    if (kernel !== null && kernel.findUnderEffects(b, this.effects, net.cells, net.half, net.inverseSpacing, foundEnd)) {
      let from = 0;
      for (let e = 0; e < this.effects.length; e++) {
        caught += net.catchListed(b, b.askers, from, foundEnd[e]!, this.effects[e]!.params.radius);
        from = foundEnd[e]!;
      }
    } else for (const effect of this.effects) caught += net.catch(b, effect.start, effect.start + effect.capacity, effect.params.radius);
    this.frame.caught = caught;
  }

  /** Checks every live particle against the true surface. */
  private verify(): void {
    const sampler = this.heightSampler;
    if (sampler === null) return;
    const count = this.fallThrough;
    count.below = count.fresh = 0;
    const highlight = this.options.highlightFellThrough ? RED : null;
    for (const effect of this.effects)
      countFallThrough(this.buffers, effect.start, effect.start + effect.capacity, effect.params.radius, sampler, highlight, count);
    this.frame.below = count.below;
    this.frame.fellThrough = count.fresh;
    this.totals.fellThroughLives += count.fresh;
  }

  /**
   * Particles that bounced or entered a new cell ask their effect's cache for the plane ahead. A hit
   * replaces any plane but the particle's own look-ahead.
   */
  private askCaches(dt: number): void {
    const kernel = this.kernel();
    if (kernel !== null && kernel.askEffects(this.buffers, this.effects, this.listEnds.askersEnd, dt)) return;
    let from = 0;
    for (let e = 0; e < this.effects.length; e++) {
      const effect = this.effects[e]!;
      const to = this.listEnds.askersEnd[e]!;
      askCache(this.buffers, from, to, effect.cache, effect.params.radius, dt);
      from = to;
    }
  }

  metrics(): Record<string, number | string> {
    const f = this.frame;
    const t = this.totals;
    const phase = this.phaseMs;
    let cacheEntries = 0;
    for (const effect of this.effects) cacheEntries += effect.cache.size;
    const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;
    const simd = this.simdInUse();
    return {
      mode: this.options.mode,
      moveKernel: simd.move ? 'wasm-simd' : 'typescript',
      cacheKernel: simd.cache ? 'wasm' : 'typescript',
      rayKernel: simd.rays ? 'wasm-simd' : 'typescript',
      effects: this.effects.length,
      alive: f.alive,
      raycasts: f.raycasts,
      rayHits: f.rayHits,
      needy: f.needy,
      cacheLookups: f.cacheLookups,
      cacheHits: f.cacheHits,
      cacheMisses: f.cacheMisses,
      cacheEvictions: f.cacheEvictions,
      cacheEntries,
      bounces: f.bounces,
      fellThrough: f.fellThrough,
      below: f.below,
      caught: f.caught,
      fellThroughTotal: t.fellThroughLives,
      fellThroughFraction: t.lives > 0 ? round(t.fellThroughLives / t.lives, 6) : 0,
      spawnMs: round(phase.spawn, 3),
      windMs: round(phase.wind, 3),
      moveMs: round(phase.move, 3),
      cacheMs: round(phase.cache, 3),
      raysMs: round(phase.rays, 3),
      groundMs: round(phase.ground, 3),
      verifyMs: round(phase.verify, 3),
      filter: this.options.filter,
      rayNodesVisited: this.raycaster.counters.nodesVisited,
      raySubtreesMasked: this.raycaster.counters.subtreesMasked,
      rayTrianglesMasked: this.raycaster.counters.trianglesMasked,
    };
  }

  /**
   * Snapshots for step back and restart, present while `rewindable` is on. A snapshot copies every
   * particle and cache (tens of MB for 100k particles), so a sandbox that keeps one per frame should
   * switch it off; the sandbox then reports that it cannot rewind.
   */
  saveState?: () => ParticleSystemState;
  loadState?: (state: unknown) => void;

  get rewindable(): boolean {
    return this.saveState !== undefined;
  }

  set rewindable(on: boolean) {
    if (!on) {
      this.saveState = this.loadState = undefined;
      return;
    }
    this.saveState = () => this.snapshot();
    this.loadState = (state: unknown) => this.restore(state as ParticleSystemState);
  }

  hash(hasher: StateHasher): void {
    hasher.value(this.snapshot());
  }

  section(): SceneParticles {
    const { mode, keying, pick, gravity, cellLookups, footprints, kernel, wind, filter } = this.options;
    const effects = this.effects.map((effect) => structuredClone(effect.params));
    return { ...this.showcase, mode, keying, pick, gravity, cellLookups, footprints, kernel, wind, filter, effects };
  }

  snapshot(): ParticleSystemState {
    return {
      buffers: this.buffers.snapshot(),
      cursors: this.effects.map((e) => e.saveCursors()),
      caches: this.effects.map((e) => e.cache.saveState()),
      random: this.random.saveState(),
      totals: { ...this.totals },
    };
  }

  /** Puts back a snapshot; ignored when the effects were rebuilt since (it no longer fits). */
  restore(s: ParticleSystemState): void {
    if (s.buffers.ages.length !== this.buffers.capacity || s.cursors.length !== this.effects.length) return;
    if (!this.effects.every((e, i) => e.cache.fits(s.caches[i]!))) return;
    this.effects.forEach((e, i) => e.cache.loadState(s.caches[i]!));
    this.buffers.restore(s.buffers);
    this.effects.forEach((e, i) => e.loadCursors(s.cursors[i]!));
    this.random.loadState(s.random);
    Object.assign(this.totals, s.totals);
  }
}

function validateOptions(options: ParticleSystemOptions): void {
  if (!(PARTICLE_MODES as readonly string[]).includes(options.mode)) throw new InvalidParameterError('mode', "'budget' or 'reference'", options.mode);
  if (!(options.gravity >= 0 && options.gravity <= 1000)) throw new InvalidParameterError('gravity', 'a number in [0, 1000]', options.gravity);
  if (!(CACHE_KEYINGS as readonly string[]).includes(options.keying))
    throw new InvalidParameterError('keying', "'surface' or 'trajectory'", options.keying);
  if (typeof options.footprints !== 'boolean') throw new InvalidParameterError('footprints', 'true or false', options.footprints);
  if (typeof options.heightfieldNet !== 'boolean') throw new InvalidParameterError('heightfieldNet', 'true or false', options.heightfieldNet);
  if (!(RAY_PICKS as readonly string[]).includes(options.pick)) throw new InvalidParameterError('pick', "'needy' or 'uniform'", options.pick);
  if (!(PARTICLE_KERNELS as readonly string[]).includes(options.kernel))
    throw new InvalidParameterError('kernel', "'wasm-simd' or 'typescript'", options.kernel);
  checkFilter(options.filter);
  if (!(Number.isInteger(options.seed) && options.seed >= 0)) throw new InvalidParameterError('seed', 'a whole number ≥ 0', options.seed);
}

/** List ends for `effects` effects, all zero. */
function emptyListEnds(effects: number): EffectListEnds {
  return {
    alive: new Int32Array(effects),
    askersEnd: new Int32Array(effects),
    urgentEnd: new Int32Array(effects),
    laterStart: new Int32Array(effects),
  };
}
