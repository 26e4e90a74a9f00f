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
/**
 * What the refit that made a BVH's current revision changed, so a cache one revision behind can patch
 * itself instead of copying everything again. The arrays belong to the refit and are reused by the next
 * one: read them only while bvhRevision(bvh) === fromRevision + 1.
 */
export interface GeometryChange {
  readonly fromRevision: number;
  /** A full refit: every node and triangle may have changed. */
  readonly wholeTree: boolean;
  /** Nodes whose 64 bytes were rewritten (their frames may have moved too): nodes[0 .. nodeCount). */
  readonly nodes: Int32Array;
  readonly nodeCount: number;
  /** Leaf slots (4 · node + slot) holding a moved triangle: leafSlots[0 .. leafSlotCount). */
  readonly leafSlots: Int32Array;
  readonly leafSlotCount: number;
  /** The triangles named to the refit: triangles[0 .. triangleCount). */
  readonly triangles: Uint32Array;
  readonly triangleCount: number;
  /** Every node's frame after the refit: min xyz, max xyz (6 per node), as the traversal derives it. */
  readonly frames: Float64Array;
}

const bvhRevisions = new WeakMap<BVH, number>();
const changes = new WeakMap<BVH, GeometryChange>();
const positionsRevisions = new WeakMap<Float32Array, number>();

/** Increments on every refit of this BVH; 0 until the first. */
export function bvhRevision(bvh: BVH): number {
  return bvhRevisions.get(bvh) ?? 0;
}

/** Increments whenever a refit reports this positions array changed; 0 until then. */
export function positionsRevision(positions: Float32Array): number {
  return positionsRevisions.get(positions) ?? 0;
}

/** The change that made the BVH's current revision (null before its first refit). */
export function lastGeometryChange(bvh: BVH): GeometryChange | null {
  const change = changes.get(bvh);
  return change !== undefined && change.fromRevision + 1 === bvhRevision(bvh) ? change : null;
}

/** Called by the refit once the BVH's nodes match its moved positions. */
export function markGeometryChanged(bvh: BVH, change: GeometryChange): void {
  changes.set(bvh, change);
  bvhRevisions.set(bvh, bvhRevision(bvh) + 1);
  positionsRevisions.set(bvh.positions, positionsRevision(bvh.positions) + 1);
}
