// The work counters of a range of capsules, written where the caller reads them
// (src/query/capsule/capsuleKernel.ts and capsulePool.ts, KERNEL_COUNTERS i32 in this order).

import { rangeHits, rangeInvalid } from './capsuleBatch';
import {
  drained,
  keptTriangles,
  leavesVisited,
  nodesVisited,
  pairsKept,
  pairsTested,
  subtreesMasked,
  traceCount,
  trianglesMasked,
  trianglesTested,
} from './walk';

/** Bytes of the counters (17 i32). */
export const COUNTER_BYTES: usize = 68;

/** Counters (i32 each): nodes, triangles, pairs kept, pairs tested, the six pair types drained
 *  (sphere–vertex, sphere–edge, sphere–face, cylinder–vertex, cylinder–edge, cylinder–face), hits,
 *  invalid capsules, traced triangles, leaves, culled triangles, masked subtrees, masked triangles. */
export function storeCounters(at: usize): void {
  store<i32>(at, nodesVisited);
  store<i32>(at, trianglesTested, 4);
  store<i32>(at, pairsKept, 8);
  store<i32>(at, pairsTested, 12);
  memory.copy(at + 16, drained(), 24);
  store<i32>(at, rangeHits, 40);
  store<i32>(at, rangeInvalid, 44);
  store<i32>(at, traceCount, 48);
  store<i32>(at, leavesVisited, 52);
  store<i32>(at, trianglesTested - keptTriangles, 56);
  store<i32>(at, subtreesMasked, 60);
  store<i32>(at, trianglesMasked, 64);
}
