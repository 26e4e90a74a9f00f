// The collision filter of a cast (src/bvh/collisionMasks.ts): a child whose combined mask misses the
// filter is dropped with its box test (its subtree, or its whole leaf), and a triangle whose mask
// misses it is left out of its leaf's tests. The node records hold each child's combined mask
// (src/query/rays/rayNodeRecords.ts), and every lane of the triangle groups its triangle's mask
// (rayKernel.ts), so neither needs a table lookup.
//
// The walks are generics over a compile-time switch, each instantiated twice: with Filtered every
// check is made, with Unfiltered (the wrapper's choice when the filter rejects no material of the
// mesh) none is compiled in, so an unfiltered cast runs the same code as before filters existed.

/** Type argument of a walk that applies the filter. */
export type Filtered = u32;
/** Type argument of a walk that skips every check. */
export type Unfiltered = u8;

/** Whether the instance F applies the filter: a constant of each instance. */
export function isFiltered<F>(): bool {
  return sizeof<F>() == 4;
}

/** The cast's filter, as a splat for four children or four triangles at once. */
export let filterLanes: v128 = i32x4.splat(-1);
/** Lane masks of each triangle group (u32 × 4 per group), in the groups' order. */
export let laneMasks: usize = 0;

// Work of the cast: children cut by their mask (plus the root, counted by the wrapper) and triangles
// of reached leaves left out.
export let subtreesMasked: i32 = 0;
export let trianglesMasked: i32 = 0;

export function setFilter(filter: u32, masksAt: usize): void {
  filterLanes = i32x4.splat(<i32>filter);
  laneMasks = masksAt;
  subtreesMasked = 0;
  trianglesMasked = 0;
}

/** Lanes (all ones) of the four masks at `masks` that the filter keeps. */
export function keptLanes(masks: usize): v128 {
  return v128.not(i32x4.eq(v128.and(v128.load(masks), filterLanes), i32x4.splat(0)));
}

/**
 * The lanes of `lanes` (bit k: the k-th triangle of the leaf whose groups start at group `first`)
 * whose masks the filter keeps; counts the others.
 */
export function keptTriangles(first: usize, groupCount: i32, lanes: i32, count: i32): i32 {
  const masks = laneMasks + (first << 4);
  let kept = 0;
  for (let g = 0; g < groupCount; g++) kept |= i32x4.bitmask(keptLanes(masks + ((<usize>g) << 4))) << (g << 2);
  lanes &= kept;
  trianglesMasked += count - <i32>popcnt(lanes);
  return lanes;
}

/** Counts the children a node's mask cut: bits of the lanes hit before the cut and after it. */
export function countSubtreesMasked(before: i32, after: i32): void {
  subtreesMasked += <i32>popcnt(before ^ after);
}
