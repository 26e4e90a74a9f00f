import fc from 'fast-check';
import { describe, it } from 'vitest';
import { planeCacheCaseArbitrary, runPlaneCacheModel } from '../../fuzz/planeCacheModel';

const SEED = 2102;

describe('plane cache model-based fuzzing against a Map', () => {
  it(`store, claim, lookup, clear, relocate, snapshot and load keep the Map's entries, order and counters (seed ${SEED})`, () => {
    fc.assert(
      fc.property(planeCacheCaseArbitrary(80), (test) => runPlaneCacheModel(test)),
      { seed: SEED, numRuns: 250 },
    );
  });
});
