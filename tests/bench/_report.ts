/**
 * A benchmark's result record: rows of paired CPU times (ours against a peer), quality rows where a
 * benchmark measures something other than speed, and the machine they ran on. At the end it prints one
 * table and writes bench-results/NAME.json (NAME.quick.json for smoke runs).
 *
 * The figure of a paired row is the median of its pair ratios; the spread (min–max of the pair ratios,
 * and p10–p90 from 10 pairs on) says how much the machine's load moved it. A figure whose spread
 * crosses 1.0 is not a win.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, quantile, type PairTimes } from './_pairedCpu';

/** Which way a ratio reads: peer/ours above 1 means ours is faster; ours/peer below 1 means the same. */
export type RatioOf = 'peer/ours' | 'ours/peer';

export interface Spread {
  min: number;
  max: number;
  /** From 10 pairs on. */
  p10?: number;
  p90?: number;
}

export interface PairedRow {
  name: string;
  /** [ours, peer]. */
  contenders: [string, string];
  /** Medians of each side's CPU ms per unit of work. */
  ourMs: number;
  peerMs: number;
  ratioOf: RatioOf;
  /** Median of the pair ratios. */
  ratio: number;
  spread: Spread;
  pairs: number;
  /** What one timed run is ("pass over 100,000 rays"). */
  unit: string;
  ratios: number[];
  extra?: Record<string, unknown>;
}

/** A row that measures no speed against a peer (fall-through shares, crack counts, step profiles). */
export interface QualityRow {
  name: string;
  [field: string]: unknown;
}

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function gitCommit(): string | null {
  try {
    const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit}+changes` : commit;
  } catch {
    return null;
  }
}

export function spreadOf(ratios: readonly number[]): Spread {
  const spread: Spread = { min: Math.min(...ratios), max: Math.max(...ratios) };
  if (ratios.length >= 10) {
    spread.p10 = quantile(ratios, 0.1);
    spread.p90 = quantile(ratios, 0.9);
  }
  return spread;
}

export const formatSpread = (spread: Spread, digits = 2): string =>
  `${spread.min.toFixed(digits)}–${spread.max.toFixed(digits)}` +
  (spread.p10 === undefined ? '' : `, p10–p90 ${spread.p10.toFixed(digits)}–${spread.p90!.toFixed(digits)}`);

/** A paired row from the times of pairedCpu: `ours` and `peer` name the contenders. */
export function pairedRow(
  name: string,
  ours: string,
  peer: string,
  times: PairTimes,
  options: { unit: string; ratioOf?: RatioOf; extra?: Record<string, unknown> },
): PairedRow {
  const ratioOf = options.ratioOf ?? 'peer/ours';
  const ratios = times.oursMs.map((o, k) => (ratioOf === 'peer/ours' ? times.peerMs[k]! / o : o / times.peerMs[k]!));
  return {
    name,
    contenders: [ours, peer],
    ourMs: median(times.oursMs),
    peerMs: median(times.peerMs),
    ratioOf,
    ratio: median(ratios),
    spread: spreadOf(ratios),
    pairs: ratios.length,
    unit: options.unit,
    ratios,
    ...(options.extra === undefined ? {} : { extra: options.extra }),
  };
}

/** Does the spread cross 1.0 (the pairs do not agree on who is faster)? */
export const crossesOne = (row: PairedRow): boolean => row.spread.min <= 1 && row.spread.max >= 1;

export class BenchReport {
  readonly rows: PairedRow[] = [];
  readonly quality: QualityRow[] = [];
  readonly name: string;
  private readonly notes: string[] = [];
  private readonly started = { date: new Date().toISOString(), loadavg: loadavg() };

  /**
   * @param name the benchmark's name (its script's file name without .ts: import.meta.url works)
   * @param parameters sizes, seeds, pair counts: whatever it takes to run it again the same way
   */
  constructor(
    name: string,
    private readonly parameters: Record<string, unknown>,
    private readonly quick = process.argv.includes('--quick'),
  ) {
    this.name = basename(name.startsWith('file:') ? fileURLToPath(name) : name).replace(/\.ts$/, '');
  }

  add(row: PairedRow): PairedRow {
    this.rows.push(row);
    return row;
  }

  addQuality(row: QualityRow): void {
    this.quality.push(row);
  }

  /** A line kept in the JSON (targets, anchors, correctness verdicts); the script prints its own. */
  note(text: string): void {
    this.notes.push(text);
  }

  /** Prints the table of paired rows and writes the JSON; returns the JSON's path. */
  finish(extra: Record<string, unknown> = {}): string {
    if (this.rows.length > 0) {
      const header = ['row (ours)', 'peer', 'ours ms', 'peer ms', 'ratio of', 'median', 'spread min–max', 'p10–p90', 'pairs', ''];
      const lines = this.rows.map((row) => [
        row.name,
        row.contenders[1],
        row.ourMs.toPrecision(4),
        row.peerMs.toPrecision(4),
        row.ratioOf,
        row.ratio.toFixed(3),
        `${row.spread.min.toFixed(3)}–${row.spread.max.toFixed(3)}`,
        row.spread.p10 === undefined ? '' : `${row.spread.p10.toFixed(3)}–${row.spread.p90!.toFixed(3)}`,
        String(row.pairs),
        crossesOne(row) ? 'spread crosses 1' : '',
      ]);
      const widths = header.map((h, c) => Math.max(h.length, ...lines.map((line) => line[c]!.length)));
      const format = (line: string[]): string =>
        line
          .map((cell, c) => (c < 2 || c === 4 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
          .join('  ')
          .trimEnd();
      console.log(`\n${this.name}: CPU ms per run (medians); ratio: median of the pair ratios, spread: their min–max`);
      console.log(format(header));
      console.log(widths.map((w) => '-'.repeat(w)).join('  '));
      for (const line of lines) console.log(format(line));
      const units = [...new Set(this.rows.map((row) => row.unit))];
      console.log(`one run = ${units.join('; ')}`);
    }
    const record = {
      benchmark: this.name,
      quick: this.quick,
      parameters: this.parameters,
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? null,
        platform: `${platform()} ${release()}`,
        node: process.version,
        commit: gitCommit(),
        started: this.started.date,
        finished: new Date().toISOString(),
        loadavgStart: this.started.loadavg,
        loadavgEnd: loadavg(),
      },
      rows: this.rows,
      quality: this.quality,
      notes: this.notes,
      ...extra,
    };
    const dir = join(root, 'bench-results');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${this.name}${this.quick ? '.quick' : ''}.json`);
    writeFileSync(path, JSON.stringify(record, null, 2) + '\n');
    console.log(`wrote ${path.slice(root.length + 1)}`);
    return path;
  }
}
