/**
 * The long fuzzing budget: `npm run fuzz -- [--ops N] [--seed S] [--strategy NAME] [--only PARTS] [--scale K]`.
 *
 * - broadphase: random operation sequences on every broad-phase strategy against brute force until each
 *   strategy has run at least N operations (default 1,000,000);
 * - plane-cache, history, character: the stateful parts against their models (K × 400, 15 and 40 sequences);
 * - scenes, fields: mutated presets and field programs (K × 150 and 400), each refused with a located error or run, and
 *   timed: refusing or accepting any single input in over a second counts as a hang (running what was
 *   accepted is timed and reported, not judged: a valid scene may ask for a lot of work).
 *
 * PARTS is a comma-separated subset of those names (all by default). The seed is printed first; a
 * failure prints the shrunk case and exits with status 1.
 */
import fc from 'fast-check';
import type { BroadPhaseName } from '../src/broadphase/index';
import { FUZZED_STRATEGIES, broadPhaseOpsArbitrary, describeOps, emptyCounts, runBroadPhaseModel } from '../tests/fuzz/broadPhaseModel';
import { characterCaseArbitrary, runCharacterModel } from '../tests/fuzz/characterModel';
import { historyOpsArbitrary, historyWorld, runHistoryModel, straightRun } from '../tests/fuzz/historyModel';
import { planeCacheCaseArbitrary, runPlaneCacheModel } from '../tests/fuzz/planeCacheModel';
import {
  describeFieldCase,
  describeSceneCase,
  fieldCaseArbitrary,
  fieldSources,
  presetSources,
  runFieldCase,
  runSceneCase,
  sceneCaseArbitrary,
  type CaseTimes,
} from '../tests/fuzz/sceneMutations';

const PARTS = ['broadphase', 'plane-cache', 'history', 'character', 'scenes', 'fields'] as const;
type Part = (typeof PARTS)[number];

interface Options {
  operations: number;
  seed: number;
  strategies: readonly BroadPhaseName[];
  parts: readonly Part[];
  /** Multiplies the base run counts of the parts other than the broad-phase. */
  scale: number;
}

function parseOptions(args: readonly string[]): Options {
  const options: Options = { operations: 1_000_000, seed: Date.now() % 2 ** 31, strategies: FUZZED_STRATEGIES, parts: PARTS, scale: 20 };
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i];
    const value = args[i + 1] ?? '';
    if (flag === '--ops') options.operations = Number(value);
    else if (flag === '--seed') options.seed = Number(value);
    else if (flag === '--scale') options.scale = Number(value);
    else if (flag === '--strategy') options.strategies = FUZZED_STRATEGIES.filter((name) => name === value);
    else if (flag === '--only') options.parts = PARTS.filter((part) => value.split(',').includes(part));
    else throw new Error(`unknown option ${flag}; use --ops N, --seed S, --strategy NAME, --only ${PARTS.join(',')}, --scale K`);
  }
  if (
    !(options.operations > 0) ||
    !Number.isInteger(options.seed) ||
    options.strategies.length === 0 ||
    options.parts.length === 0 ||
    !(options.scale > 0)
  ) {
    throw new Error(
      `bad options ${args.join(' ')}: --ops a positive number, --seed an integer, --strategy one of ${FUZZED_STRATEGIES.join(', ')}, ` +
        `--only some of ${PARTS.join(',')}, --scale a positive number`,
    );
  }
  return options;
}

/** Longer sequences than the unit test: more churn per fresh broad-phase. */
const SEQUENCE_LENGTH = 200;
const RUNS_PER_BATCH = 500;
/** An input that takes longer than this to refuse or to run counts as a hang. */
const HANG_MS = 1000;

const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const count = (n: number): string => n.toLocaleString('en');

function report<Value>(name: string, result: fc.RunDetails<[Value]>, describe: (value: Value) => string): boolean {
  if (!result.failed) return true;
  console.error(`FAILED ${name}: seed ${result.seed}, path ${result.counterexamplePath}`);
  if (result.counterexample !== null && result.counterexample !== undefined) console.error(`shrunk to: ${describe(result.counterexample[0])}`);
  console.error(String(result.errorInstance));
  return false;
}

function fuzzBroadPhases(options: Options): boolean {
  console.log(`broad-phase: ≥ ${count(options.operations)} operations per strategy against brute force`);
  const counts = emptyCounts();
  const started = performance.now();
  for (const name of options.strategies) {
    const strategyStart = performance.now();
    let batch = 0;
    while ((counts.operations.get(name) ?? 0) < options.operations) {
      const seed = (options.seed + 7919 * batch++ + 104729 * FUZZED_STRATEGIES.indexOf(name)) | 0;
      const result = fc.check(
        fc.property(broadPhaseOpsArbitrary(FUZZED_STRATEGIES, SEQUENCE_LENGTH), (ops) => runBroadPhaseModel(name, ops, counts)),
        { seed, numRuns: RUNS_PER_BATCH },
      );
      if (!report(name, result, describeOps)) return false;
    }
    console.log(`  ${name.padEnd(22)} reached ${count(counts.operations.get(name) ?? 0).padStart(11)} operations after ${seconds(strategyStart)}`);
  }
  console.log('  operations per strategy over the whole run (a switch carries a sequence on to another strategy):');
  for (const name of FUZZED_STRATEGIES) console.log(`    ${name.padEnd(22)} ${count(counts.operations.get(name) ?? 0).padStart(11)}`);
  console.log(`  ${count(counts.steps)} steps, ${count(counts.pairsCompared)} pairs compared, ${seconds(started)}`);
  return true;
}

function fuzzStateful(options: Options): boolean {
  const { scale, seed } = options;
  if (options.parts.includes('plane-cache')) {
    const started = performance.now();
    const runs = Math.round(400 * scale);
    const result = fc.check(
      fc.property(planeCacheCaseArbitrary(200), (test) => runPlaneCacheModel(test)),
      { seed, numRuns: runs },
    );
    if (!report('plane cache', result, (value) => JSON.stringify(value))) return false;
    console.log(`plane cache: ${count(runs)} sequences of up to 200 operations against a Map, ${seconds(started)}`);
  }
  if (options.parts.includes('history')) {
    const started = performance.now();
    const sandbox = historyWorld();
    const straight = straightRun(sandbox);
    let steps = 0;
    const runs = Math.round(15 * scale);
    const result = fc.check(
      fc.property(historyOpsArbitrary, (ops) => {
        steps += runHistoryModel(sandbox, straight, ops);
      }),
      { seed, numRuns: runs },
    );
    if (!report('history', result, (value) => JSON.stringify(value))) return false;
    console.log(`history: ${count(runs)} sequences of step, back and restart (${count(steps)} steps), ${seconds(started)}`);
  }
  if (options.parts.includes('character')) {
    const started = performance.now();
    let frames = 0;
    const runs = Math.round(40 * scale);
    const result = fc.check(
      fc.property(characterCaseArbitrary(30), (test) => {
        frames += runCharacterModel(test);
      }),
      { seed, numRuns: runs },
    );
    if (!report('character', result, (value) => JSON.stringify(value))) return false;
    console.log(`character: ${count(runs)} input sequences (${count(frames)} frames), never below the terrain, ${seconds(started)}`);
  }
  return true;
}

function fuzzBoundary<Case>(
  name: string,
  runs: number,
  seed: number,
  arbitrary: fc.Arbitrary<Case>,
  run: (test: Case, times: CaseTimes) => string,
  describe: (test: Case) => string,
): boolean {
  const started = performance.now();
  const outcomes = new Map<string, number>();
  const slowest = { decideMs: 0, decideCase: '', runMs: 0, runCase: '' };
  const result = fc.check(
    fc.property(arbitrary, (test) => {
      const times: CaseTimes = { decideMs: 0, runMs: 0 };
      const outcome = run(test, times);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      if (times.decideMs > slowest.decideMs)
        Object.assign(slowest, { decideMs: times.decideMs, decideCase: describe(test).split('\n')[0]!.slice(0, 300) });
      if (times.runMs > slowest.runMs) Object.assign(slowest, { runMs: times.runMs, runCase: describe(test).split('\n')[0]!.slice(0, 300) });
      if (times.decideMs > HANG_MS) throw new Error(`refusing or accepting took ${times.decideMs.toFixed(0)} ms of CPU (a hang: over ${HANG_MS} ms)`);
    }),
    { seed, numRuns: runs },
  );
  if (!report(name, result, describe)) return false;
  const summary = [...outcomes].map(([outcome, n]) => `${count(n)} ${outcome}`).join(', ');
  console.log(`${name}: ${count(runs)} mutants, ${summary}, ${seconds(started)}`);
  console.log(`  slowest to refuse or accept: ${slowest.decideMs.toFixed(0)} ms of CPU, ${slowest.decideCase}`);
  console.log(`  slowest accepted run: ${slowest.runMs.toFixed(0)} ms of CPU, ${slowest.runCase}`);
  return true;
}

const options = parseOptions(process.argv.slice(2));
console.log(`fuzzing ${options.parts.join(', ')} with seed ${options.seed} (replay: --seed ${options.seed})`);
let passed = true;
if (options.parts.includes('broadphase')) passed &&= fuzzBroadPhases(options);
if (passed) passed &&= fuzzStateful(options);
if (passed && options.parts.includes('scenes')) {
  const scenes = presetSources();
  passed &&= fuzzBoundary(
    'scenes',
    Math.round(150 * options.scale),
    options.seed,
    sceneCaseArbitrary,
    (test, times) => runSceneCase(scenes, test, times),
    (test) => describeSceneCase(scenes, test),
  );
}
if (passed && options.parts.includes('fields')) {
  const fields = fieldSources();
  passed &&= fuzzBoundary(
    'fields',
    Math.round(400 * options.scale),
    options.seed,
    fieldCaseArbitrary,
    (test, times) => runFieldCase(fields, test, times),
    (test) => describeFieldCase(fields, test),
  );
}
if (!passed) process.exitCode = 1;
