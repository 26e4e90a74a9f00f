// The batched (packet) walk: a batch of rays goes down the quantized 4-way tree together, so each
// node is fetched and its four child boxes decoded once for all the rays that reach it, instead of
// once per ray (the idea of batched incoherent queries: N rays down the tree at once). Each ray keeps
// its own record (rayState.ts) and its own tMax, and every box and triangle test is the single-ray one.
//
// Lists: the rays that reach a node are a list of elements (slot in the batch, entry distance). A
// stack entry is (node, list, length); the lists lie in an arena in stack order, so the popped entry's
// list is always the last one. At a node, each ray of the list is tested against the four decoded
// boxes (f32x4, one lane per child); the hit leaves are tested at once, in the ray's own front-to-back
// order (by exit, as walkRay orders them), and the ray is appended to the list of each hit inner
// child it still reaches. The child lists, built in per-child scratch, are then copied over the popped
// list, farthest first, and pushed. Nothing is allocated: arena and scratch are sized by the caller
// for the batch and the tree's depth (at most 3·depth + 1 entries are pending, each list ≤ batch).
//
// Batch order: a node's inner children are pushed by the mean entry distance of the rays that reach
// them, nearest popped first. A ray may then visit its children in another order than its own walk
// would, which changes only which of two triangles it names at an exact tie (t equal to the closest
// so far, e.g. through a shared edge or vertex): the triangle tested first keeps the hit (t < tMax
// strictly), as in every walk of the project. t is the same float32 for every ray.
//
// Box test: the single-ray one (rayWalk.ts), on the record's world planes: each ray subtracts its
// slack-shifted origin and scales by its inverse direction.
//
// Alone: a list shorter than `aloneBelow` is not worth sharing a node; each of its rays walks
// the rest of that subtree by itself (walkRay, its own front-to-back order, one shared stack).

import {
  CHILD_INDEX_MASK,
  CHILD_TYPE_BITS,
  CHILD_TYPE_NODE,
  CHILD_TYPE_SHIFT,
  RAY_NODE_CHILD_MASKS,
  RAY_NODE_RECORD_BYTES,
  RAY_NODE_WORDS,
} from '../generated/layout';
import { countSubtreesMasked, isFiltered, keptLanes } from './filter';
import { isDone, testLeaf } from './leafTest';
import { countVisits, walkRay } from './rayWalk';
import {
  FAR_ROW_X,
  FAR_ROW_Y,
  FAR_ROW_Z,
  FAR_SHIFT_X4,
  FAR_SHIFT_Y4,
  FAR_SHIFT_Z4,
  FAR_INVERSE_X,
  FAR_INVERSE_Y,
  FAR_INVERSE_Z,
  INVERSE_X,
  INVERSE_Y,
  INVERSE_Z,
  NEAR_ROW_X,
  NEAR_ROW_Y,
  NEAR_ROW_Z,
  NEAR_SHIFT_X4,
  NEAR_SHIFT_Y4,
  NEAR_SHIFT_Z4,
  RAY_STATE_SHIFT,
  STACK,
  TMAX,
  TMAX_BOX,
  TOP,
} from './rayState';
import { rankOffsets, sortKeys, storeByRank } from './laneOrder';

const NODE_RECORD = RAY_NODE_RECORD_BYTES;
const WORDS = RAY_NODE_WORDS;
const INDEX_MASK = CHILD_INDEX_MASK;
/** A list element: the ray's slot in the batch (i32), the distance at which it enters the node (f32). */
const ELEMENT_BYTES: usize = 8;
/** A stack entry: node index, list address, list length (i32 each), padding. */
const ENTRY_BYTES: usize = 16;

const ENTER_LANES: usize = memory.data(16, 16);
const LIST_LENGTH: usize = memory.data(16, 16);
const PUSH_SLOT: usize = memory.data(16, 16);
// One ray's hit leaves ordered by exit: slot and entry distance.
const LEAF_SLOT: usize = memory.data(16, 16);
const LEAF_NEAR: usize = memory.data(16, 16);

// Set per cast (setBatchWalk).
let nodes: usize = 0;
let records: usize = 0;
let arena: usize = 0;
let children: usize = 0;
let childBytes: usize = 0;
let stack: usize = 0;
let rayStack: usize = 0;
let aloneBelow: i32 = 0;

/**
 * nodesAt: node records; recordsAt: one ray record per slot (RAY_STATE_BYTES each); arenaAt: the
 * lists; childrenAt: four child lists of `batchSize` elements each; stackAt: the batch stack;
 * rayStackAt: the stack of a ray walking alone (every record's STACK points at it).
 */
export function setBatchWalk(
  nodesAt: usize,
  recordsAt: usize,
  arenaAt: usize,
  childrenAt: usize,
  batchSize: i32,
  stackAt: usize,
  rayStackAt: usize,
  alone: i32,
): void {
  nodes = nodesAt;
  records = recordsAt;
  arena = arenaAt;
  children = childrenAt;
  childBytes = <usize>batchSize * ELEMENT_BYTES;
  stack = stackAt;
  rayStack = rayStackAt;
  aloneBelow = alone;
}

/** The record of the ray in slot `slot` (its STACK set to the shared alone stack). */
export function batchRecord(slot: i32): usize {
  const ray = records + ((<usize>slot) << RAY_STATE_SHIFT);
  store<i32>(ray, <i32>rayStack, STACK);
  return ray;
}

/**
 * The ray against the hit leaves of node p (`leaves`: 4-bit lane mask), front to back by exit as
 * walkRay orders them, skipping a leaf it enters beyond its current tMax; returns the new tMax.
 */
function testLeaves<F>(ray: usize, p: usize, leaves: i32, enter: v128, exit: v128, tMax: f64): f64 {
  if ((leaves & (leaves - 1)) == 0) {
    const lane = <usize>ctz(leaves);
    v128.store(ENTER_LANES, enter);
    if (<f64>load<f32>(ENTER_LANES + 4 * lane) > tMax) return tMax;
    return testLeaf<F>(ray, load<u32>(p + WORDS + 4 * lane), tMax);
  }
  const mask = i32x4.ne(v128.and(i32x4.splat(leaves), i32x4(1, 2, 4, 8)), i32x4.splat(0));
  storeByRank(rankOffsets(sortKeys(f32x4.abs(exit), mask)), enter, LEAF_SLOT, LEAF_NEAR);
  const count = <usize>popcnt(leaves);
  let i: usize = 0;
  do {
    if (<f64>load<f32>(LEAF_NEAR + 4 * i) > tMax) continue;
    tMax = testLeaf<F>(ray, load<u32>(p + WORDS + 4 * <usize>load<i32>(LEAF_SLOT + 4 * i)), tMax);
    if (isDone(ray)) break;
  } while (++i < count);
  return tMax;
}

/** Each ray of the list walks the subtree under `node` by itself. */
function walkAlone<F>(node: i32, list: usize, length: i32): void {
  let e = list;
  const end = list + <usize>length * ELEMENT_BYTES;
  do {
    const ray = records + ((<usize>load<i32>(e)) << RAY_STATE_SHIFT);
    const near = load<f32>(e, 4);
    if (<f64>near > load<f64>(ray, TMAX) || isDone(ray)) continue;
    store<f32>(rayStack, near);
    store<i32>(rayStack, node, 4);
    store<i32>(ray, 1, TOP);
    walkRay<F>(ray);
  } while ((e += ELEMENT_BYTES) < end);
}

/** Walks the `count` rays in slots 0 .. count − 1 (records filled by startRay) from the root. */
export function walkBatch<F>(count: i32): void {
  let e = arena;
  let slot = 0;
  do {
    store<i32>(e, slot);
    store<f32>(e, 0, 4);
    e += ELEMENT_BYTES;
  } while (++slot < count);
  store<i32>(stack, 0);
  store<i32>(stack, <i32>arena, 4);
  store<i32>(stack, count, 8);
  let top: usize = 1;
  let visits: i32 = 0;
  do {
    top--;
    const entry = stack + top * ENTRY_BYTES;
    const node = load<i32>(entry);
    const list = <usize>load<i32>(entry, 4);
    const length = load<i32>(entry, 8);
    if (length < aloneBelow) {
      walkAlone<F>(node, list, length);
      continue;
    }
    const p = nodes + <usize>node * NODE_RECORD;
    const isInner = i32x4.eq(
      v128.and(v128.load(p, WORDS), i32x4.splat(CHILD_TYPE_BITS << CHILD_TYPE_SHIFT)),
      i32x4.splat(CHILD_TYPE_NODE << CHILD_TYPE_SHIFT),
    );
    const innerLanes = i32x4.bitmask(isInner);
    v128.store(LIST_LENGTH, i32x4.splat(0));
    let enterSum = f32x4.splat(0);

    e = list;
    const end = list + <usize>length * ELEMENT_BYTES;
    do {
      const slot = <usize>load<i32>(e);
      const ray = records + (slot << RAY_STATE_SHIFT);
      let tMax = load<f64>(ray, TMAX);
      if (<f64>load<f32>(e, 4) > tMax || isDone(ray)) continue;
      visits++;
      const invX = v128.load(ray, INVERSE_X),
        invY = v128.load(ray, INVERSE_Y),
        invZ = v128.load(ray, INVERSE_Z);
      const farInvX = v128.load(ray, FAR_INVERSE_X),
        farInvY = v128.load(ray, FAR_INVERSE_Y),
        farInvZ = v128.load(ray, FAR_INVERSE_Z);
      let enter = f32x4.pmax(
        f32x4.splat(0),
        f32x4.mul(f32x4.sub(v128.load(p + <usize>load<i32>(ray, NEAR_ROW_X)), v128.load(ray, NEAR_SHIFT_X4)), invX),
      );
      enter = f32x4.pmax(enter, f32x4.mul(f32x4.sub(v128.load(p + <usize>load<i32>(ray, NEAR_ROW_Y)), v128.load(ray, NEAR_SHIFT_Y4)), invY));
      enter = f32x4.pmax(enter, f32x4.mul(f32x4.sub(v128.load(p + <usize>load<i32>(ray, NEAR_ROW_Z)), v128.load(ray, NEAR_SHIFT_Z4)), invZ));
      let exit = f32x4.pmin(
        f32x4.splat(Infinity),
        f32x4.mul(f32x4.sub(v128.load(p + <usize>load<i32>(ray, FAR_ROW_X)), v128.load(ray, FAR_SHIFT_X4)), farInvX),
      );
      exit = f32x4.pmin(exit, f32x4.mul(f32x4.sub(v128.load(p + <usize>load<i32>(ray, FAR_ROW_Y)), v128.load(ray, FAR_SHIFT_Y4)), farInvY));
      exit = f32x4.pmin(exit, f32x4.mul(f32x4.sub(v128.load(p + <usize>load<i32>(ray, FAR_ROW_Z)), v128.load(ray, FAR_SHIFT_Z4)), farInvZ));
      let hit = v128.and(f32x4.le(enter, exit), f32x4.le(enter, v128.load(ray, TMAX_BOX)));
      if (isFiltered<F>()) {
        const kept = v128.and(hit, keptLanes(p + RAY_NODE_CHILD_MASKS));
        countSubtreesMasked(i32x4.bitmask(hit), i32x4.bitmask(kept));
        hit = kept;
      }
      const bits = i32x4.bitmask(hit);
      if (bits == 0) continue;
      const leaves = bits & ~innerLanes;
      if (leaves != 0) {
        tMax = testLeaves<F>(ray, p, leaves, enter, exit, tMax);
        if (isDone(ray)) continue;
      }
      let inner = bits & innerLanes;
      if (inner == 0) continue;
      v128.store(ENTER_LANES, enter);
      enterSum = f32x4.add(enterSum, v128.and(enter, v128.and(hit, isInner)));
      do {
        const lane = <usize>ctz(inner);
        inner &= inner - 1;
        const near = load<f32>(ENTER_LANES + 4 * lane);
        if (<f64>near > tMax) continue;
        const at = LIST_LENGTH + 4 * lane;
        const k = load<i32>(at);
        const out = children + lane * childBytes + <usize>k * ELEMENT_BYTES;
        store<i32>(out, <i32>slot);
        store<f32>(out, near, 4);
        store<i32>(at, k + 1);
      } while (inner != 0);
    } while ((e += ELEMENT_BYTES) < end);

    // The child lists replace the popped one, farthest (by mean entry) first, so the nearest pops next.
    const lengths = v128.load(LIST_LENGTH);
    const filled = i32x4.gt_s(lengths, i32x4.splat(0));
    if (!v128.any_true(filled)) continue;
    const rank = rankOffsets(sortKeys(f32x4.div(enterSum, f32x4.convert_i32x4_s(lengths)), filled));
    store<i32>(PUSH_SLOT + <usize>i32x4.extract_lane(rank, 0), 0);
    store<i32>(PUSH_SLOT + <usize>i32x4.extract_lane(rank, 1), 1);
    store<i32>(PUSH_SLOT + <usize>i32x4.extract_lane(rank, 2), 2);
    store<i32>(PUSH_SLOT + <usize>i32x4.extract_lane(rank, 3), 3);
    let cursor = list;
    let r: i32 = 3;
    do {
      const lane = <usize>load<i32>(PUSH_SLOT + 4 * <usize>r);
      const k = load<i32>(LIST_LENGTH + 4 * lane);
      if (k == 0) continue;
      const bytes = <usize>k * ELEMENT_BYTES;
      memory.copy(cursor, children + lane * childBytes, bytes);
      const out = stack + top * ENTRY_BYTES;
      store<i32>(out, <i32>(load<u32>(p + WORDS + 4 * lane) & INDEX_MASK));
      store<i32>(out, <i32>cursor, 4);
      store<i32>(out, k, 8);
      top++;
      cursor += bytes;
    } while (--r >= 0);
  } while (top > 0);
  countVisits(visits);
}
