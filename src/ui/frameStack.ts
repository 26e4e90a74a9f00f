import type { TimingRing } from '../core';
import { FRAME_PHASE, profileLayout, type ProfileLayout } from './profileLayout';

/** The stack's key for the frame's work no group accounts for (history, camera, the HUD itself). */
export const OTHER_KEY = 'other';

/**
 * Frame by frame, how each group's share adds up to the whole frame: sampled once per frame from the
 * timing ring (a phase counts in the frame it was recorded in, 0 in frames it was not — a paused
 * simulation, a trace that ran once), so stacked bars line up on real frames. The rest of the frame
 * (the `frame` phase minus every group) is kept as `other`. Allocates only when a new group appears.
 */
export class FrameStack {
  readonly capacity: number;
  /** Frames sampled so far, up to capacity. */
  count = 0;
  private head = 0;
  private readonly rings = new Map<string, { values: Float64Array; alive: number }>();
  private readonly seen = new Map<string, number>();
  private readonly totals: Float64Array;
  private layoutKey = '';
  layout: ProfileLayout = { groups: [], events: [] };

  constructor(capacity = 120) {
    this.capacity = capacity;
    this.totals = new Float64Array(capacity);
  }

  /** The groups to stack, in order, with `other` last. */
  get keys(): string[] {
    return [...this.layout.groups.map((g) => g.group), OTHER_KEY];
  }

  /** Takes this frame's samples from the ring. */
  sample(timings: TimingRing): void {
    const phases = timings.phases;
    const key = phases.length === 0 ? '' : `${phases.length}:${phases[phases.length - 1]!}:${phases[0]!}`;
    if (key !== this.layoutKey) {
      this.layoutKey = key;
      this.layout = profileLayout(phases, (phase) => timings.isEvent(phase));
    }
    const slot = this.head;
    for (const ring of this.rings.values()) ring.values[slot] = 0;
    let sum = 0;
    for (const group of this.layout.groups) {
      let value = 0;
      for (const part of group.parts) value += this.fresh(timings, part);
      this.ring(group.group).values[slot] = value;
      sum += value;
    }
    const frame = this.fresh(timings, FRAME_PHASE);
    const total = frame > 0 ? frame : sum;
    this.ring(OTHER_KEY).values[slot] = Math.max(0, total - sum);
    this.totals[slot] = Math.max(total, sum);
    for (const ring of this.rings.values()) ring.alive++;
    this.head = (slot + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** A key's value `age` frames ago (0: the newest frame); 0 outside what was sampled. */
  value(key: string, age: number): number {
    const ring = this.rings.get(key);
    if (ring === undefined || age >= Math.min(this.count, ring.alive)) return 0;
    return ring.values[(this.head - 1 - age + 2 * this.capacity) % this.capacity]!;
  }

  /** The whole frame's work `age` frames ago. */
  total(age: number): number {
    if (age >= this.count) return 0;
    return this.totals[(this.head - 1 - age + 2 * this.capacity) % this.capacity]!;
  }

  /** Now / average / max of a key (or of the whole frame with FRAME_PHASE) over the last `frames` sampled frames. */
  stats(key: string, frames = this.capacity): { now: number; avg: number; max: number; count: number } {
    const ring = key === FRAME_PHASE ? undefined : this.rings.get(key);
    const count = Math.min(frames, key === FRAME_PHASE ? this.count : ring === undefined ? 0 : Math.min(this.count, ring.alive));
    let sum = 0;
    let max = 0;
    for (let age = 0; age < count; age++) {
      const value = key === FRAME_PHASE ? this.total(age) : this.value(key, age);
      sum += value;
      if (value > max) max = value;
    }
    const now = count === 0 ? 0 : key === FRAME_PHASE ? this.total(0) : this.value(key, 0);
    return { now, avg: count === 0 ? 0 : sum / count, max, count };
  }

  clear(): void {
    this.count = 0;
    this.head = 0;
    for (const ring of this.rings.values()) ring.alive = 0;
  }

  /** The phase's newest sample if it was recorded since the last look, else 0. */
  private fresh(timings: TimingRing, phase: string): number {
    const kept = timings.keptCount(phase);
    const before = this.seen.get(phase) ?? 0;
    if (kept === before) return 0;
    this.seen.set(phase, kept);
    // A clear (restart, benchmark) resets the ring's counts: a lower count is new samples too.
    return kept > 0 ? timings.latest(phase) : 0;
  }

  private ring(key: string): { values: Float64Array; alive: number } {
    let ring = this.rings.get(key);
    if (ring === undefined) this.rings.set(key, (ring = { values: new Float64Array(this.capacity), alive: 0 }));
    return ring;
  }
}
