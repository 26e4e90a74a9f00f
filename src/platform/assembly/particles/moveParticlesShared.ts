// The shared-memory build of the particle kernel (moveParticles.ts, askCache.ts, findUnder.ts), for the
// worker pool (src/particles/particlePool.ts): built with --importMemory --sharedMemory --enable
// threads, every thread instantiates it over one shared memory that holds the particles, the effects'
// plane caches and the terrain's heights. A chunk is one entry of a table JavaScript writes: what to
// run (a move, cache lookups or the net's scan), the parameter block it reads, and its range of slots
// or askers. Each instance keeps its thread's scratch in its own global (static data is one address
// for every instance); the parameter blocks are only read while a job runs. A chunk's move keeps its
// lists inside its own slots and the net's scan lists the slots found from its first slot on, so
// threads never write the same bytes; the pool then joins the chunks' lists in slot order, which
// makes every list, particle and count bit for bit the single-thread kernel's.

import { moveSlots } from './moveParticles';
import { ASK_SCRATCH_BYTES, askRange } from './askCache';
import { NET_LIST, findUnderRange } from './findUnder';

/** What a chunk table entry runs. */
const MOVE: i32 = 0;
const ASK: i32 = 1;
const NET: i32 = 2;

/** Where JavaScript may start placing data (past the static data every instance shares). */
export function heapBase(): usize {
  return __heap_base;
}

/** Bytes of one thread's work area: the cache lookups' scratch. */
export function threadAreaBytes(): i32 {
  return ASK_SCRATCH_BYTES;
}

let threadArea: usize = 0;

/** Sets up this instance's work area (threadAreaBytes, 16-byte aligned) for a job. */
export function beginThread(areaAt: usize): void {
  threadArea = areaAt;
}

/**
 * Runs the chunk of the table entry at `entry` (i32 kind, block, first, end) and writes its results at
 * `out`: a move's five list ends and counts (moveSlots), the lookups' hits, or the slots the scan found.
 */
export function runChunk(entry: usize, out: usize): void {
  const kind = load<i32>(entry);
  const block = <usize>load<i32>(entry, 4);
  const first = load<i32>(entry, 8);
  const end = load<i32>(entry, 12);
  if (kind == MOVE) moveSlots(block, first, end, first, out);
  else if (kind == ASK) store<i32>(out, askRange(block, first, end, threadArea));
  else if (kind == NET) store<i32>(out, findUnderRange(block, first, end, <usize>load<i32>(block + NET_LIST) + ((<usize>first) << 2)));
}

// The parameter blocks' sizes (JavaScript places the blocks in the shared memory).
export { stepBlockBytes } from './moveParticles';
export { askBlockBytes } from './askCache';
export { netBlockBytes } from './findUnder';
