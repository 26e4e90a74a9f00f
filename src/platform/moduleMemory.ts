/**
 * What every kernel wrapper does with its module's memory: place data at aligned addresses, grow the
 * memory to hold it (a whole number of 64 KiB pages; growing detaches the old ArrayBuffer, so views are
 * made afresh after any call that may grow).
 */

export const WASM_PAGE_BYTES = 65536;

/** `value` rounded up to a multiple of `to`. */
export const alignTo = (value: number, to: number): number => Math.ceil(value / to) * to;

/** Grows `memory` until it holds at least `bytes` bytes (never shrinks). */
export function growMemoryTo(memory: WebAssembly.Memory, bytes: number): void {
  const missing = bytes - memory.buffer.byteLength;
  if (missing > 0) memory.grow(Math.ceil(missing / WASM_PAGE_BYTES));
}
