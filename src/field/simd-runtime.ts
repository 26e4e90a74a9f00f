import { isWasmSimdSupported } from '../platform/simdSupport';
import type { FieldProgram } from './program';
import { buildInterpreterModule } from './simd-interpreter';
import { JIT_POINTS_PER_ITERATION, buildJitModule } from './simd-jit';
import { SCRATCH_AT, SCRATCH_BYTES, SimdFieldMemory, SimdPointBuffers, TAIL_POINTS, TAIL_POSITIONS_AT, TAIL_WIND_AT } from './simd-memory';

/**
 * Runs field programs on the WebAssembly SIMD back ends: owns the shared memory, compiles the
 * interpreter module once and one JIT module per program (cached), and moves data in and out.
 *
 * Positions and wind that already live in the module memory (SimdPointBuffers) are used in place;
 * others are copied into staging regions and the wind copied back, which is all the API requires.
 * The kernels work on whole groups of points (4 for the interpreter, JIT_POINTS_PER_ITERATION for the
 * JIT); a ragged rest runs on a padded copy in the tail slots.
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
type JitKernelRun = (codeAt: number, positionsAt: number, windAt: number, count: number, listAt: number, branching: number) => number;
/**
 * A compiled program and the main loop it runs (simd-jit.ts): the redo list while calls flag few of
 * their points, a branch per group for the next BRANCHING_CALLS calls after one flagged more than
 * REDO_SHARE of them (the share is only known from a redo call, so every so often one measures again).
 */
class JitKernel {
  private branchingCallsLeft = 0;
  constructor(private readonly kernel: JitKernelRun) {}

  run(codeAt: number, positionsAt: number, windAt: number, count: number, listAt: number): void {
    if (this.branchingCallsLeft > 0) {
      this.branchingCallsLeft--;
      this.kernel(codeAt, positionsAt, windAt, count, listAt, 1);
    } else if (this.kernel(codeAt, positionsAt, windAt, count, listAt, 0) > count * REDO_SHARE) this.branchingCallsLeft = BRANCHING_CALLS;
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
  private readonly kernelsByProgram = new WeakMap<FieldProgram, JitKernel | typeof PENDING>();
  /** By bytecode shape, so a superposition re-selecting the same effects reuses its module. */
  private readonly kernelsByShape = new Map<string, JitKernel>();

  /** Buffers for `capacity` points in the module memory: evaluations on them copy nothing. */
  pointBuffers(capacity: number): SimdPointBuffers {
    return new SimdPointBuffers(this.memory, capacity);
  }

  /**
   * Adds the program's field into `wind` at `count` points (validated program, checked arguments).
   * Returns the interpreter scratch bytes used (0 for the JIT), or undefined when the module is still
   * compiling in the background (nothing was written).
   */
  evaluate(program: FieldProgram, positions: Float32Array, wind: Float32Array, count: number, mode: SimdFieldMode): number | undefined {
    const runInterpreter = mode === 'interpreter' ? this.interpreterRun() : undefined;
    const kernel = mode === 'jit' ? this.jitKernel(program) : undefined;
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

  private jitKernel(program: FieldProgram): JitKernel | undefined {
    const known = this.kernelsByProgram.get(program);
    if (known !== undefined) return known === PENDING ? undefined : known;
    const shape = shapeKey(program);
    const shared = this.kernelsByShape.get(shape);
    if (shared !== undefined) {
      this.kernelsByProgram.set(program, shared);
      return shared;
    }
    this.kernelsByProgram.set(program, PENDING);
    this.instantiate(buildJitModule(program), (exports) => {
      const kernel = new JitKernel(exports.kernel as JitKernelRun);
      if (this.kernelsByShape.size >= MAX_CACHED_KERNELS) this.kernelsByShape.clear();
      this.kernelsByShape.set(shape, kernel);
      this.kernelsByProgram.set(program, kernel);
    });
    const ready = this.kernelsByProgram.get(program);
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
