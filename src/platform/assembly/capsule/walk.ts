// One capsule (capsuleState.ts, already loaded) through the quantized 4-way tree, the twin of
// src/query/capsule/sweepQuantized.ts: pop a node, test its four child boxes at once, sweep the hit
// leaves' triangles front to back (cull, then the exact tests of the pairs kept, before the next
// leaf, so the motion shrinks as early as possible), push the hit inner nodes farthest first.
//
// Node record: 128 bytes, as for the ray kernel (src/bvh/nodeRecords.ts): the quantized node's 64
// bytes, then its frame as float32 min xyz (at 64) and step xyz (at 80).
// Stack entry: 8 bytes: the time the capsule's box enters the node (f32) and the node index (i32).
// Triangles: one i32 per leaf reference (the caller's triangle id), one edge-mask byte per reference,
// and the corners in groups of four (triangleLayout.ts).
// Collision filter (when the batch's filter rejects some material; no check runs otherwise): one u32
// per reference, its triangle's material mask, and the 256 node masks (u32); a node's mask index is the
// top nibbles of its child words 0 (low) and 1 (high) (src/bvh/childWord.ts). A popped node whose mask
// misses the filter is cut, a leaf triangle whose mask misses it skipped before the cull, as in the
// TypeScript walk.
//
// The 4-box test is the ray kernel's slab test in f32x4, one lane per child: a child box grown by the
// capsule box's half extents against the segment from the capsule box's centre along the motion is
// the same as the ray test with the centre moved by the half extents towards each plane, so the near
// and far planes get their own shifted centres. As for rays it must never cull a box the capsule box
// reaches: the shifts are widened by a float32 rounding slack (from the frames' magnitude bound, the
// centre and the extents), exits and the best time by relative slacks, and NaN plane distances (a
// plane through the centre of a motion with a zero component) are ignored by pmax / pmin with the
// running value first. A few more boxes than the TypeScript walk's may pass; their triangles are
// culled or tested exactly, which gives the same contacts.

import { bestT, centreX, centreY, centreZ, dx, dy, dz, extentX, extentY, extentZ } from './capsuleState';
import { cylinderEdge, cylinderFace, cylinderVertex, sphereEdge, sphereFace, sphereVertex } from './featureTests';
import { cullPair, keptPairs, prepareCull } from './quickCull';
import {
  CYLINDER_EDGE,
  CYLINDER_EDGE_BITS,
  CYLINDER_FACE,
  CYLINDER_FACE_BITS,
  CYLINDER_VERTEX,
  CYLINDER_VERTEX_BITS,
  MASK_TO_PAIRS,
  SPHERE1_SHIFT,
  SPHERE_EDGE,
  SPHERE_EDGE_BITS,
  SPHERE_FACE,
  SPHERE_FACE_BITS,
  SPHERE_VERTEX,
  SPHERE_VERTEX_BITS,
} from './tables';
import { trianglePair, triangleAt } from './triangleLayout';
import { CHILD_INDEX_MASK as INDEX_MASK, KERNEL_STACK_ENTRY_BYTES as STACK_ENTRY, NODE_RECORD_BYTES as NODE_RECORD } from '../generated/layout';
import { rankOffsets, sortKeys, storeByRank } from '../rays/laneOrder';

/** Distance slack relative to the magnitudes that enter a plane distance (≥ 16 float32 ulps). */
const PLANE_SLACK: f64 = 1.0 / 524288.0; // 2^-19
/** Relative slack on box exits (rounding of 1/d and of the products). */
const EXIT_SLACK: f32 = 1.0 / 1048576.0; // 2^-20
/** Most triangles in a leaf (a 4-bit leaf type holds up to 14). */
const LEAF_MAX: i32 = 16;

// The tree and triangles of the sweep (set once per batch).
let nodes: usize = 0;
let references: usize = 0;
let masks: usize = 0;
let triangles: usize = 0;
let stack: usize = 0;
let magnitude: usize = 0;
let useMasks: bool = false;
let quickCull: bool = false;
let traceAt: usize = 0;
let traceCapacity: i32 = 0;
let filtering: bool = false;
let filter: u32 = 0xffffffff;
let referenceMasks: usize = 0;
let nodeMasks: usize = 0;

// Work, summed over the batch.
export let nodesVisited: i32 = 0;
export let trianglesTested: i32 = 0;
export let pairsKept: i32 = 0;
export let pairsTested: i32 = 0;
export let leavesVisited: i32 = 0;
/** Triangles with a pair the culls kept (culled ones = trianglesTested − keptTriangles: counted on the rare side). */
export let keptTriangles: i32 = 0;
export let subtreesMasked: i32 = 0;
export let trianglesMasked: i32 = 0;
/** Pairs drained per pair type (i32 × 6); in the shared-memory build, in this thread's scratch (drained()). */
const DRAINED: usize = memory.data(24, 16);
export let traceCount: i32 = 0;

// The capsule's box test, set per capsule: f32x4 splats of 1/(d + 0), the centre shifted for near and
// far planes, the rows of the near and far bounds in a node.
let inverseX: v128 = f32x4.splat(0);
let inverseY: v128 = f32x4.splat(0);
let inverseZ: v128 = f32x4.splat(0);
let nearShift: v128 = f32x4.splat(0);
let farShift: v128 = f32x4.splat(0);
let nearRowX: usize = 0;
let nearRowY: usize = 0;
let nearRowZ: usize = 0;
let farRowX: usize = 0;
let farRowY: usize = 0;
let farRowZ: usize = 0;
let tracing: bool = false;

// One node's hit children ordered by entry (slot and entry time), and one leaf's triangles that have
// pairs to test (reference and pair bits).
const HIT_SLOT: usize = memory.data(16, 16);
const HIT_NEAR: usize = memory.data(16, 16);
const LEAF_REFERENCE: usize = memory.data(4 * LEAF_MAX, 16);
const LEAF_TESTED: usize = memory.data(4 * LEAF_MAX, 16);

// In the shared-memory build (threads enabled) every instance sees the same static data, so each thread
// names scratch of its own (setThreadScratch), laid out as below; the single-thread build folds the
// choice away and keeps the static addresses above.
const SCRATCH_HIT_SLOT: usize = 0;
const SCRATCH_HIT_NEAR: usize = 16;
const SCRATCH_LEAF_REFERENCE: usize = 32;
const SCRATCH_LEAF_TESTED: usize = SCRATCH_LEAF_REFERENCE + 4 * LEAF_MAX;
const SCRATCH_DRAINED: usize = SCRATCH_LEAF_TESTED + 4 * LEAF_MAX;
/** Bytes of one thread's walk scratch (16-byte aligned). */
export const WALK_SCRATCH_BYTES: usize = (SCRATCH_DRAINED + 24 + 15) & ~15;
let threadScratch: usize = 0;

/** Shared-memory build: this instance's WALK_SCRATCH_BYTES of scratch (16-byte aligned). */
export function setThreadScratch(at: usize): void {
  threadScratch = at;
}

function hitSlots(): usize {
  return ASC_FEATURE_THREADS ? threadScratch + SCRATCH_HIT_SLOT : HIT_SLOT;
}
function hitNears(): usize {
  return ASC_FEATURE_THREADS ? threadScratch + SCRATCH_HIT_NEAR : HIT_NEAR;
}
function leafReferences(): usize {
  return ASC_FEATURE_THREADS ? threadScratch + SCRATCH_LEAF_REFERENCE : LEAF_REFERENCE;
}
function leafTested(): usize {
  return ASC_FEATURE_THREADS ? threadScratch + SCRATCH_LEAF_TESTED : LEAF_TESTED;
}
/** Where the pairs drained per type (i32 × 6: drain's order of types, tables.ts) are counted. */
export function drained(): usize {
  return ASC_FEATURE_THREADS ? threadScratch + SCRATCH_DRAINED : DRAINED;
}

export function setScene(
  nodesAt: usize,
  referencesAt: usize,
  masksAt: usize,
  trianglesAt: usize,
  stackAt: usize,
  magnitudeAt: usize,
  edgeMasks: bool,
  cull: bool,
  traceBuffer: usize,
  capacity: i32,
  filtered: bool,
  filterBits: u32,
  referenceMasksAt: usize,
  nodeMasksAt: usize,
): void {
  nodes = nodesAt;
  references = referencesAt;
  masks = masksAt;
  triangles = trianglesAt;
  stack = stackAt;
  magnitude = magnitudeAt;
  useMasks = edgeMasks;
  quickCull = cull;
  traceAt = traceBuffer;
  traceCapacity = capacity;
  filtering = filtered;
  filter = filterBits;
  referenceMasks = referenceMasksAt;
  nodeMasks = nodeMasksAt;
  resetCounters();
}

/** Clears the work counters (the shared-memory build counts each chunk of a batch apart). */
export function resetCounters(): void {
  nodesVisited = 0;
  trianglesTested = 0;
  pairsKept = 0;
  pairsTested = 0;
  leavesVisited = 0;
  keptTriangles = 0;
  subtreesMasked = 0;
  trianglesMasked = 0;
  traceCount = 0;
  memory.fill(drained(), 0, 24);
}

/** Sets the box test's constants for the loaded capsule. */
function prepareBoxTest(): void {
  const invX: f64 = 1 / (dx + 0);
  const invY: f64 = 1 / (dy + 0);
  const invZ: f64 = 1 / (dz + 0);
  inverseX = f32x4.splat(<f32>invX);
  inverseY = f32x4.splat(<f32>invY);
  inverseZ = f32x4.splat(<f32>invZ);
  // Rows (8 bytes each): minX 0, minY 8, minZ 16, maxX 24, maxY 32, maxZ 40; picked by the sign of 1/d.
  nearRowX = invX >= 0 ? 0 : 24;
  nearRowY = invY >= 0 ? 8 : 32;
  nearRowZ = invZ >= 0 ? 16 : 40;
  farRowX = 24 - nearRowX;
  farRowY = 40 - nearRowY;
  farRowZ = 56 - nearRowZ;
  const signX: f64 = invX >= 0 ? 1 : -1;
  const signY: f64 = invY >= 0 ? 1 : -1;
  const signZ: f64 = invZ >= 0 ? 1 : -1;
  const growX = extentX + PLANE_SLACK * (load<f64>(magnitude) + Math.abs(centreX) + extentX);
  const growY = extentY + PLANE_SLACK * (load<f64>(magnitude, 8) + Math.abs(centreY) + extentY);
  const growZ = extentZ + PLANE_SLACK * (load<f64>(magnitude, 16) + Math.abs(centreZ) + extentZ);
  nearShift = f32x4(<f32>(centreX + signX * growX), <f32>(centreY + signY * growY), <f32>(centreZ + signZ * growZ), 0);
  farShift = f32x4(<f32>(centreX - signX * growX), <f32>(centreY - signY * growY), <f32>(centreZ - signZ * growZ), 0);
}

/** Sweeps the loaded capsule; `traced`: record its triangles in the trace. */
export function sweepCapsule(traced: bool): void {
  prepareBoxTest();
  prepareCull();
  tracing = traced;
  // Two copies of the walk, one without any filter check: an unfiltered batch pays nothing for filters.
  if (filtering) walk<Filtered>();
  else walk<Unfiltered>();
}

// Markers of the two copies of the walk: the type argument decides `filtered` at compile time.
type Filtered = u8;
type Unfiltered = u16;

/** The walk, compiled once per marker type; each copy keeps only its own checks. */
function walk<Kind>(): void {
  const filtered = sizeof<Kind>() == sizeof<Filtered>();
  const hitSlot = hitSlots(),
    hitNear = hitNears();
  store<f32>(stack, 0);
  store<i32>(stack, 0, 4);
  let top: usize = 1;
  do {
    top--;
    const entry = stack + top * STACK_ENTRY;
    if (<f64>load<f32>(entry) > bestT * (1 + PLANE_SLACK)) continue;
    const p = nodes + <usize>load<i32>(entry, 4) * NODE_RECORD;
    if (filtered) {
      const maskIndex = (load<u32>(p, 48) >>> 28) | ((load<u32>(p, 52) >>> 28) << 4);
      if ((load<u32>(nodeMasks + 4 * <usize>maskIndex) & filter) == 0) {
        subtreesMasked++;
        continue;
      }
    }
    nodesVisited++;

    // Four child boxes at once: plane distance q·step + (frameMin − shift), times 1/d.
    const frameMin = v128.load(p, 64);
    const step = v128.load(p, 80);
    const nearOffset = f32x4.sub(frameMin, nearShift);
    const farOffset = f32x4.sub(frameMin, farShift);
    const stepX = v128.shuffle<f32>(step, step, 0, 0, 0, 0),
      stepY = v128.shuffle<f32>(step, step, 1, 1, 1, 1),
      stepZ = v128.shuffle<f32>(step, step, 2, 2, 2, 2);
    const qNearX = f32x4.convert_i32x4_s(v128.load16x4_u(p + nearRowX));
    const qNearY = f32x4.convert_i32x4_s(v128.load16x4_u(p + nearRowY));
    const qNearZ = f32x4.convert_i32x4_s(v128.load16x4_u(p + nearRowZ));
    const qFarX = f32x4.convert_i32x4_s(v128.load16x4_u(p + farRowX));
    const qFarY = f32x4.convert_i32x4_s(v128.load16x4_u(p + farRowY));
    const qFarZ = f32x4.convert_i32x4_s(v128.load16x4_u(p + farRowZ));
    let enter = f32x4.pmax(
      f32x4.splat(0),
      f32x4.mul(f32x4.add(f32x4.mul(qNearX, stepX), v128.shuffle<f32>(nearOffset, nearOffset, 0, 0, 0, 0)), inverseX),
    );
    enter = f32x4.pmax(enter, f32x4.mul(f32x4.add(f32x4.mul(qNearY, stepY), v128.shuffle<f32>(nearOffset, nearOffset, 1, 1, 1, 1)), inverseY));
    enter = f32x4.pmax(enter, f32x4.mul(f32x4.add(f32x4.mul(qNearZ, stepZ), v128.shuffle<f32>(nearOffset, nearOffset, 2, 2, 2, 2)), inverseZ));
    let exit = f32x4.pmin(
      f32x4.splat(Infinity),
      f32x4.mul(f32x4.add(f32x4.mul(qFarX, stepX), v128.shuffle<f32>(farOffset, farOffset, 0, 0, 0, 0)), inverseX),
    );
    exit = f32x4.pmin(exit, f32x4.mul(f32x4.add(f32x4.mul(qFarY, stepY), v128.shuffle<f32>(farOffset, farOffset, 1, 1, 1, 1)), inverseY));
    exit = f32x4.pmin(exit, f32x4.mul(f32x4.add(f32x4.mul(qFarZ, stepZ), v128.shuffle<f32>(farOffset, farOffset, 2, 2, 2, 2)), inverseZ));
    exit = f32x4.add(exit, f32x4.mul(f32x4.abs(exit), f32x4.splat(EXIT_SLACK)));
    const words = v128.load(p, 48);
    const notEmpty = v128.not(i32x4.eq(v128.and(words, i32x4.splat(15 << 24)), i32x4.splat(1 << 24)));
    const limitBox = f32x4.splat(<f32>(bestT * (1 + PLANE_SLACK)));
    const hitMask = v128.and(v128.and(f32x4.le(enter, exit), f32x4.le(enter, limitBox)), notEmpty);
    const bits = i32x4.bitmask(hitMask);
    if (bits == 0) continue;

    // Hit children ordered by entry, nearest first, without branches: each lane's key is its entry's
    // bits (entries are ≥ 0, so their bits order as integers) with the slot in the two lowest bits
    // (ties go to the lower slot, as in orderByExit), missed lanes last; a lane's rank is the number
    // of smaller keys, and the slots land at their ranks.
    const hits = <usize>popcnt(bits);
    storeByRank(rankOffsets(sortKeys(enter, hitMask)), enter, hitSlot, hitNear);

    // Leaves first, front to back.
    let i: usize = 0;
    do {
      const word = load<u32>(p + 48 + 4 * <usize>load<i32>(hitSlot + 4 * i));
      const type = (word >>> 24) & 15;
      if (type == 0 || <f64>load<f32>(hitNear + 4 * i) > bestT * (1 + PLANE_SLACK)) continue;
      if (filtered) sweepLeafFiltered(word & INDEX_MASK, type - 1);
      else sweepLeaf(word & INDEX_MASK, type - 1);
    } while (++i < hits);

    // Then inner nodes, farthest first, so the nearest is popped next.
    const limit = bestT * (1 + PLANE_SLACK);
    i = hits;
    do {
      i--;
      const slot = <usize>load<i32>(hitSlot + 4 * i);
      const word = load<u32>(p + 48 + 4 * slot);
      const near = load<f32>(hitNear + 4 * i);
      if (((word >>> 24) & 15) != 0 || <f64>near > limit) continue;
      const out = stack + top * STACK_ENTRY;
      store<f32>(out, near);
      store<i32>(out, <i32>(word & INDEX_MASK), 4);
      top++;
    } while (i > 0);
  } while (top > 0);
}

/**
 * The leaf's references [first, first + count): culled two at a time (quickCull.ts), the pairs the
 * edge masks allow collected, then tested type by type in the order of the TypeScript queues.
 */
function sweepLeaf(first: u32, count: u32): void {
  leavesVisited++;
  trianglesTested += <i32>count;
  const end = first + count;
  const limit = bestT;
  let waiting: usize = 0;
  let k = first & ~1;
  do {
    const words = cullPair(trianglePair(triangles, k), limit);
    if (k >= first) waiting = collect(k, <i32>i64x2.extract_lane(words, 0), waiting);
    if (k + 1 < end) waiting = collect(k + 1, <i32>i64x2.extract_lane(words, 1), waiting);
    k += 2;
  } while (k < end);
  if (waiting != 0) drain(waiting);
}

/** sweepLeaf for a filtered batch: references whose mask misses the filter are skipped (a pair of
 *  references is culled only when one of them passes). */
function sweepLeafFiltered(first: u32, count: u32): void {
  leavesVisited++;
  const end = first + count;
  const limit = bestT;
  let waiting: usize = 0;
  let passed = 0;
  let k = first & ~1;
  do {
    const keep0 = k >= first && (load<u32>(referenceMasks + 4 * <usize>k) & filter) != 0;
    const keep1 = k + 1 < end && (load<u32>(referenceMasks + 4 * <usize>(k + 1)) & filter) != 0;
    if (keep0 || keep1) {
      const words = cullPair(trianglePair(triangles, k), limit);
      if (keep0) {
        waiting = collect(k, <i32>i64x2.extract_lane(words, 0), waiting);
        passed++;
      }
      if (keep1) {
        waiting = collect(k + 1, <i32>i64x2.extract_lane(words, 1), waiting);
        passed++;
      }
    }
    k += 2;
  } while (k < end);
  trianglesTested += passed;
  trianglesMasked += <i32>count - passed;
  if (waiting != 0) drain(waiting);
}

/** One reference's cull word → its pairs; those left after the edge mask wait in the leaf's list. */
function collect(k: u32, word: i32, waiting: usize): usize {
  const kept = keptPairs(word, quickCull);
  const tested = useMasks ? kept & load<i32>(MASK_TO_PAIRS + 4 * <usize>load<u8>(masks + <usize>k)) : kept;
  if (tracing && traceCount < traceCapacity) {
    const out = traceAt + 12 * <usize>traceCount;
    store<i32>(out, load<i32>(references + 4 * <usize>k));
    store<i32>(out, kept, 4);
    store<i32>(out, tested, 8);
    traceCount++;
  }
  if (kept == 0) return waiting;
  keptTriangles++;
  pairsKept += popcnt(kept);
  if (tested == 0) return waiting;
  pairsTested += popcnt(tested);
  store<u32>(leafReferences() + 4 * waiting, k);
  store<i32>(leafTested() + 4 * waiting, tested);
  return waiting + 1;
}

/** Tests the waiting pairs: sphere–face, cylinder–edge, sphere–edge, sphere–vertex, cylinder–vertex,
 *  cylinder–face, each type triangle by triangle, as the TypeScript queues drain. */
function drain(waiting: usize): void {
  drainType(waiting, SPHERE_FACE, SPHERE_FACE_BITS);
  drainType(waiting, CYLINDER_EDGE, CYLINDER_EDGE_BITS);
  drainType(waiting, SPHERE_EDGE, SPHERE_EDGE_BITS);
  drainType(waiting, SPHERE_VERTEX, SPHERE_VERTEX_BITS);
  drainType(waiting, CYLINDER_VERTEX, CYLINDER_VERTEX_BITS);
  drainType(waiting, CYLINDER_FACE, CYLINDER_FACE_BITS);
}

function drainType(waiting: usize, type: i32, typeBits: i32): void {
  const waitingReferences = leafReferences(),
    waitingTested = leafTested();
  let w: usize = 0;
  let pairs = 0;
  do {
    let bits = load<i32>(waitingTested + 4 * w) & typeBits;
    if (bits == 0) continue;
    const k = load<u32>(waitingReferences + 4 * w);
    const tri = triangleAt(triangles, k);
    const triangle = load<i32>(references + 4 * <usize>k);
    pairs += popcnt(bits);
    do {
      const bit = ctz(bits);
      bits &= bits - 1;
      // Bit → feature (featureBits.ts): per sphere 3 vertices, 3 edges, the face; the cylinder's 3
      // vertices, 3 edges, the face.
      if (type == SPHERE_VERTEX) sphereVertex(tri, triangle, bit >= SPHERE1_SHIFT ? 1 : 0, bit >= SPHERE1_SHIFT ? bit - 7 : bit);
      else if (type == SPHERE_EDGE) sphereEdge(tri, triangle, bit >= SPHERE1_SHIFT ? 1 : 0, bit >= SPHERE1_SHIFT ? bit - 10 : bit - 3);
      else if (type == SPHERE_FACE) sphereFace(tri, triangle, bit >= SPHERE1_SHIFT ? 1 : 0);
      else if (type == CYLINDER_VERTEX) cylinderVertex(tri, triangle, bit - 14);
      else if (type == CYLINDER_EDGE) cylinderEdge(tri, triangle, bit - 17);
      else cylinderFace(tri, triangle);
    } while (bits != 0);
  } while (++w < waiting);
  const counts = drained();
  store<i32>(counts + 4 * <usize>type, load<i32>(counts + 4 * <usize>type) + pairs);
}
