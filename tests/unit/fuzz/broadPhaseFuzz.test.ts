import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FUZZED_STRATEGIES, broadPhaseOpsArbitrary, describeOps, runBroadPhaseModel } from '../../fuzz/broadPhaseModel';

/** Fixed seeds: `npm test` replays the same sequences; the long budget is `npm run fuzz`. */
const SEED = 2101;
const RUNS_PER_STRATEGY = 200;

describe('broad-phase model-based fuzzing against brute force', () => {
  for (const [index, name] of FUZZED_STRATEGIES.entries()) {
    it(`${name}: ${RUNS_PER_STRATEGY} random sequences of insert, re-insert, update, remove, switch, step (seed ${SEED + index})`, () => {
      fc.assert(
        fc.property(broadPhaseOpsArbitrary(FUZZED_STRATEGIES, 60), (ops) => runBroadPhaseModel(name, ops)),
        {
          seed: SEED + index,
          numRuns: RUNS_PER_STRATEGY,
          reporter: (details) => {
            if (details.failed)
              throw new Error(
                `seed ${details.seed}, path ${details.counterexamplePath}, shrunk to:\n${describeOps(details.counterexample![0])}\n${String(details.errorInstance)}`,
              );
          },
        },
      );
    });
  }
});
