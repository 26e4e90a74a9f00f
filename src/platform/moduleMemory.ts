import type { BVH } from '../bvh/buildBVH';
import type { QuantizedNodes } from '../bvh/quantizedLayout';
import { InvalidParameterError } from '../errors';

/**
 * What every kernel wrapper does with its module's memory: place data at aligned addresses, grow the
 * memory to hold it (a whole number of 64 KiB pages; growing detaches the old ArrayBuffer, so views are
 * made afresh after any call that may grow), and take a BVH's quantized nodes, which the kernels walk.
 */

export const WASM_PAGE_BYTES = 65536;

/** `value` rounded up to a multiple of `to`. */
export const alignTo = (value: number, to: number): number => Math.ceil(value / to) * to;

/** Grows `memory` until it holds at least `bytes` bytes (never shrinks). */
export function growMemoryTo(memory: WebAssembly.Memory, bytes: number): void {
  const missing = bytes - memory.buffer.byteLength;
  if (missing > 0) memory.grow(Math.ceil(missing / WASM_PAGE_BYTES));
}

/** The BVH's quantized nodes; a clear error for a BVH built without that layout. */
export function quantizedNodesOf(bvh: BVH): QuantizedNodes {
  const nodes = bvh.quantized;
  if (nodes === null) throw new InvalidParameterError('bvh', "a BVH built with the 'quantized' layout", bvh.options.layouts.join(', '));
  return nodes;
}
