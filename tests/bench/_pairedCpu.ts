/**
 * CPU time in back-to-back pairs, each contender timed from its own call site.
 *
 * - CPU time (process.cpuUsage, user + system) of this process: on a shared machine, wall time would
 *   count the other processes too.
 * - Pairs: ours and the peer run back to back, the order alternating per pair (ours, peer, then peer,
 *   ours…), so drift and load fall on both alike; the figure is the median of the pairs' ratios.
 * - Own call site: every contender gets a timing loop compiled for it alone (`new Function` whose source
 *   text names the contender), so V8 can share neither the loop's code nor its feedback between
 *   contenders. One shared `run()` site would see every contender, turn polymorphic (megamorphic past
 *   four) and time the dispatch, and its inlining decisions would depend on who ran first. Measured with
 *   five closures of a 64-element loop (200k calls per chunk): through one shared loop two of them ran
 *   11–17% slower and one 20% faster than through their own loops; with runs of a millisecond or more
 *   (16k box–triangle tests per call) the two ways agreed within the noise.
 * - Several contenders against one peer (pairedCpuMany): pair after pair, every contender with its own
 *   fresh peer timing beside it, so no contender is compared to a peer timed minutes away.
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Process CPU time (user + system), milliseconds. */
export const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * CPU time of the calling thread alone (Linux: /proc/thread-self/schedstat, nanoseconds), milliseconds;
 * null where the system does not say. Unlike cpuMs it leaves out V8's helper threads (compiling hot
 * functions, concurrent garbage marking), whose work lands on whatever step runs beside it.
 */
export function threadCpuMs(): number | null {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

/**
 * A full garbage collection, for a hook run untimed before each timed run: in one process, a contender
 * that allocates a lot (three-mesh-bvh's build) otherwise leaves a collection to land in whichever run
 * comes next, its peer's included. gc is exposed at run time, so `npx tsx` needs no flag.
 */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

type TimingLoop = (run: () => void, repeats: number, clock: () => number) => number;

/** A contender ready to be timed: `time(repeats)` is the CPU ms per run of `repeats` runs. */
export interface Timed {
  readonly label: string;
  time(repeats: number): number;
}

let loopsCompiled = 0;

/** A timing loop of its own for `run`: distinct source text, so distinct compiled code and feedback. */
export function timed(label: string, run: () => void): Timed {
  const tag = JSON.stringify(`${label} #${++loopsCompiled}`);
  const source =
    `'use strict';\n// timing loop of ${tag}: this contender's alone\n` +
    `return function timingLoop(run, repeats, clock) {\n` +
    `  const start = clock();\n` +
    `  for (let r = 0; r < repeats; r++) run();\n` +
    `  return (clock() - start) / repeats;\n` +
    `};`;
  // The point is code of its own per contender: a closure would share its literal's compiled code and feedback.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call
  const loop = new Function(source)() as TimingLoop;
  return { label, time: (repeats) => loop(run, repeats, cpuMs) };
}

/** Linear-interpolated quantile (0: min, 1: max). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

export interface PairOptions {
  pairs: number;
  /** Runs per timed chunk; by default calibrated so a chunk takes ≥ minChunkMs of CPU. */
  repeats?: number;
  /** Calibration target, CPU ms per chunk (default 150; smoke runs pass less). */
  minChunkMs?: number;
  /** One untimed run of each contender before anything is timed (default true). */
  warmUp?: boolean;
  /** Untimed, before each pair (fresh inputs shared by both sides, e.g. moved geometry). */
  beforePair?: (pair: number) => void;
  /** Untimed, before each timed run of that side (its own fresh inputs, its upload); forces 1 repeat. */
  beforeOurs?: () => void;
  beforePeer?: () => void;
}

export interface PairTimes {
  /** CPU ms per run, one per pair. */
  oursMs: number[];
  peerMs: number[];
  repeats: number;
}

/** Runs per chunk so that one chunk of the slower side takes ≥ minChunkMs of CPU (after one run each). */
function calibrate(ours: Timed, peer: Timed, minChunkMs: number): number {
  const once = Math.max(0.05, ours.time(1), peer.time(1));
  return Math.max(1, Math.ceil(minChunkMs / once));
}

/** `pairs` CPU-time pairs of each [ours, peer] entry, the order alternating per pair; entries interleave. */
export function pairedCpuMany(entries: readonly (readonly [Timed, Timed])[], options: PairOptions): PairTimes[] {
  const hooks = options.beforeOurs !== undefined || options.beforePeer !== undefined;
  if (hooks && options.repeats !== undefined && options.repeats !== 1) throw new Error('beforeOurs / beforePeer need one run per timed chunk');
  const beforeOurs = options.beforeOurs ?? ((): void => {});
  const beforePeer = options.beforePeer ?? ((): void => {});
  if (options.warmUp ?? true) {
    for (const [ours, peer] of entries) {
      beforeOurs();
      ours.time(1);
      beforePeer();
      peer.time(1);
    }
  }
  const results: PairTimes[] = entries.map(([ours, peer]) => ({
    oursMs: [],
    peerMs: [],
    repeats: hooks ? 1 : (options.repeats ?? calibrate(ours, peer, options.minChunkMs ?? 150)),
  }));
  for (let pair = 0; pair < options.pairs; pair++) {
    options.beforePair?.(pair);
    entries.forEach(([ours, peer], e) => {
      const result = results[e]!;
      if (pair % 2 === 0) {
        beforeOurs();
        result.oursMs.push(ours.time(result.repeats));
        beforePeer();
        result.peerMs.push(peer.time(result.repeats));
      } else {
        beforePeer();
        result.peerMs.push(peer.time(result.repeats));
        beforeOurs();
        result.oursMs.push(ours.time(result.repeats));
      }
    });
  }
  return results;
}

/** `pairs` CPU-time pairs of ours and the peer (same repeat count for both), the order alternating. */
export function pairedCpu(ours: Timed, peer: Timed, options: PairOptions): PairTimes {
  return pairedCpuMany([[ours, peer]], options)[0]!;
}
