import { InvalidParameterError } from '../errors';
import { interpretField } from './interpreter';
import { isJitAvailable, jitKernel } from './jit';
import { fieldNoise } from './noise3';
import type { FieldProgram } from './program';
import { createFieldScratch, type FieldScratch } from './scratch';
import { validateBytecode } from './validate';

/** `auto` picks the JIT where run-time code generation is allowed, else the interpreter. */
export type FieldBackend = 'auto' | 'interpreter' | 'jit';
export const FIELD_BACKENDS: readonly FieldBackend[] = ['auto', 'interpreter', 'jit'];

export interface EvaluateFieldOptions {
  backend?: FieldBackend;
  /** The interpreter's scratch memory (see createFieldScratch); a shared 256 KiB one when omitted. */
  scratch?: FieldScratch;
  /** Points to evaluate; all of `positions` (length / 4) when omitted. */
  count?: number;
}

let sharedScratch: FieldScratch | undefined;

/**
 * Evaluates a field program at `count` points. `positions` holds float4s (x, y, z, w; w is 0 by
 * convention); `wind` holds float4s too and is read as the incoming wind and overwritten with the
 * incoming wind plus what the program adds. Returns the scratch bytes the evaluation used (0 for the
 * JIT, which keeps every register in locals). Throws InvalidParameterError on bad arguments and
 * FieldBytecodeError on bytecode that fails validation; nothing is written in either case.
 */
export function evaluateField(program: FieldProgram, positions: Float32Array, wind: Float32Array, options: EvaluateFieldOptions = {}): number {
  if (!(positions instanceof Float32Array)) throw new InvalidParameterError('positions', 'a Float32Array of float4s', positions);
  if (!(wind instanceof Float32Array)) throw new InvalidParameterError('wind', 'a Float32Array of float4s', wind);
  const count = options.count ?? Math.floor(positions.length / 4);
  if (!Number.isInteger(count) || count < 0) throw new InvalidParameterError('count', 'a whole number of points ≥ 0', count);
  if (options.count === undefined && positions.length % 4 !== 0) throw new InvalidParameterError('positions', 'a length that is a multiple of 4 (float4 per point)', positions.length);
  if (positions.length < count * 4) throw new InvalidParameterError('positions', `at least ${count * 4} floats for ${count} points`, positions.length);
  if (wind.length < count * 4) throw new InvalidParameterError('wind', `at least ${count * 4} floats for ${count} points`, wind.length);
  validateBytecode(program);

  const backend = options.backend ?? 'auto';
  if (backend === 'jit' || (backend === 'auto' && isJitAvailable())) {
    if (!isJitAvailable()) throw new InvalidParameterError('backend', "'interpreter' (this environment forbids generating code at run time)", backend);
    jitKernel(program)(program.floats, positions, wind, count, fieldNoise);
    return 0;
  }
  if (backend !== 'interpreter' && backend !== 'auto') throw new InvalidParameterError('backend', `one of ${FIELD_BACKENDS.join(', ')}`, backend);
  const scratch = options.scratch ?? (sharedScratch ??= createFieldScratch());
  return interpretField(program, positions, wind, count, scratch);
}
