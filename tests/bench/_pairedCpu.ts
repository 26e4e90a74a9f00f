/**
 * CPU-time pairs for benchmarks: each contender timed from its caller's own call site, in back-to-back
 * pairs whose order alternates (A, B, then B, A…), so drift and load fall on both alike.
 */

/** Process CPU time (user + system), milliseconds. */
export const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** CPU ms per run of `run`, over `repeats` runs. */
export function timeRuns(run: () => void, repeats: number): number {
  const start = cpuMs();
  for (let r = 0; r < repeats; r++) run();
  return (cpuMs() - start) / repeats;
}

/** Calibrates a repeat count so one timed chunk takes ≥ 150 ms of CPU on `run` (after one warm-up run). */
export function repeatsFor(run: () => void): number {
  run();
  const once = Math.max(0.05, timeRuns(run, 1));
  return Math.max(1, Math.ceil(150 / once));
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

/** `pairs` CPU-time pairs of A and B (same repeat count for both), the order alternating per pair. */
export function pairedRounds(runA: () => void, runB: () => void, pairs: number): { aMs: number[]; bMs: number[] } {
  const repeats = Math.max(repeatsFor(runA), repeatsFor(runB));
  const aMs: number[] = [];
  const bMs: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    if (pair % 2 === 0) {
      aMs.push(timeRuns(runA, repeats));
      bMs.push(timeRuns(runB, repeats));
    } else {
      bMs.push(timeRuns(runB, repeats));
      aMs.push(timeRuns(runA, repeats));
    }
  }
  return { aMs, bMs };
}
