/**
 * Order-preserving integer keys for float32 values: the bit pattern with the sign bit flipped for
 * positives and every bit flipped for negatives compares as an unsigned integer in the same order as the
 * floats (−0 sorts just below +0, which is why stored boxes never hold −0). Radix sorts and sentinel
 * loops run on these keys.
 */

/** Sorts above every finite float32 key (+Infinity encodes to 0xff800000): the end-of-array sentinel. */
export const KEY_SENTINEL = 0xffffffff;

/** The sortable key of a float32 given its raw bits (as read from a Uint32Array view). */
export function floatKey(bits: number): number {
  return (bits ^ ((bits >> 31) | 0x80000000)) >>> 0;
}

const scratchFloat = new Float32Array(1);
const scratchBits = new Uint32Array(scratchFloat.buffer);

/** The key of a number once rounded to float32 (for tests and one-off lookups, not hot loops). */
export function keyOfFloat(value: number): number {
  scratchFloat[0] = value;
  return floatKey(scratchBits[0]!);
}

/** The float32 just below `value` (a float32 itself, finite). */
export function nextFloat32Down(value: number): number {
  if (value === 0) return -1.401298464324817e-45;
  scratchFloat[0] = value;
  scratchBits[0] = value > 0 ? scratchBits[0]! - 1 : scratchBits[0]! + 1;
  return scratchFloat[0];
}

/** The float32 just above `value` (a float32 itself, finite). */
export function nextFloat32Up(value: number): number {
  if (value === 0) return 1.401298464324817e-45;
  scratchFloat[0] = value;
  scratchBits[0] = value > 0 ? scratchBits[0]! + 1 : scratchBits[0]! - 1;
  return scratchFloat[0];
}
