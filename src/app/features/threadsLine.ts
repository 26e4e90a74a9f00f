import { parallelEfficiency } from '../../core';

/**
 * A pooled query's threads, short enough for one HUD line: each one's busy ms (the main thread first,
 * then the workers), the query's wall ms, and the parallel efficiency (busy time over threads × wall time).
 */
export function threadsLine(label: string, threadMs: readonly number[], wallMs: number): string {
  const busy = threadMs.map((ms) => ms.toFixed(1)).join(' · ');
  return `${label} threads ${busy} ms / ${wallMs.toFixed(1)} · eff ${(100 * parallelEfficiency(threadMs, wallMs)).toFixed(0)}%`;
}
