import type { BoxTable } from './boxTable';

const SAMPLE = 512;
const scratch = new Float64Array(SAMPLE);

/**
 * The axis along which box pruning scans the fewest candidates: expected candidates grow with the typical
 * box width over the spread of the boxes along the axis. Uses a sample of live boxes and robust
 * statistics (median width, 10th–90th percentile of centres) so a few boxes at huge coordinates don't
 * decide it.
 */
export function chooseSweepAxis(table: BoxTable): number {
  const count = table.liveCount;
  if (count < 2) return 0;
  const step = Math.max(1, Math.floor(count / SAMPLE));
  const sampled = Math.min(SAMPLE, Math.ceil(count / step));
  let best = 0;
  let bestScore = Infinity;
  for (let axis = 0; axis < 3; axis++) {
    const widths = scratch.subarray(0, sampled);
    for (let s = 0; s < sampled; s++) {
      const base = 6 * table.live[s * step]!;
      widths[s] = table.boxes[base + 3 + axis]! - table.boxes[base + axis]!;
    }
    widths.sort();
    const width = widths[sampled >> 1]!;
    for (let s = 0; s < sampled; s++) {
      const base = 6 * table.live[s * step]!;
      widths[s] = 0.5 * (table.boxes[base + 3 + axis]! + table.boxes[base + axis]!);
    }
    widths.sort();
    const spread = widths[Math.floor(sampled * 0.9)]! - widths[Math.floor(sampled * 0.1)]!;
    const score = spread > 0 ? width / spread : Infinity;
    if (score < bestScore) {
      bestScore = score;
      best = axis;
    }
  }
  return best;
}
