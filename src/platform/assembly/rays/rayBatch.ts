// The batch being cast and its rays' start and finish, shared by castRays.ts and the shared-memory
// build castRaysShared.ts: module state of one instance (each thread has its own instance).

import { setScene, walkRay } from './rayWalk';
import { BEST, RAY_INDEX, TMAX, TOP, startRay } from './rayState';
import { closestT } from './leafTest';
import { setDoubleSided } from './watertight';
import { Filtered, Unfiltered, setFilter } from './filter';

export function isValidRay(ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, tMax: f64): bool {
  const inf = Infinity;
  const finite = Math.abs(ox) < inf && Math.abs(oy) < inf && Math.abs(oz) < inf && Math.abs(dx) < inf && Math.abs(dy) < inf && Math.abs(dz) < inf;
  return finite && (dx != 0 || dy != 0 || dz != 0) && tMax > 0;
}

// The batch being cast.
let origins: usize = 0;
let directions: usize = 0;
let tMaxs: usize = 0;
let hitT: usize = 0;
let hitTriangle: usize = 0;
export let count: i32 = 0;
let magnitude: usize = 0;
let hasNodes: bool = false;
let allHits: bool = false;
export let next: i32 = 0;
export let invalid: i32 = 0;

/**
 * Starts the next valid ray of the batch in the record at `state`; invalid rays met on the way get
 * NaN and −1 (and on a tree without nodes valid rays get a miss). False when the batch is exhausted.
 */
export function startNext(state: usize): bool {
  while (next < count) {
    const ray = next++;
    const r3 = <usize>(12 * ray);
    const ox = <f64>load<f32>(origins + r3),
      oy = <f64>load<f32>(origins + r3, 4),
      oz = <f64>load<f32>(origins + r3, 8);
    const dx = <f64>load<f32>(directions + r3),
      dy = <f64>load<f32>(directions + r3, 4),
      dz = <f64>load<f32>(directions + r3, 8);
    const tMax = <f64>load<f32>(tMaxs + <usize>(4 * ray));
    if (!isValidRay(ox, oy, oz, dx, dy, dz, tMax)) {
      store<f32>(hitT + <usize>(4 * ray), NaN);
      store<i32>(hitTriangle + <usize>(4 * ray), -1);
      invalid++;
      continue;
    }
    if (!hasNodes) {
      store<f32>(hitT + <usize>(4 * ray), Infinity);
      store<i32>(hitTriangle + <usize>(4 * ray), -1);
      continue;
    }
    store<i32>(state, ray, RAY_INDEX);
    startRay(state, ox, oy, oz, dx, dy, dz, tMax, magnitude);
    return true;
  }
  store<i32>(state, 0, TOP);
  return false;
}

export function finishRay(state: usize): void {
  const ray = <usize>load<i32>(state, RAY_INDEX);
  const best = load<i32>(state, BEST);
  // An all-hits ray never shrinks: its closest hit is kept aside.
  const closest = allHits ? closestT : load<f64>(state, TMAX);
  store<f32>(hitT + 4 * ray, best < 0 ? Infinity : <f32>closest);
  store<i32>(hitTriangle + 4 * ray, best);
}

export function startCast(
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
  rayCount: i32,
  flags: i32,
  masksAt: usize,
  filter: u32,
): void {
  setDoubleSided((flags & 1) != 0);
  setFilter(filter, masksAt);
  allHits = (flags & FLAG_ALL_HITS) != 0;
  setScene(nodesAt, trianglesAt, orderAt, (flags & 2) != 0, allHits);
  origins = originsAt;
  directions = directionsAt;
  tMaxs = tMaxsAt;
  hitT = hitTAt;
  hitTriangle = hitTriangleAt;
  count = rayCount;
  magnitude = magnitudeAt;
  hasNodes = nodeCount > 0;
  next = 0;
  invalid = 0;
}

/** Shared-memory build: the rays [first, end) of the configured batch are cast next; counts invalid ones afresh. */
export function setRange(first: i32, end: i32): void {
  next = first;
  count = end;
  invalid = 0;
}

/** Bit 2 of a cast's flags: apply the collision filter (filter.ts). */
export const FLAG_FILTERED: i32 = 4;
/** Bit 3: every hit to the all-hits list (leafTest.ts setAllHitsList), one ray at a time only. */
export const FLAG_ALL_HITS: i32 = 8;

/**
 * Casts the rays left in the batch (or in the range set) one at a time, each walking the whole tree
 * with the ray record at `state`: castRays' loop, and each thread's in the shared-memory build.
 */
export function walkRaysAlone(state: usize, filtered: bool): void {
  while (startNext(state)) {
    if (filtered) walkRay<Filtered>(state);
    else walkRay<Unfiltered>(state);
    finishRay(state);
  }
}
