// The shared-memory build of the capsule sweep (sweepCapsules.ts), for the worker pool
// (src/query/capsule/capsulePool.ts): built with --importMemory --sharedMemory --enable threads, every
// thread instantiates it over one shared memory that holds the BVH, the capsules and their contacts.
// Each instance keeps its batch and its capsule in its own globals and walks with its own stack and
// scratch (none of them static: static data is one address for every instance), so threads sweeping
// different capsules of one batch never touch each other's work. The walk, the culls and the feature
// tests are sweepCapsules' own, so each capsule's contact is bit for bit that of the single-thread
// kernel, whatever thread sweeps it. (The look-up tables of tables.ts are static, written with the same
// bytes by every instance as it starts, and only read afterwards.)

import { setBatch, sweepRange } from './capsuleBatch';
import { storeCounters } from './counters';
import { WALK_SCRATCH_BYTES, resetCounters, setScene, setThreadScratch } from './walk';

/** Where JavaScript may start placing data (past the static data every instance shares). */
export function heapBase(): usize {
  return __heap_base;
}
/** Bytes of one thread's work area: its walk scratch (its stack is apart). */
export function threadAreaBytes(): i32 {
  return <i32>WALK_SCRATCH_BYTES;
}

/**
 * Sets up this instance for a batch, with the arguments of sweepCapsules (no count: sweepChunk says
 * which capsules; no trace: the pool traces nothing) and this thread's work area (threadAreaBytes,
 * 16-byte aligned) and traversal stack.
 */
export function beginSweep(
  nodesAt: usize,
  nodeCount: i32,
  magnitudeAt: usize,
  trianglesAt: usize,
  referencesAt: usize,
  masksAt: usize,
  startAt: usize,
  endAt: usize,
  motionAt: usize,
  radiusAt: usize,
  toiAt: usize,
  triangleAt: usize,
  pointAt: usize,
  normalAt: usize,
  flags: i32,
  referenceMasksAt: usize,
  nodeMasksAt: usize,
  filter: u32,
  areaAt: usize,
  stackAt: usize,
): void {
  setThreadScratch(areaAt);
  setScene(
    nodesAt,
    referencesAt,
    masksAt,
    trianglesAt,
    stackAt,
    magnitudeAt,
    (flags & 1) != 0,
    (flags & 2) != 0,
    0,
    0,
    (flags & 4) != 0,
    filter,
    referenceMasksAt,
    nodeMasksAt,
  );
  setBatch(startAt, endAt, motionAt, radiusAt, toiAt, triangleAt, pointAt, normalAt, nodeCount, -1);
}

/** Sweeps the capsules [first, end) of the batch begun, writing their contacts, then this range's
 *  counters at countersAt (counters.ts). */
export function sweepChunk(first: i32, end: i32, countersAt: usize): void {
  resetCounters();
  sweepRange(first, end);
  storeCounters(countersAt);
}
