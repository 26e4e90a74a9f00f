import { grown, type BoxTable } from './boxTable';

function resized<T extends Int32Array | Float32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array.subarray(0, Math.min(array.length, length)));
  return next;
}

/** Above every signed sweep key (+Infinity's is 0x7f800000): ends every scan. */
export const SWEEP_SENTINEL = 0x7fffffff;

/**
 * The sweep key of a float32 given its bits read as int32 (BoxTable.ibits): a signed integer in the same
 * order as the floats (negatives have their magnitude bits flipped). V8 keeps int32 values on its
 * integer fast path, while uint32 values at or above 2^31 leave it, so sorts and scans run on these.
 */
export function sweepKey(intBits: number): number {
  return intBits ^ ((intBits >> 31) & 0x7fffffff);
}

/**
 * Boxes sorted along one sweep axis, ready for box pruning: the sweep-axis min and max as signed integer
 * keys (the min keys end with a sentinel above every finite key, so scan loops need no bounds check), the
 * other two axes interleaved as float32 (lo1, hi1, lo2, hi2 per box: one 16-byte read per candidate), and
 * the ids.
 */
export class SortedBoxes {
  count = 0;
  minKey = new Int32Array(1).fill(SWEEP_SENTINEL);
  maxKey = new Int32Array(1);
  ranges = new Float32Array(4);
  id = new Int32Array(1);
  private capacity = 1;

  /** Room for n boxes and the sentinel; all arrays share one capacity. */
  reserve(n: number): void {
    if (this.capacity > n) return;
    let capacity = Math.max(16, this.capacity);
    while (capacity <= n) capacity *= 2;
    this.minKey = resized(this.minKey, capacity);
    this.maxKey = resized(this.maxKey, capacity);
    this.ranges = resized(this.ranges, 4 * capacity);
    this.id = resized(this.id, capacity);
    this.capacity = capacity;
  }

  /** Fills from `ids[0..n)`, already in sweep order, with their sweep keys `keys[0..n)`. */
  gather(table: BoxTable, axis: number, ids: Int32Array, keys: Int32Array, n: number): void {
    this.count = 0;
    this.reserve(n);
    for (let k = 0; k < n; k++) this.append(table, axis, ids[k]!, keys[k]!);
    this.close();
  }

  /** Appends one box in sweep order, given its sweep key on the sweep axis; `close` ends the set. */
  append(table: BoxTable, axis: number, id: number, key: number): void {
    const k = this.count++;
    if (k + 1 >= this.capacity) this.reserve(k + 1);
    const base = 6 * id;
    const boxes = table.boxes;
    const axis1 = axis === 0 ? 1 : 0;
    const axis2 = axis === 2 ? 1 : 2;
    const ranges = this.ranges;
    this.minKey[k] = key;
    this.maxKey[k] = sweepKey(table.ibits[base + 3 + axis]!);
    ranges[4 * k] = boxes[base + axis1]!;
    ranges[4 * k + 1] = boxes[base + 3 + axis1]!;
    ranges[4 * k + 2] = boxes[base + axis2]!;
    ranges[4 * k + 3] = boxes[base + 3 + axis2]!;
    this.id[k] = id;
  }

  /** Appends one box from its precomputed parts (sweep keys, cross-axis ranges). */
  push(minKey: number, maxKey: number, lo1: number, hi1: number, lo2: number, hi2: number, id: number): void {
    const k = this.count++;
    if (k + 1 >= this.capacity) this.reserve(k + 1);
    this.minKey[k] = minKey;
    this.maxKey[k] = maxKey;
    const ranges = this.ranges;
    ranges[4 * k] = lo1;
    ranges[4 * k + 1] = hi1;
    ranges[4 * k + 2] = lo2;
    ranges[4 * k + 3] = hi2;
    this.id[k] = id;
  }

  /** Copies entry `from` of `source` to the end of this set. */
  appendFrom(source: SortedBoxes, from: number): void {
    const k = this.count++;
    if (k + 1 >= this.capacity) this.reserve(k + 1);
    this.minKey[k] = source.minKey[from]!;
    this.maxKey[k] = source.maxKey[from]!;
    this.ranges.set(source.ranges.subarray(4 * from, 4 * from + 4), 4 * k);
    this.id[k] = source.id[from]!;
  }

  close(): void {
    this.minKey[this.count] = SWEEP_SENTINEL;
  }
}

/** Id pairs found by a kernel, appended; the caller decides what to do with them. */
export class FoundPairs {
  count = 0;
  a = new Int32Array(256);
  b = new Int32Array(256);

  push(a: number, b: number): void {
    if (this.count === this.a.length) {
      this.a = grown(this.a, this.count + 1);
      this.b = grown(this.b, this.count + 1);
    }
    this.a[this.count] = a;
    this.b[this.count++] = b;
  }
}

// The candidate tests below AND the four comparisons as integers instead of chaining branches: about one
// candidate in a hundred overlaps, and a chain of unpredictable branches costs more than four compares.

/**
 * Complete box pruning: every overlapping pair within one sorted set. Box i scans forward over the boxes
 * whose sweep min lies in [min_i, max_i] (the sentinel ends the scan) and tests the other two axes.
 * Returns the number of candidate tests.
 */
export function pruneComplete(set: SortedBoxes, out: FoundPairs): number {
  const n = set.count;
  const minKey = set.minKey;
  const maxKey = set.maxKey;
  const r = set.ranges;
  const id = set.id;
  let tests = 0;
  for (let i = 0; i < n; i++) {
    const limit = maxKey[i]!;
    const a1 = r[4 * i]!;
    const b1 = r[4 * i + 1]!;
    const a2 = r[4 * i + 2]!;
    const b2 = r[4 * i + 3]!;
    let j = i + 1;
    while (minKey[j]! <= limit) {
      const o = 4 * j;
      if ((+(r[o]! <= b1) & +(a1 <= r[o + 1]!) & +(r[o + 2]! <= b2) & +(a2 <= r[o + 3]!)) !== 0) out.push(id[i]!, id[j]!);
      j++;
    }
    tests += j - i - 1;
  }
  return tests;
}

/**
 * Bipartite box pruning: every overlapping pair with one box from each set, none within a set. A pair is
 * found from the box whose sweep min comes first (ties go to `a`), so each pair is tested once.
 */
export function pruneBipartite(a: SortedBoxes, b: SortedBoxes, out: FoundPairs): number {
  let tests = 0;
  tests += pruneOneWay(a, b, 0, out, false);
  tests += pruneOneWay(b, a, 1, out, true);
  return tests;
}

/** Boxes of `scan` whose min lies in [min_i, max_i] of each box i of `from` (in (min_i, max_i] when `strict`). */
function pruneOneWay(from: SortedBoxes, scan: SortedBoxes, strict: number, out: FoundPairs, swap: boolean): number {
  const n = from.count;
  const fMin = from.minKey;
  const fMax = from.maxKey;
  const fr = from.ranges;
  const fId = from.id;
  const sMin = scan.minKey;
  const sr = scan.ranges;
  const sId = scan.id;
  let tests = 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    // With `strict`, skip mins equal to ours as well: the other direction already took those pairs.
    const first = fMin[i]! + strict;
    while (sMin[start]! < first) start++;
    const limit = fMax[i]!;
    const a1 = fr[4 * i]!;
    const b1 = fr[4 * i + 1]!;
    const a2 = fr[4 * i + 2]!;
    const b2 = fr[4 * i + 3]!;
    let j = start;
    while (sMin[j]! <= limit) {
      const o = 4 * j;
      if ((+(sr[o]! <= b1) & +(a1 <= sr[o + 1]!) & +(sr[o + 2]! <= b2) & +(a2 <= sr[o + 3]!)) !== 0) {
        if (swap) out.push(sId[j]!, fId[i]!);
        else out.push(fId[i]!, sId[j]!);
      }
      j++;
    }
    tests += j - start;
  }
  return tests;
}
