import type { BVH } from '../../bvh/buildBVH';

/** Queue slots per pair type: the queues are drained after every leaf (at most 14 triangles, at most
 *  6 pairs of one type each), so 84 entries are the most one drain sees. */
export const QUEUE_CAPACITY = 128;
export const QUEUE_SPHERE_VERTEX = 0;
export const QUEUE_SPHERE_EDGE = 1;
export const QUEUE_SPHERE_FACE = 2;
export const QUEUE_CYLINDER_VERTEX = 3;
export const QUEUE_CYLINDER_EDGE = 4;
export const QUEUE_CYLINDER_FACE = 5;
export const QUEUE_TYPES = 6;

/** Queue of each of the 21 pair bits (see featureBits.ts). */
export const QUEUE_OF_BIT: Uint8Array = Uint8Array.from([0, 0, 0, 1, 1, 1, 2, 0, 0, 0, 1, 1, 1, 2, 3, 3, 3, 4, 4, 4, 5]);
/** Code stored with the pair: the vertex or edge (0..2), plus 3 for sphere 1; the sphere for faces. */
export const CODE_OF_BIT: Uint8Array = Uint8Array.from([0, 1, 2, 0, 1, 2, 0, 3, 4, 5, 3, 4, 5, 1, 0, 1, 2, 0, 1, 2, 0]);

/**
 * Scratch for sweeping one capsule at a time, kept per BVH so sweeps allocate nothing: the traversal
 * stack (node, entry time, frame), the per-type pair queues (structure of arrays: triangle and code,
 * type q at q·QUEUE_CAPACITY), the capsule being swept and the best contact so far.
 */
export class SweepWorkspace {
  readonly stackNode: Int32Array;
  readonly stackNear: Float64Array;
  readonly stackFrame: Float64Array;
  readonly hitSlot = new Int32Array(4);
  readonly hitNear = new Float64Array(4);
  readonly sorted = new Int32Array(4);
  readonly queueTriangle = new Int32Array(QUEUE_TYPES * QUEUE_CAPACITY);
  readonly queueCode = new Uint8Array(QUEUE_TYPES * QUEUE_CAPACITY);
  readonly queueCount = new Int32Array(QUEUE_TYPES);
  /** Pairs drained per type since the counters were reset. */
  readonly drained = new Float64Array(QUEUE_TYPES);

  // The capsule: segment p0–p1, radius r, motion d.
  p0x = 0; p0y = 0; p0z = 0;
  p1x = 0; p1y = 0; p1z = 0;
  dx = 0; dy = 0; dz = 0;
  r = 0;

  // Best contact: time, depth key (squared distance − r² for ties at t = 0: deepest wins), triangle,
  // point on the triangle and unit normal towards the capsule.
  bestT = 1;
  bestKey = 0;
  bestTriangle = -1;
  px = 0; py = 0; pz = 0;
  nx = 0; ny = 0; nz = 0;

  constructor(maxDepth: number) {
    const capacity = 3 * maxDepth + 8;
    this.stackNode = new Int32Array(capacity);
    this.stackNear = new Float64Array(capacity);
    this.stackFrame = new Float64Array(6 * capacity);
  }

  /** Takes a contact if it is earlier than the best, or as early (t = 0) and deeper. */
  consider(t: number, key: number, triangle: number, px: number, py: number, pz: number, nx: number, ny: number, nz: number): void {
    if (!(t < this.bestT || (t === this.bestT && this.bestTriangle >= 0 && key < this.bestKey) || (t === this.bestT && this.bestTriangle < 0))) return;
    this.bestT = t;
    this.bestKey = key;
    this.bestTriangle = triangle;
    this.px = px;
    this.py = py;
    this.pz = pz;
    this.nx = nx;
    this.ny = ny;
    this.nz = nz;
  }
}

const workspaces = new WeakMap<BVH, SweepWorkspace>();

export function sweepWorkspaceFor(bvh: BVH): SweepWorkspace {
  let workspace = workspaces.get(bvh);
  if (workspace === undefined) {
    workspace = new SweepWorkspace(bvh.maxDepth);
    workspaces.set(bvh, workspace);
  }
  return workspace;
}
