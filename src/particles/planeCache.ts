import { InvalidParameterError } from '../errors';
import { cellCoordinate, planeCacheKey } from './cacheKey';

/** Work a cache did since its counters were last reset. */
export interface PlaneCacheCounters {
  lookups: number;
  hits: number;
  misses: number;
  /** New entries written. */
  inserts: number;
  /** Entries whose plane was overwritten by a newer result for the same cell and direction. */
  updates: number;
  /** Oldest entries dropped to make room. */
  evictions: number;
}

/** Everything a cache holds, for snapshots (step back, restart). */
export interface PlaneCacheState {
  /** The slot records' words (keys, cells and planes, see PlaneCache). */
  records: Int32Array;
  orderSlot: Int32Array;
  orderOf: Int32Array;
  head: number;
  size: number;
}

/** 32-bit words per slot record: key, ix, iz, iy and direction, nx, ny, nz, d (32 bytes). */
const RECORD_WORDS = 8;
const X_WORD = 1;
const Z_WORD = 2;
const Y_CODE_WORD = 3;
const PLANE_WORD = 4;

/** Table slots for `maxSize` entries: a power of two, at least twice as many (the table stays half empty). */
function tableCapacity(maxSize: number): number {
  let capacity = 4;
  while (capacity < 2 * maxSize) capacity *= 2;
  return capacity;
}

/** The Int32 view of the records of a table of `capacity` slots: in `storage`, or in a fresh buffer. */
function recordWords(capacity: number, storage?: { buffer: ArrayBufferLike; byteOffset: number }): Int32Array {
  const words = capacity * RECORD_WORDS;
  if (storage === undefined) return new Int32Array(words);
  const free = storage.buffer.byteLength - storage.byteOffset;
  if (free < words * 4) throw new RangeError(`plane cache storage holds ${free} bytes; ${words * 4} needed for a table of ${capacity} slots`);
  return new Int32Array(storage.buffer, storage.byteOffset, words);
}

/** Where slot `slot`'s plane (nx, ny, nz, d) starts in PlaneCache.planes. */
export function planeIndexOf(slot: number): number {
  return slot * RECORD_WORDS + PLANE_WORD;
}

/** The largest cache accepted: a table of 2²⁴ slots already costs 600 MiB. */
export const MAX_PLANE_CACHE_SIZE = 1 << 23;

/**
 * The (position, direction) → plane cache: an open-addressing hash table with linear probing, at most
 * `maxSize` entries, the oldest entry evicted first when a new one needs room.
 *
 * Layout, per slot of a power-of-two table at most half full: a record of 8 words (32 bytes, so a
 * lookup reads the key, the cell it compares and the plane it returns from one cache line), read as
 * Int32 through `keys` and as Float32 through `planes` (two views of one buffer):
 *   keys[8s]              Int32  mixed 32-bit key (planeCacheKey), 0 = empty; the home slot is key & mask
 *   keys[8s + 1 .. +3]    Int32  ix, iz, and iy · 8 + direction code: the cell itself, compared on a key
 *                                match, so two cells never share a plane (exact for |iy| < 2²⁸)
 *   planes[8s + 4 .. +7]  Float32 nx, ny, nz, d (the plane n·p = d; planeIndexOf(s) is 8s + 4)
 *   orderOf[s]            Int32  the entry's place in the insertion ring (kept right when deletion shifts it)
 * and the insertion ring orderSlot[(head + i) % maxSize], i < size, names the slots oldest first.
 *
 * Age counts from an entry's first insertion: refreshing a plane does not make it younger, which keeps
 * eviction O(1); a busy cell evicted early is written again by its next raycast.
 * Deletion shifts the following cluster back (no tombstones), so probes stay short under churn.
 */
export class PlaneCache {
  readonly maxSize: number;
  readonly cellSide: number;
  readonly cellHeight: number;
  /** The slot records as Int32 (keys and cells); a new view after relocate(). */
  keys: Int32Array;
  /** The same records as Float32 (planes at planeIndexOf(slot)); a new view after relocate(). */
  planes: Float32Array;
  readonly counters: PlaneCacheCounters = { lookups: 0, hits: 0, misses: 0, inserts: 0, updates: 0, evictions: 0 };
  private readonly mask: number;
  private readonly inverseSide: number;
  private readonly inverseHeight: number;
  private readonly orderSlot: Int32Array;
  private readonly orderOf: Int32Array;
  private head = 0;
  private count = 0;
  private epoch = 0;
  private insertedSince = 0;
  private evictedSince = 0;
  /** Whether the last claimCell made a new entry (its plane not written yet). */
  claimedNew = false;

  constructor(maxSize: number, cellSide: number, cellHeight: number) {
    if (!(Number.isInteger(maxSize) && maxSize >= 0 && maxSize <= MAX_PLANE_CACHE_SIZE))
      throw new InvalidParameterError('cacheSize', `a whole number in [0, ${MAX_PLANE_CACHE_SIZE}]`, maxSize);
    if (!(cellSide > 0 && cellSide < Infinity)) throw new InvalidParameterError('cellSide', 'a finite number > 0', cellSide);
    if (!(cellHeight > 0 && cellHeight < Infinity)) throw new InvalidParameterError('cellHeight', 'a finite number > 0', cellHeight);
    this.maxSize = maxSize;
    this.cellSide = cellSide;
    this.cellHeight = cellHeight;
    this.inverseSide = 1 / cellSide;
    this.inverseHeight = 1 / cellHeight;
    const capacity = tableCapacity(maxSize);
    this.mask = capacity - 1;
    this.keys = recordWords(capacity);
    this.planes = new Float32Array(this.keys.buffer, this.keys.byteOffset, this.keys.length);
    this.orderOf = new Int32Array(capacity);
    this.orderSlot = new Int32Array(Math.max(maxSize, 1));
  }

  /** Bytes of slot records a cache of `maxSize` entries keeps (what relocate() needs). */
  static recordBytes(maxSize: number): number {
    return tableCapacity(maxSize) * RECORD_WORDS * 4;
  }

  /**
   * Moves the slot records to `storage` (recordBytes(maxSize) bytes from a 16-byte aligned offset),
   * e.g. into a WebAssembly module's memory: the same entries, ages and generation, so nothing that
   * remembers what it stored here notices.
   */
  relocate(storage: { buffer: ArrayBufferLike; byteOffset: number }): void {
    const keys = recordWords(this.capacity, storage);
    keys.set(this.keys);
    this.keys = keys;
    this.planes = new Float32Array(keys.buffer, keys.byteOffset, keys.length);
  }

  /** Entries held now. */
  get size(): number {
    return this.count;
  }

  /** Table slots (a power of two, at least twice maxSize). */
  get capacity(): number {
    return this.mask + 1;
  }

  /**
   * The slot holding the plane for the cell of (x, y, z) and a direction code (directionCode, or
   * SURFACE_CODE), or −1; the plane is planes[planeIndexOf(slot) ..] (four floats). Counts a lookup and a hit or a miss.
   */
  lookup(x: number, y: number, z: number, code: number): number {
    const slot = this.findCell(cellCoordinate(x, this.inverseSide), cellCoordinate(y, this.inverseHeight), cellCoordinate(z, this.inverseSide), code);
    const counters = this.counters;
    counters.lookups++;
    if (slot >= 0) counters.hits++;
    else counters.misses++;
    return slot;
  }

  /** lookup() for a cell and direction code already quantized (by the caller, with this cache's cell sizes). */
  lookupCell(ix: number, iy: number, iz: number, direction: number): number {
    const slot = this.findCell(ix, iy, iz, direction);
    const counters = this.counters;
    counters.lookups++;
    if (slot >= 0) counters.hits++;
    else counters.misses++;
    return slot;
  }

  /** Counts lookups made outside lookup() / lookupCell() (askCache probes the table itself). */
  countLookups(lookups: number, hits: number): void {
    const counters = this.counters;
    counters.lookups += lookups;
    counters.hits += hits;
    counters.misses += lookups - hits;
  }

  /** Stores the plane n·p = d for the cell of (x, y, z) and a direction code. */
  store(x: number, y: number, z: number, code: number, nx: number, ny: number, nz: number, d: number): void {
    this.storeCell(
      cellCoordinate(x, this.inverseSide),
      cellCoordinate(y, this.inverseHeight),
      cellCoordinate(z, this.inverseSide),
      code,
      nx,
      ny,
      nz,
      d,
    );
  }

  /** The cell coordinates of a point (the same quantization the cache keys use). */
  cellX(x: number): number {
    return cellCoordinate(x, this.inverseSide);
  }

  cellY(y: number): number {
    return cellCoordinate(y, this.inverseHeight);
  }

  /** The slot of an exact cell and direction code, or −1; counts nothing. */
  findCell(ix: number, iy: number, iz: number, direction: number): number {
    const key = planeCacheKey(ix, iy, iz, direction);
    const keys = this.keys;
    const mask = this.mask;
    const yCode = (iy << 3) | (direction & 7);
    let slot = key & mask;
    for (;;) {
      const r = slot * RECORD_WORDS;
      const k = keys[r]!;
      if (k === 0) return -1;
      if (k === key && keys[r + X_WORD] === ix && keys[r + Z_WORD] === iz && keys[r + Y_CODE_WORD] === yCode) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The cell and direction code of an occupied slot: [ix, iy, iz, code]. */
  cellAt(slot: number): [number, number, number, number] {
    const r = slot * RECORD_WORDS;
    const keys = this.keys;
    return [keys[r + X_WORD]!, keys[r + Y_CODE_WORD]! >> 3, keys[r + Z_WORD]!, keys[r + Y_CODE_WORD]! & 7];
  }

  storeCell(ix: number, iy: number, iz: number, direction: number, nx: number, ny: number, nz: number, d: number): void {
    const slot = this.claimCell(ix, iy, iz, direction);
    if (slot < 0) return;
    const p = planeIndexOf(slot);
    const planes = this.planes;
    planes[p] = nx;
    planes[p + 1] = ny;
    planes[p + 2] = nz;
    planes[p + 3] = d;
  }

  /**
   * The slot of a cell and direction code, made for it if new (evicting the oldest entry when full;
   * its plane is then the caller's to write): −1 only for a cache of size 0. `claimedNew` says which.
   * Counts an update or an insert.
   */
  claimCell(ix: number, iy: number, iz: number, direction: number): number {
    const maxSize = this.maxSize;
    if (maxSize === 0) return -1;
    const key = planeCacheKey(ix, iy, iz, direction);
    const yCode = (iy << 3) | (direction & 7);
    const keys = this.keys;
    const mask = this.mask;
    let slot = key & mask;
    let r = slot * RECORD_WORDS;
    let k = keys[r]!;
    while (k !== 0 && !(k === key && keys[r + X_WORD] === ix && keys[r + Z_WORD] === iz && keys[r + Y_CODE_WORD] === yCode)) {
      slot = (slot + 1) & mask;
      r = slot * RECORD_WORDS;
      k = keys[r]!;
    }
    this.claimedNew = k === 0;
    if (k !== 0) {
      this.counters.updates++;
      return slot;
    }
    if (this.count === maxSize) {
      // Eviction shifts clusters back, so the empty slot found above may have moved.
      this.evictOldest();
      slot = key & mask;
      while (keys[slot * RECORD_WORDS] !== 0) slot = (slot + 1) & mask;
      r = slot * RECORD_WORDS;
    }
    keys[r] = key;
    keys[r + X_WORD] = ix;
    keys[r + Z_WORD] = iz;
    keys[r + Y_CODE_WORD] = yCode;
    const place = (this.head + this.count) % maxSize;
    this.orderSlot[place] = slot;
    this.orderOf[slot] = place;
    this.count++;
    this.insertedSince++;
    this.counters.inserts++;
    return slot;
  }

  /**
   * Changes when the table is emptied or replaced (clear, loading a snapshot). Within one generation,
   * entries are numbered in insertion order from 0 (an entry's ordinal is insertedSinceClear when it is
   * made) and evicted oldest first, so the entry of ordinal n is still held exactly while
   * evictedSinceClear ≤ n: whoever remembers what it inserted can tell whether it is all still there.
   */
  get generation(): number {
    return this.epoch;
  }

  get insertedSinceClear(): number {
    return this.insertedSince;
  }

  get evictedSinceClear(): number {
    return this.evictedSince;
  }

  /**
   * Drops every entry whose cell column lies in [ix0, ix1] × [iz0, iz1] (the ground under it changed),
   * keeping the others in their age order; returns how many were dropped. A new generation starts, as
   * after clear(): whoever remembers entries asks again. The work counters are left as they were.
   */
  dropColumns(ix0: number, iz0: number, ix1: number, iz1: number): number {
    const count = this.count;
    if (count === 0) return 0;
    const kept = new Int32Array(count * RECORD_WORDS);
    const keys = this.keys;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const r = this.orderSlot[(this.head + i) % this.maxSize]! * RECORD_WORDS;
      const ix = keys[r + X_WORD]!;
      const iz = keys[r + Z_WORD]!;
      if (ix >= ix0 && ix <= ix1 && iz >= iz0 && iz <= iz1) continue;
      kept.set(keys.subarray(r, r + RECORD_WORDS), n * RECORD_WORDS);
      n++;
    }
    if (n === count) return 0;
    const counters = { ...this.counters };
    this.clear();
    const planes = new Float32Array(kept.buffer);
    for (let e = 0; e < n; e++) {
      const r = e * RECORD_WORDS;
      const yCode = kept[r + Y_CODE_WORD]!;
      this.storeCell(
        kept[r + X_WORD]!,
        yCode >> 3,
        kept[r + Z_WORD]!,
        yCode & 7,
        planes[r + PLANE_WORD]!,
        planes[r + PLANE_WORD + 1]!,
        planes[r + PLANE_WORD + 2]!,
        planes[r + PLANE_WORD + 3]!,
      );
    }
    Object.assign(this.counters, counters);
    return count - n;
  }

  /** Empties the table (counters are kept). */
  clear(): void {
    this.epoch++;
    this.insertedSince = this.evictedSince = 0;
    const keys = this.keys;
    for (let r = 0; r < keys.length; r += RECORD_WORDS) keys[r] = 0;
    this.head = 0;
    this.count = 0;
  }

  resetCounters(): void {
    const c = this.counters;
    c.lookups = c.hits = c.misses = c.inserts = c.updates = c.evictions = 0;
  }

  /** Calls `visit` with each entry's slot, oldest first. */
  forEachEntry(visit: (slot: number) => void): void {
    for (let i = 0; i < this.count; i++) visit(this.orderSlot[(this.head + i) % this.maxSize]!);
  }

  saveState(): PlaneCacheState {
    return { records: this.keys.slice(), orderSlot: this.orderSlot.slice(), orderOf: this.orderOf.slice(), head: this.head, size: this.count };
  }

  /** Whether a snapshot came from a cache of this size. */
  fits(state: PlaneCacheState): boolean {
    return state.records.length === this.keys.length && state.orderSlot.length === this.orderSlot.length;
  }

  /** Puts back a snapshot of a cache of the same size; false (nothing changed) for another size. */
  loadState(state: PlaneCacheState): boolean {
    if (!this.fits(state)) return false;
    // The loaded entries take ordinals 0 .. size−1 in their oldest-first order.
    this.epoch++;
    this.insertedSince = state.size;
    this.evictedSince = 0;
    this.keys.set(state.records);
    this.orderSlot.set(state.orderSlot);
    this.orderOf.set(state.orderOf);
    this.head = state.head;
    this.count = state.size;
    return true;
  }

  private evictOldest(): void {
    const slot = this.orderSlot[this.head]!;
    this.head = (this.head + 1) % this.maxSize;
    this.count--;
    this.counters.evictions++;
    this.evictedSince++;
    this.removeSlot(slot);
  }

  /** Deletes a slot and shifts back every following entry of its cluster that may move closer to home. */
  private removeSlot(slot: number): void {
    const keys = this.keys;
    const orderOf = this.orderOf;
    const orderSlot = this.orderSlot;
    const mask = this.mask;
    let hole = slot;
    let next = slot;
    for (;;) {
      next = (next + 1) & mask;
      const from = next * RECORD_WORDS;
      const key = keys[from]!;
      if (key === 0) break;
      const home = key & mask;
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (stays) continue;
      // Whole records move as Int32 words, which carries the plane floats bit for bit.
      const to = hole * RECORD_WORDS;
      for (let w = 0; w < RECORD_WORDS; w++) keys[to + w] = keys[from + w]!;
      const place = orderOf[next]!;
      orderOf[hole] = place;
      orderSlot[place] = hole;
      hole = next;
    }
    keys[hole * RECORD_WORDS] = 0;
  }
}
