import type { BVH } from '../../bvh/buildBVH';

/** Queue slots per pair type. A single sweep drains after every leaf (at most 14 triangles × 6 pairs of
 *  a type); a batch drains whenever a queue could overflow on the next triangle–capsule pair. */
export const QUEUE_CAPACITY = 512;
export const QUEUE_SPHERE_VERTEX = 0;
export const QUEUE_SPHERE_EDGE = 1;
export const QUEUE_SPHERE_FACE = 2;
export const QUEUE_CYLINDER_VERTEX = 3;
export const QUEUE_CYLINDER_EDGE = 4;
export const QUEUE_CYLINDER_FACE = 5;
export const QUEUE_TYPES = 6;
/** Most pairs of one type a triangle can add for one capsule (sphere–vertex, sphere–edge). */
export const MOST_PAIRS_OF_A_TYPE = 6;

/** Queue of each of the 21 pair bits (see featureBits.ts). */
export const QUEUE_OF_BIT: Uint8Array = Uint8Array.from([0, 0, 0, 1, 1, 1, 2, 0, 0, 0, 1, 1, 1, 2, 3, 3, 3, 4, 4, 4, 5]);
/** Code stored with the pair: the vertex or edge (0..2), plus 3 for sphere 1; the sphere for faces. */
export const CODE_OF_BIT: Uint8Array = Uint8Array.from([0, 1, 2, 0, 1, 2, 0, 3, 4, 5, 3, 4, 5, 1, 0, 1, 2, 0, 1, 2, 0]);

/**
 * Per-capsule record in `capsules` (CAPSULE_STRIDE numbers per slot): the segment p0–p1, the motion d,
 * the radius, then what the culls derive from them once per sweep: the cull radius (r plus a few ulps
 * of the coordinates), the capsule box's centre and half extents (grown by the same slack), and whether
 * the axis has length.
 */
export const CAPSULE_STRIDE = 20;
export const C_P0 = 0;
export const C_P1 = 3;
export const C_D = 6;
export const C_R = 9;
export const C_R_CULL = 10;
export const C_CENTRE = 11;
export const C_EXTENT = 14;
export const C_HAS_AXIS = 17;

/**
 * Scratch for sweeps, kept per BVH so sweeps allocate nothing once grown: the traversal stack (node,
 * entry time, frame), the per-type pair queues (structure of arrays: triangle, code, capsule slot; type q
 * at q·QUEUE_CAPACITY), the capsules being swept and, per slot, the best contact so far.
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
  readonly queueSlot = new Int32Array(QUEUE_TYPES * QUEUE_CAPACITY);
  readonly queueCount = new Int32Array(QUEUE_TYPES);
  /** Pairs drained per type since the counters were reset. */
  readonly drained = new Float64Array(QUEUE_TYPES);

  slots = 0;
  capsules = new Float64Array(0);
  // Best contact per slot: time, depth key (squared distance − r² for ties at t = 0: deepest wins),
  // triangle, point on the triangle and unit normal towards the capsule (6 per slot).
  bestT = new Float64Array(0);
  bestKey = new Float64Array(0);
  bestTriangle = new Int32Array(0);
  contact = new Float64Array(0);

  constructor(maxDepth: number) {
    const capacity = 3 * maxDepth + 8;
    this.stackNode = new Int32Array(capacity);
    this.stackNear = new Float64Array(capacity);
    this.stackFrame = new Float64Array(6 * capacity);
    this.ensureSlots(1);
  }

  ensureSlots(count: number): void {
    if (count <= this.slots) return;
    this.slots = Math.max(count, 2 * this.slots);
    this.capsules = new Float64Array(CAPSULE_STRIDE * this.slots);
    this.bestT = new Float64Array(this.slots);
    this.bestKey = new Float64Array(this.slots);
    this.bestTriangle = new Int32Array(this.slots);
    this.contact = new Float64Array(6 * this.slots);
  }

  /** Loads a capsule into a slot and clears its best contact (t = 1, none). */
  load(
    slot: number,
    p0x: number,
    p0y: number,
    p0z: number,
    p1x: number,
    p1y: number,
    p1z: number,
    dx: number,
    dy: number,
    dz: number,
    r: number,
  ): void {
    const c = CAPSULE_STRIDE * slot;
    const k = this.capsules;
    k[c] = p0x;
    k[c + 1] = p0y;
    k[c + 2] = p0z;
    k[c + 3] = p1x;
    k[c + 4] = p1y;
    k[c + 5] = p1z;
    k[c + 6] = dx;
    k[c + 7] = dy;
    k[c + 8] = dz;
    k[c + C_R] = r;
    // Cull slack: a few ulps of the coordinates, so rounding never culls a touching pair.
    const scale =
      Math.max(Math.abs(p0x), Math.abs(p0y), Math.abs(p0z), Math.abs(p1x), Math.abs(p1y), Math.abs(p1z)) +
      Math.abs(dx) +
      Math.abs(dy) +
      Math.abs(dz) +
      r;
    const rCull = r + 1e-9 * scale;
    k[c + C_R_CULL] = rCull;
    k[c + C_CENTRE] = 0.5 * (p0x + p1x);
    k[c + C_CENTRE + 1] = 0.5 * (p0y + p1y);
    k[c + C_CENTRE + 2] = 0.5 * (p0z + p1z);
    k[c + C_EXTENT] = 0.5 * Math.abs(p1x - p0x) + rCull;
    k[c + C_EXTENT + 1] = 0.5 * Math.abs(p1y - p0y) + rCull;
    k[c + C_EXTENT + 2] = 0.5 * Math.abs(p1z - p0z) + rCull;
    k[c + C_HAS_AXIS] = p0x !== p1x || p0y !== p1y || p0z !== p1z ? 1 : 0;
    this.bestT[slot] = 1;
    this.bestKey[slot] = 0;
    this.bestTriangle[slot] = -1;
  }

  /** Takes a contact for a slot if it is earlier than its best, or as early (t = 0) and deeper. */
  consider(slot: number, t: number, key: number, triangle: number, px: number, py: number, pz: number, nx: number, ny: number, nz: number): void {
    const bestT = this.bestT[slot]!;
    const none = this.bestTriangle[slot]! < 0;
    if (!(t < bestT || (t === bestT && (none || key < this.bestKey[slot]!)))) return;
    this.bestT[slot] = t;
    this.bestKey[slot] = key;
    this.bestTriangle[slot] = triangle;
    const o = 6 * slot;
    const contact = this.contact;
    contact[o] = px;
    contact[o + 1] = py;
    contact[o + 2] = pz;
    contact[o + 3] = nx;
    contact[o + 4] = ny;
    contact[o + 5] = nz;
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
