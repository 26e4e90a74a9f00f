import type { PhaseSummary } from '../core';
import type { Bar, BarChart, BarGroup } from './barChart';
import { groupColour, phaseColour } from './phaseColours';
import { FRAME_PHASE, profileLayout } from './profileLayout';

/**
 * A view's median below which it counts as idle when its system took no step: the views of systems
 * switched off still run each frame (to hide what they drew) and would list every system at 0.01 ms.
 */
const IDLE_VIEW_MS = 0.05;

const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

/**
 * A benchmark's summary as a bar chart: each system's share of a frame (its simulation step and its
 * view), the render and the whole frame, then the finer phases inside the steps. A bar is the median
 * over the recorded frames, its whisker the spread from the fastest frame to the 95th percentile.
 */
export function benchmarkChart(summary: readonly PhaseSummary[]): BarChart {
  const byPhase = new Map(summary.map((s) => [s.phase, s]));
  const layout = profileLayout(
    summary.map((s) => s.phase),
    () => false,
  );
  const bar = (phase: string, label: string, colour: string): Bar | null => {
    const s = byPhase.get(phase);
    if (s === undefined || s.frames === 0) return null;
    return { label, value: s.median, low: s.min, high: s.p95, colour, text: `${ms(s.median)} ms (p95 ${ms(s.p95)})` };
  };
  const partLabel = (group: string, phase: string): string =>
    phase.startsWith('step.') ? `${group} step` : phase.startsWith('view.') ? `${group} view` : phase;
  const frameBars: Bar[] = [];
  const detailBars: Bar[] = [];
  for (const group of layout.groups) {
    const stepped = byPhase.has(`step.${group.group}`);
    for (const phase of group.parts) {
      const b = bar(phase, partLabel(group.group, phase), groupColour(group.group));
      if (b === null || (phase.startsWith('view.') && !stepped && b.value < IDLE_VIEW_MS)) continue;
      if (b.value >= 0.005 || phase.startsWith('step.')) frameBars.push(b);
    }
    for (const phase of group.details) {
      const b = bar(phase, phase, phaseColour(phase));
      if (b !== null) detailBars.push(b);
    }
  }
  const frame = bar(FRAME_PHASE, 'whole frame', groupColour(FRAME_PHASE));
  if (frame !== null) frameBars.push(frame);
  const groups: BarGroup[] = [{ title: 'per frame · median, whisker min–p95', bars: frameBars }];
  if (detailBars.length > 0) groups.push({ title: 'inside the steps', bars: detailBars });
  return { title: '', groups };
}
