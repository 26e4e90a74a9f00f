import type { Bar, BarChart, BarGroup } from './barChart';
import { groupColour, phaseColour } from './phaseColours';
import { FRAME_PHASE } from './profileLayout';

/** One phase of a thread sweep: its median ms at each thread count of the sweep. */
export interface SweepRow {
  readonly phase: string;
  readonly medians: readonly number[];
}

/**
 * A thread sweep as a bar chart: one group per phase, one bar per thread count, its length the speed-up
 * over one thread (1 thread = 1×), its text the speed-up and the median ms. A phase that runs on the
 * pool should grow towards n× at n threads; the others are controls and should stay near 1×.
 */
export function threadSweepChart(threads: readonly number[], rows: readonly SweepRow[]): BarChart {
  const groups: BarGroup[] = rows.map(({ phase, medians }) => {
    const one = medians[0]!;
    const colour = phase === FRAME_PHASE ? groupColour(FRAME_PHASE) : phaseColour(phase);
    const bars: Bar[] = [];
    for (let i = 0; i < threads.length; i++) {
      const median = medians[i]!;
      if (!(median > 0 && one > 0)) continue;
      const speedUp = one / median;
      const n = threads[i]!;
      bars.push({ label: `${n} thread${n === 1 ? '' : 's'}`, value: speedUp, colour, text: `${speedUp.toFixed(2)}× · ${median.toFixed(2)} ms` });
    }
    return { title: phase === FRAME_PHASE ? 'whole frame' : phase, note: 'speed-up over 1 thread', bars };
  });
  return { title: `thread sweep · 1 … ${threads[threads.length - 1] ?? 1} threads · median per frame`, groups };
}
