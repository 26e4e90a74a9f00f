import { sharedKernel } from '../platform/loadWasm';
import { alignTo, growMemoryTo } from '../platform/moduleMemory';
import type { ParticleEffectParams } from './effectParams';
import type { ParticleEffect } from './particleEffect';
import { KernelBlocks } from './kernelBlocks';
import type { MoveLists, MoveStep } from './moveParticles';
import { ParticleBuffers, particleLayout } from './particleBuffers';
import { PlaneCache } from './planeCache';

/** The exports of the compiled move kernel (src/platform/assembly/particles/moveParticles.ts). */
interface MoveKernelExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  stepBlock(): number;
  stepBlockBytes(): number;
  moveEffect(): void;
  askBlock(): number;
  askBlockBytes(): number;
  askCache(): number;
  netBlock(): number;
  netBlockBytes(): number;
  findUnder(): number;
}

/** Where each effect's lists end after a move (the effects' order; absolute indices as MoveLists). */
export interface EffectListEnds {
  alive: Int32Array;
  askersEnd: Int32Array;
  urgentEnd: Int32Array;
  laterStart: Int32Array;
}

/** What a phase needs of an effect: its slots, parameters and cache. */
export type EffectSlots = Pick<ParticleEffect, 'start' | 'capacity' | 'params' | 'cache'>;

/**
 * What the particle system asks of a WebAssembly particle kernel, on one thread (SimdParticleKernel)
 * or a pool of them (ParticlePool): buffers and caches made resident in its memory, then each phase of
 * a step over every effect — the move, the cache lookups and the net's scan — with the TypeScript's
 * results bit for bit. A call on buffers or caches it does not hold declines (false), doing nothing.
 */
export interface ResidentKernel {
  /** Particle buffers of `capacity` slots in the kernel's memory, into which `caches` move, with room for `heightCount` heights. */
  createResident(capacity: number, caches: readonly PlaneCache[], heightCount?: number): ParticleBuffers;
  holds(buffers: ParticleBuffers): boolean;
  holdsCache(buffers: ParticleBuffers, cache: PlaneCache): boolean;
  heightRoom(buffers: ParticleBuffers): number;
  loadHeights(buffers: ParticleBuffers, heights: Float32Array): boolean;
  /** moveEffect of every effect in turn, the askers continuing from one effect to the next; each effect's list ends into `ends`. */
  moveEffects(b: ParticleBuffers, effects: readonly EffectSlots[], step: MoveStep, lists: MoveLists, ends: EffectListEnds): boolean;
  /** askCache of each effect's askers, askers[askersEnd[e − 1] .. askersEnd[e]) (counts the lookups and hits on its cache). */
  askEffects(b: ParticleBuffers, effects: readonly EffectSlots[], askersEnd: Int32Array, dt: number): boolean;
  /**
   * The net's scan of every effect's slots over the heights loaded: the slots found are listed in
   * buffers.askers, effect after effect in slot order, effect e's ending at foundEnd[e].
   */
  findUnderEffects(
    b: ParticleBuffers,
    effects: readonly EffectSlots[],
    cells: number,
    half: number,
    inverseSpacing: number,
    foundEnd: Int32Array,
  ): boolean;
}

/** One module instance per set of buffers: its memory holds exactly them and their effects' caches. */
interface Resident {
  exports: MoveKernelExports;
  memory: ArrayBuffer;
  blocks: KernelBlocks;
  /** Room for a copy of the terrain's heights (the heightfield net's scan); empty when none was asked for. */
  heights: Float32Array;
}

/**
 * The WebAssembly twins of moveEffect (SIMD) and askCache. The particles, and for the cache phase the
 * effects' plane caches, must live in the module's memory for them to work in place, so each
 * ParticleBuffers the kernel moves is made by createResident(): a new instance of the compiled module
 * (a few kilobytes; instantiating from a compiled module is synchronous and cheap) whose memory is grown
 * once to hold the buffers and the caches given, which move there. Buffers and caches made otherwise
 * are not resident, and move() and ask() decline them. The memory never grows after that, so the views
 * stay valid for the buffers' lifetime.
 */
export class SimdParticleKernel implements ResidentKernel {
  private readonly module: WebAssembly.Module;
  private readonly residents = new WeakMap<ParticleBuffers, Resident>();

  constructor(module: WebAssembly.Module) {
    this.module = module;
  }

  /**
   * Particle buffers of `capacity` slots in a module memory of their own, into which `caches` move
   * (PlaneCache.relocate: the same caches, entries and all).
   */
  createResident(capacity: number, caches: readonly PlaneCache[], heightCount = 0): ParticleBuffers {
    const instance = new WebAssembly.Instance(this.module, {});
    const exports = instance.exports as unknown as MoveKernelExports;
    const base = alignTo(exports.heapBase(), 16);
    const places = residentPlaces(base, capacity, caches, heightCount);
    const memory = exports.memory;
    growMemoryTo(memory, places.end);
    const buffers = new ParticleBuffers(capacity, { buffer: memory.buffer, byteOffset: base });
    caches.forEach((cache, k) => cache.relocate({ buffer: memory.buffer, byteOffset: places.caches[k]! }));
    const blocks = new KernelBlocks(
      memory.buffer,
      {
        step: exports.stepBlock(),
        stepBytes: exports.stepBlockBytes(),
        ask: exports.askBlock(),
        askBytes: exports.askBlockBytes(),
        net: exports.netBlock(),
        netBytes: exports.netBlockBytes(),
      },
      buffers,
      places.heights,
    );
    this.residents.set(buffers, { exports, memory: memory.buffer, blocks, heights: new Float32Array(memory.buffer, places.heights, heightCount) });
    return buffers;
  }

  /** Whether these buffers live in a memory of this kernel (made by createResident). */
  holds(buffers: ParticleBuffers): boolean {
    return this.residents.has(buffers);
  }

  /** Whether a cache lives in the same kernel memory as these buffers (made with them by createResident). */
  holdsCache(buffers: ParticleBuffers, cache: PlaneCache): boolean {
    return this.residents.get(buffers)?.memory === cache.keys.buffer;
  }

  /** How many heights the memory of these buffers has room for (0 when not resident). */
  heightRoom(buffers: ParticleBuffers): number {
    return this.residents.get(buffers)?.heights.length ?? 0;
  }

  /** Copies a terrain's heights into the memory of these buffers; false, doing nothing, when they do not fit. */
  loadHeights(buffers: ParticleBuffers, heights: Float32Array): boolean {
    const resident = this.residents.get(buffers);
    if (resident === undefined || resident.heights.length < heights.length) return false;
    resident.heights.set(heights);
    return true;
  }

  /**
   * The heightfield net's scan of slots [start, end) over the heights loaded (loadHeights) for a grid of
   * `cells` cells a side: the slots found are written to buffers.askers, in slot order; returns how
   * many, or −1, doing nothing, for buffers it does not hold.
   */
  findUnder(buffers: ParticleBuffers, start: number, end: number, cells: number, half: number, inverseSpacing: number): number {
    const resident = this.residents.get(buffers);
    if (resident === undefined || resident.heights.length < (cells + 1) * (cells + 1)) return -1;
    resident.blocks.writeNet(start, end, cells, half, inverseSpacing);
    return resident.exports.findUnder();
  }

  /**
   * askCache on resident buffers and cache, with the same results bit for bit (counts the lookups and
   * hits on the cache). Returns false, doing nothing, for buffers or a cache it does not hold.
   */
  ask(b: ParticleBuffers, from: number, to: number, cache: PlaneCache, radius: number, dt: number): boolean {
    const resident = this.residents.get(b);
    if (resident === undefined || resident.memory !== cache.keys.buffer) return false;
    resident.blocks.writeAsk(from, to, cache, radius, dt);
    cache.countLookups(to - from, resident.exports.askCache());
    return true;
  }

  /**
   * moveEffect on resident buffers, with the same results bit for bit. Returns false, doing nothing,
   * for buffers it does not hold.
   */
  move(b: ParticleBuffers, start: number, end: number, p: ParticleEffectParams, step: MoveStep, lists: MoveLists): boolean {
    const resident = this.residents.get(b);
    if (resident === undefined) return false;
    resident.blocks.writeMove(p, step, start, end, lists.askCount);
    resident.exports.moveEffect();
    resident.blocks.readMove(lists);
    return true;
  }

  /** The phases effect by effect (ResidentKernel). */
  moveEffects(b: ParticleBuffers, effects: readonly EffectSlots[], step: MoveStep, lists: MoveLists, ends: EffectListEnds): boolean {
    if (!this.holds(b)) return false;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      const aliveBefore = lists.alive;
      this.move(b, effect.start, effect.start + effect.capacity, effect.params, step, lists);
      ends.alive[e] = lists.alive - aliveBefore;
      ends.askersEnd[e] = lists.askCount;
      ends.urgentEnd[e] = lists.urgentEnd;
      ends.laterStart[e] = lists.laterStart;
    }
    return true;
  }

  askEffects(b: ParticleBuffers, effects: readonly EffectSlots[], askersEnd: Int32Array, dt: number): boolean {
    for (const effect of effects) if (!this.holdsCache(b, effect.cache)) return false;
    let from = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      this.ask(b, from, askersEnd[e]!, effect.cache, effect.params.radius, dt);
      from = askersEnd[e]!;
    }
    return true;
  }

  findUnderEffects(
    b: ParticleBuffers,
    effects: readonly EffectSlots[],
    cells: number,
    half: number,
    inverseSpacing: number,
    foundEnd: Int32Array,
  ): boolean {
    const resident = this.residents.get(b);
    if (resident === undefined || resident.heights.length < (cells + 1) * (cells + 1)) return false;
    let found = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      resident.blocks.writeNet(effect.start, effect.start + effect.capacity, cells, half, inverseSpacing, found);
      found += resident.exports.findUnder();
      foundEnd[e] = found;
    }
    return true;
  }
}

/** Where resident buffers (from `base`), their caches (64-aligned) and the heights go, and where they end. */
export function residentPlaces(
  base: number,
  capacity: number,
  caches: readonly PlaneCache[],
  heightCount: number,
): { caches: number[]; heights: number; end: number } {
  let end = base + particleLayout(capacity).bytes;
  const cacheOffsets = caches.map((cache) => {
    const at = alignTo(end, 64);
    end = at + PlaneCache.recordBytes(cache.maxSize);
    return at;
  });
  const heights = alignTo(end, 64);
  return { caches: cacheOffsets, heights, end: heights + 4 * heightCount };
}

/** Where the compiled kernel lands (npm run build:wasm). */
const KERNEL_URL = new URL('../platform/generated/particles.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (_instance, module) => new SimdParticleKernel(module));

/** Loads the SIMD move kernel once; null (see simdParticlesUnavailableReason) where it cannot run. */
export const loadSimdParticles = (): Promise<SimdParticleKernel | null> => shared.load();
export const simdParticleKernel = (): SimdParticleKernel | null => shared.current();
export const simdParticlesUnavailableReason = (): string => shared.unavailableReason();
