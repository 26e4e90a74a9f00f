// Swept capsules through the quantized 4-way BVH, the whole sweep inside WebAssembly: the twin of
// src/query/capsule/sweepCapsules.ts, with the same results (walk.ts explains the differences that
// cannot change them). The memory layout is written by src/query/capsule/capsuleKernel.ts, which owns every
// address passed in here.

import { bestT, bestTriangle, contactNx, contactNy, contactNz, contactPx, contactPy, contactPz, loadCapsule } from './capsuleState';
import {
  DRAINED,
  keptTriangles,
  leavesVisited,
  nodesVisited,
  pairsKept,
  pairsTested,
  setScene,
  subtreesMasked,
  sweepCapsule,
  traceCount,
  trianglesMasked,
  trianglesTested,
} from './walk';

/** Counters of the last batch (i32 each): nodes, triangles, pairs kept, pairs tested, the six pair
 *  types drained (sphere–vertex, sphere–edge, sphere–face, cylinder–vertex, cylinder–edge,
 *  cylinder–face), hits, invalid capsules, traced triangles, leaves, culled triangles, masked subtrees,
 *  masked triangles. */
const COUNTERS: usize = memory.data(80, 16);

/** Where JavaScript may start placing data. */
export function heapBase(): usize {
  return __heap_base;
}
export function countersAt(): usize {
  return COUNTERS;
}

function finite(x: f64): bool {
  return Math.abs(x) < Infinity;
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
  let hits = 0;
  let invalid = 0;
  for (let i = 0; i < count; i++) {
    const i3 = <usize>(12 * i);
    const ax = <f64>load<f32>(startAt + i3),
      ay = <f64>load<f32>(startAt + i3, 4),
      az = <f64>load<f32>(startAt + i3, 8);
    const bx = <f64>load<f32>(endAt + i3),
      by = <f64>load<f32>(endAt + i3, 4),
      bz = <f64>load<f32>(endAt + i3, 8);
    const mx = <f64>load<f32>(motionAt + i3),
      my = <f64>load<f32>(motionAt + i3, 4),
      mz = <f64>load<f32>(motionAt + i3, 8);
    const r = <f64>load<f32>(radiusAt + <usize>(4 * i));
    const valid =
      finite(ax) &&
      finite(ay) &&
      finite(az) &&
      finite(bx) &&
      finite(by) &&
      finite(bz) &&
      finite(mx) &&
      finite(my) &&
      finite(mz) &&
      r >= 0 &&
      finite(r);
    const point = pointAt + i3,
      normal = normalAt + i3;
    store<u64>(point, 0);
    store<f32>(point, 0, 8);
    store<u64>(normal, 0);
    store<f32>(normal, 0, 8);
    if (!valid) {
      store<f32>(toiAt + <usize>(4 * i), NaN);
      store<i32>(triangleAt + <usize>(4 * i), -1);
      invalid++;
      continue;
    }
    loadCapsule(ax, ay, az, bx, by, bz, mx, my, mz, r);
    if (nodeCount > 0) sweepCapsule(i == traceCapsule);
    store<i32>(triangleAt + <usize>(4 * i), bestTriangle);
    if (bestTriangle < 0) {
      store<f32>(toiAt + <usize>(4 * i), 1);
      continue;
    }
    hits++;
    store<f32>(toiAt + <usize>(4 * i), <f32>bestT);
    store<f32>(point, <f32>contactPx);
    store<f32>(point, <f32>contactPy, 4);
    store<f32>(point, <f32>contactPz, 8);
    store<f32>(normal, <f32>contactNx);
    store<f32>(normal, <f32>contactNy, 4);
    store<f32>(normal, <f32>contactNz, 8);
  }
  store<i32>(COUNTERS, nodesVisited);
  store<i32>(COUNTERS, trianglesTested, 4);
  store<i32>(COUNTERS, pairsKept, 8);
  store<i32>(COUNTERS, pairsTested, 12);
  memory.copy(COUNTERS + 16, DRAINED, 24);
  store<i32>(COUNTERS, hits, 40);
  store<i32>(COUNTERS, invalid, 44);
  store<i32>(COUNTERS, traceCount, 48);
  store<i32>(COUNTERS, leavesVisited, 52);
  store<i32>(COUNTERS, trianglesTested - keptTriangles, 56);
  store<i32>(COUNTERS, subtreesMasked, 60);
  store<i32>(COUNTERS, trianglesMasked, 64);
}
