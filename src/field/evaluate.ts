import { InvalidParameterError } from '../errors';
import { interpretField } from './interpreter';
import { isJitAvailable, jitKernel } from './jit';
import { fieldNoise } from './noise3';
import type { FieldProgram } from './program';
import { createFieldScratch, type FieldScratch } from './scratch';
import type { SimdPointBuffers } from './simd-memory';
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
