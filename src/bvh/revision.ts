import type { BVH } from './buildBVH';

/**
 * Geometry revisions. A refit changes a BVH's boxes and the positions it references in place, so the
 * BVH object stays the same while everything derived from its geometry (kernel copies of the mesh and
 * nodes, packed triangle copies, edge masks, the binary tree) goes stale. Each such cache stores the
 * revision it was made at and remakes itself when the number moved. Kept apart from the refit itself
 * so the query modules can read it without importing the refit.
 *
 * Positions arrays get a revision of their own for the caches keyed by the mesh rather than the BVH
 * (the box–triangle kernel's resident mesh).
 */
const bvhRevisions = new WeakMap<BVH, number>();
const positionsRevisions = new WeakMap<Float32Array, number>();

/** Increments on every refit of this BVH; 0 until the first. */
export function bvhRevision(bvh: BVH): number {
  return bvhRevisions.get(bvh) ?? 0;
}

/** Increments whenever a refit reports this positions array changed; 0 until then. */
export function positionsRevision(positions: Float32Array): number {
  return positionsRevisions.get(positions) ?? 0;
}

/** Called by the refit once the BVH's nodes match its moved positions. */
export function markGeometryChanged(bvh: BVH): void {
  bvhRevisions.set(bvh, bvhRevision(bvh) + 1);
  positionsRevisions.set(bvh.positions, positionsRevision(bvh.positions) + 1);
}
