import fc from 'fast-check';
import {
  BROAD_PHASE_NAMES,
  MAX_FLOAT32,
  createBroadPhase,
  switchBroadPhase,
  type BodyKind,
  type BroadPhase,
  type BroadPhaseName,
  type PairList,
} from '../../src/broadphase/index';

/**
 * Model-based fuzzing of the broad-phase strategies: a random sequence of operations is replayed on a
 * strategy and on the brute-force reference in lockstep, and every step's pairs, created and deleted
 * lists must agree. Operations are plain data so that fast-check can shrink a failing sequence, and
 * `describeOps` prints it as code ready to paste into a regression test.
 *
 * Operations are interpreted so that every generated sequence is valid: inserting a live id removes it
 * first (a re-insert under the same id, possibly as the other kind), and updating or removing an absent
 * id does nothing.
 */
export type BroadPhaseOp =
  | { readonly op: 'insert'; readonly id: number; readonly box: readonly number[]; readonly kind: BodyKind }
  | { readonly op: 'update'; readonly id: number; readonly box: readonly number[] }
  | { readonly op: 'remove'; readonly id: number }
  | { readonly op: 'switch'; readonly to: BroadPhaseName }
  | { readonly op: 'step' };

export const FUZZED_STRATEGIES: readonly BroadPhaseName[] = BROAD_PHASE_NAMES.filter((name) => name !== 'brute-force');

/** Coordinates where strategies have been known to slip: float32 edges, subnormals, signed zeros, huge values. */
const AWKWARD_COORDINATES = [
  -0,
  0.5,
  -0.5,
  0.1,
  1 + 2 ** -30,
  16777217,
  1e-45,
  -1e-45,
  1e-40,
  1.1754943508222875e-38,
  1e-300,
  -1e-300,
  1e30,
  -1e30,
  1e38,
  -1e38,
  MAX_FLOAT32,
  -MAX_FLOAT32,
];

const coordinate: fc.Arbitrary<number> = fc.oneof(
  // A small integer lattice: boxes touch on faces, edges and corners all the time.
  { arbitrary: fc.integer({ min: -3, max: 3 }), weight: 12 },
  { arbitrary: fc.constantFrom(...AWKWARD_COORDINATES), weight: 3 },
  { arbitrary: fc.double({ min: -MAX_FLOAT32, max: MAX_FLOAT32, noNaN: true }), weight: 1 },
);

const extent: fc.Arbitrary<number> = fc.constantFrom(0, 0, 1, 2, 3);

/** One axis of a box: two coordinates in order, or a coordinate and a lattice extent (zero included). */
const axis: fc.Arbitrary<readonly [number, number]> = fc.oneof(
  fc.tuple(coordinate, coordinate).map(([p, q]): readonly [number, number] => (q < p ? [q, p] : [p, q])),
  fc
    .tuple(coordinate, extent)
    .map(([lo, size]): readonly [number, number] => [lo, Math.min(lo + size, MAX_FLOAT32)])
    .filter(([lo, hi]) => lo <= hi),
);

export const boxArbitrary: fc.Arbitrary<readonly number[]> = fc.tuple(axis, axis, axis).map(([x, y, z]) => [x[0], y[0], z[0], x[1], y[1], z[1]]);

/** Few ids, so that re-inserts and touching pairs are common; now and then a large one to grow the storage. */
const idArbitrary: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 7 }), weight: 30 },
  { arbitrary: fc.constantFrom(63, 64, 700), weight: 1 },
);

export function broadPhaseOpArbitrary(switchTargets: readonly BroadPhaseName[]): fc.Arbitrary<BroadPhaseOp> {
  return fc.oneof(
    {
      arbitrary: fc.record({
        op: fc.constant('insert' as const),
        id: idArbitrary,
        box: boxArbitrary,
        kind: fc.constantFrom<BodyKind>('static', 'dynamic'),
      }),
      weight: 6,
    },
    { arbitrary: fc.record({ op: fc.constant('update' as const), id: idArbitrary, box: boxArbitrary }), weight: 5 },
    { arbitrary: fc.record({ op: fc.constant('remove' as const), id: idArbitrary }), weight: 3 },
    { arbitrary: fc.constant({ op: 'step' as const }), weight: 4 },
    { arbitrary: fc.record({ op: fc.constant('switch' as const), to: fc.constantFrom(...switchTargets) }), weight: 1 },
  );
}

export function broadPhaseOpsArbitrary(switchTargets: readonly BroadPhaseName[], maxLength: number): fc.Arbitrary<BroadPhaseOp[]> {
  return fc.array(broadPhaseOpArbitrary(switchTargets), { maxLength, size: 'max' });
}

function pairKeys(list: PairList): number[] {
  const keys: number[] = [];
  for (let i = 0; i < list.count; i++) {
    const a = list.a[i]!;
    const b = list.b[i]!;
    keys.push(a < b ? a * 16777216 + b : -(b * 16777216 + a));
  }
  return keys.sort((x, y) => x - y);
}

function formatKeys(keys: readonly number[]): string {
  return `[${keys.map((key) => (key < 0 ? `UNORDERED(${Math.floor(-key / 16777216)},${-key % 16777216})` : `(${Math.floor(key / 16777216)},${key % 16777216})`)).join(' ')}]`;
}

function formatNumber(value: number): string {
  if (Object.is(value, -0)) return '-0';
  if (value === MAX_FLOAT32) return 'MAX_FLOAT32';
  if (value === -MAX_FLOAT32) return '-MAX_FLOAT32';
  return String(value);
}

/**
 * The sequence as the broad-phase calls it makes (`bp` the strategy), skipped operations left out and
 * re-inserts spelled as remove + insert: ready to paste into a regression test.
 */
export function describeOps(ops: readonly BroadPhaseOp[]): string {
  const live = new Set<number>();
  const calls: string[] = [];
  const box = (values: readonly number[]): string => `[${values.map(formatNumber).join(', ')}]`;
  for (const op of ops) {
    switch (op.op) {
      case 'insert':
        if (live.has(op.id)) calls.push(`bp.remove(${op.id});`);
        calls.push(`bp.insert(${op.id}, ${box(op.box)}, '${op.kind}');`);
        live.add(op.id);
        break;
      case 'update':
        if (live.has(op.id)) calls.push(`bp.update(${op.id}, ${box(op.box)});`);
        break;
      case 'remove':
        if (live.delete(op.id)) calls.push(`bp.remove(${op.id});`);
        break;
      case 'switch':
        calls.push(`bp = switchBroadPhase(bp, '${op.to}');`);
        break;
      case 'step':
        calls.push('bp.step();');
        break;
    }
  }
  return calls.join(' ');
}

export interface ModelRunCounts {
  /** Operations applied per strategy (skipped ones not counted). */
  readonly operations: Map<BroadPhaseName, number>;
  steps: number;
  pairsCompared: number;
}

export function emptyCounts(): ModelRunCounts {
  return { operations: new Map(), steps: 0, pairsCompared: 0 };
}

/**
 * Replays `ops` on `start` and on brute force; throws on the first disagreement, naming the operation.
 * Ends with a step, so that trailing operations are checked too.
 */
export function runBroadPhaseModel(start: BroadPhaseName, ops: readonly BroadPhaseOp[], counts: ModelRunCounts = emptyCounts()): void {
  let name = start;
  let strategy: BroadPhase = createBroadPhase(start);
  let reference: BroadPhase = createBroadPhase('brute-force');
  const kinds = new Map<number, BodyKind>();
  const count = (): void => {
    counts.operations.set(name, (counts.operations.get(name) ?? 0) + 1);
  };
  const fail = (index: number, what: string): never => {
    throw new Error(
      `${start}: ${what} after op #${index} (${ops[index]?.op ?? 'final step'}, current strategy ${name})\n  ${describeOps(ops.slice(0, index + 1))}`,
    );
  };
  const step = (index: number): void => {
    const expected = reference.step();
    const actual = strategy.step();
    counts.steps++;
    for (const list of ['pairs', 'created', 'deleted'] as const) {
      const want = pairKeys(expected[list]);
      const got = pairKeys(actual[list]);
      counts.pairsCompared += want.length;
      if (want.length !== got.length || want.some((key, i) => key !== got[i])) {
        fail(index, `${list} differ: expected ${formatKeys(want)}, got ${formatKeys(got)}`);
      }
    }
  };
  for (let index = 0; index < ops.length; index++) {
    const op = ops[index]!;
    switch (op.op) {
      case 'insert':
        if (kinds.has(op.id)) {
          reference.remove(op.id);
          strategy.remove(op.id);
          count();
        }
        reference.insert(op.id, op.box, op.kind);
        strategy.insert(op.id, op.box, op.kind);
        kinds.set(op.id, op.kind);
        count();
        break;
      case 'update':
        if (!kinds.has(op.id)) continue;
        reference.update(op.id, op.box);
        strategy.update(op.id, op.box);
        count();
        break;
      case 'remove':
        if (!kinds.has(op.id)) continue;
        reference.remove(op.id);
        strategy.remove(op.id);
        kinds.delete(op.id);
        count();
        break;
      case 'switch':
        // Both sides start over from the carried boxes: the first step after a switch reports every pair as created.
        strategy = switchBroadPhase(strategy, op.to);
        reference = switchBroadPhase(reference, 'brute-force');
        name = op.to;
        count();
        break;
      case 'step':
        step(index);
        count();
        break;
    }
    if (strategy.size !== kinds.size) fail(index, `size ${strategy.size}, expected ${kinds.size}`);
  }
  step(ops.length);
  for (const [id, kind] of kinds) if (strategy.kindOf(id) !== kind) fail(ops.length, `kindOf(${id}) is ${strategy.kindOf(id)}, expected ${kind}`);
  const stored = new Map<number, string>();
  reference.forEachBox((id, box, offset, kind) => stored.set(id, `${kind} ${Array.from(box.subarray(offset, offset + 6)).join(',')}`));
  strategy.forEachBox((id, box, offset, kind) => {
    const want = stored.get(id);
    const got = `${kind} ${Array.from(box.subarray(offset, offset + 6)).join(',')}`;
    if (want !== got) fail(ops.length, `forEachBox(${id}) gives ${got}, expected ${want ?? 'nothing'}`);
    stored.delete(id);
  });
  if (stored.size > 0) fail(ops.length, `forEachBox misses ${[...stored.keys()].join(', ')}`);
}
