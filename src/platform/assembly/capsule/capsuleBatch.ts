// The capsules of one batch, swept one range at a time: the loop both builds share (sweepCapsules.ts
// sweeps the whole batch as one range; the shared-memory build, sweepCapsulesShared.ts, one chunk of it
// per call, on whichever thread claimed the chunk). Each capsule is swept alone, from its own inputs to
// its own outputs, so the ranges a batch is cut into cannot change any contact.

import { bestT, bestTriangle, contactNx, contactNy, contactNz, contactPx, contactPy, contactPz, loadCapsule } from './capsuleState';
import { sweepCapsule } from './walk';

// The batch's buffers (byte addresses): start, end, motion (3 × f32 each) and radius (f32) in; toi
// (f32), triangle (i32), point and normal (3 × f32 each) out.
let startAt: usize = 0;
let endAt: usize = 0;
let motionAt: usize = 0;
let radiusAt: usize = 0;
let toiAt: usize = 0;
let triangleAt: usize = 0;
let pointAt: usize = 0;
let normalAt: usize = 0;
let treeEmpty: bool = true;
let traceCapsule: i32 = -1;

/** Hits and invalid capsules of the last range. */
export let rangeHits: i32 = 0;
export let rangeInvalid: i32 = 0;

export function setBatch(
  start: usize,
  end: usize,
  motion: usize,
  radius: usize,
  toi: usize,
  triangle: usize,
  point: usize,
  normal: usize,
  nodeCount: i32,
  traced: i32,
): void {
  startAt = start;
  endAt = end;
  motionAt = motion;
  radiusAt = radius;
  toiAt = toi;
  triangleAt = triangle;
  pointAt = point;
  normalAt = normal;
  treeEmpty = nodeCount <= 0;
  traceCapsule = traced;
}

function finite(x: f64): bool {
  return Math.abs(x) < Infinity;
}

/**
 * Sweeps the capsules [first, end) of the batch with sweepCapsules' conventions (a miss: −1 and toi 1;
 * an invalid capsule: −1 and toi NaN, counted in rangeInvalid, never swept).
 */
export function sweepRange(first: i32, end: i32): void {
  let hits = 0;
  let invalid = 0;
  for (let i = first; i < end; i++) {
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
    if (!treeEmpty) sweepCapsule(i == traceCapsule);
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
  rangeHits = hits;
  rangeInvalid = invalid;
}
