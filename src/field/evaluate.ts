import { InvalidParameterError } from '../errors';
import { interpretField } from './interpreter';
import { isJitAvailable, jitKernel } from './jit';
import { fieldNoise } from './noise3';
import type { FieldProgram } from './program';
import { createFieldScratch, type FieldScratch } from './scratch';
import { SimdPointPlanes, type SimdPointBuffers } from './simd-memory';
import { isWasmSimdSupported } from '../platform/simdSupport';
import { sharedSimdFieldRuntime } from './simd-runtime';
import { validateBytecode } from './validate';

/**
 * `auto` picks the JIT where run-time code generation is allowed, else the interpreter. The SIMD back
 * ends compute in float32 (the TypeScript ones in float64, rounding only when storing the wind); where
 * WebAssembly SIMD is missing, or while a module still compiles in the background, they fall back to
 * the TypeScript JIT (or interpreter).
 */
export type FieldBackend = 'auto' | 'interpreter' | 'jit' | 'simd-interpreter' | 'simd-jit';
export const FIELD_BACKENDS: readonly FieldBackend[] = ['auto', 'interpreter', 'jit', 'simd-interpreter', 'simd-jit'];
/** Names for menus. */
export const FIELD_BACKEND_LABELS: Readonly<Record<FieldBackend, string>> = {
  auto: 'automatic',
  interpreter: 'TypeScript interpreter',
  jit: 'TypeScript JIT',
  'simd-interpreter': 'WASM SIMD interpreter',
  'simd-jit': 'WASM SIMD JIT',
};

export interface EvaluateFieldOptions {
  backend?: FieldBackend;
  /** The interpreter's scratch memory (see createFieldScratch); a shared 256 KiB one when omitted. */
  scratch?: FieldScratch;
  /** Points to evaluate; all of `positions` (length / 4) when omitted. */
  count?: number;
  /** Filled with the back end that actually ran (a SIMD one hands over to TypeScript while it compiles). */
  ran?: { backend: FieldBackend };
}

let sharedScratch: FieldScratch | undefined;

/**
 * Evaluates a field program at `count` points. `positions` holds float4s (x, y, z, w; w is 0 by
 * convention); `wind` holds float4s too and is read as the incoming wind and overwritten with the
 * incoming wind plus what the program adds. Returns the scratch bytes the evaluation used (0 for the
 * JITs, which keep every register in locals). With a SIMD back end, positions and wind allocated by
 * simdFieldPointBuffers are used in place, without copying. Throws InvalidParameterError on bad arguments and
 * FieldBytecodeError on bytecode that fails validation; nothing is written in either case.
 */
export function evaluateField(program: FieldProgram, positions: Float32Array, wind: Float32Array, options: EvaluateFieldOptions = {}): number {
  if (!(positions instanceof Float32Array)) throw new InvalidParameterError('positions', 'a Float32Array of float4s', positions);
  if (!(wind instanceof Float32Array)) throw new InvalidParameterError('wind', 'a Float32Array of float4s', wind);
  const count = options.count ?? Math.floor(positions.length / 4);
  if (!Number.isInteger(count) || count < 0) throw new InvalidParameterError('count', 'a whole number of points ≥ 0', count);
  if (options.count === undefined && positions.length % 4 !== 0)
    throw new InvalidParameterError('positions', 'a length that is a multiple of 4 (float4 per point)', positions.length);
  if (positions.length < count * 4)
    throw new InvalidParameterError('positions', `at least ${count * 4} floats for ${count} points`, positions.length);
  if (wind.length < count * 4) throw new InvalidParameterError('wind', `at least ${count * 4} floats for ${count} points`, wind.length);
  validateBytecode(program);

  let backend = options.backend ?? 'auto';
  if (backend === 'simd-interpreter' || backend === 'simd-jit') {
    const used = sharedSimdFieldRuntime()?.evaluate(program, positions, wind, count, backend === 'simd-jit' ? 'jit' : 'interpreter');
    if (used !== undefined) {
      if (options.ran !== undefined) options.ran.backend = backend;
      return used;
    }
    backend = 'auto';
  }
  if (backend === 'jit' || (backend === 'auto' && isJitAvailable())) {
    if (!isJitAvailable())
      throw new InvalidParameterError('backend', "'interpreter' (this environment forbids generating code at run time)", backend);
    jitKernel(program)(program.floats, positions, wind, count, fieldNoise);
    if (options.ran !== undefined) options.ran.backend = 'jit';
    return 0;
  }
  if (backend !== 'interpreter' && backend !== 'auto') throw new InvalidParameterError('backend', `one of ${FIELD_BACKENDS.join(', ')}`, backend);
  const scratch = options.scratch ?? (sharedScratch ??= createFieldScratch());
  if (options.ran !== undefined) options.ran.backend = 'interpreter';
  return interpretField(program, positions, wind, count, scratch);
}

/**
 * Positions and wind for `capacity` points inside the WebAssembly SIMD memory, so the SIMD back ends
 * read and write them in place; undefined where WebAssembly SIMD is unavailable. Re-read
 * `buffers.positions` and `buffers.wind` after allocating more buffers (the memory may have grown).
 */
export function simdFieldPointBuffers(capacity: number): SimdPointBuffers | undefined {
  if (!Number.isInteger(capacity) || capacity < 0) throw new InvalidParameterError('capacity', 'a whole number of points ≥ 0', capacity);
  return sharedSimdFieldRuntime()?.pointBuffers(capacity);
}

/** Why the SIMD back ends hand over to TypeScript here, or undefined while they run. */
export function simdFieldUnavailableReason(): string | undefined {
  if (!isWasmSimdSupported()) return 'this engine has no WebAssembly SIMD';
  const failure = sharedSimdFieldRuntime()?.failure;
  return failure === undefined ? undefined : `WebAssembly could not be compiled here (${failure})`;
}

/**
 * Positions and wind as component planes (structure of arrays): `positions` holds three planes of
 * `stride` floats, x of every point, then y and z; `wind` likewise. A program sees each point's w as 0
 * (the float4 convention) and its wind's w as 0 coming in; the w it computes is not kept. Made by
 * fieldPointPlanes; evaluateFieldPlanes evaluates on them.
 */
export interface FieldPointPlanes {
  readonly capacity: number;
  /** Floats from one component plane to the next (≥ capacity). */
  readonly stride: number;
  readonly positions: Float32Array;
  readonly wind: Float32Array;
  dispose(): void;
}

/**
 * Component planes for `capacity` points: inside the WebAssembly SIMD memory where it runs (so the
 * SIMD JIT reads and writes them in place, with no transposes), ordinary arrays elsewhere. Re-read
 * `points.positions` and `points.wind` after allocating more buffers (the memory may have grown).
 */
export function fieldPointPlanes(capacity: number): FieldPointPlanes {
  if (!Number.isInteger(capacity) || capacity < 0) throw new InvalidParameterError('capacity', 'a whole number of points ≥ 0', capacity);
  const simd = sharedSimdFieldRuntime()?.pointPlanes(capacity);
  if (simd !== undefined) return simd;
  const stride = Math.ceil(capacity / 4) * 4;
  return { capacity, stride, positions: new Float32Array(stride * 3), wind: new Float32Array(stride * 3), dispose: () => undefined };
}

/** Float4 rows the back ends without a planes kernel run on, grown as needed and reused. */
let stagedPositions = new Float32Array(0);
let stagedWind = new Float32Array(0);

/**
 * evaluateField on component planes: adds the program's field into `points.wind` at the first `count`
 * points (all of them when omitted). The SIMD JIT ('simd-jit', and 'auto' where WebAssembly SIMD runs)
 * works on the planes in place; the other back ends, and the SIMD JIT while its kernel compiles, on
 * float4 rows copied from and back to the planes. Same errors as evaluateField; nothing is written
 * when one is thrown.
 */
export function evaluateFieldPlanes(program: FieldProgram, points: FieldPointPlanes, options: EvaluateFieldOptions = {}): void {
  if (points === null || typeof points !== 'object' || !(points.positions instanceof Float32Array) || !(points.wind instanceof Float32Array))
    throw new InvalidParameterError('points', 'component planes from fieldPointPlanes', points);
  const { stride } = points;
  const count = options.count ?? points.capacity;
  if (!Number.isInteger(count) || count < 0 || count > points.capacity || points.capacity > stride)
    throw new InvalidParameterError('count', `a whole number of points in [0, ${points.capacity}]`, count);
  if (points.positions.length < stride * 3 || points.wind.length < stride * 3)
    throw new InvalidParameterError(
      'points',
      `three planes of ${stride} floats (disposed, or views read before the memory grew?)`,
      points.positions.length,
    );
  validateBytecode(program);
  const backend = options.backend ?? 'auto';
  const runtime = sharedSimdFieldRuntime();
  if (
    (backend === 'simd-jit' || backend === 'auto') &&
    runtime !== undefined &&
    points instanceof SimdPointPlanes &&
    points.livesIn(runtime.memory) &&
    runtime.evaluatePlanes(program, points, count)
  ) {
    if (options.ran !== undefined) options.ran.backend = 'simd-jit';
    return;
  }
  if (stagedPositions.length < count * 4) {
    stagedPositions = new Float32Array(count * 4);
    stagedWind = new Float32Array(count * 4);
  }
  const positions = points.positions;
  const wind = points.wind;
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      stagedPositions[4 * i + k] = positions[k * stride + i]!;
      stagedWind[4 * i + k] = wind[k * stride + i]!;
    }
    stagedPositions[4 * i + 3] = stagedWind[4 * i + 3] = 0;
  }
  evaluateField(program, stagedPositions, stagedWind, { ...options, count });
  for (let i = 0; i < count; i++) for (let k = 0; k < 3; k++) wind[k * stride + i] = stagedWind[4 * i + k]!;
}
