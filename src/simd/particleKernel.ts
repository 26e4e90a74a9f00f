import type { ParticleEffectParams } from '../particles/effectParams';
import { moveConstants, type MoveConstants, type MoveLists, type MoveStep } from '../particles/moveParticles';
import { ParticleBuffers, particleLayout } from '../particles/particleBuffers';
import { sharedKernel } from './loadWasm';
import { alignTo, growMemoryTo } from './moduleMemory';

/** The exports of the compiled move kernel (src/simd/assembly/particles/moveParticles.ts). */
interface MoveKernelExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  stepBlock(): number;
  stepBlockBytes(): number;
  moveEffect(): void;
}

/** The step block's layout: float64 slots, then int32 slots (see the kernel, which owns the offsets). */
const F64 = { dt: 0, gravityStep: 1, restSpeed: 2, decay: 3, half: 4, floor: 5, negRestitution: 6, friction: 7, radius: 8, lookahead: 9, halfDrop: 10, inverseSide: 11, inverseHeight: 12, urgentTime: 13, askMargin: 14 } as const;
const I32 = {
  start: 30, end: 31, withWind: 32, cellLookups: 33, surfaceKeys: 34, askCount: 35, urgentEnd: 36, laterStart: 37, bounces: 38, alive: 39,
  positions: 40, velocities: 41, planes: 42, colours: 43, ages: 44, lifetimes: 45, sources: 46, touching: 47, wind: 48, cellStamps: 49, codes: 50, live: 51, askers: 52, needy: 53,
} as const;


/** One module instance per set of buffers: its memory holds exactly them. */
interface Resident {
  exports: MoveKernelExports;
  floats: Float64Array;
  ints: Int32Array;
}

/**
 * The WebAssembly SIMD twin of moveEffect. The particles must live in the module's memory for it to
 * work in place, so each ParticleBuffers it moves is made by createBuffers(): a new instance of the
 * compiled module (a few kilobytes; instantiating from a compiled module is synchronous and cheap) whose
 * memory is grown once to hold them. Buffers made otherwise are not resident and move() declines them.
 * The memory never grows after that, so the views stay valid for the buffers' lifetime.
 */
export class SimdParticleKernel {
  private readonly module: WebAssembly.Module;
  private readonly residents = new WeakMap<ParticleBuffers, Resident>();
  private readonly constants: MoveConstants = { gravityStep: 0, restSpeed: 0, decay: 0, halfDrop: 0, inverseSide: 0, inverseHeight: 0, urgentTime: 0, askMargin: 0 };

  constructor(module: WebAssembly.Module) {
    this.module = module;
  }

  /** Particle buffers of `capacity` slots in a module memory of their own. */
  createBuffers(capacity: number): ParticleBuffers {
    const instance = new WebAssembly.Instance(this.module, {});
    const exports = instance.exports as unknown as MoveKernelExports;
    const base = alignTo(exports.heapBase(), 16);
    const needed = base + particleLayout(capacity).bytes;
    const memory = exports.memory;
    growMemoryTo(memory, needed);
    const buffers = new ParticleBuffers(capacity, { buffer: memory.buffer, byteOffset: base });
    const block = exports.stepBlock();
    const resident: Resident = { exports, floats: new Float64Array(memory.buffer, block, 15), ints: new Int32Array(memory.buffer, block, exports.stepBlockBytes() / 4) };
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
    this.residents.set(buffers, resident);
    return buffers;
  }

  /** Whether these buffers live in a memory of this kernel (made by createBuffers). */
  holds(buffers: ParticleBuffers): boolean {
    return this.residents.has(buffers);
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
const KERNEL_URL = new URL('./generated/particles.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (_instance, module) => new SimdParticleKernel(module));

/** Loads the SIMD move kernel once; null (see simdParticlesUnavailableReason) where it cannot run. */
export const loadSimdParticles = (): Promise<SimdParticleKernel | null> => shared.load();
export const simdParticleKernel = (): SimdParticleKernel | null => shared.current();
export const simdParticlesUnavailableReason = (): string => shared.unavailableReason();
