// One ray's walk: pop a node, test its four child boxes at once, test the hit leaves' triangles front
// to back, push the hit inner nodes farthest first. The twin of the TypeScript walks
// (src/query/rays/traverseQuantized.ts); the ray's record (rayState.ts) holds its constants, closest
// hit and stack.
//
// Node record: 128 bytes, two cache lines that the hardware fetches as a pair (src/query/rays/rayNodeRecords.ts):
// the four child boxes as six f32x4 rows of world planes (minX, minY, minZ, maxX, maxY, maxZ), decoded
// once at upload from the TypeScript walk's float64 boxes and rounded outward, then the four child
// words at WORDS, then the children's collision masks (filter.ts). The stack holds only node and entry distance; an empty slot's inverted box (+∞ mins,
// −∞ maxes) fails the slab test by itself.

import {
  CHILD_INDEX_MASK,
  CHILD_TYPE_BITS,
  CHILD_TYPE_NODE,
  CHILD_TYPE_SHIFT,
  KERNEL_STACK_ENTRY_BYTES,
  RAY_NODE_CHILD_MASKS,
  RAY_NODE_RECORD_BYTES,
  RAY_NODE_WORDS,
} from '../generated/layout';
import { countSubtreesMasked, isFiltered, keptLanes } from './filter';
import { isDone, setLeaves, testLeaf } from './leafTest';
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
  STACK,
  TMAX,
  TMAX_BOX,
  TOP,
} from './rayState';
import { rankOffsets, sortKeys, storeByRank } from './laneOrder';

const NODE_RECORD = RAY_NODE_RECORD_BYTES;
const WORDS = RAY_NODE_WORDS;
const STACK_ENTRY = KERNEL_STACK_ENTRY_BYTES;
const INDEX_MASK = CHILD_INDEX_MASK;

// The cast's tree (set once per cast).
let nodes: usize = 0;

export let nodesVisited: i32 = 0;

// Scratch for one node's hit children, ordered by exit: slot (16 bytes) then entry distance (16 bytes).
// In the shared-memory build (threads enabled) every instance sees the same static data, so each thread
// names scratch of its own (setThreadScratch); the single-thread build folds the choice away.
const HIT_SCRATCH: usize = memory.data(32, 16);
let threadScratch: usize = 0;

/** Shared-memory build: this instance's 32 bytes of hit scratch (16-byte aligned). */
export function setThreadScratch(at: usize): void {
  threadScratch = at;
}

export function setScene(nodesAt: usize, trianglesAt: usize, orderAt: usize, stopAtAnyHit: bool, collectAllHits: bool): void {
  nodes = nodesAt;
  nodesVisited = 0;
  setLeaves(trianglesAt, orderAt, stopAtAnyHit, collectAllHits);
}

/** Adds box tests made outside walkRay (the batched walk) to the visit counter. */
export function countVisits(visits: i32): void {
  nodesVisited += visits;
}

/**
 * Walks the ray whose record is at `ray` until its stack (STACK, TOP entries) is empty, or until an
 * any-hit ray has its hit. The ray's box-test constants stay in locals for the whole walk, and the
 * nearest hit inner child is visited next without a trip through the stack.
 */
export function walkRay<F>(ray: usize): void {
  const stack = <usize>load<i32>(ray, STACK);
  let top = <usize>load<i32>(ray, TOP);
  const invX = v128.load(ray, INVERSE_X),
    invY = v128.load(ray, INVERSE_Y),
    invZ = v128.load(ray, INVERSE_Z);
  const farInvX = v128.load(ray, FAR_INVERSE_X),
    farInvY = v128.load(ray, FAR_INVERSE_Y),
    farInvZ = v128.load(ray, FAR_INVERSE_Z);
  const nearShiftX = v128.load(ray, NEAR_SHIFT_X4),
    nearShiftY = v128.load(ray, NEAR_SHIFT_Y4),
    nearShiftZ = v128.load(ray, NEAR_SHIFT_Z4);
  const farShiftX = v128.load(ray, FAR_SHIFT_X4),
    farShiftY = v128.load(ray, FAR_SHIFT_Y4),
    farShiftZ = v128.load(ray, FAR_SHIFT_Z4);
  const nearRowX = <usize>load<i32>(ray, NEAR_ROW_X),
    nearRowY = <usize>load<i32>(ray, NEAR_ROW_Y),
    nearRowZ = <usize>load<i32>(ray, NEAR_ROW_Z);
  const farRowX = <usize>load<i32>(ray, FAR_ROW_X),
    farRowY = <usize>load<i32>(ray, FAR_ROW_Y),
    farRowZ = <usize>load<i32>(ray, FAR_ROW_Z);
  let tMax = load<f64>(ray, TMAX);
  let tMaxBox = v128.load(ray, TMAX_BOX);
  let visits: i32 = 0;
  const HIT_SLOT: usize = ASC_FEATURE_THREADS ? threadScratch : HIT_SCRATCH;
  const HIT_NEAR: usize = HIT_SLOT + 16;
  // The node to visit next, or 0: pop one.
  let p: usize = 0;
  while (true) {
    if (p == 0) {
      if (top == 0) break;
      top--;
      const entry = stack + top * STACK_ENTRY;
      if (<f64>load<f32>(entry) > tMax) continue;
      p = nodes + <usize>load<i32>(entry, 4) * NODE_RECORD;
    }
    const node = p;
    p = 0;
    visits++;

    // Four child boxes at once: (plane − shifted origin) · 1/d, the planes already in world space.
    let enter = f32x4.pmax(f32x4.splat(0), f32x4.mul(f32x4.sub(v128.load(node + nearRowX), nearShiftX), invX));
    enter = f32x4.pmax(enter, f32x4.mul(f32x4.sub(v128.load(node + nearRowY), nearShiftY), invY));
    enter = f32x4.pmax(enter, f32x4.mul(f32x4.sub(v128.load(node + nearRowZ), nearShiftZ), invZ));
    let exit = f32x4.pmin(f32x4.splat(Infinity), f32x4.mul(f32x4.sub(v128.load(node + farRowX), farShiftX), farInvX));
    exit = f32x4.pmin(exit, f32x4.mul(f32x4.sub(v128.load(node + farRowY), farShiftY), farInvY));
    exit = f32x4.pmin(exit, f32x4.mul(f32x4.sub(v128.load(node + farRowZ), farShiftZ), farInvZ));
    let hitMask = v128.and(f32x4.le(enter, exit), f32x4.le(enter, tMaxBox));
    if (isFiltered<F>()) {
      const kept = v128.and(hitMask, keptLanes(node + RAY_NODE_CHILD_MASKS));
      countSubtreesMasked(i32x4.bitmask(hitMask), i32x4.bitmask(kept));
      hitMask = kept;
    }
    const bits = i32x4.bitmask(hitMask);
    if (bits == 0) continue;

    if ((bits & (bits - 1)) == 0) {
      // One child hit (the common case): no ordering; a leaf is tested, a node visited next.
      const lane = <usize>ctz(bits);
      v128.store(HIT_NEAR, enter);
      if (<f64>load<f32>(HIT_NEAR + 4 * lane) > tMax) continue;
      const word = load<u32>(node + WORDS + 4 * lane);
      if (((word >>> CHILD_TYPE_SHIFT) & CHILD_TYPE_BITS) == CHILD_TYPE_NODE) {
        p = nodes + <usize>(word & INDEX_MASK) * NODE_RECORD;
        continue;
      }
      tMax = testLeaf<F>(ray, word, tMax);
      if (isDone(ray)) break;
      tMaxBox = v128.load(ray, TMAX_BOX);
      continue;
    }

    // Hit children ordered by exit, as orderByExit, without branches: each lane's key is its exit's
    // bits (exits are ≥ 0, so their bits order as integers) with the slot in the two lowest bits (ties
    // go to the lower slot; exits within 4 ulps may swap, which the float32 exits could do anyway),
    // missed lanes last; a lane's rank is the number of smaller keys, and the slots land at their ranks.
    const hits = <usize>popcnt(bits);
    storeByRank(rankOffsets(sortKeys(f32x4.abs(exit), hitMask)), enter, HIT_SLOT, HIT_NEAR);

    // Leaves first, front to back, so the ray shrinks before any node is pushed.
    let i: usize = 0;
    let done = false;
    do {
      const word = load<u32>(node + WORDS + 4 * <usize>load<i32>(HIT_SLOT + 4 * i));
      if (((word >>> CHILD_TYPE_SHIFT) & CHILD_TYPE_BITS) == CHILD_TYPE_NODE || <f64>load<f32>(HIT_NEAR + 4 * i) > tMax) continue;
      tMax = testLeaf<F>(ray, word, tMax);
      if (isDone(ray)) {
        done = true;
        break;
      }
      tMaxBox = v128.load(ray, TMAX_BOX);
    } while (++i < hits);
    if (done) break;

    // Then inner nodes, farthest first; the nearest is taken back off the stack and visited next.
    const pushedFrom = top;
    i = hits;
    do {
      i--;
      const slot = <usize>load<i32>(HIT_SLOT + 4 * i);
      const word = load<u32>(node + WORDS + 4 * slot);
      const near = <f64>load<f32>(HIT_NEAR + 4 * i);
      if (((word >>> CHILD_TYPE_SHIFT) & CHILD_TYPE_BITS) != CHILD_TYPE_NODE || near > tMax) continue;
      const out = stack + top * STACK_ENTRY;
      store<f32>(out, <f32>near);
      store<i32>(out, <i32>(word & INDEX_MASK), 4);
      top++;
    } while (i > 0);
    if (top > pushedFrom) {
      top--;
      p = nodes + <usize>load<i32>(stack + top * STACK_ENTRY, 4) * NODE_RECORD;
    }
  }
  store<i32>(ray, 0, TOP);
  nodesVisited += visits;
}
