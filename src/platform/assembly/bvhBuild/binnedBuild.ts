// The binary SAH tree, top-down over centre bins (Wald 2007, "On fast construction of SAH-based
// bounding volume hierarchies"), with the references' boxes as f32x4 min/max pairs so one reference
// updates a bin box with one min and one max. The same cost model as src/bvh/sahBuilder.ts:
// leaf = n · triangleCost; split = traversalCost + triangleCost · (A_left n_left + A_right n_right) / A_node,
// areas of boxes inflated by sweptRadius; the candidates are the bin planes of the three axes and the
// big/little split (src/bvh/bigLittleSplit.ts). No spatial splits: every triangle is in exactly one leaf.
//
// Each node costs two passes over its references: one drops them into bins, one partitions them by the
// winning plane while gathering what each child needs (its box, its centres' box, its widest reference),
// so no pass recomputes a node's bounds. Work is an explicit stack, left child on top: leaves come out
// in depth-first order, each naming its own run of refTriangle, which is then the triangle order.

import {
  binaryCapacity,
  ensureMemory,
  indicesAt,
  leafCountAt,
  leafStartAt,
  leavesBelowAt,
  leftAt,
  nodeBoxesAt,
  positionsAt,
  refBoxesAt,
  refTriangleAt,
  rightAt,
  stackAt,
} from './arena';

// A task: the node's box (min, max), its doubled centres' box (min, max), the widest reference extent
// per axis, then node, start, count.
const TASK_BYTES: usize = 96;
const TASK_NODE: usize = 80;
const TASK_START: usize = 84;
const TASK_COUNT: usize = 88;

const MAX_BINS: i32 = 256;
/** Bin boxes (min, max f32x4) of the three axes; lane 3 of a bin's min holds its count (an i32). */
const BIN_BOXES: usize = memory.data(3 * MAX_BINS * 32, 16);
/**
 * A second set of bin boxes. Neighbouring references (a mesh's triangles come in spatial order) mostly
 * fall in the same bins; binning them alternately into two sets, folded together after, halves the chains
 * of updates to one bin and lets the two references' work overlap: 5–11% off the binary build of 524k
 * triangles (in-process A/B, CPU time).
 */
const BIN_BOXES_ALT: usize = memory.data(3 * MAX_BINS * 32, 16);
/** Nodes with fewer references bin into one set: clearing and folding a second costs more than it saves. */
const TWO_SETS_FROM: i32 = 64;
/** Per plane of one axis: the right side's area and count, swept from the right. */
const SUFFIX_AREAS: usize = memory.data(MAX_BINS * 4, 16);
const SUFFIX_COUNTS: usize = memory.data(MAX_BINS * 4, 16);
/** Two child statistics records laid out like a task's first 80 bytes. */
const LEFT_STATS: usize = memory.data(80, 16);
const RIGHT_STATS: usize = memory.data(80, 16);

const SPLIT_NONE: i32 = 0;
const SPLIT_BINNED: i32 = 1;
const SPLIT_BIG_LITTLE: i32 = 2;

let bestKind: i32 = SPLIT_NONE;
let bestAxis: i32 = 0;
let bestBin: i32 = 0;
let bestWeightedArea: f64 = Infinity;

const LANE3_ZERO = i32x4(-1, -1, -1, 0);
/** Added to a bin's min: one more reference in lane 3, the bounds' bits unchanged. */
const COUNT_ONE = i32x4(0, 0, 0, 1);
/** OR-ed into a reference's min: +∞ in lane 3, so the bin's min keeps its count there. */
const INFINITY_LANE3 = i32x4(0, 0, 0, 0x7f800000);

/** One reference into the bin boxes at `set`: the bin of each axis (lanes 0..2 of `bin`, axis offsets included). */
function addToBins(set: usize, bin: v128, loCounting: v128, hi: v128): void {
  let o = set + 32 * <usize>i32x4.extract_lane(bin, 0);
  v128.store(o, f32x4.pmin(i32x4.add(v128.load(o), COUNT_ONE), loCounting));
  v128.store(o, f32x4.pmax(v128.load(o, 16), hi), 16);
  o = set + 32 * <usize>i32x4.extract_lane(bin, 1);
  v128.store(o, f32x4.pmin(i32x4.add(v128.load(o), COUNT_ONE), loCounting));
  v128.store(o, f32x4.pmax(v128.load(o, 16), hi), 16);
  o = set + 32 * <usize>i32x4.extract_lane(bin, 2);
  v128.store(o, f32x4.pmin(i32x4.add(v128.load(o), COUNT_ONE), loCounting));
  v128.store(o, f32x4.pmax(v128.load(o, 16), hi), 16);
}

/** Empties `count` bin boxes at `set`: count 0 and +∞ in the min, −∞ in the max. */
function clearBins(set: usize, count: i32): void {
  const emptyMin = v128.and(f32x4.splat(Infinity), LANE3_ZERO);
  const emptyMax = f32x4.splat(-Infinity);
  for (let b = 0; b < count; b++) {
    v128.store(set + 32 * <usize>b, emptyMin);
    v128.store(set + 32 * <usize>b, emptyMax, 16);
  }
}

/** halfArea in f32 lanes, for the many planes of a sweep: (x·y, y·z, z·x) summed. */
function sweepArea(min: v128, max: v128, twoRadius: v128): f32 {
  const extent = f32x4.add(f32x4.sub(max, min), twoRadius);
  const products = f32x4.mul(extent, v128.shuffle<f32>(extent, extent, 1, 2, 0, 3));
  return f32x4.extract_lane(products, 0) + f32x4.extract_lane(products, 1) + f32x4.extract_lane(products, 2);
}

function halfArea(min: v128, max: v128, radius: f64): f64 {
  const x = <f64>f32x4.extract_lane(max, 0) - <f64>f32x4.extract_lane(min, 0) + 2 * radius;
  const y = <f64>f32x4.extract_lane(max, 1) - <f64>f32x4.extract_lane(min, 1) + 2 * radius;
  const z = <f64>f32x4.extract_lane(max, 2) - <f64>f32x4.extract_lane(min, 2) + 2 * radius;
  return x * y + y * z + z * x;
}

/** Boxes of every triangle, as f32x4 min/max with lane 3 zero (the vertex's 4th load lane dropped). */
export function initialiseReferences(triangleCount: i32): void {
  const positions = positionsAt;
  for (let tri = 0; tri < triangleCount; tri++) {
    const i = indicesAt + 12 * <usize>tri;
    const a = v128.load(positions + 12 * <usize>load<u32>(i));
    const b = v128.load(positions + 12 * <usize>load<u32>(i, 4));
    const c = v128.load(positions + 12 * <usize>load<u32>(i, 8));
    const r = refBoxesAt + 32 * <usize>tri;
    v128.store(r, v128.and(f32x4.pmin(f32x4.pmin(a, b), c), LANE3_ZERO));
    v128.store(r, v128.and(f32x4.pmax(f32x4.pmax(a, b), c), LANE3_ZERO), 16);
    store<u32>(refTriangleAt + 4 * <usize>tri, tri);
  }
}

/** Box, centres' box and widest extents of references [start, start + count) into `out`. */
function segmentStats(start: i32, count: i32, out: usize): void {
  let boxMin = f32x4.splat(Infinity),
    boxMax = f32x4.splat(-Infinity);
  let centreMin = boxMin,
    centreMax = boxMax;
  let widest = f32x4.splat(0);
  const end = refBoxesAt + 32 * <usize>(start + count);
  for (let r = refBoxesAt + 32 * <usize>start; r < end; r += 32) {
    const lo = v128.load(r);
    const hi = v128.load(r, 16);
    const centre = f32x4.add(lo, hi);
    boxMin = f32x4.pmin(boxMin, lo);
    boxMax = f32x4.pmax(boxMax, hi);
    centreMin = f32x4.pmin(centreMin, centre);
    centreMax = f32x4.pmax(centreMax, centre);
    widest = f32x4.pmax(widest, f32x4.sub(hi, lo));
  }
  storeStats(out, boxMin, boxMax, centreMin, centreMax, widest);
}

// Bin index without a float-to-int conversion (x64 has no single saturating one): for x in [0, 2^22],
// x + 2^23 is rounded to the integer round(x), which sits in the low mantissa bits, so subtracting the
// bit pattern of 2^23 leaves it. The scale maps the centres onto [0, bins − 1], so bins 0 and last are
// half as wide as the rest (planes at k + ½). Binning and partitioning both use this one expression,
// so they always agree.
const ROUNDING_OFFSET = f32x4.splat(8388608.0);
const ROUNDING_BITS = i32x4.splat(0x4b000000);

/** Bin index vector of a reference's doubled centre (clamped to the last bin). */
function binOf(lo: v128, hi: v128, centreMin: v128, scale: v128, last: v128): v128 {
  const shifted = f32x4.add(f32x4.mul(f32x4.sub(f32x4.add(lo, hi), centreMin), scale), ROUNDING_OFFSET);
  return i32x4.min_s(i32x4.sub(shifted, ROUNDING_BITS), last);
}

/** The bin scale per axis: (bins − 1) / centre extent, 0 on an axis without extent (all in bin 0). */
function binScale(stats: usize, bins: i32): v128 {
  const extent = f32x4.sub(v128.load(stats, 48), v128.load(stats, 32));
  const scale = f32x4.div(f32x4.splat(<f32>(bins - 1)), extent);
  return v128.and(scale, f32x4.gt(extent, f32x4.splat(0)));
}

function evaluateBins(stats: usize, start: i32, count: i32, bins: i32, radius: f64): void {
  const infinity = f32x4.splat(Infinity);
  const negativeInfinity = f32x4.splat(-Infinity);
  const twoSets = count >= TWO_SETS_FROM;
  clearBins(BIN_BOXES, 3 * bins);
  if (twoSets) clearBins(BIN_BOXES_ALT, 3 * bins);
  const centreMin = v128.load(stats, 32);
  const scale = binScale(stats, bins);
  const last = i32x4.splat(bins - 1);
  const yBase = i32x4(0, bins, 2 * bins, 0);
  const end = refBoxesAt + 32 * <usize>(start + count);
  let r = refBoxesAt + 32 * <usize>start;
  if (twoSets) {
    for (; r + 32 < end; r += 64) {
      const lo = v128.load(r);
      const hi = v128.load(r, 16);
      const nextLo = v128.load(r, 32);
      const nextHi = v128.load(r, 48);
      addToBins(BIN_BOXES, i32x4.add(binOf(lo, hi, centreMin, scale, last), yBase), v128.or(lo, INFINITY_LANE3), hi);
      addToBins(BIN_BOXES_ALT, i32x4.add(binOf(nextLo, nextHi, centreMin, scale, last), yBase), v128.or(nextLo, INFINITY_LANE3), nextHi);
    }
    // Fold the second set into the first: counts add (lane 3 of the min), bounds take min and max.
    for (let b = 0; b < 3 * bins; b++) {
      const o = BIN_BOXES + 32 * <usize>b;
      const p = BIN_BOXES_ALT + 32 * <usize>b;
      const min = v128.load(o);
      const otherMin = v128.load(p);
      v128.store(o, v128.bitselect(f32x4.pmin(min, otherMin), i32x4.add(min, otherMin), LANE3_ZERO));
      v128.store(o, f32x4.pmax(v128.load(o, 16), v128.load(p, 16)), 16);
    }
  }
  for (; r < end; r += 32) {
    const lo = v128.load(r);
    const hi = v128.load(r, 16);
    addToBins(BIN_BOXES, i32x4.add(binOf(lo, hi, centreMin, scale, last), yBase), v128.or(lo, INFINITY_LANE3), hi);
  }
  const twoRadius = f32x4.splat(<f32>(2 * radius));
  for (let axis = 0; axis < 3; axis++) {
    const base = BIN_BOXES + 32 * <usize>(axis * bins);
    let min = infinity,
      max = negativeInfinity;
    let rightCount = 0;
    for (let b = bins - 1; b >= 1; b--) {
      const o = base + 32 * <usize>b;
      min = f32x4.pmin(min, v128.load(o));
      max = f32x4.pmax(max, v128.load(o, 16));
      rightCount += load<i32>(o, 12);
      store<f32>(SUFFIX_AREAS + 4 * <usize>b, rightCount > 0 ? sweepArea(min, max, twoRadius) : 0);
      store<i32>(SUFFIX_COUNTS + 4 * <usize>b, rightCount);
    }
    min = infinity;
    max = negativeInfinity;
    let leftCount = 0;
    for (let b = 0; b < bins - 1; b++) {
      const o = base + 32 * <usize>b;
      min = f32x4.pmin(min, v128.load(o));
      max = f32x4.pmax(max, v128.load(o, 16));
      leftCount += load<i32>(o, 12);
      const right = load<i32>(SUFFIX_COUNTS + 4 * <usize>(b + 1));
      if (leftCount == 0 || right == 0) continue;
      const cost = <f64>sweepArea(min, max, twoRadius) * <f64>leftCount + <f64>load<f32>(SUFFIX_AREAS + 4 * <usize>(b + 1)) * <f64>right;
      if (cost < bestWeightedArea) {
        bestWeightedArea = cost;
        bestKind = SPLIT_BINNED;
        bestAxis = axis;
        bestBin = b;
      }
    }
  }
}

/** Lanes 0..2 set where some reference is wider than half the node. */
function isBig(lo: v128, hi: v128, half: v128): bool {
  return v128.any_true(f32x4.gt(f32x4.sub(hi, lo), half));
}

function evaluateBigLittle(stats: usize, start: i32, count: i32, radius: f64): void {
  const half = f32x4.mul(f32x4.sub(v128.load(stats, 16), v128.load(stats)), f32x4.splat(0.5));
  let bigMin = f32x4.splat(Infinity),
    bigMax = f32x4.splat(-Infinity);
  let smallMin = bigMin,
    smallMax = bigMax;
  let bigCount = 0;
  const end = refBoxesAt + 32 * <usize>(start + count);
  for (let r = refBoxesAt + 32 * <usize>start; r < end; r += 32) {
    const lo = v128.load(r);
    const hi = v128.load(r, 16);
    if (isBig(lo, hi, half)) {
      bigCount++;
      bigMin = f32x4.pmin(bigMin, lo);
      bigMax = f32x4.pmax(bigMax, hi);
    } else {
      smallMin = f32x4.pmin(smallMin, lo);
      smallMax = f32x4.pmax(smallMax, hi);
    }
  }
  if (bigCount == 0 || bigCount == count) return;
  const cost = halfArea(bigMin, bigMax, radius) * <f64>bigCount + halfArea(smallMin, smallMax, radius) * <f64>(count - bigCount);
  if (!(cost < bestWeightedArea)) return;
  bestWeightedArea = cost;
  bestKind = SPLIT_BIG_LITTLE;
}

function storeStats(out: usize, boxMin: v128, boxMax: v128, centreMin: v128, centreMax: v128, widest: v128): void {
  v128.store(out, boxMin);
  v128.store(out, boxMax, 16);
  v128.store(out, centreMin, 32);
  v128.store(out, centreMax, 48);
  v128.store(out, widest, 64);
}

/**
 * Partitions the segment by the winning split (left: bins ≤ bestBin on bestAxis, or the big
 * references), gathering each side's statistics into LEFT_STATS / RIGHT_STATS; returns the left count.
 * The statistics stay in locals (registers) for the whole pass.
 */
function partition(stats: usize, start: i32, count: i32, bins: i32): i32 {
  const infinity = f32x4.splat(Infinity);
  const negativeInfinity = f32x4.splat(-Infinity);
  const zero = f32x4.splat(0);
  let leftMin = infinity,
    leftMax = negativeInfinity,
    leftCentreMin = infinity,
    leftCentreMax = negativeInfinity,
    leftWidest = zero;
  let rightMin = infinity,
    rightMax = negativeInfinity,
    rightCentreMin = infinity,
    rightCentreMax = negativeInfinity,
    rightWidest = zero;
  const centreMin = v128.load(stats, 32);
  const scale = binScale(stats, bins);
  const last = i32x4.splat(bins - 1);
  const plane = i32x4.splat(bestBin);
  const axisBit = 1 << bestAxis;
  const binned = bestKind == SPLIT_BINNED;
  const half = f32x4.mul(f32x4.sub(v128.load(stats, 16), v128.load(stats)), f32x4.splat(0.5));
  // Hoare's scheme: i moves right over references going left, j moves left over references going right,
  // and only a misplaced pair is swapped. Each reference is classified once, its statistics gathered then.
  let i = refBoxesAt + 32 * <usize>start;
  let j = refBoxesAt + 32 * <usize>(start + count - 1);
  let ti = refTriangleAt + 4 * <usize>start;
  let tj = refTriangleAt + 4 * <usize>(start + count - 1);
  while (true) {
    let rightLo = f32x4.splat(0),
      rightHi = f32x4.splat(0);
    let foundRight = false;
    while (i <= j) {
      const lo = v128.load(i);
      const hi = v128.load(i, 16);
      const goesLeft = binned ? (i32x4.bitmask(i32x4.gt_s(binOf(lo, hi, centreMin, scale, last), plane)) & axisBit) == 0 : isBig(lo, hi, half);
      if (!goesLeft) {
        rightLo = lo;
        rightHi = hi;
        foundRight = true;
        break;
      }
      const centre = f32x4.add(lo, hi);
      leftMin = f32x4.pmin(leftMin, lo);
      leftMax = f32x4.pmax(leftMax, hi);
      leftCentreMin = f32x4.pmin(leftCentreMin, centre);
      leftCentreMax = f32x4.pmax(leftCentreMax, centre);
      leftWidest = f32x4.pmax(leftWidest, f32x4.sub(hi, lo));
      i += 32;
      ti += 4;
    }
    if (!foundRight) break;
    // i holds a reference going right (classified, not yet gathered).
    let leftLo = f32x4.splat(0),
      leftHi = f32x4.splat(0);
    let foundLeft = false;
    while (j > i) {
      const lo = v128.load(j);
      const hi = v128.load(j, 16);
      const goesLeft = binned ? (i32x4.bitmask(i32x4.gt_s(binOf(lo, hi, centreMin, scale, last), plane)) & axisBit) == 0 : isBig(lo, hi, half);
      if (goesLeft) {
        leftLo = lo;
        leftHi = hi;
        foundLeft = true;
        break;
      }
      const centre = f32x4.add(lo, hi);
      rightMin = f32x4.pmin(rightMin, lo);
      rightMax = f32x4.pmax(rightMax, hi);
      rightCentreMin = f32x4.pmin(rightCentreMin, centre);
      rightCentreMax = f32x4.pmax(rightCentreMax, centre);
      rightWidest = f32x4.pmax(rightWidest, f32x4.sub(hi, lo));
      j -= 32;
      tj -= 4;
    }
    // The reference at i goes right either way.
    const rightCentre = f32x4.add(rightLo, rightHi);
    rightMin = f32x4.pmin(rightMin, rightLo);
    rightMax = f32x4.pmax(rightMax, rightHi);
    rightCentreMin = f32x4.pmin(rightCentreMin, rightCentre);
    rightCentreMax = f32x4.pmax(rightCentreMax, rightCentre);
    rightWidest = f32x4.pmax(rightWidest, f32x4.sub(rightHi, rightLo));
    if (!foundLeft) break;
    const leftCentre = f32x4.add(leftLo, leftHi);
    leftMin = f32x4.pmin(leftMin, leftLo);
    leftMax = f32x4.pmax(leftMax, leftHi);
    leftCentreMin = f32x4.pmin(leftCentreMin, leftCentre);
    leftCentreMax = f32x4.pmax(leftCentreMax, leftCentre);
    leftWidest = f32x4.pmax(leftWidest, f32x4.sub(leftHi, leftLo));
    v128.store(i, leftLo);
    v128.store(i, leftHi, 16);
    v128.store(j, rightLo);
    v128.store(j, rightHi, 16);
    const t = load<u32>(ti);
    store<u32>(ti, load<u32>(tj));
    store<u32>(tj, t);
    i += 32;
    ti += 4;
    j -= 32;
    tj -= 4;
  }
  storeStats(LEFT_STATS, leftMin, leftMax, leftCentreMin, leftCentreMax, leftWidest);
  storeStats(RIGHT_STATS, rightMin, rightMax, rightCentreMin, rightCentreMax, rightWidest);
  return <i32>((ti - refTriangleAt) >> 2) - start;
}

function taskAt(index: i32): usize {
  return stackAt + TASK_BYTES * <usize>index;
}

function pushTask(index: i32, stats: usize, node: i32, start: i32, count: i32): bool {
  const task = taskAt(index);
  if (!ensureMemory(task + TASK_BYTES)) return false;
  memory.copy(task, stats, 80);
  store<i32>(task + TASK_NODE, node);
  store<i32>(task + TASK_START, start);
  store<i32>(task + TASK_COUNT, count);
  return true;
}

/**
 * Builds the binary tree over references [0, triangleCount) (initialiseReferences first). Returns the
 * node count, or −1 when the memory could not grow for the work stack.
 */
export function buildBinary(
  triangleCount: i32,
  bins: i32,
  maxLeafSize: i32,
  traversalCost: f64,
  triangleCost: f64,
  radius: f64,
  bigLittle: bool,
): i32 {
  if (triangleCount == 0) return 0;
  bins = min(max(bins, 2), MAX_BINS);
  const rootStats = LEFT_STATS;
  segmentStats(0, triangleCount, rootStats);
  if (!pushTask(0, rootStats, 0, 0, triangleCount)) return -1;
  let taskCount = 1;
  let nodeCount = 1;
  while (taskCount > 0) {
    taskCount--;
    const task = taskAt(taskCount);
    const node = load<i32>(task + TASK_NODE);
    const start = load<i32>(task + TASK_START);
    const count = load<i32>(task + TASK_COUNT);
    const boxMin = v128.load(task);
    const boxMax = v128.load(task, 16);
    v128.store(nodeBoxesAt + 32 * <usize>node, boxMin);
    v128.store(nodeBoxesAt + 32 * <usize>node, boxMax, 16);
    const nodeArea = halfArea(boxMin, boxMax, radius);

    bestKind = SPLIT_NONE;
    bestWeightedArea = Infinity;
    // A small node gets about one bin per reference: more planes than references cannot separate more.
    const nodeBins = min(bins, max(4, count));
    if (count > 1) {
      evaluateBins(task, start, count, nodeBins, radius);
      // Only a node holding some reference wider than half of it can have a big/little split.
      const twiceWidest = f32x4.add(v128.load(task, 64), v128.load(task, 64));
      if (bigLittle && v128.any_true(f32x4.gt(twiceWidest, f32x4.sub(boxMax, boxMin)))) evaluateBigLittle(task, start, count, radius);
    }
    const splitCost = traversalCost + (triangleCost * bestWeightedArea) / (nodeArea > 0 ? nodeArea : 1);
    const makeLeaf = count <= 1 || (count <= maxLeafSize && <f64>count * triangleCost <= splitCost);
    if (makeLeaf) {
      store<i32>(leftAt + 4 * <usize>node, -1);
      store<i32>(rightAt + 4 * <usize>node, -1);
      store<i32>(leafStartAt + 4 * <usize>node, start);
      store<i32>(leafCountAt + 4 * <usize>node, count);
      continue;
    }
    let leftCount = bestKind == SPLIT_NONE ? 0 : partition(task, start, count, nodeBins);
    if (leftCount <= 0 || leftCount >= count) {
      // No split separates the references (all centres in one bin): halve the run, which always ends.
      leftCount = count >> 1;
      segmentStats(start, leftCount, LEFT_STATS);
      segmentStats(start + leftCount, count - leftCount, RIGHT_STATS);
    }
    if (nodeCount + 2 > binaryCapacity) return -1;
    const leftNode = nodeCount++;
    const rightNode = nodeCount++;
    store<i32>(leftAt + 4 * <usize>node, leftNode);
    store<i32>(rightAt + 4 * <usize>node, rightNode);
    store<i32>(leafStartAt + 4 * <usize>node, 0);
    store<i32>(leafCountAt + 4 * <usize>node, 0);
    // The popped task's slot is reused by the right child (pushed first), so its stats were read above.
    if (!pushTask(taskCount, RIGHT_STATS, rightNode, start + leftCount, count - leftCount)) return -1;
    taskCount++;
    if (!pushTask(taskCount, LEFT_STATS, leftNode, start, leftCount)) return -1;
    taskCount++;
  }
  for (let node = nodeCount - 1; node >= 0; node--) {
    const l = load<i32>(leftAt + 4 * <usize>node);
    const below = l < 0 ? 1 : load<i32>(leavesBelowAt + 4 * <usize>l) + load<i32>(leavesBelowAt + 4 * <usize>load<i32>(rightAt + 4 * <usize>node));
    store<i32>(leavesBelowAt + 4 * <usize>node, below);
  }
  return nodeCount;
}
