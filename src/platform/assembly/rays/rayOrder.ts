// The cast order of a big batch (src/query/rays/rayOrder.ts plans it and writes the header): each
// ray's key is where the midpoint of its span inside the scene's frame falls on a 14-bit code, and a
// counting sort over the keys stages the rays in key order. Both builds export it, so the pool's
// calling thread sorts in the shared memory as the single-thread kernel does in its own.
//
// Header (RAY_ORDER_HEADER_BYTES, 16-byte aligned): frame min x, y, z, 0 (f32x4) | frame max x, y, z, 0
// (f32x4) | cells per unit x, y, z, 0 (f32x4) | last cell x, y, z, 0 (i32x4) | byte offsets of the y
// and z bit tables from the x table (i32 × 2), then the x, y and z tables (u32 per cell: that cell
// coordinate's bits in the key).

import { RAY_ORDER_HEADER_BYTES, RAY_ORDER_KEYS } from '../generated/layout';

const KEYS = RAY_ORDER_KEYS;

/**
 * Stages `count` rays (origins, directions: 3 × f32; tMaxs: f32, in the caller's order from
 * `inOrigins`, `inDirections`, `inTMaxs`) at `outOrigins`, `outDirections`, `outTMaxs` in key order,
 * and writes order[k] = the caller's index of the k-th staged ray. keys: count × u32 of scratch;
 * counts: RAY_ORDER_KEYS × i32 of scratch; header: as above.
 */
export function orderRays(
  inOrigins: usize,
  inDirections: usize,
  inTMaxs: usize,
  count: i32,
  header: usize,
  keys: usize,
  counts: usize,
  order: usize,
  outOrigins: usize,
  outDirections: usize,
  outTMaxs: usize,
): void {
  const low = v128.load(header);
  const high = v128.load(header, 16);
  const scale = v128.load(header, 32);
  const last = v128.load(header, 48);
  const tableX = header + RAY_ORDER_HEADER_BYTES;
  const tableY = tableX + <usize>load<i32>(header, 64);
  const tableZ = tableX + <usize>load<i32>(header, 68);
  const one = f32x4.splat(1);
  const zero = i32x4.splat(0);
  memory.fill(counts, 0, KEYS << 2);
  for (let i: i32 = 0; i < count; i++) {
    const at = <usize>(12 * i);
    // Lane 3 reads the next ray's x (or the next array's first float): it is overwritten below.
    const origin = v128.load(inOrigins + at);
    const direction = v128.load(inDirections + at);
    const inverse = f32x4.div(one, direction);
    const toLow = f32x4.mul(f32x4.sub(low, origin), inverse);
    const toHigh = f32x4.mul(f32x4.sub(high, origin), inverse);
    // The span [enter, exit] inside the frame, clipped to [0, tMax]; NaNs (a zero direction component
    // on a plane) only move the key, and a ray missing the frame sorts by its origin.
    let near = f32x4.replace_lane(f32x4.pmin(toLow, toHigh), 3, 0);
    let far = f32x4.replace_lane(f32x4.pmax(toLow, toHigh), 3, load<f32>(inTMaxs + ((<usize>i) << 2)));
    near = f32x4.pmax(near, v128.shuffle<f32>(near, near, 2, 3, 0, 1));
    far = f32x4.pmin(far, v128.shuffle<f32>(far, far, 2, 3, 0, 1));
    const enter = f32x4.extract_lane(f32x4.pmax(near, v128.shuffle<f32>(near, near, 1, 0, 3, 2)), 0);
    const exit = f32x4.extract_lane(f32x4.pmin(far, v128.shuffle<f32>(far, far, 1, 0, 3, 2)), 0);
    const t: f32 = exit >= enter ? <f32>0.5 * (enter + exit) : 0;
    const point = f32x4.add(origin, f32x4.mul(direction, f32x4.splat(t)));
    const cell = i32x4.min_s(i32x4.max_s(i32x4.trunc_sat_f32x4_s(f32x4.mul(f32x4.sub(point, low), scale)), zero), last);
    // Masked so a key can never index past the counts, whatever the tables hold.
    const key =
      (load<u32>(tableX + ((<usize>i32x4.extract_lane(cell, 0)) << 2)) |
        load<u32>(tableY + ((<usize>i32x4.extract_lane(cell, 1)) << 2)) |
        load<u32>(tableZ + ((<usize>i32x4.extract_lane(cell, 2)) << 2))) &
      (<u32>KEYS - 1);
    store<u32>(keys + ((<usize>i) << 2), key);
    const slot = counts + ((<usize>key) << 2);
    store<i32>(slot, load<i32>(slot) + 1);
  }
  let sum: i32 = 0;
  for (let key: usize = 0; key < KEYS; key++) {
    const slot = counts + (key << 2);
    const c = load<i32>(slot);
    store<i32>(slot, sum);
    sum += c;
  }
  for (let i: i32 = 0; i < count; i++) {
    const slot = counts + ((<usize>load<u32>(keys + ((<usize>i) << 2))) << 2);
    const k = load<i32>(slot);
    store<i32>(slot, k + 1);
    store<i32>(order + ((<usize>k) << 2), i);
    const from = <usize>(12 * i);
    const to = <usize>(12 * k);
    store<u64>(outOrigins + to, load<u64>(inOrigins + from));
    store<f32>(outOrigins + to, load<f32>(inOrigins + from, 8), 8);
    store<u64>(outDirections + to, load<u64>(inDirections + from));
    store<f32>(outDirections + to, load<f32>(inDirections + from, 8), 8);
    store<f32>(outTMaxs + ((<usize>k) << 2), load<f32>(inTMaxs + ((<usize>i) << 2)));
  }
}

/** Puts `count` hits found in cast order (t: f32, triangle: i32) back in the caller's order at outT, outTriangle. */
export function unorderHits(order: usize, count: i32, hitT: usize, hitTriangle: usize, outT: usize, outTriangle: usize): void {
  for (let k: i32 = 0; k < count; k++) {
    const at = (<usize>k) << 2;
    const to = (<usize>load<i32>(order + at)) << 2;
    store<f32>(outT + to, load<f32>(hitT + at));
    store<i32>(outTriangle + to, load<i32>(hitTriangle + at));
  }
}
