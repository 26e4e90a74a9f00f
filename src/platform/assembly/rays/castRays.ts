// Closest-hit (or any-hit) rays through the quantized 4-way BVH, the whole walk inside WebAssembly.
// The twin of src/query/rays/traverseQuantized.ts (both child tests); the memory layout
// is written by src/query/rays/rayKernel.ts, which owns every address passed in here.
//
// Node record: 128 bytes (src/query/rays/rayNodeRecords.ts): the four child boxes as six f32x4 rows of world
// planes, minX, minY, minZ, maxX, maxY, maxZ, one row being one bound of all four slots, rounded
// outward from the TypeScript walk's float64 decode, then the 4 × u32 child words.
// Stack entry: 8 bytes: the distance at which the ray enters the node (f32) and the node index (i32).
//
// The 4-box slab test (rayWalk.ts) is f32x4, one lane per child. It must never cull a box the ray
// touches, since the triangle tests decide the hits and those agree with TypeScript bit for bit:
// - near/far rows are picked per ray by the sign of 1/(d + 0) (−0 turned into +0 first, so a zero
//   component gives +∞ and a matching plane choice);
// - the distance from the origin to each plane, plane − origin, is widened by a slack
//   covering its float32 rounding (away from the box, in the direction of the plane's sign) before it
//   is multiplied by the inverse, so a ray lying in a face plane still counts as inside. The slack is
//   one per ray and axis, from a bound on every frame's magnitude (|min| + |max| + extent, over the
//   root and shared frames, which contain all others) and the origin: a few thousandths of a unit on
//   the 512 terrain, which costs no measurable extra visits and saves per-node work;
// - a plane lying exactly on the origin of an axis-parallel ray gives 0·∞ = NaN; enter and exit are
//   accumulated with pmax / pmin with the running value first, which keep it when the new one is NaN;
// - exits get a relative slack for the rounding of 1/d (far planes use a slightly widened inverse,
//   slack.ts), and tMax a hair more for the same reason.
//
// One ray at a time: each ray walks the whole tree before the next starts (rayWalk.ts), its box-test
// constants in locals. Keeping 1 to 4 rays in flight, taking turns node by node so that one ray's
// cache misses could overlap another's work, measured within noise of each other on the 512 terrain
// (28k nodes in 3.5 MB, 19 MB of triangles): the walk is bound by its instructions, not by memory.

// castRaysBatched sends the rays down the tree in batches instead (batchWalk.ts), with the same
// records, box test bounds and leaf test.

import { listCount, listDropped, trianglesTested } from './leafTest';
export { setAllHitsList } from './leafTest';
export { orderRays, unorderHits } from './rayOrder';
import { nodesVisited } from './rayWalk';
import { batchRecord, setBatchWalk, walkBatch } from './batchWalk';
import { RAY_STATE_BYTES, STACK } from './rayState';
import { FLAG_FILTERED, finishRay, invalid, next, count, startCast, startNext, walkRaysAlone } from './rayBatch';
import { Filtered, Unfiltered, subtreesMasked, trianglesMasked } from './filter';

const STATE: usize = memory.data(<i32>RAY_STATE_BYTES, 16);

/** Where JavaScript may start placing data. */
export function heapBase(): usize {
  return __heap_base;
}
/** Bytes of one ray record (castRaysBatched needs one per ray of a batch). */
export function rayRecordBytes(): i32 {
  return <i32>RAY_STATE_BYTES;
}
export function countersNodes(): i32 {
  return nodesVisited;
}
export function countersTriangles(): i32 {
  return trianglesTested;
}
export function countersSubtreesMasked(): i32 {
  return subtreesMasked;
}
export function countersTrianglesMasked(): i32 {
  return trianglesMasked;
}
/** Hits an all-hits cast stored in its list, and hits it found past the list's capacity. */
export function allHitsCount(): i32 {
  return listCount;
}
export function allHitsDropped(): i32 {
  return listDropped;
}

/**
 * Casts `rayCount` rays (origins, directions: 3 × f32 each; tMax: f32) and writes hit t (f32: t, +∞ on a
 * miss, NaN for an invalid ray) and hit triangle (i32: the caller's triangle id or −1). Returns the
 * number of invalid rays. orderAt: the caller's triangle id (i32) per lane of the triangle groups.
 * magnitudeAt: per axis, the bound on |min| + |max| + extent of every node's frame (3 × f64).
 * stacks: the traversal stack (rays walk one at a time). flags: bit 0 double-sided, bit 1 any hit,
 * bit 2 apply the collision filter `filter` (filter.ts; masksAt: the mask of each lane of the groups,
 * u32); without it nothing is filtered; bit 3 all hits: every hit within tMax goes to the list set by
 * setAllHitsList (each once per ray, in walk order), the ray's own hit being the closest.
 */
export function castRays(
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
  stacks: usize,
  flags: i32,
  masksAt: usize,
  filter: u32,
): i32 {
  startCast(
    nodesAt,
    nodeCount,
    magnitudeAt,
    trianglesAt,
    orderAt,
    originsAt,
    directionsAt,
    tMaxsAt,
    hitTAt,
    hitTriangleAt,
    rayCount,
    flags,
    masksAt,
    filter,
  );
  store<i32>(STATE, <i32>stacks, STACK);
  walkRaysAlone(STATE, (flags & FLAG_FILTERED) != 0);
  return invalid;
}

/**
 * castRays with the batched walk (batchWalk.ts): the rays, in order, go down the tree
 * `batchSize` at a time; the same hits and t (an exact tie may name the other triangle). Work areas,
 * sized by the caller: recordsAt, batchSize ray records (RAY_STATE_BYTES each); arenaAt, the lists
 * (pending entries × batchSize elements of 8 bytes); childrenAt, 4 × batchSize elements; stackAt,
 * the batch stack (16 bytes per pending entry); rayStackAt, one single-ray stack. A list shorter than
 * aloneBelow finishes its subtree ray by ray. flags, masksAt and filter as for castRays.
 */
export function castRaysBatched(
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
  recordsAt: usize,
  arenaAt: usize,
  childrenAt: usize,
  stackAt: usize,
  rayStackAt: usize,
  batchSize: i32,
  aloneBelow: i32,
  flags: i32,
  masksAt: usize,
  filter: u32,
): i32 {
  startCast(
    nodesAt,
    nodeCount,
    magnitudeAt,
    trianglesAt,
    orderAt,
    originsAt,
    directionsAt,
    tMaxsAt,
    hitTAt,
    hitTriangleAt,
    rayCount,
    flags,
    masksAt,
    filter,
  );
  const filtered = (flags & FLAG_FILTERED) != 0;
  setBatchWalk(nodesAt, recordsAt, arenaAt, childrenAt, batchSize, stackAt, rayStackAt, aloneBelow);
  while (next < count) {
    let filled = 0;
    do {
      const state = batchRecord(filled);
      if (!startNext(state)) break;
    } while (++filled < batchSize);
    if (filled == 0) break;
    if (filtered) walkBatch<Filtered>(filled);
    else walkBatch<Unfiltered>(filled);
    let slot = 0;
    do finishRay(batchRecord(slot));
    while (++slot < filled);
  }
  return invalid;
}
