import type { PhaseSummary } from '../core';

/** What a sweep drives: the pool's size and the page's benchmark. Nothing here touches the DOM. */
export interface ThreadSweepHost {
  /** Sizes the ray pool to `workers` beside the main thread; resolves once it has them. */
  setWorkers(workers: number): Promise<void>;
  /** The pool's size now (restored when the sweep ends). */
  workers(): number;
  /** Starts one benchmark (restart, warm-up, recorded frames); false when one cannot start. */
  startBenchmark(): boolean;
}

/** One thread count's benchmark: its phase summaries, as the benchmark dialog shows them. */
export interface ThreadSweepPoint {
  readonly threads: number;
  readonly summary: readonly PhaseSummary[];
}

/** A finished sweep: its points (1 thread first) and the table to copy. */
export interface ThreadSweepResult {
  readonly points: readonly ThreadSweepPoint[];
  readonly table: string;
}

/** Phases a sweep reports: the whole frame, each system's step, and the timed phases inside them
 *  that take at least this many ms on one thread (shorter ones are noise at a frame's resolution). */
export const SWEEP_MIN_MS = 0.05;

/**
 * The benchmark run once per thread count, 1 … `maxThreads` (the main thread plus 0 … maxThreads − 1
 * pool workers), each the page's own benchmark of the scene (restart with its seeds, warm-up frames,
 * then the recorded frames), so the points differ only in the thread count. What changes with it is what
 * runs on the pool (the ray emitters' casts); every other phase is a control that should stay flat.
 * The speed-up of a phase is its median at one thread over its median at n.
 */
export class ThreadSweep {
  private plan: number[] = [];
  private points: ThreadSweepPoint[] = [];
  private workersBefore = 0;
  /** The thread count of the benchmark under way; 0 while no sweep runs. */
  current = 0;

  constructor(private readonly host: ThreadSweepHost) {}

  get running(): boolean {
    return this.current > 0;
  }

  /** Starts a sweep over 1 … maxThreads threads; false when one runs or maxThreads < 2. */
  async start(maxThreads: number): Promise<boolean> {
    if (this.running || !(Number.isInteger(maxThreads) && maxThreads >= 2)) return false;
    this.workersBefore = this.host.workers();
    this.plan = Array.from({ length: maxThreads }, (_, i) => i + 1);
    this.points = [];
    if (await this.next()) return true;
    await this.host.setWorkers(this.workersBefore);
    return false;
  }

  /**
   * The benchmark the sweep started has finished with `summary`: keeps it and starts the next thread
   * count, or, after the last (or when the next cannot start), restores the pool's size and returns the
   * result.
   */
  async finished(summary: readonly PhaseSummary[]): Promise<ThreadSweepResult | null> {
    if (!this.running) return null;
    this.points.push({ threads: this.current, summary });
    if (this.plan.length > 0 && (await this.next())) return null;
    const points = this.points;
    this.current = 0;
    await this.host.setWorkers(this.workersBefore);
    return { points, table: sweepTable(points) };
  }

  /** Stops a sweep under way (the benchmark it started runs out on its own); restores the pool. */
  async cancel(): Promise<void> {
    if (!this.running) return;
    this.current = 0;
    this.plan = [];
    await this.host.setWorkers(this.workersBefore);
  }

  private async next(): Promise<boolean> {
    const threads = this.plan.shift()!;
    this.current = threads;
    await this.host.setWorkers(threads - 1);
    if (this.host.startBenchmark()) return true;
    this.current = 0;
    return false;
  }
}

/** The phases a sweep reports, in the order of the one-thread summary: frame, steps, then the rest. */
export function sweepPhases(points: readonly ThreadSweepPoint[]): string[] {
  const first = points[0];
  if (first === undefined) return [];
  const rank = (phase: string): number => (phase === 'frame' ? 0 : phase.startsWith('step.') ? 1 : 2);
  return first.summary
    .filter((s) => s.frames > 0 && (rank(s.phase) < 2 || s.median >= SWEEP_MIN_MS) && !s.phase.startsWith('view.') && s.phase !== 'render')
    .map((s) => s.phase)
    .sort((a, b) => rank(a) - rank(b));
}

/** A phase's median at each point (NaN where that run did not time it). */
export function sweepMedians(points: readonly ThreadSweepPoint[], phase: string): number[] {
  return points.map((point) => point.summary.find((s) => s.phase === phase)?.median ?? NaN);
}

/** The sweep as a table: per phase, the median ms at each thread count and its speed-up over one thread. */
export function sweepTable(points: readonly ThreadSweepPoint[]): string {
  const phases = sweepPhases(points);
  const width = Math.max(5, ...phases.map((p) => p.length));
  const header = ['phase'.padEnd(width), ...points.map((p) => `${p.threads} thread${p.threads === 1 ? '' : 's'}`.padStart(18))].join(' ');
  const rows = phases.map((phase) => {
    const medians = sweepMedians(points, phase);
    const one = medians[0]!;
    const cells = medians.map((m, i) => {
      const text = Number.isFinite(m) ? `${m.toFixed(2)} ms` : '—';
      return (i === 0 || !(m > 0) ? text : `${text} ${(one / m).toFixed(2)}×`).padStart(18);
    });
    return [phase.padEnd(width), ...cells].join(' ');
  });
  return [`median ms per frame and speed-up over 1 thread (${points.length} runs)`, header, ...rows].join('\n');
}
