import { grown } from './boxTable';

const DIGIT_BITS = 11;
const BUCKETS = 1 << DIGIT_BITS;
const DIGIT_MASK = BUCKETS - 1;
/** The sign bit's place in the top (10-bit) digit: flipping it orders signed keys. */
const TOP_SIGN = 0x200;

/**
 * Stable least-significant-digit radix sort of signed 32-bit keys (the sweep keys) with an int payload:
 * three passes of 11, 11 and 10 bits, the sign bit flipped in the top digit so negatives come first;
 * all three histograms counted in one read, and passes whose digit is the same for every key skipped
 * (common for the top bits of coordinates within a bounded world). Keys travel with their payload, so
 * every pass reads sequentially. Reuses its buffers.
 */
export class RadixSorter {
  private readonly counts = new Int32Array(3 * BUCKETS);
  private keysA = new Int32Array(0);
  private keysB = new Int32Array(0);
  private valuesA = new Int32Array(0);
  private valuesB = new Int32Array(0);

  /** Sorts `keys[0..n)` with `values[0..n)` in place, ascending. Int32 keys keep V8 on its integer path. */
  sort(keys: Int32Array, values: Int32Array, n: number): void {
    if (n < 2) return;
    if (n <= 48) {
      insertionSort(keys, values, 0, n);
      return;
    }
    const counts = this.counts;
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      counts[key & DIGIT_MASK]!++;
      counts[BUCKETS + ((key >>> DIGIT_BITS) & DIGIT_MASK)]!++;
      counts[2 * BUCKETS + ((key >>> (2 * DIGIT_BITS)) ^ TOP_SIGN)]!++;
    }
    this.keysA = grown(this.keysA, n);
    this.keysB = grown(this.keysB, n);
    this.valuesA = grown(this.valuesA, n);
    this.valuesB = grown(this.valuesB, n);
    let sourceKeys = keys;
    let sourceValues = values;
    let spare = 0;
    for (let pass = 0; pass < 3; pass++) {
      const base = pass * BUCKETS;
      const shift = pass * DIGIT_BITS;
      // Skip a pass where one bucket holds everything.
      if (counts[base + (((keys[0]! >>> shift) & DIGIT_MASK) ^ (pass === 2 ? TOP_SIGN : 0))] === n) continue;
      let sum = 0;
      for (let d = 0; d < BUCKETS; d++) {
        const c = counts[base + d]!;
        counts[base + d] = sum;
        sum += c;
      }
      const targetKeys = spare === 0 ? this.keysA : this.keysB;
      const targetValues = spare === 0 ? this.valuesA : this.valuesB;
      const flip = pass === 2 ? TOP_SIGN : 0;
      for (let i = 0; i < n; i++) {
        const key = sourceKeys[i]!;
        const at = counts[base + (((key >>> shift) & DIGIT_MASK) ^ flip)]!++;
        targetKeys[at] = key;
        targetValues[at] = sourceValues[i]!;
      }
      sourceKeys = targetKeys;
      sourceValues = targetValues;
      spare ^= 1;
    }
    if (sourceKeys !== keys) {
      keys.set(sourceKeys.subarray(0, n));
      values.set(sourceValues.subarray(0, n));
    }
  }
}

/** Sorts `keys[from..to)` with payload; linear on almost-sorted input (the coherent case). Returns the moves. */
export function insertionSort(keys: Int32Array, values: Int32Array, from: number, to: number): number {
  let moves = 0;
  for (let i = from + 1; i < to; i++) {
    const key = keys[i]!;
    if (keys[i - 1]! <= key) continue;
    const value = values[i]!;
    let j = i - 1;
    while (j >= from && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      values[j + 1] = values[j]!;
      j--;
    }
    keys[j + 1] = key;
    values[j + 1] = value;
    moves += i - 1 - j;
  }
  return moves;
}
