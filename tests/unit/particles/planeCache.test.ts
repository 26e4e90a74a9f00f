import { describe, expect, it } from 'vitest';
import {
  InvalidParameterError,
  PlaneCache,
  Random,
  SURFACE_CODE,
  cellCoordinate,
  directionCode,
  planeCacheKey,
  planeIndexOf,
} from '../../../src/core';

/** The reference: a Map in insertion order, which is exactly oldest-first eviction with in-place updates. */
class MapCache {
  readonly map = new Map<string, [number, number, number, number]>();
  evictions = 0;
  constructor(readonly maxSize: number) {}
  store(cell: readonly number[], plane: [number, number, number, number]): void {
    const key = cell.join(',');
    if (this.maxSize === 0) return;
    if (this.map.has(key)) {
      this.map.set(key, plane);
      return;
    }
    if (this.map.size === this.maxSize) {
      this.map.delete(this.map.keys().next().value!);
      this.evictions++;
    }
    this.map.set(key, plane);
  }
  lookup(cell: readonly number[]): [number, number, number, number] | undefined {
    return this.map.get(cell.join(','));
  }
}

function planeAt(cache: PlaneCache, slot: number): number[] {
  return Array.from(cache.planes.subarray(planeIndexOf(slot), planeIndexOf(slot) + 4));
}

/** Cells whose keys share one home slot in a table of `capacity` slots: the worst case for linear probing. */
function collidingCells(capacity: number, count: number, random: Random): number[][] {
  const cells: number[][] = [];
  const home = planeCacheKey(0, 0, 0, 0) & (capacity - 1);
  cells.push([0, 0, 0, 0]);
  while (cells.length < count) {
    const cell = [random.int(2000) - 1000, random.int(50) - 25, random.int(2000) - 1000, random.int(7)];
    if ((planeCacheKey(cell[0]!, cell[1]!, cell[2]!, cell[3]!) & (capacity - 1)) === home && !cells.some((c) => c.join() === cell.join()))
      cells.push(cell);
  }
  return cells;
}

function runAgainstReference(cache: PlaneCache, cells: number[][], operations: number, random: Random): void {
  runAgainstReferenceFrom(cache, new MapCache(cache.maxSize), cells, operations, random);
}

/** runAgainstReference from a cache and its reference already holding the same entries. */
function runAgainstReferenceFrom(cache: PlaneCache, reference: MapCache, cells: number[][], operations: number, random: Random): void {
  const evictionsBefore = cache.counters.evictions - reference.evictions;
  // Plain compares in the loop, one expect at the end: thousands of expect calls would dominate the run.
  const mismatches: string[] = [];
  for (let op = 0; op < operations; op++) {
    const cell = cells[random.int(cells.length)]!;
    if (random.next() < 0.5) {
      const plane: [number, number, number, number] = [random.next(), random.next(), random.next(), op];
      cache.storeCell(cell[0]!, cell[1]!, cell[2]!, cell[3]!, ...plane);
      reference.store(cell, plane);
    } else {
      const slot = cache.lookupCell(cell[0]!, cell[1]!, cell[2]!, cell[3]!);
      const expected = reference.lookup(cell);
      const found = slot < 0 ? 'miss' : planeAt(cache, slot).join();
      const wanted = expected === undefined ? 'miss' : Array.from(new Float32Array(expected)).join();
      if (found !== wanted) mismatches.push(`op ${op} cell ${cell.join()}: ${found} instead of ${wanted}`);
    }
    if (cache.size !== reference.map.size) mismatches.push(`op ${op}: size ${cache.size} instead of ${reference.map.size}`);
  }
  expect(mismatches.slice(0, 5)).toEqual([]);
  expect(cache.counters.evictions).toBe(evictionsBefore + reference.evictions);
  // Every entry the reference holds is found, in the same (oldest-first) order.
  const order: string[] = [];
  cache.forEachEntry((slot) => order.push(cache.cellAt(slot).join(',')));
  expect(order).toEqual([...reference.map.keys()]);
}

describe('cache keys', () => {
  it('quantizes directions to the dominant axis and its sign, with defined results for ties, zero and NaN', () => {
    expect([
      directionCode(1, 0, 0),
      directionCode(-1, 0, 0),
      directionCode(0, 2, 0),
      directionCode(0, -2, 0),
      directionCode(0, 0, 3),
      directionCode(0, 0, -3),
    ]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(directionCode(1, 1, 1)).toBe(0);
    expect(directionCode(0, -1, 1)).toBe(3);
    expect(directionCode(0, 0, 0)).toBe(1);
    expect(directionCode(NaN, NaN, NaN)).toBe(5);
    const random = new Random(3);
    let wrong = 0;
    for (let i = 0; i < 2000; i++) {
      const d = [random.range(-1, 1), random.range(-1, 1), random.range(-1, 1)];
      const axis = d.map(Math.abs).indexOf(Math.max(...d.map(Math.abs)));
      if (directionCode(d[0]!, d[1]!, d[2]!) !== 2 * axis + (d[axis]! > 0 ? 0 : 1)) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it('floors cell coordinates on both sides of zero and maps NaN to cell 0', () => {
    expect([cellCoordinate(0.49, 2), cellCoordinate(0.5, 2), cellCoordinate(-0.01, 2), cellCoordinate(-0.5, 2), cellCoordinate(-0.51, 2)]).toEqual([
      0, 1, -1, -1, -2,
    ]);
    expect(cellCoordinate(NaN, 4)).toBe(0);
  });

  it('mixes cells into well-spread, never-zero keys (seed 4)', () => {
    const random = new Random(4);
    const keys = new Set<number>();
    const slots = new Array<number>(64).fill(0);
    for (let i = 0; i < 20000; i++) {
      const key = planeCacheKey(random.int(1 << 20) - (1 << 19), random.int(200) - 100, random.int(1 << 20) - (1 << 19), random.int(7));
      keys.add(key);
      slots[key & 63]!++;
    }
    expect(keys.has(0)).toBe(false);
    expect(keys.size).toBeGreaterThan(19990);
    // Neighbouring cells (the common case: particles side by side) spread over the table as well.
    const neighbours = new Array<number>(64).fill(0);
    for (let x = 0; x < 64; x++) for (let z = 0; z < 64; z++) neighbours[planeCacheKey(x, 3, z, SURFACE_CODE) & 63]!++;
    for (const counts of [slots, neighbours]) {
      const mean = counts.reduce((a, b) => a + b) / 64;
      for (const c of counts) expect(Math.abs(c - mean)).toBeLessThan(mean * 0.35);
    }
  });
});

describe('PlaneCache against a Map', () => {
  for (const [maxSize, cellCount, seed] of [
    [64, 40, 11],
    [64, 300, 12],
    [1000, 3000, 13],
    [1, 5, 14],
    [7, 7, 15],
  ] as const) {
    it(`random stores and lookups, ${maxSize} entries at most over ${cellCount} cells (seed ${seed})`, () => {
      const random = new Random(seed);
      const cells = Array.from({ length: cellCount }, () => [random.int(40) - 20, random.int(6) - 3, random.int(40) - 20, random.int(7)]);
      const unique = [...new Map(cells.map((c) => [c.join(), c])).values()];
      runAgainstReference(new PlaneCache(maxSize, 0.5, 2), unique, 8000, random);
    });
  }

  it('every key in one probe cluster: deletion shifts the cluster back correctly (seed 21)', () => {
    const random = new Random(21);
    const cache = new PlaneCache(24, 0.25, 2);
    const cells = collidingCells(cache.capacity, 40, random);
    runAgainstReference(cache, cells, 8000, random);
  });

  it('looks up by position and direction through the same quantization', () => {
    const cache = new PlaneCache(16, 0.5, 2);
    cache.store(1.2, 3.9, -0.1, directionCode(0, -1, 0), 0, 1, 0, 3.5);
    const slot = cache.lookup(1.01, 2.1, -0.49, directionCode(0.2, -3, 0.1));
    expect(planeAt(cache, slot)).toEqual([0, 1, 0, 3.5]);
    expect(cache.lookup(1.01, 2.1, -0.51, 3)).toBe(-1); // next cell in z
    expect(cache.lookup(1.01, 1.9, -0.49, 3)).toBe(-1); // next band down
    expect(cache.lookup(1.01, 2.1, -0.49, 2)).toBe(-1); // other direction
    expect(cache.counters).toMatchObject({ lookups: 4, hits: 1, misses: 3, inserts: 1 });
  });

  it('a cache of size 0 stores nothing; snapshots restore contents and order', () => {
    const off = new PlaneCache(0, 1, 1);
    off.storeCell(1, 2, 3, 0, 0, 1, 0, 0);
    expect(off.size).toBe(0);
    expect(off.lookupCell(1, 2, 3, 0)).toBe(-1);

    const cache = new PlaneCache(8, 1, 1);
    for (let i = 0; i < 12; i++) cache.storeCell(i, 0, 0, 0, 0, 1, 0, i);
    const saved = cache.saveState();
    for (let i = 12; i < 20; i++) cache.storeCell(i, 0, 0, 0, 0, 1, 0, i);
    expect(cache.loadState(saved)).toBe(true);
    const order: number[] = [];
    cache.forEachEntry((slot) => order.push(cache.cellAt(slot)[0]));
    expect(order).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(new PlaneCache(9, 1, 1).loadState(saved)).toBe(false);
  });

  it('drops the entries of a block of cell columns, keeping the rest in age order and going on like the Map (seed 23)', () => {
    const random = new Random(23);
    for (const maxSize of [1, 7, 64, 500]) {
      const cache = new PlaneCache(maxSize, 0.5, 2);
      const reference = new MapCache(maxSize);
      const cells = Array.from({ length: 3 * maxSize + 5 }, () => [random.int(30) - 15, random.int(6) - 3, random.int(30) - 15, random.int(7)]);
      const store = (cell: number[], d: number): void => {
        cache.storeCell(cell[0]!, cell[1]!, cell[2]!, cell[3]!, 0, 1, 0, d);
        reference.store(cell, [0, 1, 0, d]);
      };
      for (let i = 0; i < 4 * maxSize; i++) store(cells[random.int(cells.length)]!, i);
      const counters = { ...cache.counters };
      const generation = cache.generation;
      const [ix0, iz0] = [random.int(20) - 12, random.int(20) - 12];
      const [ix1, iz1] = [ix0 + random.int(12), iz0 + random.int(12)];
      let dropped = 0;
      for (const key of [...reference.map.keys()]) {
        const [ix, , iz] = key.split(',').map(Number) as [number, number, number];
        if (ix >= ix0 && ix <= ix1 && iz >= iz0 && iz <= iz1) {
          reference.map.delete(key);
          dropped++;
        }
      }
      expect(cache.dropColumns(ix0, iz0, ix1, iz1)).toBe(dropped);
      expect(cache.counters).toEqual(counters);
      if (dropped > 0) expect(cache.generation).toBe(generation + 1);
      const order: string[] = [];
      cache.forEachEntry((slot) => order.push(cache.cellAt(slot).join(',')));
      expect(order).toEqual([...reference.map.keys()]);
      for (const key of reference.map.keys()) {
        const [ix, iy, iz, code] = key.split(',').map(Number) as [number, number, number, number];
        expect(planeAt(cache, cache.findCell(ix, iy, iz, code))).toEqual(reference.lookup([ix, iy, iz, code]));
      }
      // And it goes on: further stores evict oldest first, as the Map does.
      runAgainstReferenceFrom(cache, reference, cells, 2000, random);
    }
  });

  it('relocates its records to another block of memory: the same entries, ages, generation and ordinals', () => {
    const cache = new PlaneCache(8, 1, 1);
    for (let i = 0; i < 11; i++) cache.storeCell(i, i % 3, -i, SURFACE_CODE, 0, 1, 0, i);
    const before = { state: cache.saveState(), generation: cache.generation, inserted: cache.insertedSinceClear, evicted: cache.evictedSinceClear };
    const block = new ArrayBuffer(64 + PlaneCache.recordBytes(8));
    cache.relocate({ buffer: block, byteOffset: 64 });
    expect(cache.keys.buffer).toBe(block);
    expect(cache.planes.buffer).toBe(block);
    expect(Array.from(cache.keys)).toEqual(Array.from(before.state.records));
    expect([cache.generation, cache.insertedSinceClear, cache.evictedSinceClear]).toEqual([before.generation, before.inserted, before.evicted]);
    for (let i = 3; i < 11; i++) expect(cache.planes[planeIndexOf(cache.findCell(i, i % 3, -i, SURFACE_CODE)) + 3]).toBe(i);
    // It keeps working there: the next store evicts the oldest entry (cell 3).
    cache.storeCell(20, 0, 0, SURFACE_CODE, 0, 1, 0, 20);
    expect(cache.findCell(3, 0, -3, SURFACE_CODE)).toBe(-1);
    expect(new Int32Array(block, 64, 8)[0]).not.toBe(0);
    expect(() => cache.relocate({ buffer: new ArrayBuffer(PlaneCache.recordBytes(8)), byteOffset: 16 })).toThrow(RangeError);
  });

  it('claims a slot for a cell (new or held); numbers insertions and evictions within a generation', () => {
    const cache = new PlaneCache(3, 1, 1);
    const start = cache.generation;
    const slot = cache.claimCell(1, 2, 3, SURFACE_CODE);
    expect(cache.claimedNew).toBe(true);
    expect(cache.claimCell(1, 2, 3, SURFACE_CODE)).toBe(slot);
    expect(cache.claimedNew).toBe(false);
    cache.storeCell(2, 2, 3, SURFACE_CODE, 0, 1, 0, 1);
    cache.storeCell(2, 2, 3, SURFACE_CODE, 0, 1, 0, 2);
    cache.storeCell(3, 2, 3, SURFACE_CODE, 0, 1, 0, 1);
    expect(cache.counters).toMatchObject({ inserts: 3, updates: 2, evictions: 0 });
    expect([cache.insertedSinceClear, cache.evictedSinceClear]).toEqual([3, 0]);
    cache.storeCell(4, 2, 3, SURFACE_CODE, 0, 1, 0, 1); // full: evicts ordinal 0, cell (1, 2, 3)
    expect(cache.findCell(1, 2, 3, SURFACE_CODE)).toBe(-1);
    expect([cache.insertedSinceClear, cache.evictedSinceClear]).toEqual([4, 1]);
    // Entries of ordinal ≥ evictedSinceClear are the ones held: (2,2,3), (3,2,3), (4,2,3).
    expect(cache.size).toBe(cache.insertedSinceClear - cache.evictedSinceClear);
    expect(cache.generation).toBe(start);
    const saved = cache.saveState();
    cache.clear();
    expect(cache.generation).not.toBe(start);
    expect([cache.insertedSinceClear, cache.evictedSinceClear]).toEqual([0, 0]);
    const cleared = cache.generation;
    cache.loadState(saved);
    expect(cache.generation).not.toBe(cleared);
    // Loaded entries are ordinals 0..2, oldest first: the next insertion evicts (2, 2, 3).
    expect([cache.insertedSinceClear, cache.evictedSinceClear]).toEqual([3, 0]);
    cache.storeCell(5, 2, 3, SURFACE_CODE, 0, 1, 0, 1);
    expect(cache.findCell(2, 2, 3, SURFACE_CODE)).toBe(-1);
    expect([cache.insertedSinceClear, cache.evictedSinceClear]).toEqual([4, 1]);
    expect(new PlaneCache(0, 1, 1).claimCell(0, 0, 0, 0)).toBe(-1);
  });

  it('rejects bad sizes with a clear error', () => {
    expect(() => new PlaneCache(-1, 1, 1)).toThrow(InvalidParameterError);
    expect(() => new PlaneCache(1.5, 1, 1)).toThrow(InvalidParameterError);
    expect(() => new PlaneCache(10, 0, 1)).toThrow(/cellSide/);
    expect(() => new PlaneCache(10, 1, NaN)).toThrow(/cellHeight/);
  });
});
