/**
 * The long fuzzing budget: `npm run fuzz -- [--ops N] [--seed S] [--strategy NAME]`.
 * Replays random operation sequences on every broad-phase strategy against brute force until each
 * strategy has run at least N operations (default 1,000,000), then prints operations, steps and time per
 * strategy. The seed is printed first; a failure prints the shrunk sequence and exits with status 1.
 */
import fc from 'fast-check';
import type { BroadPhaseName } from '../src/broadphase/index';
import { FUZZED_STRATEGIES, broadPhaseOpsArbitrary, describeOps, emptyCounts, runBroadPhaseModel } from '../tests/fuzz/broadPhaseModel';

interface Options {
  operations: number;
  seed: number;
  strategies: readonly BroadPhaseName[];
}

function parseOptions(args: readonly string[]): Options {
  const options: Options = { operations: 1_000_000, seed: Date.now() % 2 ** 31, strategies: FUZZED_STRATEGIES };
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i];
    const value = args[i + 1] ?? '';
    if (flag === '--ops') options.operations = Number(value);
    else if (flag === '--seed') options.seed = Number(value);
    else if (flag === '--strategy') options.strategies = FUZZED_STRATEGIES.filter((name) => name === value);
    else throw new Error(`unknown option ${flag}; use --ops N, --seed S, --strategy NAME`);
  }
  if (!(options.operations > 0) || !Number.isInteger(options.seed) || options.strategies.length === 0) {
    throw new Error(`bad options ${args.join(' ')}: --ops a positive number, --seed an integer, --strategy one of ${FUZZED_STRATEGIES.join(', ')}`);
  }
  return options;
}

/** Longer sequences than the unit test: more churn per fresh broad-phase. */
const SEQUENCE_LENGTH = 200;
const RUNS_PER_BATCH = 500;

function fuzzBroadPhases(options: Options): boolean {
  console.log(`broad-phase model fuzzing, seed ${options.seed}, ≥ ${options.operations.toLocaleString('en')} operations per strategy`);
  const counts = emptyCounts();
  const started = performance.now();
  const rows: string[] = [];
  for (const name of options.strategies) {
    const strategyStart = performance.now();
    let batch = 0;
    let runs = 0;
    const stepsBefore = counts.steps;
    while ((counts.operations.get(name) ?? 0) < options.operations) {
      const seed = (options.seed + 7919 * batch++ + 104729 * FUZZED_STRATEGIES.indexOf(name)) | 0;
      const result = fc.check(
        fc.property(broadPhaseOpsArbitrary(FUZZED_STRATEGIES, SEQUENCE_LENGTH), (ops) => runBroadPhaseModel(name, ops, counts)),
        { seed, numRuns: RUNS_PER_BATCH },
      );
      runs += RUNS_PER_BATCH;
      if (result.failed) {
        console.error(`FAILED ${name}: batch seed ${seed}, path ${result.counterexamplePath}`);
        console.error(`shrunk to: ${describeOps(result.counterexample![0])}`);
        console.error(String(result.errorInstance));
        return false;
      }
    }
    const seconds = (performance.now() - strategyStart) / 1000;
    rows.push(
      `${name.padEnd(22)} ${(counts.operations.get(name) ?? 0).toLocaleString('en').padStart(12)} ops ` +
        `${runs.toLocaleString('en').padStart(8)} sequences ${(counts.steps - stepsBefore).toLocaleString('en').padStart(10)} steps ${seconds.toFixed(1).padStart(7)} s`,
    );
    console.log(rows[rows.length - 1]);
  }
  console.log(`operations per strategy over the whole run (switches move operations to other strategies):`);
  for (const name of FUZZED_STRATEGIES) console.log(`  ${name.padEnd(22)} ${(counts.operations.get(name) ?? 0).toLocaleString('en').padStart(12)}`);
  console.log(
    `${counts.steps.toLocaleString('en')} steps, ${counts.pairsCompared.toLocaleString('en')} pairs compared, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return true;
}

const options = parseOptions(process.argv.slice(2));
if (!fuzzBroadPhases(options)) process.exitCode = 1;
