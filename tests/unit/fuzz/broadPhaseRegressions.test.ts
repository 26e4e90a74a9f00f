import { describe, expect, it } from 'vitest';
import { BoxTable, createBroadPhase } from '../../../src/broadphase/index';
import { FUZZED_STRATEGIES } from '../../fuzz/broadPhaseModel';
import { pairKeys } from '../broadphase/churn';

/** Minimal sequences the broad-phase fuzzer found (or the issue reported), replayed on every strategy. */
const key = (a: number, b: number): number => a * 16777216 + b;

describe('broad-phase fuzz regressions', () => {
  for (const name of FUZZED_STRATEGIES) {
    describe(name, () => {
      it('keeps the pair of a static removed after an update and inserted again as a dynamic (issue 21)', () => {
        const bp = createBroadPhase(name);
        const box = [0, 0, 0, 1, 1, 1];
        bp.insert(0, box, 'static');
        bp.insert(1, box, 'dynamic');
        expect(pairKeys(bp.step().pairs)).toEqual([key(0, 1)]);
        bp.update(0, box);
        bp.remove(0);
        bp.insert(0, box, 'dynamic');
        const step = bp.step();
        expect(pairKeys(step.pairs)).toEqual([key(0, 1)]);
        expect(step.created.count + step.deleted.count).toBe(0);
        expect(pairKeys(bp.step().pairs)).toEqual([key(0, 1)]);
      });

      it('finds the pair when a static is inserted, removed and inserted again as a dynamic within one step', () => {
        const bp = createBroadPhase(name);
        bp.insert(0, [0, -0, 0, 0, 0, -0], 'static');
        bp.insert(1, [0, 0, 0, 0, 0, 0], 'dynamic');
        bp.remove(0);
        bp.insert(0, [0, 0, 0, -0, 0, 0], 'dynamic');
        const step = bp.step();
        expect(pairKeys(step.pairs)).toEqual([key(0, 1)]);
        expect(pairKeys(step.created)).toEqual([key(0, 1)]);
      });

      it('lets a max of −1e-45 (rounded up to zero) touch a box at zero', () => {
        const bp = createBroadPhase(name);
        bp.insert(63, [0, 0, 0, -0, 0, 0], 'static');
        bp.insert(0, [0, -1, 0, -0, -1e-45, 0], 'dynamic');
        expect(pairKeys(bp.step().pairs)).toEqual([key(0, 63)]);
      });
    });
  }

  it('stores a coordinate rounded outward onto zero as +0, never −0 (the integer keys order −0 below +0)', () => {
    const table = new BoxTable();
    table.add(0, [-1, -1, -1, -1e-45, -1e-46, -0], 0, 'dynamic');
    table.add(1, [1e-46, 1e-45, 0, 1, 1, 1], 0, 'dynamic');
    for (const value of table.boxes.subarray(0, 12)) expect(Object.is(value, -0)).toBe(false);
    expect(table.boxes[3]).toBe(0);
  });
});
