import fc from 'fast-check';
import { describe, it } from 'vitest';
import { characterCaseArbitrary, runCharacterModel } from '../../fuzz/characterModel';

const SEED = 2104;

describe('capsule character fuzzing', () => {
  it(`never ends a step below the terrain on random walks, runs, jumps, frame lengths and reshapes (seed ${SEED})`, () => {
    fc.assert(
      fc.property(characterCaseArbitrary(12), (test) => {
        runCharacterModel(test);
      }),
      { seed: SEED, numRuns: 25 },
    );
  });
});
