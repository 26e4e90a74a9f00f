/**
 * Per-phase timings in fixed-size ring buffers: the step records each phase's milliseconds per frame,
 * readers (the page's timing panel, the headless runner) take now / average / min / max over the last
 * `capacity` samples. Recording allocates nothing; a phase's buffer is made once, the first time the
 * phase is seen.
 */
export interface PhaseStats {
  /** The most recent sample. */
  now: number;
  avg: number;
  min: number;
  max: number;
  /** Samples in the window (≤ capacity). */
  count: number;
}

export interface PhaseSeries {
  readonly name: string;
  readonly samples: Float64Array;
  /** Index the next sample goes to. */
  head: number;
  count: number;
  /** Samples seen since the last clear, warm-up ones included. */
  seen: number;
  /** A one-off event (a terrain generation, a BVH build), not a per-frame phase. */
  readonly event: boolean;
}

export class TimingRing {
  readonly capacity: number;
  private readonly series = new Map<string, PhaseSeries>();
  /** Phase names in first-seen order, so displays are stable. */
  readonly phases: string[] = [];

  /** Whether record() keeps samples at all (fine-grained timing can be switched off). */
  enabled = true;
  /** The first `warmup` samples of each phase after a clear are dropped (JIT warm-up, first uploads). */
  warmup: number;

  constructor(capacity = 120, warmup = 0) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`timing window must be a positive integer, got ${capacity}`);
    if (!Number.isInteger(warmup) || warmup < 0) throw new RangeError(`warm-up must be a whole number ≥ 0, got ${warmup}`);
    this.capacity = capacity;
    this.warmup = warmup;
  }

  /** One frame's milliseconds of a per-frame phase. */
  record(phase: string, milliseconds: number): void {
    if (!this.enabled) return;
    const entry = this.entry(phase, false);
    if (entry.seen++ < this.warmup) return;
    this.push(entry, milliseconds);
  }

  /**
   * The milliseconds of a one-off event (a terrain generation, a BVH build): kept like a phase's samples,
   * never dropped as warm-up (each one counts), and marked so displays list events apart from the frame.
   */
  recordEvent(phase: string, milliseconds: number): void {
    if (!this.enabled) return;
    const entry = this.entry(phase, true);
    entry.seen++;
    this.push(entry, milliseconds);
  }

  /** Whether a phase was recorded as a one-off event (recordEvent) rather than per frame. */
  isEvent(phase: string): boolean {
    return this.series.get(phase)?.event === true;
  }

  private entry(phase: string, event: boolean): PhaseSeries {
    let entry = this.series.get(phase);
    if (entry === undefined) {
      entry = { name: phase, samples: new Float64Array(this.capacity), head: 0, count: 0, seen: 0, event };
      this.series.set(phase, entry);
      this.phases.push(phase);
    }
    return entry;
  }

  private push(entry: PhaseSeries, milliseconds: number): void {
    entry.samples[entry.head] = milliseconds;
    entry.head = (entry.head + 1) % this.capacity;
    if (entry.count < this.capacity) entry.count++;
  }

  /** Runs `work`, records its duration under `phase` and returns its result. */
  time<T>(phase: string, work: () => T): T {
    const start = performance.now();
    const result = work();
    this.record(phase, performance.now() - start);
    return result;
  }

  /** Runs a one-off `work`, records its duration as the event `phase` and returns its result. */
  timeEvent<T>(phase: string, work: () => T): T {
    const start = performance.now();
    const result = work();
    this.recordEvent(phase, performance.now() - start);
    return result;
  }

  /** The most recent kept sample of a phase, NaN when it has none. */
  latest(phase: string): number {
    const entry = this.series.get(phase);
    if (entry === undefined || entry.count === 0) return NaN;
    return entry.samples[(entry.head - 1 + this.capacity) % this.capacity]!;
  }

  /** Samples kept for a phase since the last clear (grows past the window; for "new this frame" checks). */
  keptCount(phase: string): number {
    const entry = this.series.get(phase);
    return entry === undefined ? 0 : Math.max(0, entry.seen - this.warmup);
  }

  has(phase: string): boolean {
    return this.series.has(phase);
  }

  stats(phase: string, out: PhaseStats = { now: 0, avg: 0, min: 0, max: 0, count: 0 }): PhaseStats {
    const entry = this.series.get(phase);
    if (entry === undefined || entry.count === 0) {
      out.now = out.avg = out.min = out.max = 0;
      out.count = 0;
      return out;
    }
    const { samples, count, head } = entry;
    const capacity = this.capacity;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let k = 0; k < count; k++) {
      const value = samples[(head - 1 - k + capacity) % capacity]!;
      sum += value;
      if (value < min) min = value;
      if (value > max) max = value;
    }
    out.now = samples[(head - 1 + capacity) % capacity]!;
    out.avg = sum / count;
    out.min = min;
    out.max = max;
    out.count = count;
    return out;
  }

  /** The window's samples of one phase, oldest first (for sparklines and reports). */
  window(phase: string): Float64Array {
    const entry = this.series.get(phase);
    if (entry === undefined) return new Float64Array(0);
    const result = new Float64Array(entry.count);
    const start = (entry.head - entry.count + this.capacity) % this.capacity;
    for (let k = 0; k < entry.count; k++) result[k] = entry.samples[(start + k) % this.capacity]!;
    return result;
  }

  /** Drops the phases `keep` refuses (a system that left the sandbox should leave no stale rows behind). */
  forgetPhases(keep: (phase: string) => boolean): void {
    for (let i = this.phases.length - 1; i >= 0; i--) {
      const phase = this.phases[i]!;
      if (keep(phase)) continue;
      this.series.delete(phase);
      this.phases.splice(i, 1);
    }
  }

  /** Forgets the per-frame samples (a restart, a benchmark's start); one-off events stay, they still describe the world. */
  clear(): void {
    for (const entry of this.series.values()) {
      if (entry.event) continue;
      entry.head = 0;
      entry.count = 0;
      entry.seen = 0;
    }
  }
}

/** Median, min and max of a sample list: the headless runner's summary. */
export function summarize(samples: ArrayLike<number>): { median: number; min: number; max: number; mean: number } {
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  if (n === 0) return { median: 0, min: 0, max: 0, mean: 0 };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  return { median, min: sorted[0]!, max: sorted[n - 1]!, mean: sum / n };
}
