import { KIND_STATIC } from './broadPhase';
import { grown, type BoxTable } from './boxTable';
import { floatKey } from './floatKey';
import type { PairManager } from './pairManager';

const SLOT_FREE = 0;
const SLOT_PENDING = 1;
const SLOT_SORTED = 2;

/** Below and above every endpoint key (keys are 2·floatKey + isMax, so at most 2^33 − 1). */
const LOW_SENTINEL = -1;
const HIGH_SENTINEL = 2 ** 34;

/**
 * A three-axis incremental sweep-and-prune over a subset of the table's boxes, reporting pair changes to
 * a pair manager. It is the whole "sap" strategy, one cell of multi-SAP, and the dynamic half of the
 * bipartite SAP.
 *
 * Per axis, one sorted array of endpoints: key = 2·floatKey(coordinate) + (1 for a max), so at equal
 * coordinates a min sorts before a max and touching boxes overlap; owner = 2·slot + (1 for a max); and a
 * sentinel at each end so the insertion-sort loops need no bounds checks. Each slot knows the index of
 * its six endpoints, so the overlap test on the other two axes is four integer compares.
 *
 * Moving a box sorts its endpoints into place one swap at a time; a min passing a max (or a max passing a
 * min) is exactly when an axis interval starts or stops overlapping, so pairs are added and released at
 * those swaps only. The axes are moved one after the other: the box passes through valid intermediate
 * boxes, and the rank tests see exactly that intermediate state, so every status change is seen once.
 *
 * Inserts are batched until `flush`: new endpoints are sorted and merged from the back in one pass per
 * axis, then one sweep along x with two active lists finds every pair with a new box.
 */
export class SweepAndPrune {
  swaps = 0;
  private slotId = new Int32Array(16);
  private slotState = new Uint8Array(16);
  private minIndex = new Int32Array(48);
  private maxIndex = new Int32Array(48);
  private freeSlots = new Int32Array(16);
  private freeCount = 0;
  private slotCount = 0;
  private idToSlot = new Int32Array(0);
  private readonly keys: Float64Array[] = [];
  private readonly owner: Int32Array[] = [];
  /** Endpoints in the arrays, not counting the two sentinels. */
  private endpointCount = 0;
  private pending = new Int32Array(16);
  private pendingPosition = new Int32Array(16);
  private pendingCount = 0;
  // Scratch for flush.
  private isNew = new Uint8Array(16);
  private activeAll = new Int32Array(16);
  private activeAllPosition = new Int32Array(16);
  private activeNew = new Int32Array(16);
  private activeNewPosition = new Int32Array(16);
  private newKeys = new Float64Array(16);

  constructor(
    private readonly table: BoxTable,
    private readonly pairs: PairManager,
    /** Multi-SAP cells share pairs, so they count references; a lone SAP only touches and releases. */
    private readonly refCounted: boolean,
  ) {
    for (let axis = 0; axis < 3; axis++) {
      const keys = new Float64Array(16);
      keys[0] = LOW_SENTINEL;
      keys[1] = HIGH_SENTINEL;
      const owner = new Int32Array(16).fill(-1);
      this.keys.push(keys);
      this.owner.push(owner);
    }
  }

  /** Boxes in this SAP, pending ones included. */
  get size(): number {
    return this.slotCount - this.freeCount;
  }

  get endpoints(): number {
    return this.endpointCount;
  }

  contains(id: number): boolean {
    return id < this.idToSlot.length && this.idToSlot[id]! >= 0;
  }

  /** Adds a box (already in the table); it joins the sorted arrays, and finds its pairs, at `flush`. */
  add(id: number): void {
    if (this.idToSlot.length <= id) {
      const old = this.idToSlot.length;
      this.idToSlot = grown(this.idToSlot, Math.max(id + 1, this.table.capacity));
      this.idToSlot.fill(-1, old);
    }
    const slot = this.allocateSlot();
    this.slotId[slot] = id;
    this.slotState[slot] = SLOT_PENDING;
    this.idToSlot[id] = slot;
    this.pending = grown(this.pending, this.pendingCount + 1);
    this.pendingPosition[slot] = this.pendingCount;
    this.pending[this.pendingCount++] = slot;
  }

  /** The table holds a new box for `id`: sort its endpoints into place, adding and releasing pairs. */
  move(id: number): void {
    const slot = this.idToSlot[id]!;
    if (this.slotState[slot] !== SLOT_SORTED) return;
    const bits = this.table.bits;
    const base = 6 * id;
    for (let axis = 0; axis < 3; axis++) {
      const keys = this.keys[axis]!;
      const newMin = 2 * floatKey(bits[base + axis]!);
      const newMax = 2 * floatKey(bits[base + 3 + axis]!) + 1;
      const oldMin = keys[this.minIndex[3 * slot + axis]!]!;
      const oldMax = keys[this.maxIndex[3 * slot + axis]!]!;
      // This order never lets a min pass its own max.
      if (newMin < oldMin) this.minDown(slot, axis, newMin);
      if (newMax > oldMax) this.maxUp(slot, axis, newMax);
      if (newMax < oldMax) this.maxDown(slot, axis, newMax);
      if (newMin > oldMin) this.minUp(slot, axis, newMin);
    }
  }

  /**
   * Takes a box out. With `releasePairs`, every pair it has in this SAP is released (a multi-SAP box
   * leaving a cell); without, its pairs are left to the caller (a removed object's pairs die at commit).
   */
  remove(id: number, releasePairs: boolean): void {
    const slot = this.idToSlot[id]!;
    this.idToSlot[id] = -1;
    if (this.slotState[slot] === SLOT_PENDING) {
      const position = this.pendingPosition[slot]!;
      const last = this.pending[--this.pendingCount]!;
      this.pending[position] = last;
      this.pendingPosition[last] = position;
      this.freeSlot(slot);
      return;
    }
    if (releasePairs) this.releaseAllPairs(slot);
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    const end = this.endpointCount + 1;
    for (let axis = 0; axis < 3; axis++) {
      const keys = this.keys[axis]!;
      const owner = this.owner[axis]!;
      const lo = minIndex[3 * slot + axis]!;
      const hi = maxIndex[3 * slot + axis]!;
      let write = lo;
      for (let read = lo + 1; read < end; read++) {
        if (read === hi) continue;
        const o = owner[read]!;
        keys[write] = keys[read]!;
        owner[write] = o;
        if (o & 1) maxIndex[3 * (o >> 1) + axis] = write;
        else minIndex[3 * (o >> 1) + axis] = write;
        write++;
      }
      keys[write] = HIGH_SENTINEL;
      owner[write] = -1;
    }
    this.endpointCount -= 2;
    this.freeSlot(slot);
  }

  /** Sorts the pending boxes into the arrays and reports their pairs. */
  flush(): void {
    const count = this.pendingCount;
    if (count === 0) return;
    const pending = this.pending;
    const bits = this.table.bits;
    const total = this.endpointCount + 2 * count;
    this.isNew = grown(this.isNew, this.slotCount);
    this.newKeys = grown(this.newKeys, 2 * count);
    const isNew = this.isNew;
    const newKeys = this.newKeys;
    const order = new Array<number>(2 * count);
    for (let axis = 0; axis < 3; axis++) {
      for (let p = 0; p < count; p++) {
        const slot = pending[p]!;
        const base = 6 * this.slotId[slot]!;
        newKeys[2 * p] = 2 * floatKey(bits[base + axis]!);
        newKeys[2 * p + 1] = 2 * floatKey(bits[base + 3 + axis]!) + 1;
        order[2 * p] = 2 * p;
        order[2 * p + 1] = 2 * p + 1;
      }
      order.sort((x, y) => newKeys[x]! - newKeys[y]!);
      if (this.keys[axis]!.length < total + 2) {
        this.keys[axis] = grown(this.keys[axis]!, total + 2);
        this.owner[axis] = grown(this.owner[axis]!, total + 2);
      }
      const keys = this.keys[axis]!;
      const owner = this.owner[axis]!;
      const minIndex = this.minIndex;
      const maxIndex = this.maxIndex;
      keys[total + 1] = HIGH_SENTINEL;
      owner[total + 1] = -1;
      let read = this.endpointCount;
      let write = total;
      for (let n = 2 * count - 1; n >= 0; write--) {
        const e = order[n]!;
        const key = newKeys[e]!;
        // keys[0] is the low sentinel, so `read` never runs below 1 while a new key remains.
        if (keys[read]! > key) {
          const o = owner[read]!;
          keys[write] = keys[read]!;
          owner[write] = o;
          if (o & 1) maxIndex[3 * (o >> 1) + axis] = write;
          else minIndex[3 * (o >> 1) + axis] = write;
          read--;
        } else {
          const slot = pending[e >> 1]!;
          keys[write] = key;
          owner[write] = 2 * slot + (e & 1);
          if (e & 1) maxIndex[3 * slot + axis] = write;
          else minIndex[3 * slot + axis] = write;
          n--;
        }
      }
    }
    this.endpointCount = total;
    for (let p = 0; p < count; p++) {
      this.slotState[pending[p]!] = SLOT_SORTED;
      isNew[pending[p]!] = 1;
    }
    this.findPairsOfNew();
    for (let p = 0; p < count; p++) isNew[pending[p]!] = 0;
    this.pendingCount = 0;
  }

  /** One sweep along x: a new box's min meets every open box, an old box's min meets the open new ones. */
  private findPairsOfNew(): void {
    const capacity = this.slotCount;
    this.activeAll = grown(this.activeAll, capacity);
    this.activeAllPosition = grown(this.activeAllPosition, capacity);
    this.activeNew = grown(this.activeNew, capacity);
    this.activeNewPosition = grown(this.activeNewPosition, capacity);
    const activeAll = this.activeAll;
    const activeAllPosition = this.activeAllPosition;
    const activeNew = this.activeNew;
    const activeNewPosition = this.activeNewPosition;
    const isNew = this.isNew;
    const owner = this.owner[0]!;
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    let allCount = 0;
    let newCount = 0;
    const end = this.endpointCount;
    for (let j = 1; j <= end; j++) {
      const o = owner[j]!;
      const slot = o >> 1;
      if (o & 1) {
        let position = activeAllPosition[slot]!;
        let last = activeAll[--allCount]!;
        activeAll[position] = last;
        activeAllPosition[last] = position;
        if (isNew[slot]) {
          position = activeNewPosition[slot]!;
          last = activeNew[--newCount]!;
          activeNew[position] = last;
          activeNewPosition[last] = position;
        }
        continue;
      }
      const s1 = 3 * slot + 1;
      const lo1 = minIndex[s1]!;
      const hi1 = maxIndex[s1]!;
      const lo2 = minIndex[s1 + 1]!;
      const hi2 = maxIndex[s1 + 1]!;
      const list = isNew[slot] ? activeAll : activeNew;
      const listCount = isNew[slot] ? allCount : newCount;
      for (let k = 0; k < listCount; k++) {
        const other = list[k]!;
        const t1 = 3 * other + 1;
        if (lo1 < maxIndex[t1]! && minIndex[t1]! < hi1 && lo2 < maxIndex[t1 + 1]! && minIndex[t1 + 1]! < hi2) this.found(slot, other);
      }
      activeAllPosition[slot] = allCount;
      activeAll[allCount++] = slot;
      if (isNew[slot]) {
        activeNewPosition[slot] = newCount;
        activeNew[newCount++] = slot;
      }
    }
  }

  /** Every box overlapping `slot` has its x min before slot's x max and its x max after slot's x min. */
  private releaseAllPairs(slot: number): void {
    const owner = this.owner[0]!;
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    const lo0 = minIndex[3 * slot]!;
    const hi0 = maxIndex[3 * slot]!;
    for (let j = 1; j < hi0; j++) {
      const o = owner[j]!;
      if (o & 1) continue;
      const other = o >> 1;
      if (other === slot || maxIndex[3 * other]! < lo0) continue;
      if (this.overlapsOnAxes(slot, other, 1, 2)) this.lost(slot, other);
    }
  }

  private overlapsOnAxes(s: number, o: number, j: number, k: number): boolean {
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    const sj = 3 * s + j;
    const oj = 3 * o + j;
    const sk = 3 * s + k;
    const ok = 3 * o + k;
    return minIndex[sj]! < maxIndex[oj]! && minIndex[oj]! < maxIndex[sj]! && minIndex[sk]! < maxIndex[ok]! && minIndex[ok]! < maxIndex[sk]!;
  }

  private found(s: number, o: number): void {
    const a = this.slotId[s]!;
    const b = this.slotId[o]!;
    const kind = this.table.kind;
    if (kind[a] === KIND_STATIC && kind[b] === KIND_STATIC) return;
    if (this.refCounted) this.pairs.addRef(a, b);
    else this.pairs.touch(a, b);
  }

  private lost(s: number, o: number): void {
    const a = this.slotId[s]!;
    const b = this.slotId[o]!;
    const kind = this.table.kind;
    if (kind[a] === KIND_STATIC && kind[b] === KIND_STATIC) return;
    this.pairs.release(a, b);
  }

  // The four moves. Moving left, a min passing a max starts an overlap on this axis; moving right, a min
  // passing a max ends one; symmetrically for a max passing a min.

  private minDown(slot: number, axis: number, key: number): void {
    const keys = this.keys[axis]!;
    const owner = this.owner[axis]!;
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    const j = axis === 0 ? 1 : 0;
    const k = axis === 2 ? 1 : 2;
    let i = minIndex[3 * slot + axis]!;
    const start = i;
    while (keys[i - 1]! > key) {
      const o = owner[i - 1]!;
      const other = o >> 1;
      if (o & 1) {
        maxIndex[3 * other + axis] = i;
        if (this.overlapsOnAxes(slot, other, j, k)) this.found(slot, other);
      } else {
        minIndex[3 * other + axis] = i;
      }
      keys[i] = keys[i - 1]!;
      owner[i] = o;
      i--;
    }
    keys[i] = key;
    owner[i] = 2 * slot;
    minIndex[3 * slot + axis] = i;
    this.swaps += start - i;
  }

  private maxUp(slot: number, axis: number, key: number): void {
    const keys = this.keys[axis]!;
    const owner = this.owner[axis]!;
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    const j = axis === 0 ? 1 : 0;
    const k = axis === 2 ? 1 : 2;
    let i = maxIndex[3 * slot + axis]!;
    const start = i;
    while (keys[i + 1]! < key) {
      const o = owner[i + 1]!;
      const other = o >> 1;
      if (o & 1) {
        maxIndex[3 * other + axis] = i;
      } else {
        minIndex[3 * other + axis] = i;
        if (this.overlapsOnAxes(slot, other, j, k)) this.found(slot, other);
      }
      keys[i] = keys[i + 1]!;
      owner[i] = o;
      i++;
    }
    keys[i] = key;
    owner[i] = 2 * slot + 1;
    maxIndex[3 * slot + axis] = i;
    this.swaps += i - start;
  }

  private minUp(slot: number, axis: number, key: number): void {
    const keys = this.keys[axis]!;
    const owner = this.owner[axis]!;
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    const j = axis === 0 ? 1 : 0;
    const k = axis === 2 ? 1 : 2;
    let i = minIndex[3 * slot + axis]!;
    const start = i;
    while (keys[i + 1]! < key) {
      const o = owner[i + 1]!;
      const other = o >> 1;
      if (o & 1) {
        maxIndex[3 * other + axis] = i;
        if (this.overlapsOnAxes(slot, other, j, k)) this.lost(slot, other);
      } else {
        minIndex[3 * other + axis] = i;
      }
      keys[i] = keys[i + 1]!;
      owner[i] = o;
      i++;
    }
    keys[i] = key;
    owner[i] = 2 * slot;
    minIndex[3 * slot + axis] = i;
    this.swaps += i - start;
  }

  private maxDown(slot: number, axis: number, key: number): void {
    const keys = this.keys[axis]!;
    const owner = this.owner[axis]!;
    const minIndex = this.minIndex;
    const maxIndex = this.maxIndex;
    const j = axis === 0 ? 1 : 0;
    const k = axis === 2 ? 1 : 2;
    let i = maxIndex[3 * slot + axis]!;
    const start = i;
    while (keys[i - 1]! > key) {
      const o = owner[i - 1]!;
      const other = o >> 1;
      if (o & 1) {
        maxIndex[3 * other + axis] = i;
      } else {
        minIndex[3 * other + axis] = i;
        if (this.overlapsOnAxes(slot, other, j, k)) this.lost(slot, other);
      }
      keys[i] = keys[i - 1]!;
      owner[i] = o;
      i--;
    }
    keys[i] = key;
    owner[i] = 2 * slot + 1;
    maxIndex[3 * slot + axis] = i;
    this.swaps += start - i;
  }

  private allocateSlot(): number {
    if (this.freeCount > 0) return this.freeSlots[--this.freeCount]!;
    const slot = this.slotCount++;
    if (slot >= this.slotId.length) {
      const capacity = this.slotId.length * 2;
      this.slotId = grown(this.slotId, capacity);
      this.slotState = grown(this.slotState, capacity);
      this.minIndex = grown(this.minIndex, 3 * capacity);
      this.maxIndex = grown(this.maxIndex, 3 * capacity);
      this.pendingPosition = grown(this.pendingPosition, capacity);
    }
    return slot;
  }

  private freeSlot(slot: number): void {
    this.slotState[slot] = SLOT_FREE;
    this.freeSlots = grown(this.freeSlots, this.freeCount + 1);
    this.freeSlots[this.freeCount++] = slot;
  }
}
