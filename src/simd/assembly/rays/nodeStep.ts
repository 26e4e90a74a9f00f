// One step of one ray's walk: pop a node, test its four child boxes at once, test the hit leaves'
// triangles front to back, push the hit inner nodes farthest first. The twin of one iteration of the
// TypeScript walks (src/query/rays/traverseQuantized.ts); the ray's record (rayState.ts) carries
// everything between steps, so rays can take turns.
//
// Node record: 128 bytes, two cache lines that the hardware fetches as a pair: the quantized node's 64
// bytes verbatim, then its frame as float32 min xyz (at 64) and step xyz (at 80), decoded once at
// upload from the float64 frames the TypeScript walk derives on its way down (so the stack holds
// only node and entry distance). Float32 frames are within the rounding slack (see castRays.ts).

import { isDone, setLeaves, testLeaf } from './leafTest';
import { EXIT_SLACK } from './slack';
import {
  FAR_ROW_X, FAR_ROW_Y, FAR_ROW_Z, FAR_SHIFT, INVERSE_X, INVERSE_Y, INVERSE_Z,
  NEAR_ROW_X, NEAR_ROW_Y, NEAR_ROW_Z, NEAR_SHIFT, STACK, TMAX, TMAX_BOX, TOP,
} from './rayState';

const NODE_RECORD: usize = 128;
const STACK_ENTRY: usize = 8;
const INDEX_MASK: u32 = 0xffffff;

// The cast's tree (set once per cast).
let nodes: usize = 0;

export let nodesVisited: i32 = 0;

// Scratch for one node's hit children, ordered by exit: slot and entry distance.
const HIT_SLOT: usize = memory.data(16, 16);
const HIT_NEAR: usize = memory.data(16, 16);

export function setScene(nodesAt: usize, trianglesAt: usize, orderAt: usize, stopAtAnyHit: bool): void {
  nodes = nodesAt;
  nodesVisited = 0;
  setLeaves(trianglesAt, orderAt, stopAtAnyHit);
}

/** Adds box tests made outside stepNode (the batched walk) to the visit counter. */
export function countVisits(visits: i32): void {
  nodesVisited += visits;
}

/** Pops and handles one node of the ray's stack (the caller checks the stack is not empty). */
export function stepNode(ray: usize): void {
  const stack = <usize>load<i32>(ray, STACK);
  let top = <usize>load<i32>(ray, TOP) - 1;
  const entry = stack + top * STACK_ENTRY;
  store<i32>(ray, <i32>top, TOP);
  let tMax = load<f64>(ray, TMAX);
  if (<f64>load<f32>(entry) > tMax) return;
  const p = nodes + <usize>load<i32>(entry, 4) * NODE_RECORD;
  nodesVisited++;

  // Four child boxes at once: plane distance q·step + (frameMin − shift), times 1/d.
  const frameMin = v128.load(p, 64);
  const step = v128.load(p, 80);
  const nearOffset = f32x4.sub(frameMin, v128.load(ray, NEAR_SHIFT));
  const farOffset = f32x4.sub(frameMin, v128.load(ray, FAR_SHIFT));
  const sX = v128.shuffle<f32>(step, step, 0, 0, 0, 0), sY = v128.shuffle<f32>(step, step, 1, 1, 1, 1), sZ = v128.shuffle<f32>(step, step, 2, 2, 2, 2);
  const invX = v128.load(ray, INVERSE_X), invY = v128.load(ray, INVERSE_Y), invZ = v128.load(ray, INVERSE_Z);
  const qNearX = f32x4.convert_i32x4_s(v128.load16x4_u(p + <usize>load<i32>(ray, NEAR_ROW_X)));
  const qNearY = f32x4.convert_i32x4_s(v128.load16x4_u(p + <usize>load<i32>(ray, NEAR_ROW_Y)));
  const qNearZ = f32x4.convert_i32x4_s(v128.load16x4_u(p + <usize>load<i32>(ray, NEAR_ROW_Z)));
  const qFarX = f32x4.convert_i32x4_s(v128.load16x4_u(p + <usize>load<i32>(ray, FAR_ROW_X)));
  const qFarY = f32x4.convert_i32x4_s(v128.load16x4_u(p + <usize>load<i32>(ray, FAR_ROW_Y)));
  const qFarZ = f32x4.convert_i32x4_s(v128.load16x4_u(p + <usize>load<i32>(ray, FAR_ROW_Z)));
  let enter = f32x4.pmax(f32x4.splat(0), f32x4.mul(f32x4.add(f32x4.mul(qNearX, sX), v128.shuffle<f32>(nearOffset, nearOffset, 0, 0, 0, 0)), invX));
  enter = f32x4.pmax(enter, f32x4.mul(f32x4.add(f32x4.mul(qNearY, sY), v128.shuffle<f32>(nearOffset, nearOffset, 1, 1, 1, 1)), invY));
  enter = f32x4.pmax(enter, f32x4.mul(f32x4.add(f32x4.mul(qNearZ, sZ), v128.shuffle<f32>(nearOffset, nearOffset, 2, 2, 2, 2)), invZ));
  let exit = f32x4.pmin(f32x4.splat(Infinity), f32x4.mul(f32x4.add(f32x4.mul(qFarX, sX), v128.shuffle<f32>(farOffset, farOffset, 0, 0, 0, 0)), invX));
  exit = f32x4.pmin(exit, f32x4.mul(f32x4.add(f32x4.mul(qFarY, sY), v128.shuffle<f32>(farOffset, farOffset, 1, 1, 1, 1)), invY));
  exit = f32x4.pmin(exit, f32x4.mul(f32x4.add(f32x4.mul(qFarZ, sZ), v128.shuffle<f32>(farOffset, farOffset, 2, 2, 2, 2)), invZ));
  exit = f32x4.add(exit, f32x4.mul(f32x4.abs(exit), f32x4.splat(EXIT_SLACK)));
  const words = v128.load(p, 48);
  const notEmpty = v128.not(i32x4.eq(v128.and(words, i32x4.splat(15 << 24)), i32x4.splat(1 << 24)));
  const hitMask = v128.and(v128.and(f32x4.le(enter, exit), f32x4.le(enter, v128.load(ray, TMAX_BOX))), notEmpty);
  const bits = i32x4.bitmask(hitMask);
  if (bits == 0) return;

  // Hit children ordered by exit, as orderByExit, without branches: each lane's key is its exit's
  // bits (exits are ≥ 0, so their bits order as integers) with the slot in the two lowest bits (ties go
  // to the lower slot; exits within 4 ulps may swap, which the float32 exits could do anyway), missed
  // lanes last; a lane's rank is the number of smaller keys, and the slots land at their ranks.
  const hits = <usize>popcnt(bits);
  const key = v128.or(v128.bitselect(v128.and(f32x4.abs(exit), i32x4.splat(~3)), i32x4.splat(0x7ffffffc), hitMask), i32x4(0, 1, 2, 3));
  const below = i32x4.add(
    i32x4.add(i32x4.lt_s(v128.shuffle<i32>(key, key, 1, 2, 3, 0), key), i32x4.lt_s(v128.shuffle<i32>(key, key, 2, 3, 0, 1), key)),
    i32x4.lt_s(v128.shuffle<i32>(key, key, 3, 0, 1, 2), key),
  );
  const rank = i32x4.shl(i32x4.neg(below), 2);
  const r0 = <usize>i32x4.extract_lane(rank, 0), r1 = <usize>i32x4.extract_lane(rank, 1);
  const r2 = <usize>i32x4.extract_lane(rank, 2), r3 = <usize>i32x4.extract_lane(rank, 3);
  store<i32>(HIT_SLOT + r0, 0);
  store<i32>(HIT_SLOT + r1, 1);
  store<i32>(HIT_SLOT + r2, 2);
  store<i32>(HIT_SLOT + r3, 3);
  store<f32>(HIT_NEAR + r0, f32x4.extract_lane(enter, 0));
  store<f32>(HIT_NEAR + r1, f32x4.extract_lane(enter, 1));
  store<f32>(HIT_NEAR + r2, f32x4.extract_lane(enter, 2));
  store<f32>(HIT_NEAR + r3, f32x4.extract_lane(enter, 3));

  // Leaves first, front to back, so the ray shrinks before any node is pushed.
  let i: usize = 0;
  do {
    const word = load<u32>(p + 48 + 4 * <usize>load<i32>(HIT_SLOT + 4 * i));
    if (((word >>> 24) & 15) == 0 || <f64>load<f32>(HIT_NEAR + 4 * i) > tMax) continue;
    tMax = testLeaf(ray, word, tMax);
    if (isDone(ray)) {
      store<i32>(ray, 0, TOP);
      return;
    }
  } while (++i < hits);

  // Then inner nodes, farthest first, so the nearest is popped next.
  i = hits;
  do {
    i--;
    const slot = <usize>load<i32>(HIT_SLOT + 4 * i);
    const word = load<u32>(p + 48 + 4 * slot);
    const near = <f64>load<f32>(HIT_NEAR + 4 * i);
    if (((word >>> 24) & 15) != 0 || near > tMax) continue;
    const out = stack + top * STACK_ENTRY;
    store<f32>(out, <f32>near);
    store<i32>(out, <i32>(word & INDEX_MASK), 4);
    top++;
  } while (i > 0);
  store<i32>(ray, <i32>top, TOP);
}
