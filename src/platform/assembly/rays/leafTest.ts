// One ray against the triangles of one leaf, shared by the single-ray walk (rayWalk.ts) and the
// batched walk (batchWalk.ts), so both shrink a ray by exactly the same rule.
//
// A leaf's triangles lie in whole groups of four, from the first group its child word names
// (src/query/rays/rayLeafGroups.ts; watertight.ts for a group's layout); the groups are screened four-wide
// and the surviving lanes tested exactly, in reference order, so the ray shrinks exactly as
// it would testing them one by one: a hit replaces the closest so far when t < tMax (strictly, so at
// an exact tie the triangle tested first keeps it), or it is the first hit at all. With the collision
// filter (filter.ts), the lanes whose masks miss it are taken out before the screening.

import { CHILD_INDEX_MASK, CHILD_TYPE_BITS, CHILD_TYPE_SHIFT, TRIANGLE_GROUP_BYTES } from '../generated/layout';
import { isFiltered, keptTriangles } from './filter';
import { PLANE_SLACK } from './slack';
import { BEST, RAY_INDEX, TMAX, TMAX_BOX } from './rayState';
import { candidates, intersectTriangle } from './watertight';

// The cast's triangles (set once per cast).
let triangles: usize = 0;
let order: usize = 0;
/** Any-hit casts: a ray is done at its first hit. */
let anyHit: bool = false;
/** All-hits casts: every hit goes to the list and the ray never shrinks; the closest is kept aside. */
let allHits: bool = false;
export let trianglesTested: i32 = 0;

// The all-hits list (setAllHitsList): ray index (i32), t (f32), triangle id (i32), each `listCapacity` long.
let listRays: usize = 0;
let listT: usize = 0;
let listTriangles: usize = 0;
let listCapacity: i32 = 0;
export let listCount: i32 = 0;
/** Hits found past the list's capacity: counted, not stored. */
export let listDropped: i32 = 0;
/** All-hits casts: the closest hit's t of the ray being walked (its triangle is the record's BEST). */
export let closestT: f64 = Infinity;

export function setLeaves(trianglesAt: usize, orderAt: usize, stopAtAnyHit: bool, collectAllHits: bool): void {
  triangles = trianglesAt;
  order = orderAt;
  anyHit = stopAtAnyHit;
  allHits = collectAllHits;
  trianglesTested = 0;
}

/** Where an all-hits cast writes its hits (three arrays of `capacity` entries from `at`); empties the list. */
export function setAllHitsList(at: usize, capacity: i32): void {
  listRays = at;
  listT = at + 4 * <usize>capacity;
  listTriangles = at + 8 * <usize>capacity;
  listCapacity = capacity;
  listCount = 0;
  listDropped = 0;
}

/**
 * Appends a hit to the all-hits list, unless this ray has it already (a triangle in two leaves, or a
 * shared leaf reached through both parents: this ray's entries are the list's last ones). Keeps the
 * closest, by the closest-hit rule (strictly nearer replaces, so the first found keeps a tie).
 */
function recordHit(ray: usize, t: f64, triangle: i32): void {
  const rayIndex = load<i32>(ray, RAY_INDEX);
  for (let i = listCount - 1; i >= 0 && load<i32>(listRays + 4 * <usize>i) == rayIndex; i--)
    if (load<i32>(listTriangles + 4 * <usize>i) == triangle) return;
  if (listCount >= listCapacity) listDropped++;
  else {
    const at: usize = (<usize>listCount) << 2;
    store<i32>(listRays + at, rayIndex);
    store<f32>(listT + at, <f32>t);
    store<i32>(listTriangles + at, triangle);
    listCount++;
  }
  if (load<i32>(ray, BEST) < 0 || t < closestT) {
    closestT = t;
    store<i32>(ray, triangle, BEST);
  }
}

/** Whether the ray needs no more work: an any-hit cast and a hit found. */
export function isDone(ray: usize): bool {
  return anyHit && load<i32>(ray, BEST) >= 0;
}

/** The closest hit so far (lane k of the triangle groups) becomes the ray's tMax (boxes beyond it are culled). */
function shrink(ray: usize, t: f64, k: usize): void {
  store<f64>(ray, t, TMAX);
  store<i32>(ray, load<i32>(order + k * 4), BEST);
  v128.store(ray, f32x4.splat(<f32>(t * (1 + PLANE_SLACK))), TMAX_BOX);
}

/**
 * Tests the ray against the leaf whose child word is `word` (type = triangles + 1, index = its first
 * group), starting from the ray's current tMax; returns the tMax after it (the record is shrunk on
 * every closer hit). An any-hit ray stops at its first hit (isDone).
 */
export function testLeaf<F>(ray: usize, word: u32, tMax: f64): f64 {
  const count = <i32>((word >>> CHILD_TYPE_SHIFT) & CHILD_TYPE_BITS) - 1;
  const first = <usize>(word & CHILD_INDEX_MASK);
  const groups = triangles + first * TRIANGLE_GROUP_BYTES;
  const groupCount = (count + 3) >>> 2;
  // Bit k: the leaf's k-th triangle, lane k & 3 of its group k >> 2.
  let lanes = (1 << count) - 1;
  if (isFiltered<F>()) {
    lanes = keptTriangles(first, groupCount, lanes, count);
    trianglesTested += <i32>popcnt(lanes);
    if (lanes == 0) return tMax;
  } else trianglesTested += count;
  let survivors = candidates(ray, groups, groupCount) & lanes;
  while (survivors != 0) {
    const k = <usize>ctz(survivors);
    survivors &= survivors - 1;
    const t = intersectTriangle(ray, groups + (k >>> 2) * TRIANGLE_GROUP_BYTES + 4 * (k & 3), tMax);
    if (t >= 0 && allHits) recordHit(ray, t, load<i32>(order + ((first << 2) + k) * 4));
    else if (t >= 0 && (load<i32>(ray, BEST) < 0 || t < tMax)) {
      tMax = t;
      shrink(ray, t, (first << 2) + k);
      if (anyHit) return tMax;
    }
  }
  return tMax;
}
