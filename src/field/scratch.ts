import { InvalidParameterError } from '../errors';

/**
 * Caller-owned scratch memory for the interpreter. The VM splits it evenly among the registers a
 * program uses (each register holds a float4 of float64 per point: 32 bytes) and processes the points
 * in chunks that fit, so memory stays fixed whatever the number of points.
 */
export interface FieldScratch {
  readonly bytes: number;
  readonly values: Float64Array;
}

/** 256 KiB, the reference's example budget: about 1,300 points per chunk for a six-register program. */
export const DEFAULT_SCRATCH_BYTES = 256 * 1024;
const MAX_SCRATCH_BYTES = 1 << 30;

export function createFieldScratch(bytes: number = DEFAULT_SCRATCH_BYTES): FieldScratch {
  if (!Number.isInteger(bytes) || bytes < 32 || bytes > MAX_SCRATCH_BYTES) {
    throw new InvalidParameterError('scratchBytes', `an integer number of bytes in [32, ${MAX_SCRATCH_BYTES}]`, bytes);
  }
  return { bytes, values: new Float64Array(Math.floor(bytes / 8)) };
}

/** Bytes per point a program needs: 32 per register it uses. */
export function scratchBytesPerPoint(registerCount: number): number {
  return registerCount * 32;
}
