// The shared-memory build of the ray kernel (castRays.ts), for the worker pool
// (src/query/rays/rayPool.ts): built with --importMemory --sharedMemory --enable threads, every thread
// instantiates it over one shared memory that holds the BVH, the rays and the hits. Each instance keeps
// its cast in its own globals and walks with its own ray record, stack and hit scratch (none of them
// static: static data is one address for every instance), so threads casting different rays of one
// batch never touch each other's work. The walk and the leaf test are castRays' own, so each ray's hit,
// distance and triangle are bit for bit those of the single-thread kernel, whatever thread casts it.

import { trianglesTested } from './leafTest';
import { nodesVisited, setThreadScratch } from './rayWalk';
import { FLAG_FILTERED, invalid, setRange, startCast, walkRaysAlone } from './rayBatch';
import { RAY_STATE_BYTES, STACK } from './rayState';
import { subtreesMasked, trianglesMasked } from './filter';
// The calling thread stages a big batch in cast order in the shared memory, as the single-thread kernel does.
export { orderRays, unorderHits } from './rayOrder';

// This instance's ray record (a thread's work area, placed by the caller).
let state: usize = 0;
let filtered: bool = false;

/** Where JavaScript may start placing data (past the static data every instance shares). */
export function heapBase(): usize {
  return __heap_base;
}
/** Bytes of one thread's work area: its ray record and 32 bytes of hit scratch (its stack is apart). */
export function threadAreaBytes(): i32 {
  return <i32>RAY_STATE_BYTES + 32;
}

/**
 * Sets up this instance for a cast, with the arguments of castRays (no ray count: castRange says which
 * rays) and this thread's work area (threadAreaBytes, 16-byte aligned) and traversal stack.
 */
export function beginCast(
  nodesAt: usize,
  nodeCount: i32,
  magnitudeAt: usize,
  trianglesAt: usize,
  orderAt: usize,
  originsAt: usize,
  directionsAt: usize,
  tMaxsAt: usize,
  hitTAt: usize,
  hitTriangleAt: usize,
  flags: i32,
  masksAt: usize,
  filter: u32,
  areaAt: usize,
  stackAt: usize,
): void {
  startCast(
    nodesAt,
    nodeCount,
    magnitudeAt,
    trianglesAt,
    orderAt,
    originsAt,
    directionsAt,
    tMaxsAt,
    hitTAt,
    hitTriangleAt,
    0,
    flags,
    masksAt,
    filter,
  );
  state = areaAt;
  setThreadScratch(areaAt + RAY_STATE_BYTES);
  store<i32>(state, <i32>stackAt, STACK);
  filtered = (flags & FLAG_FILTERED) != 0;
}

/**
 * Casts the rays [first, end) of the cast begun, writing their hits, then this range's work at
 * countersAt (i32 × 5: nodes visited, triangles tested, subtrees masked, triangles masked, invalid rays).
 */
export function castRange(first: i32, end: i32, countersAt: usize): void {
  const nodes0 = nodesVisited,
    triangles0 = trianglesTested,
    subtrees0 = subtreesMasked,
    masked0 = trianglesMasked;
  setRange(first, end);
  walkRaysAlone(state, filtered);
  store<i32>(countersAt, nodesVisited - nodes0);
  store<i32>(countersAt, trianglesTested - triangles0, 4);
  store<i32>(countersAt, subtreesMasked - subtrees0, 8);
  store<i32>(countersAt, trianglesMasked - masked0, 12);
  store<i32>(countersAt, invalid, 16);
}
