// Swept capsules through the quantized 4-way BVH, the whole sweep inside WebAssembly: the twin of
// src/query/capsule/sweepCapsules.ts, with the same results (walk.ts explains the differences that
// cannot change them). The memory layout is written by src/query/capsule/capsuleKernel.ts, which owns every
// address passed in here.

import { setBatch, sweepRange } from './capsuleBatch';
import { COUNTER_BYTES, storeCounters } from './counters';
import { setScene } from './walk';

/** Counters of the last batch (counters.ts). */
const COUNTERS: usize = memory.data(<i32>COUNTER_BYTES, 16);

/** Where JavaScript may start placing data. */
export function heapBase(): usize {
  return __heap_base;
}
export function countersAt(): usize {
  return COUNTERS;
}

/**
 * Sweeps `count` capsules: start, end, motion (3 × f32 each) and radius (f32) in; toi (f32), triangle
 * (i32: the caller's id or −1), point and normal (3 × f32 each) out, with sweepCapsules' conventions (a
 * miss: −1 and toi 1; an invalid capsule: −1 and toi NaN, counted, never swept). flags: bit 0 edge
 * masks, bit 1 quick cull, bit 2 filtering: sweep only against references whose mask (u32 at
 * referenceMasksAt) shares a bit with `filter`, cutting nodes whose mask (nodeMasksAt, 256 u32) does
 * not (walk.ts). The capsule `traceCapsule` (−1: none) has its triangles recorded at
 * traceAt (i32 triangle, kept, tested each, at most traceCapacity).
 */
export function sweepCapsules(
  nodesAt: usize,
  nodeCount: i32,
  magnitudeAt: usize,
  trianglesAt: usize,
  referencesAt: usize,
  masksAt: usize,
  stackAt: usize,
  startAt: usize,
  endAt: usize,
  motionAt: usize,
  radiusAt: usize,
  toiAt: usize,
  triangleAt: usize,
  pointAt: usize,
  normalAt: usize,
  count: i32,
  flags: i32,
  traceCapsule: i32,
  traceAt: usize,
  traceCapacity: i32,
  referenceMasksAt: usize,
  nodeMasksAt: usize,
  filter: u32,
): void {
  setScene(
    nodesAt,
    referencesAt,
    masksAt,
    trianglesAt,
    stackAt,
    magnitudeAt,
    (flags & 1) != 0,
    (flags & 2) != 0,
    traceAt,
    traceCapacity,
    (flags & 4) != 0,
    filter,
    referenceMasksAt,
    nodeMasksAt,
  );
  setBatch(startAt, endAt, motionAt, radiusAt, toiAt, triangleAt, pointAt, normalAt, nodeCount, traceCapsule);
  sweepRange(0, count);
  storeCounters(COUNTERS);
}
