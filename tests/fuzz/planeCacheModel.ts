import fc from 'fast-check';
import { PlaneCache, planeIndexOf, type PlaneCacheState } from '../../src/particles/index';

/**
 * Model-based fuzzing of the particle plane cache against a Map in insertion order (oldest-first
 * eviction, in-place updates, ordinals counted from the last clear or load). Operations: store (through
 * storeCell or claimCell + writing the plane, as askCache does), lookup, clear, relocate into another
 * buffer, snapshot and load a snapshot. After every operation the size, the oldest-first order of the
 * entries, the counters and the generation bookkeeping must match the model.
 */
export type PlaneCacheOp =
  | { readonly op: 'store'; readonly cell: number; readonly plane: readonly number[]; readonly viaClaim: boolean }
  | { readonly op: 'lookup'; readonly cell: number }
  | { readonly op: 'clear' }
  | { readonly op: 'relocate'; readonly offsetWords: number }
  | { readonly op: 'snapshot' }
  | { readonly op: 'load'; readonly snapshot: number };

/** A cell: ix, iy, iz, direction code. */
type Cell = readonly [number, number, number, number];

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** The cache packs iy into 29 bits beside the direction: exact for |iy| < 2^28 (its documented range). */
const IY_LIMIT = 2 ** 28 - 1;

/** Neighbouring cells, and cells that alias in the key's 16-bit x and z (only the exact compare tells them apart). */
const cellArbitrary: fc.Arbitrary<Cell> = fc.tuple(
  fc.oneof(
    { arbitrary: fc.integer({ min: -2, max: 2 }), weight: 8 },
    { arbitrary: fc.constantFrom(65536, -65536, 32768, INT32_MIN, INT32_MAX), weight: 1 },
  ),
  fc.oneof({ arbitrary: fc.integer({ min: -2, max: 2 }), weight: 8 }, { arbitrary: fc.constantFrom(IY_LIMIT, -IY_LIMIT), weight: 1 }),
  fc.oneof({ arbitrary: fc.integer({ min: -2, max: 2 }), weight: 8 }, { arbitrary: fc.constantFrom(65536, INT32_MIN, INT32_MAX), weight: 1 }),
  fc.integer({ min: 0, max: 7 }),
);

export interface PlaneCacheCase {
  readonly maxSize: number;
  readonly cells: readonly Cell[];
  readonly ops: readonly PlaneCacheOp[];
}

export function planeCacheCaseArbitrary(maxLength: number): fc.Arbitrary<PlaneCacheCase> {
  return fc
    .record({
      maxSize: fc.constantFrom(0, 1, 2, 3, 5, 8, 13),
      cells: fc.uniqueArray(cellArbitrary, { minLength: 1, maxLength: 24, selector: (cell) => cell.join() }),
    })
    .chain(({ maxSize, cells }) =>
      fc.record({
        maxSize: fc.constant(maxSize),
        cells: fc.constant(cells),
        ops: fc.array(
          fc.oneof(
            {
              arbitrary: fc.record({
                op: fc.constant('store' as const),
                cell: fc.nat(cells.length - 1),
                plane: fc.array(fc.float({ noNaN: true }), { minLength: 4, maxLength: 4 }),
                viaClaim: fc.boolean(),
              }),
              weight: 10,
            },
            { arbitrary: fc.record({ op: fc.constant('lookup' as const), cell: fc.nat(cells.length - 1) }), weight: 6 },
            { arbitrary: fc.constant({ op: 'clear' as const }), weight: 1 },
            { arbitrary: fc.record({ op: fc.constant('relocate' as const), offsetWords: fc.constantFrom(0, 4, 12) }), weight: 1 },
            { arbitrary: fc.constant({ op: 'snapshot' as const }), weight: 1 },
            { arbitrary: fc.record({ op: fc.constant('load' as const), snapshot: fc.nat(7) }), weight: 1 },
          ),
          { maxLength, size: 'max' },
        ),
      }),
    );
}

interface ModelEntry {
  plane: number[];
  ordinal: number;
}

interface ModelState {
  entries: Map<string, ModelEntry>;
  inserted: number;
  evicted: number;
}

function copyModel(model: ModelState): ModelState {
  return {
    entries: new Map([...model.entries].map(([key, entry]) => [key, { plane: [...entry.plane], ordinal: entry.ordinal }])),
    inserted: model.inserted,
    evicted: model.evicted,
  };
}

/** Replays a case; throws naming the first operation after which the cache and the model disagree. */
export function runPlaneCacheModel(test: PlaneCacheCase): void {
  const { maxSize, cells, ops } = test;
  const cache = new PlaneCache(maxSize, 0.5, 2);
  let model: ModelState = { entries: new Map(), inserted: 0, evicted: 0 };
  let generation = cache.generation;
  const expected = { lookups: 0, hits: 0, misses: 0, inserts: 0, updates: 0, evictions: 0 };
  const snapshots: { state: PlaneCacheState; model: ModelState }[] = [];
  const fail = (index: number, what: string): never => {
    throw new Error(
      `plane cache of ${maxSize}: ${what} after op #${index} ${JSON.stringify(ops[index])}\n  cells ${JSON.stringify(cells)}\n  ops ${JSON.stringify(ops.slice(0, index + 1))}`,
    );
  };
  for (let index = 0; index < ops.length; index++) {
    const op = ops[index]!;
    switch (op.op) {
      case 'store': {
        const [ix, iy, iz, code] = cells[op.cell]!;
        const key = cells[op.cell]!.join();
        const plane = op.plane.map(Math.fround);
        const present = model.entries.get(key);
        if (maxSize > 0) {
          if (present !== undefined) {
            present.plane = plane;
            expected.updates++;
          } else {
            if (model.entries.size === maxSize) {
              model.entries.delete(model.entries.keys().next().value!);
              model.evicted++;
              expected.evictions++;
            }
            model.entries.set(key, { plane, ordinal: model.inserted++ });
            expected.inserts++;
          }
        }
        if (op.viaClaim) {
          const slot = cache.claimCell(ix, iy, iz, code);
          if (maxSize === 0 ? slot !== -1 : slot < 0) fail(index, `claimCell gave slot ${slot}`);
          if (slot >= 0 && cache.claimedNew !== (present === undefined)) fail(index, `claimedNew is ${cache.claimedNew}`);
          if (slot >= 0) cache.planes.set(plane, planeIndexOf(slot));
        } else {
          cache.storeCell(ix, iy, iz, code, plane[0]!, plane[1]!, plane[2]!, plane[3]!);
        }
        break;
      }
      case 'lookup': {
        const [ix, iy, iz, code] = cells[op.cell]!;
        const slot = cache.lookupCell(ix, iy, iz, code);
        const entry = model.entries.get(cells[op.cell]!.join());
        expected.lookups++;
        if (entry === undefined) expected.misses++;
        else expected.hits++;
        if (slot >= 0 !== (entry !== undefined)) fail(index, `lookup found slot ${slot}, the model ${entry === undefined ? 'nothing' : 'an entry'}`);
        if (entry !== undefined) {
          const got = Array.from(cache.planes.subarray(planeIndexOf(slot), planeIndexOf(slot) + 4));
          if (got.some((value, i) => !Object.is(value, entry.plane[i]))) fail(index, `plane ${got.join()}, expected ${entry.plane.join()}`);
        }
        break;
      }
      case 'clear':
        cache.clear();
        model = { entries: new Map(), inserted: 0, evicted: 0 };
        generation++;
        break;
      case 'relocate': {
        // Somewhere else in a larger buffer, as the WebAssembly module's memory would hold it.
        const buffer = new ArrayBuffer(PlaneCache.recordBytes(maxSize) + 64);
        cache.relocate({ buffer, byteOffset: 4 * op.offsetWords });
        break;
      }
      case 'snapshot':
        snapshots.push({ state: cache.saveState(), model: copyModel(model) });
        break;
      case 'load': {
        const snapshot = snapshots[op.snapshot % Math.max(1, snapshots.length)];
        if (snapshot === undefined) continue;
        if (!cache.loadState(snapshot.state)) fail(index, 'loadState refused a snapshot of the same cache');
        // Loaded entries are renumbered 0 .. size−1, oldest first.
        model = copyModel(snapshot.model);
        let ordinal = 0;
        for (const entry of model.entries.values()) entry.ordinal = ordinal++;
        model.inserted = ordinal;
        model.evicted = 0;
        generation++;
        break;
      }
    }
    checkAgainstModel(cache, model, generation, expected, (what) => fail(index, what));
  }
}

function checkAgainstModel(
  cache: PlaneCache,
  model: ModelState,
  generation: number,
  expected: Record<string, number>,
  fail: (what: string) => never,
): void {
  if (cache.size !== model.entries.size) fail(`size ${cache.size}, expected ${model.entries.size}`);
  if (cache.generation !== generation) fail(`generation ${cache.generation}, expected ${generation}`);
  if (cache.insertedSinceClear !== model.inserted) fail(`insertedSinceClear ${cache.insertedSinceClear}, expected ${model.inserted}`);
  if (cache.evictedSinceClear !== model.evicted) fail(`evictedSinceClear ${cache.evictedSinceClear}, expected ${model.evicted}`);
  for (const entry of model.entries.values())
    if (entry.ordinal < cache.evictedSinceClear) fail(`entry of ordinal ${entry.ordinal} held but counted as evicted`);
  const order: string[] = [];
  cache.forEachEntry((slot) => {
    const [ix, iy, iz, code] = cache.cellAt(slot);
    order.push([ix, iy, iz, code].join());
  });
  const want = [...model.entries.keys()];
  if (order.join(' ') !== want.join(' ')) fail(`entries oldest first ${order.join(' ')}, expected ${want.join(' ')}`);
  for (const [name, value] of Object.entries(expected)) {
    const got = cache.counters[name as keyof typeof cache.counters];
    if (got !== value) fail(`counter ${name} ${got}, expected ${value}`);
  }
}
