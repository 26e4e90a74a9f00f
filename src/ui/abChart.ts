import type { RayEmitterStrategy, TraceResult } from '../core';
import type { Bar, BarChart, BarGroup } from './barChart';

/** A's and B's colours in every A/B chart. */
export const A_COLOUR = '#5fb3f9';
export const B_COLOUR = '#f5a623';

/** A contender's name in the chart: its tree and the kernel that actually ran. */
function name(strategy: RayEmitterStrategy, result: TraceResult): string {
  if (result.external !== null) return result.external;
  return `${strategy.tree} ${result.kernel === 'wasm-simd' ? 'SIMD' : 'TS'}`;
}

const fixed = (value: number): string => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

/**
 * The last A/B trace as bars, compact enough for the timing panel: time, then nodes, boxes and
 * triangles per ray, A over B on each metric's own scale, each bar with its number and B's bar with its
 * ratio to A. The title says which strategy is A and which is B, and over how many timed traces the
 * times are medians (each strategy warms up untimed first: RayEmitterSystem).
 */
export function abChart(
  rays: number,
  a: RayEmitterStrategy,
  resultA: TraceResult,
  b: RayEmitterStrategy,
  resultB: TraceResult,
  differing: number,
): BarChart {
  const n = Math.max(rays, 1);
  const metric = (title: string, valueA: number, valueB: number, text: (value: number) => string): BarGroup => {
    const ratio = valueA > 0 ? ` · B/A ${(valueB / valueA).toFixed(2)}×` : '';
    const bars: Bar[] = [
      { label: `${title} A`, value: valueA, colour: A_COLOUR, text: text(valueA) },
      { label: 'B', value: valueB, colour: B_COLOUR, text: text(valueB) + ratio },
    ];
    return { title: '', bars };
  };
  const rate = (ms: number): string => (ms > 0 ? ` · ${(rays / ms / 1000).toFixed(2)} M rays/s` : '');
  const ca = resultA.counters;
  const cb = resultB.counters;
  const hits = differing === 0 ? 'same hits' : `${differing.toLocaleString('en')} hits differ`;
  const time = metric('time', resultA.ms, resultB.ms, (ms) => `${fixed(ms)} ms${rate(ms)}`);
  const title = `A/B: A ${name(a, resultA)} · B ${name(b, resultB)}\n${rays.toLocaleString('en')} rays · ${hits} · median of ${resultA.samples} traces`;
  // Another library's walk counts no nodes, boxes or triangles: time is the only metric both have.
  if (resultB.external !== null) return { title, groups: [time] };
  return {
    title: `A/B: A ${name(a, resultA)} · B ${name(b, resultB)}\n${rays.toLocaleString('en')} rays · ${hits} · median of ${resultA.samples} traces`,
    groups: [
      metric('time', resultA.ms, resultB.ms, (ms) => `${fixed(ms)} ms${rate(ms)}`),
      metric('nodes/ray', ca.nodesVisited / n, cb.nodesVisited / n, fixed),
      metric('boxes/ray', ca.boxesTested / n, cb.boxesTested / n, fixed),
      metric('triangles/ray', ca.trianglesTested / n, cb.trianglesTested / n, fixed),
    ],
  };
}
