import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../../src/sim/sandbox';
import { historyOpsArbitrary, historyWorld, runHistoryModel, straightRun } from '../../fuzz/historyModel';

const SEED = 2103;
let sandbox: Sandbox;
let straight: Record<string, string>[];

beforeAll(() => {
  sandbox = historyWorld();
  straight = straightRun(sandbox);
});

describe('step-back history model-based fuzzing', () => {
  it(`back N then forward N equals never going back, every rewindable system on (seed ${SEED})`, () => {
    fc.assert(
      fc.property(historyOpsArbitrary, (ops) => {
        runHistoryModel(sandbox, straight, ops);
      }),
      { seed: SEED, numRuns: 10 },
    );
  });
});
