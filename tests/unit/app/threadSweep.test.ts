import { describe, expect, it } from 'vitest';
import type { PhaseSummary } from '../../../src/core';
import { ThreadSweep, sweepMedians, sweepPhases, sweepTable, type ThreadSweepHost } from '../../../src/app/threadSweep';

const phase = (name: string, median: number, frames = 30): PhaseSummary => ({
  phase: name,
  frames,
  mean: median,
  median,
  p95: median,
  min: median,
  max: median,
});

/** A host whose benchmarks start at once; it records the worker counts it was given. */
function fakeHost(startable = true): ThreadSweepHost & { sizes: number[]; starts: number } {
  let workers = 3;
  const host = {
    sizes: [] as number[],
    starts: 0,
    setWorkers: (n: number): Promise<void> => {
      host.sizes.push(n);
      workers = n;
      return Promise.resolve();
    },
    workers: (): number => workers,
    startBenchmark: (): boolean => {
      if (startable) host.starts++;
      return startable;
    },
  };
  return host;
}

/** A frame's phases at `threads` threads: rays scale with the threads, the particles do not. */
const summaryAt = (threads: number): PhaseSummary[] => [
  phase('view.rayEmitters', 0.4),
  phase('render', 5),
  phase('step.rayEmitters', 8 / threads + 0.5),
  phase('rayEmitters.A', 8 / threads),
  phase('frame', 16 / threads + 6),
  phase('step.particles', 2),
  phase('particles.tiny', 0.01),
];

describe('ThreadSweep: the benchmark once per thread count', () => {
  it('runs 1 … n threads in order, restores the pool, and reports each phase’s speed-up', async () => {
    const host = fakeHost();
    const sweep = new ThreadSweep(host);
    expect(await sweep.start(3)).toBe(true);
    expect(sweep.current).toBe(1);
    expect(host.sizes).toEqual([0]);
    expect(await sweep.finished(summaryAt(1))).toBeNull();
    expect(sweep.current).toBe(2);
    expect(await sweep.finished(summaryAt(2))).toBeNull();
    expect(sweep.current).toBe(3);
    const result = await sweep.finished(summaryAt(3));
    expect(sweep.running).toBe(false);
    // Sizes 0, 1, 2 workers for 1, 2, 3 threads, then back to the 3 it had.
    expect(host.sizes).toEqual([0, 1, 2, 3]);
    expect(host.starts).toBe(3);
    expect(result!.points.map((p) => p.threads)).toEqual([1, 2, 3]);
    // The frame and the steps first; views, the render and phases too short to time are left out.
    expect(sweepPhases(result!.points)).toEqual(['frame', 'step.rayEmitters', 'step.particles', 'rayEmitters.A']);
    expect(sweepMedians(result!.points, 'rayEmitters.A')).toEqual([8, 4, 8 / 3]);
    const table = result!.table.split('\n');
    const rays = table.find((line) => line.startsWith('rayEmitters.A'))!;
    expect(rays).toMatch(/8\.00 ms +4\.00 ms 2\.00× +2\.67 ms 3\.00×/);
    expect(table.find((line) => line.startsWith('step.particles'))).toMatch(/2\.00 ms +2\.00 ms 1\.00× +2\.00 ms 1\.00×/);
    // Nothing more happens after the sweep.
    expect(await sweep.finished(summaryAt(1))).toBeNull();
  });

  it('refuses fewer than 2 threads or a second sweep; a benchmark that cannot start ends it', async () => {
    const sweep = new ThreadSweep(fakeHost());
    expect(await sweep.start(1)).toBe(false);
    expect(await sweep.start(2.5)).toBe(false);
    expect(await sweep.start(2)).toBe(true);
    expect(await sweep.start(2)).toBe(false);
    await sweep.cancel();
    expect(sweep.running).toBe(false);
    const stuck = fakeHost(false);
    const refused = new ThreadSweep(stuck);
    expect(await refused.start(2)).toBe(false);
    expect(refused.running).toBe(false);
    // Its pool is back at the size it had.
    expect(stuck.sizes).toEqual([0, 3]);
  });

  it('a phase missing from a run shows as a dash, not a speed-up', () => {
    const points = [
      { threads: 1, summary: [phase('frame', 10), phase('step.a', 4)] },
      { threads: 2, summary: [phase('frame', 8)] },
    ];
    const line = sweepTable(points)
      .split('\n')
      .find((l) => l.startsWith('step.a'))!;
    expect(line).toMatch(/4\.00 ms +—$/);
  });
});
