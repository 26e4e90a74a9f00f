import type { MetricValue, Sandbox } from './sandbox';

/** What a recording was made with: enough to reproduce it and to compare machines. */
export interface RecordingInfo {
  scene: string;
  seed: number;
  /** Every setting in effect (the app passes its whole settings state). */
  settings: unknown;
  /** User agent, logical cores, anything else known about the machine. */
  machine: Record<string, string | number>;
  startedAt: string;
}

export interface RecordedFrame {
  frame: number;
  time: number;
  /** Milliseconds of each phase that ran this frame. */
  phases: Record<string, number>;
  /** Every subsystem's counters, flattened as "system.counter". */
  metrics: Record<string, MetricValue>;
}

/** One phase over a recording: what the benchmark table shows. */
export interface PhaseSummary {
  phase: string;
  frames: number;
  mean: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

/**
 * Records every phase's timing and every counter, frame by frame, and exports them as CSV (one row per
 * frame) or JSON (with the settings and machine info). Recording allocates per frame, which is fine for
 * a tool that keeps every frame anyway; nothing is recorded while stopped.
 */
export class FrameRecorder {
  recording = false;
  info: RecordingInfo | null = null;
  readonly frames: RecordedFrame[] = [];
  private readonly phaseColumns: string[] = [];
  private readonly metricColumns: string[] = [];
  private readonly keptAtLastCapture = new Map<string, number>();

  start(info: RecordingInfo, sandbox: Sandbox): void {
    this.info = info;
    this.frames.length = 0;
    this.phaseColumns.length = 0;
    this.metricColumns.length = 0;
    this.keptAtLastCapture.clear();
    for (const phase of sandbox.timings.phases) this.keptAtLastCapture.set(phase, sandbox.timings.keptCount(phase));
    this.recording = true;
  }

  stop(): void {
    this.recording = false;
  }

  /** Call once per frame after the step (and the render); `extra` adds counters kept outside the sandbox. */
  capture(sandbox: Sandbox, extra: Record<string, MetricValue> = {}): void {
    if (!this.recording) return;
    const timings = sandbox.timings;
    const phases: Record<string, number> = {};
    for (const phase of timings.phases) {
      const kept = timings.keptCount(phase);
      // Only phases that ran since the last capture belong to this frame (a rebuild does not run every frame).
      if (kept > (this.keptAtLastCapture.get(phase) ?? 0)) {
        phases[phase] = timings.latest(phase);
        if (!this.phaseColumns.includes(phase)) this.phaseColumns.push(phase);
      }
      this.keptAtLastCapture.set(phase, kept);
    }
    const metrics: Record<string, MetricValue> = {};
    const report = sandbox.report().metrics;
    for (const system of Object.keys(report)) {
      for (const [key, value] of Object.entries(report[system]!)) metrics[`${system}.${key}`] = value;
    }
    Object.assign(metrics, extra);
    for (const key of Object.keys(metrics)) if (!this.metricColumns.includes(key)) this.metricColumns.push(key);
    this.frames.push({ frame: sandbox.frame, time: sandbox.time, phases, metrics });
  }

  /** One header row, then one row per recorded frame; phases in ms, blank where a phase did not run. */
  toCsv(): string {
    const header = ['frame', 'time', ...this.phaseColumns.map((p) => `${p} ms`), ...this.metricColumns];
    const lines = [header.map(csvField).join(',')];
    for (const f of this.frames) {
      const row: string[] = [String(f.frame), formatNumber(f.time)];
      for (const p of this.phaseColumns) row.push(p in f.phases ? formatNumber(f.phases[p]!) : '');
      for (const m of this.metricColumns) row.push(m in f.metrics ? csvField(String(f.metrics[m])) : '');
      lines.push(row.join(','));
    }
    return lines.join('\n') + '\n';
  }

  toJson(): string {
    return JSON.stringify({ info: this.info, summary: this.summary(), frames: this.frames }, null, 1);
  }

  /** Mean, median, 95th percentile, min and max of each phase over the recorded frames. */
  summary(): PhaseSummary[] {
    return this.phaseColumns.map((phase) => {
      const samples = Float64Array.from(this.frames.filter((f) => phase in f.phases).map((f) => f.phases[phase]!)).sort();
      const n = samples.length;
      let sum = 0;
      for (let i = 0; i < n; i++) sum += samples[i]!;
      const at = (q: number): number => (n === 0 ? 0 : samples[Math.min(n - 1, Math.floor(q * n))]!);
      return {
        phase,
        frames: n,
        mean: n === 0 ? 0 : sum / n,
        median: at(0.5),
        p95: at(0.95),
        min: n === 0 ? 0 : samples[0]!,
        max: n === 0 ? 0 : samples[n - 1]!,
      };
    });
  }

  /** The summary as a plain-text table to paste into notes or slides. */
  summaryTable(): string {
    const rows = this.summary().map((s) => [s.phase, String(s.frames), ms(s.mean), ms(s.median), ms(s.p95), ms(s.min), ms(s.max)]);
    const header = ['phase', 'frames', 'mean ms', 'median', 'p95', 'min', 'max'];
    const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
    const line = (cells: string[]): string => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
    return [line(header), ...rows.map(line)].join('\n');
  }
}

function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function formatNumber(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 1e4) / 1e4) : '';
}

function ms(value: number): string {
  return value >= 100 ? value.toFixed(1) : value.toFixed(3);
}
