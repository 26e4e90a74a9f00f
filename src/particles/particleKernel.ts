import { sharedKernel } from '../platform/loadWasm';
import { alignTo, growMemoryTo } from '../platform/moduleMemory';
import type { ParticleEffectParams } from './effectParams';
import { moveConstants, type MoveConstants, type MoveLists, type MoveStep } from './moveParticles';
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

/** The ask block's layout (see src/platform/assembly/particles/askCache.ts, which owns the offsets). */
const ASK_I32 = { from: 0, to: 1, records: 2, mask: 3, positions: 4, velocities: 5, planes: 6, sources: 7, codes: 8, askers: 9 } as const;
const ASK_F64 = { inverseSide: 6, inverseHeight: 7, cellHeight: 8, radius: 9, dt: 10 } as const;

/** The net block's layout (see src/platform/assembly/particles/findUnder.ts, which owns the offsets). */
const NET_I32 = { start: 0, end: 1, positions: 2, lifetimes: 3, heights: 4, cells: 5, out: 6 } as const;
const NET_F64 = { half: 4, inverseSpacing: 5 } as const;

/** The step block's layout: float64 slots, then int32 slots (see the kernel, which owns the offsets). */
const F64 = {
  dt: 0,
  gravityStep: 1,
  restSpeed: 2,
  decay: 3,
  half: 4,
  floor: 5,
  negRestitution: 6,
  friction: 7,
  radius: 8,
  lookahead: 9,
  halfDrop: 10,
  inverseSide: 11,
  inverseHeight: 12,
  urgentTime: 13,
  askMargin: 14,
} as const;
const I32 = {
  start: 30,
  end: 31,
  withWind: 32,
  cellLookups: 33,
  surfaceKeys: 34,
  askCount: 35,
  urgentEnd: 36,
  laterStart: 37,
  bounces: 38,
  alive: 39,
  positions: 40,
  velocities: 41,
  planes: 42,
  colours: 43,
  ages: 44,
  lifetimes: 45,
  sources: 46,
  touching: 47,
  wind: 48,
  cellStamps: 49,
  codes: 50,
  live: 51,
  askers: 52,
  needy: 53,
} as const;

/** One module instance per set of buffers: its memory holds exactly them and their effects' caches. */
interface Resident {
  exports: MoveKernelExports;
  memory: ArrayBuffer;
  floats: Float64Array;
  ints: Int32Array;
  askFloats: Float64Array;
  askInts: Int32Array;
  netFloats: Float64Array;
  netInts: Int32Array;
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
export class SimdParticleKernel {
  private readonly module: WebAssembly.Module;
  private readonly residents = new WeakMap<ParticleBuffers, Resident>();
  private readonly constants: MoveConstants = {
    gravityStep: 0,
    restSpeed: 0,
    decay: 0,
    halfDrop: 0,
    inverseSide: 0,
    inverseHeight: 0,
    urgentTime: 0,
    askMargin: 0,
  };

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
    let needed = base + particleLayout(capacity).bytes;
    const cacheOffsets = caches.map((cache) => {
      const at = alignTo(needed, 64);
      needed = at + PlaneCache.recordBytes(cache.maxSize);
      return at;
    });
    const heightsAt = alignTo(needed, 64);
    needed = heightsAt + 4 * heightCount;
    const memory = exports.memory;
    growMemoryTo(memory, needed);
    const buffers = new ParticleBuffers(capacity, { buffer: memory.buffer, byteOffset: base });
    caches.forEach((cache, k) => cache.relocate({ buffer: memory.buffer, byteOffset: cacheOffsets[k]! }));
    const block = exports.stepBlock();
    const askBlock = exports.askBlock();
    const resident: Resident = {
      exports,
      memory: memory.buffer,
      floats: new Float64Array(memory.buffer, block, 15),
      ints: new Int32Array(memory.buffer, block, exports.stepBlockBytes() / 4),
      askFloats: new Float64Array(memory.buffer, askBlock, exports.askBlockBytes() / 8),
      askInts: new Int32Array(memory.buffer, askBlock, exports.askBlockBytes() / 4),
      netFloats: new Float64Array(memory.buffer, exports.netBlock(), exports.netBlockBytes() / 8),
      netInts: new Int32Array(memory.buffer, exports.netBlock(), exports.netBlockBytes() / 4),
      heights: new Float32Array(memory.buffer, heightsAt, heightCount),
    };
    resident.netInts[NET_I32.positions] = base + buffers.layout.positions;
    resident.netInts[NET_I32.lifetimes] = base + buffers.layout.lifetimes;
    resident.netInts[NET_I32.heights] = heightsAt;
    // The scan's list is the askers' array: the cache phase, its last reader, is over by then.
    resident.netInts[NET_I32.out] = base + buffers.layout.askers;
    const askInts = resident.askInts;
    const ints = resident.ints;
    const layout = buffers.layout;
    ints[I32.positions] = base + layout.positions;
    ints[I32.velocities] = base + layout.velocities;
    ints[I32.planes] = base + layout.planes;
    ints[I32.colours] = base + layout.colours;
    ints[I32.ages] = base + layout.ages;
    ints[I32.lifetimes] = base + layout.lifetimes;
    ints[I32.sources] = base + layout.planeSources;
    ints[I32.touching] = base + layout.touching;
    ints[I32.wind] = base + layout.wind;
    ints[I32.cellStamps] = base + layout.cellStamps;
    ints[I32.codes] = base + layout.codes;
    ints[I32.live] = base + layout.live;
    ints[I32.askers] = base + layout.askers;
    ints[I32.needy] = base + layout.needy;
    askInts[ASK_I32.positions] = base + layout.positions;
    askInts[ASK_I32.velocities] = base + layout.velocities;
    askInts[ASK_I32.planes] = base + layout.planes;
    askInts[ASK_I32.sources] = base + layout.planeSources;
    askInts[ASK_I32.codes] = base + layout.codes;
    askInts[ASK_I32.askers] = base + layout.askers;
    this.residents.set(buffers, resident);
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
    const { netInts, netFloats } = resident;
    netInts[NET_I32.start] = start;
    netInts[NET_I32.end] = end;
    netInts[NET_I32.cells] = cells;
    netFloats[NET_F64.half] = half;
    netFloats[NET_F64.inverseSpacing] = inverseSpacing;
    return resident.exports.findUnder();
  }

  /**
   * askCache on resident buffers and cache, with the same results bit for bit (counts the lookups and
   * hits on the cache). Returns false, doing nothing, for buffers or a cache it does not hold.
   */
  ask(b: ParticleBuffers, from: number, to: number, cache: PlaneCache, radius: number, dt: number): boolean {
    const resident = this.residents.get(b);
    if (resident === undefined || resident.memory !== cache.keys.buffer) return false;
    const { askFloats, askInts } = resident;
    askInts[ASK_I32.from] = from;
    askInts[ASK_I32.to] = to;
    askInts[ASK_I32.records] = cache.keys.byteOffset;
    askInts[ASK_I32.mask] = cache.capacity - 1;
    askFloats[ASK_F64.inverseSide] = 1 / cache.cellSide;
    askFloats[ASK_F64.inverseHeight] = 1 / cache.cellHeight;
    askFloats[ASK_F64.cellHeight] = cache.cellHeight;
    askFloats[ASK_F64.radius] = radius;
    askFloats[ASK_F64.dt] = dt;
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
    const { floats, ints } = resident;
    const c = moveConstants(p, step, this.constants);
    floats[F64.dt] = step.dt;
    floats[F64.gravityStep] = c.gravityStep;
    floats[F64.restSpeed] = c.restSpeed;
    floats[F64.decay] = c.decay;
    floats[F64.half] = step.half;
    floats[F64.floor] = step.floor;
    floats[F64.negRestitution] = -p.restitution;
    floats[F64.friction] = p.friction;
    floats[F64.radius] = p.radius;
    floats[F64.lookahead] = p.lookahead;
    floats[F64.halfDrop] = c.halfDrop;
    floats[F64.inverseSide] = c.inverseSide;
    floats[F64.inverseHeight] = c.inverseHeight;
    floats[F64.urgentTime] = c.urgentTime;
    floats[F64.askMargin] = c.askMargin;
    ints[I32.start] = start;
    ints[I32.end] = end;
    ints[I32.withWind] = step.withWind ? 1 : 0;
    ints[I32.cellLookups] = step.cellLookups ? 1 : 0;
    ints[I32.surfaceKeys] = step.surfaceKeys ? 1 : 0;
    ints[I32.askCount] = lists.askCount;
    resident.exports.moveEffect();
    lists.askCount = ints[I32.askCount]!;
    lists.urgentEnd = ints[I32.urgentEnd]!;
    lists.laterStart = ints[I32.laterStart]!;
    lists.bounces += ints[I32.bounces]!;
    lists.alive += ints[I32.alive]!;
    return true;
  }
}

/** Where the compiled kernel lands (npm run build:wasm). */
const KERNEL_URL = new URL('../platform/generated/particles.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (_instance, module) => new SimdParticleKernel(module));

/** Loads the SIMD move kernel once; null (see simdParticlesUnavailableReason) where it cannot run. */
export const loadSimdParticles = (): Promise<SimdParticleKernel | null> => shared.load();
export const simdParticleKernel = (): SimdParticleKernel | null => shared.current();
export const simdParticlesUnavailableReason = (): string => shared.unavailableReason();
