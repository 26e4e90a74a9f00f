import { grown, type BoxTable } from './boxTable';
import { KEY_SENTINEL, floatKey } from './floatKey';

/**
 * Boxes sorted along one sweep axis, ready for box pruning: the sweep-axis min and max as integer keys
 * (min keys end with a sentinel above every finite key, so scan loops need no bounds check) and the other
 * two axes as float32 ranges, all structure of arrays, plus the ids.
 */
export class SortedBoxes {
  count = 0;
  minKey = new Uint32Array(1).fill(KEY_SENTINEL);
  maxKey = new Uint32Array(1);
  lo1 = new Float32Array(1);
  hi1 = new Float32Array(1);
  lo2 = new Float32Array(1);
  hi2 = new Float32Array(1);
  id = new Int32Array(1);

  reserve(n: number): void {
    if (this.minKey.length > n) return;
    this.minKey = grown(this.minKey, n + 1);
    this.maxKey = grown(this.maxKey, n + 1);
    this.lo1 = grown(this.lo1, n + 1);
    this.hi1 = grown(this.hi1, n + 1);
    this.lo2 = grown(this.lo2, n + 1);
    this.hi2 = grown(this.hi2, n + 1);
    this.id = grown(this.id, n + 1);
  }

  /** Fills from `ids[0..n)`, already in sweep order, with their min keys `keys[0..n)`. */
  gather(table: BoxTable, axis: number, ids: Int32Array, keys: Uint32Array, n: number): void {
    this.reserve(n);
    const { boxes, bits } = table;
    const minKey = this.minKey;
    const maxKey = this.maxKey;
    const lo1 = this.lo1;
    const hi1 = this.hi1;
    const lo2 = this.lo2;
    const hi2 = this.hi2;
    const out = this.id;
    const axis1 = axis === 0 ? 1 : 0;
    const axis2 = axis === 2 ? 1 : 2;
    for (let k = 0; k < n; k++) {
      const id = ids[k]!;
      const base = 6 * id;
      minKey[k] = keys[k]!;
      maxKey[k] = floatKey(bits[base + 3 + axis]!);
      lo1[k] = boxes[base + axis1]!;
      hi1[k] = boxes[base + 3 + axis1]!;
      lo2[k] = boxes[base + axis2]!;
      hi2[k] = boxes[base + 3 + axis2]!;
      out[k] = id;
    }
    minKey[n] = KEY_SENTINEL;
    this.count = n;
  }

  /** Appends one box in sweep order (its sweep min key given); `close` writes the sentinel. */
  append(table: BoxTable, axis: number, id: number, key: number): void {
    const k = this.count++;
    if (k + 1 >= this.minKey.length) this.reserve(k + 1);
    const base = 6 * id;
    const boxes = table.boxes;
    const axis1 = axis === 0 ? 1 : 0;
    const axis2 = axis === 2 ? 1 : 2;
    this.minKey[k] = key;
    this.maxKey[k] = floatKey(table.bits[base + 3 + axis]!);
    this.lo1[k] = boxes[base + axis1]!;
    this.hi1[k] = boxes[base + 3 + axis1]!;
    this.lo2[k] = boxes[base + axis2]!;
    this.hi2[k] = boxes[base + 3 + axis2]!;
    this.id[k] = id;
  }

  /** Copies entry `from` of `source` to the end of this set. */
  appendFrom(source: SortedBoxes, from: number): void {
    const k = this.count++;
    if (k + 1 >= this.minKey.length) this.reserve(k + 1);
    this.minKey[k] = source.minKey[from]!;
    this.maxKey[k] = source.maxKey[from]!;
    this.lo1[k] = source.lo1[from]!;
    this.hi1[k] = source.hi1[from]!;
    this.lo2[k] = source.lo2[from]!;
    this.hi2[k] = source.hi2[from]!;
    this.id[k] = source.id[from]!;
  }

  close(): void {
    this.minKey[this.count] = KEY_SENTINEL;
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

/**
 * Complete box pruning: every overlapping pair within one sorted set. Box i scans forward over the boxes
 * whose sweep min lies in [min_i, max_i] (the sentinel ends the scan) and tests the other two axes.
 * Returns the number of candidate tests.
 */
export function pruneComplete(set: SortedBoxes, out: FoundPairs): number {
  const n = set.count;
  const minKey = set.minKey;
  const maxKey = set.maxKey;
  const lo1 = set.lo1;
  const hi1 = set.hi1;
  const lo2 = set.lo2;
  const hi2 = set.hi2;
  const id = set.id;
  let tests = 0;
  for (let i = 0; i < n; i++) {
    const limit = maxKey[i]!;
    const a1 = lo1[i]!;
    const b1 = hi1[i]!;
    const a2 = lo2[i]!;
    const b2 = hi2[i]!;
    let j = i + 1;
    while (minKey[j]! <= limit) {
      if (lo1[j]! <= b1 && a1 <= hi1[j]! && lo2[j]! <= b2 && a2 <= hi2[j]!) out.push(id[i]!, id[j]!);
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
  const fLo1 = from.lo1;
  const fHi1 = from.hi1;
  const fLo2 = from.lo2;
  const fHi2 = from.hi2;
  const fId = from.id;
  const sMin = scan.minKey;
  const sLo1 = scan.lo1;
  const sHi1 = scan.hi1;
  const sLo2 = scan.lo2;
  const sHi2 = scan.hi2;
  const sId = scan.id;
  let tests = 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    // With `strict`, skip mins equal to ours as well: the other direction already took those pairs.
    const first = fMin[i]! + strict;
    while (sMin[start]! < first) start++;
    const limit = fMax[i]!;
    const a1 = fLo1[i]!;
    const b1 = fHi1[i]!;
    const a2 = fLo2[i]!;
    const b2 = fHi2[i]!;
    let j = start;
    while (sMin[j]! <= limit) {
      if (sLo1[j]! <= b1 && a1 <= sHi1[j]! && sLo2[j]! <= b2 && a2 <= sHi2[j]!) {
        if (swap) out.push(sId[j]!, fId[i]!);
        else out.push(fId[i]!, sId[j]!);
      }
      j++;
    }
    tests += j - start;
  }
  return tests;
}
