import { isWasmSimdSupported } from '../platform/simdSupport';
import type { FieldProgram } from './program';
import { buildInterpreterModule } from './simd-interpreter';
import { JIT_POINTS_PER_ITERATION, POINT_PLANES, buildJitModule, type JitPointLayout } from './simd-jit';
import {
  SCRATCH_AT,
  SCRATCH_BYTES,
  SimdFieldMemory,
  SimdPointBuffers,
  SimdPointPlanes,
  TAIL_POINTS,
  TAIL_POSITIONS_AT,
  TAIL_WIND_AT,
} from './simd-memory';

/**
 * Runs field programs on the WebAssembly SIMD back ends: owns the shared memory, compiles the
 * interpreter module once and one JIT module per program (cached), and moves data in and out.
 *
 * Positions and wind that already live in the module memory (SimdPointBuffers) are used in place;
 * others are copied into staging regions and the wind copied back, which is all the API requires.
 * The kernels work on whole groups of points (4 for the interpreter, JIT_POINTS_PER_ITERATION for the
 * JIT); a ragged rest runs on a padded copy in the tail slots.
 *
 * Points held as component planes (SimdPointPlanes) run on the JIT's 'planes' kernels, compiled and
 * cached apart from the 'rows' ones: one v128 load per component of four points, no transposes.
 *
 * Modules compile synchronously when the engine allows it. A browser's main thread may refuse a
 * synchronous compile of a larger module; then it compiles in the background and `evaluate` answers
 * false until it is ready, so the caller runs the TypeScript back end meanwhile.
 */
export type SimdFieldMode = 'interpreter' | 'jit';

type InterpreterRun = (
  codeAt: number,
  codeEnd: number,
  positionsAt: number,
  windAt: number,
  points: number,
  scratchAt: number,
  stride: number,
) => void;
type JitKernelRun = (
  codeAt: number,
  positionsAt: number,
  windAt: number,
  count: number,
  listAt: number,
  branching: number,
  planeBytes: number,
) => number;
/**
 * A compiled program and the main loop it runs (simd-jit.ts): the redo list while calls flag few of
 * their points, a branch per group for the next BRANCHING_CALLS calls after one flagged more than
 * REDO_SHARE of them (the share is only known from a redo call, so every so often one measures again).
 */
class JitKernel {
  private branchingCallsLeft = 0;
  constructor(private readonly kernel: JitKernelRun) {}

  run(codeAt: number, positionsAt: number, windAt: number, count: number, listAt: number, planeBytes = 0): void {
    if (this.branchingCallsLeft > 0) {
      this.branchingCallsLeft--;
      this.kernel(codeAt, positionsAt, windAt, count, listAt, 1, planeBytes);
    } else if (this.kernel(codeAt, positionsAt, windAt, count, listAt, 0, planeBytes) > count * REDO_SHARE) this.branchingCallsLeft = BRANCHING_CALLS;
  }
}
/**
 * Above this share of points redone, a branch per group is cheaper. Whirl + explosion, 20,000 points,
 * redo list vs branch per group: 5 % flagged 95 vs 116 µs, 20 % 116 vs 148, 37 % 139 vs 143, 56 % 163
 * vs 136, all 221 vs 134.
 */
const REDO_SHARE = 0.3;
const BRANCHING_CALLS = 32;
/** Points per JIT call: its list of points to redo (4 bytes each, and a group of padding) fits the scratch region. */
const JIT_CHUNK = (SCRATCH_BYTES - 64) / 4;

const PENDING = 'pending';
/** Distinct compiled programs kept; beyond this the cache starts over. */
const MAX_CACHED_KERNELS = 128;

export class SimdFieldRuntime {
  readonly memory = new SimdFieldMemory();
  /** Why a module could not be compiled, if one could not (the TypeScript back ends answer instead). */
  failure: string | undefined;
  private interpreter: InterpreterRun | typeof PENDING | undefined;
  /** Compiled kernels by point layout: by program, and by bytecode shape so a superposition re-selecting the same effects reuses its module. */
  private readonly kernels: Record<
    JitPointLayout,
    { byProgram: WeakMap<FieldProgram, JitKernel | typeof PENDING>; byShape: Map<string, JitKernel> }
  > = {
    rows: { byProgram: new WeakMap(), byShape: new Map() },
    planes: { byProgram: new WeakMap(), byShape: new Map() },
  };

  /** Buffers for `capacity` points in the module memory: evaluations on them copy nothing. */
  pointBuffers(capacity: number): SimdPointBuffers {
    return new SimdPointBuffers(this.memory, capacity);
  }

  /** Component planes for `capacity` points in the module memory, for evaluatePlanes. */
  pointPlanes(capacity: number): SimdPointPlanes {
    return new SimdPointPlanes(this.memory, capacity);
  }

  /**
   * Adds the program's field into the wind planes at the first `count` points of `points` (validated
   * program, checked arguments, planes of this runtime), in place on the JIT. Returns false, nothing
   * written, while the kernel still compiles in the background.
   */
  evaluatePlanes(program: FieldProgram, points: SimdPointPlanes, count: number): boolean {
    const kernel = this.jitKernel(program, 'planes');
    if (kernel === undefined) return false;
    const codeAt = this.memory.region('bytecode', program.words.length * 4);
    this.memory.words().set(program.words, codeAt >> 2);
    const { positionsAt, windAt } = points;
    const planeBytes = points.stride * 4;
    const whole = count - (count % JIT_POINTS_PER_ITERATION);
    for (let start = 0; start < whole; start += JIT_CHUNK)
      kernel.run(codeAt, positionsAt + start * 4, windAt + start * 4, Math.min(JIT_CHUNK, whole - start), SCRATCH_AT, planeBytes);
    const rest = count - whole;
    if (rest === 0) return true;
    // The ragged rest in the tail slots as planes of one group (points past `count` are not ours to write).
    const floats = this.memory.floats();
    const tail = TAIL_POSITIONS_AT >> 2;
    const tailWind = TAIL_WIND_AT >> 2;
    const group = JIT_POINTS_PER_ITERATION;
    floats.fill(0, tail, tail + POINT_PLANES * group);
    floats.fill(0, tailWind, tailWind + POINT_PLANES * group);
    for (let k = 0; k < POINT_PLANES; k++) {
      const from = (positionsAt >> 2) + k * points.stride + whole;
      floats.copyWithin(tail + k * group, from, from + rest);
      const windFrom = (windAt >> 2) + k * points.stride + whole;
      floats.copyWithin(tailWind + k * group, windFrom, windFrom + rest);
    }
    kernel.run(codeAt, TAIL_POSITIONS_AT, TAIL_WIND_AT, group, SCRATCH_AT, group * 4);
    for (let k = 0; k < POINT_PLANES; k++)
      floats.copyWithin((windAt >> 2) + k * points.stride + whole, tailWind + k * group, tailWind + k * group + rest);
    return true;
  }

  /**
   * Adds the program's field into `wind` at `count` points (validated program, checked arguments).
   * Returns the interpreter scratch bytes used (0 for the JIT), or undefined when the module is still
   * compiling in the background (nothing was written).
   */
  evaluate(program: FieldProgram, positions: Float32Array, wind: Float32Array, count: number, mode: SimdFieldMode): number | undefined {
    const runInterpreter = mode === 'interpreter' ? this.interpreterRun() : undefined;
    const kernel = mode === 'jit' ? this.jitKernel(program, 'rows') : undefined;
    if (runInterpreter === undefined && kernel === undefined) return undefined;

    // Offsets of caller arrays inside the memory are read before anything can grow it.
    const positionsInPlace = this.memory.holds(positions);
    const windInPlace = this.memory.holds(wind);
    let positionsAt = positions.byteOffset;
    let windAt = wind.byteOffset;
    const codeAt = this.memory.region('bytecode', program.words.length * 4);
    if (!positionsInPlace) positionsAt = this.memory.region('positions', count * 16);
    if (!windInPlace) windAt = this.memory.region('wind', count * 16);
    const floats = this.memory.floats();
    this.memory.words().set(program.words, codeAt >> 2);
    if (!positionsInPlace) floats.set(positions.subarray(0, count * 4), positionsAt >> 2);
    if (!windInPlace) floats.set(wind.subarray(0, count * 4), windAt >> 2);

    const codeEnd = codeAt + program.words.length * 4;
    const bytesPerPoint = program.registerCount * 16;
    const chunk = Math.floor(SCRATCH_BYTES / bytesPerPoint) & ~3;
    const granularity = kernel !== undefined ? JIT_POINTS_PER_ITERATION : 4;
    const whole = count - (count % granularity);
    runWholeGroups(kernel, runInterpreter, codeAt, codeEnd, chunk, positionsAt, windAt, whole);
    const rest = count - whole;
    if (rest > 0) {
      const tail = TAIL_POSITIONS_AT >> 2;
      const tailWind = TAIL_WIND_AT >> 2;
      floats.fill(0, tail, tail + TAIL_POINTS * 4);
      floats.fill(0, tailWind, tailWind + TAIL_POINTS * 4);
      floats.copyWithin(tail, (positionsAt >> 2) + whole * 4, (positionsAt >> 2) + count * 4);
      floats.copyWithin(tailWind, (windAt >> 2) + whole * 4, (windAt >> 2) + count * 4);
      runWholeGroups(kernel, runInterpreter, codeAt, codeEnd, chunk, TAIL_POSITIONS_AT, TAIL_WIND_AT, granularity);
      floats.copyWithin((windAt >> 2) + whole * 4, tailWind, tailWind + rest * 4);
    }
    if (!windInPlace) wind.set(floats.subarray(windAt >> 2, (windAt >> 2) + count * 4));
    return kernel !== undefined ? 0 : chunk * bytesPerPoint;
  }

  private interpreterRun(): InterpreterRun | undefined {
    if (this.interpreter === undefined) {
      this.interpreter = PENDING;
      this.instantiate(buildInterpreterModule(), (exports) => (this.interpreter = exports.run as InterpreterRun));
    }
    return this.interpreter === PENDING ? undefined : this.interpreter;
  }

  private jitKernel(program: FieldProgram, layout: JitPointLayout): JitKernel | undefined {
    const { byProgram, byShape } = this.kernels[layout];
    const known = byProgram.get(program);
    if (known !== undefined) return known === PENDING ? undefined : known;
    const shape = shapeKey(program);
    const shared = byShape.get(shape);
    if (shared !== undefined) {
      byProgram.set(program, shared);
      return shared;
    }
    byProgram.set(program, PENDING);
    this.instantiate(buildJitModule(program, layout), (exports) => {
      const kernel = new JitKernel(exports.kernel as JitKernelRun);
      if (byShape.size >= MAX_CACHED_KERNELS) byShape.clear();
      byShape.set(shape, kernel);
      byProgram.set(program, kernel);
    });
    const ready = byProgram.get(program);
    return ready === PENDING ? undefined : ready;
  }

  /**
   * Instantiates at once where allowed, else in the background; `ready` runs when it is done. Where
   * compiling fails (a Content-Security-Policy without 'wasm-unsafe-eval'), `ready` never runs, the
   * module stays pending and the TypeScript back end keeps answering; `failure` says why.
   */
  private instantiate(bytes: Uint8Array<ArrayBuffer>, ready: (exports: WebAssembly.Exports) => void): void {
    const imports = { env: { memory: this.memory.memory } };
    const fail = (error: unknown): void => {
      this.failure = error instanceof Error ? error.message : String(error);
    };
    try {
      ready(new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports);
    } catch (error) {
      if (!(error instanceof RangeError)) {
        fail(error);
        return;
      }
      WebAssembly.instantiate(bytes, imports).then((result) => ready(result.instance.exports), fail);
    }
  }
}

/** Runs the JIT kernel, or the interpreter chunk by chunk, on `points` (a whole number of groups). */
function runWholeGroups(
  kernel: JitKernel | undefined,
  interpreter: InterpreterRun | undefined,
  codeAt: number,
  codeEnd: number,
  chunk: number,
  positionsAt: number,
  windAt: number,
  points: number,
): void {
  if (kernel !== undefined) {
    for (let start = 0; start < points; start += JIT_CHUNK)
      kernel.run(codeAt, positionsAt + start * 16, windAt + start * 16, Math.min(JIT_CHUNK, points - start), SCRATCH_AT);
    return;
  }
  for (let start = 0; start < points; start += chunk) {
    interpreter!(codeAt, codeEnd, positionsAt + start * 16, windAt + start * 16, Math.min(chunk, points - start), SCRATCH_AT, chunk * 4);
  }
}

/** The bytecode with patchable constants blanked (the kernel reads those from memory) and the patch offsets. */
function shapeKey(program: FieldProgram): string {
  const words = Array.from(program.words);
  for (let i = 1; i < program.patches.length; i += 2) {
    const at = program.patches[i]!;
    for (let k = 0; k < 4; k++) words[at + k] = 0;
  }
  return `${words.join(',')}|${Array.from(program.patches)
    .filter((_, i) => i % 2 === 1)
    .join(',')}`;
}

let shared: SimdFieldRuntime | undefined;

/** The runtime every SIMD evaluation shares, or undefined where WebAssembly SIMD is unavailable. */
export function sharedSimdFieldRuntime(): SimdFieldRuntime | undefined {
  if (shared === undefined && isWasmSimdSupported()) shared = new SimdFieldRuntime();
  return shared;
}
