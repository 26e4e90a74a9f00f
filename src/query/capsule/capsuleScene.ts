import type { BVH } from '../../bvh/buildBVH';
import { bvhRevision, lastGeometryChange } from '../../bvh/revision';
import { childIndex, childLeafCount } from '../../bvh/childWord';
import { QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32 } from '../../bvh/quantizedLayout';
import { NODE_RECORD_BYTES, frameMagnitudes, rewriteNodeRecords, writeNodeRecords, quantizedNodesOf } from '../../bvh/nodeRecords';
import { alignTo } from '../../platform/moduleMemory';
import { edgeMasksFor } from './sweepCapsules';

const TRIANGLE_GROUP_BYTES = 144;
/** Edge-mask arrays resident at once (the mesh's, and those of filtered meshes: edgeMasksFor). */
const EDGE_MASK_SLOTS = 4;
/** Bytes of one traversal stack entry (the time the capsule's box enters the node, f32, and the node, i32). */
export const CAPSULE_STACK_ENTRY_BYTES = 8;

/** Addresses of a BVH's copy in a kernel's memory. */
export interface CapsuleSceneLayout {
  /** The frames' magnitude bound per axis (3 × f64). */
  magnitude: number;
  nodes: number;
  triangles: number;
  references: number;
  /** EDGE_MASK_SLOTS arrays of one edge-mask byte per reference. */
  masks: number;
  /** The material mask (u32) of each reference's triangle, then the 256 node masks (u32). */
  referenceMasks: number;
  nodeMasks: number;
  /** The first byte past the copy (64-aligned). */
  end: number;
}

/** Bytes of one thread's traversal stack for `bvh`: each level pops one entry and pushes at most four, 3·depth + 1 entries at most, plus slack. */
export function capsuleStackBytes(bvh: BVH): number {
  return CAPSULE_STACK_ENTRY_BYTES * (3 * bvh.maxDepth + 8);
}

function referenceCount(bvh: BVH): number {
  const order = bvh.triangleOrder;
  return order === null ? bvh.triangleCount : order.length;
}

/**
 * Where a BVH's copy goes from byte `start` on:
 *
 *   the frames' magnitude bound per axis (3 × f64) | node records (nodeRecords.ts, 128 B each) |
 *   triangles in leaf-reference order, four at a time as structure of arrays (144 B per group) | the
 *   caller's triangle id per reference (i32) | EDGE_MASK_SLOTS × the edge mask per reference (u8) |
 *   the material mask per reference (u32) | the node masks (256 × u32)
 */
export function planCapsuleScene(bvh: BVH, start: number): CapsuleSceneLayout {
  const nodes = quantizedNodesOf(bvh);
  const count = referenceCount(bvh);
  const magnitude = alignTo(start, 8);
  const nodeStart = alignTo(magnitude + 24, 128);
  const triangles = nodeStart + NODE_RECORD_BYTES * nodes.nodeCount;
  const references = alignTo(triangles + TRIANGLE_GROUP_BYTES * Math.ceil(count / 4), 16);
  const masks = references + 4 * count;
  const referenceMasks = alignTo(masks + EDGE_MASK_SLOTS * count, 16);
  const nodeMasks = referenceMasks + 4 * count;
  return { magnitude, nodes: nodeStart, triangles, references, masks, referenceMasks, nodeMasks, end: alignTo(nodeMasks + 4 * 256, 64) };
}

/** Writes the corners of references [first, end) in their groups of four (coordinate r of reference k at float 36·(k >> 2) + 4·r + (k & 3)). */
function writeCorners(bvh: BVH, grouped: Float32Array, first: number, end: number): void {
  const order = bvh.triangleOrder;
  const { positions, indices } = bvh;
  for (let k = first; k < end; k++) {
    const triangle = order === null ? k : order[k]!;
    const o = 36 * (k >> 2) + (k & 3);
    for (let corner = 0; corner < 3; corner++) {
      const v = 3 * indices[3 * triangle + corner]!;
      grouped[o + 12 * corner] = positions[v]!;
      grouped[o + 12 * corner + 4] = positions[v + 1]!;
      grouped[o + 12 * corner + 8] = positions[v + 2]!;
    }
  }
}

/**
 * The copy of one BVH in a capsule kernel's memory (the single-thread kernel's, capsuleKernel.ts, or the
 * pool's shared one, capsulePool.ts), laid out by planCapsuleScene: copied in whole, brought up to date
 * after one partial refit (patch), and its edge masks copied in per filter on first use (edgeMasksAt).
 * The memory may grow between calls: views are made from `buffer()` each time.
 */
export class CapsuleScene {
  layout: CapsuleSceneLayout | null = null;
  private resident: BVH | null = null;
  /** bvhRevision of the resident BVH when copied in: a refit since makes the copy stale. */
  private residentRevision = -1;
  /** The edge-mask array held by each slot, and the slot the next new array takes. */
  private readonly slotMasks: (Uint8Array | null)[] = new Array<Uint8Array | null>(EDGE_MASK_SLOTS).fill(null);
  private nextSlot = 0;

  constructor(private readonly buffer: () => ArrayBufferLike) {}

  /** Whether `bvh` is resident and up to date. */
  holds(bvh: BVH): boolean {
    return this.resident === bvh && this.residentRevision === bvhRevision(bvh);
  }

  /** Copies `bvh` in at `layout` (planCapsuleScene; the memory already holds layout.end bytes). */
  write(bvh: BVH, layout: CapsuleSceneLayout): void {
    const nodes = quantizedNodesOf(bvh);
    const count = referenceCount(bvh);
    const buffer = this.buffer();
    new Float64Array(buffer, layout.magnitude, 3).set(frameMagnitudes(nodes));
    writeNodeRecords(nodes, buffer, layout.nodes);
    writeCorners(bvh, new Float32Array(buffer, layout.triangles, 36 * Math.ceil(count / 4)), 0, count);
    const ids = new Int32Array(buffer, layout.references, count);
    const order = bvh.triangleOrder;
    for (let k = 0; k < count; k++) ids[k] = order === null ? k : order[k]!;
    const { materialIds, materialMasks } = bvh.masks;
    const referenceMask = new Uint32Array(buffer, layout.referenceMasks, count);
    for (let k = 0; k < count; k++) referenceMask[k] = materialMasks[materialIds[ids[k]!]!]!;
    new Uint32Array(buffer, layout.nodeMasks, 256).set(bvh.masks.nodeMasks);
    this.layout = layout;
    this.resident = bvh;
    this.residentRevision = bvhRevision(bvh);
    this.slotMasks.fill(null);
    this.nextSlot = 0;
  }

  /**
   * Brings the resident copy of `bvh` up to date after one partial refit (revision.ts GeometryChange):
   * the re-encoded nodes' records and the moved triangles' references only (the edge masks, recomputed
   * by edgeMasksFor, are copied in again by edgeMasksAt). Returns false, changing nothing, when that is
   * not the case (another BVH, a full refit, or more than one refit since the copy).
   */
  patch(bvh: BVH): boolean {
    const change = lastGeometryChange(bvh);
    const layout = this.layout;
    if (this.resident !== bvh || change === null || change.wholeTree || change.fromRevision !== this.residentRevision || layout === null)
      return false;
    const nodes = quantizedNodesOf(bvh);
    const buffer = this.buffer();
    new Float64Array(buffer, layout.magnitude, 3).set(frameMagnitudes(nodes));
    rewriteNodeRecords(nodes, buffer, layout.nodes, change.frames, change.nodes, change.nodeCount);
    const grouped = new Float32Array(buffer, layout.triangles, 36 * Math.ceil(referenceCount(bvh) / 4));
    for (let i = 0; i < change.leafSlotCount; i++) {
      const slot = change.leafSlots[i]!;
      const word = nodes.u32[QUANTIZED_NODE_U32 * (slot >> 2) + QUANTIZED_WORDS_U32 + (slot & 3)]!;
      const first = childIndex(word);
      writeCorners(bvh, grouped, first, first + childLeafCount(word));
    }
    this.residentRevision = bvhRevision(bvh);
    return true;
  }

  /** Address of the edge masks a sweep with `filter` uses (edgeMasksFor), copied per leaf reference into a
   *  slot unless one holds them already (computed on first use, kept with the BVH). */
  edgeMasksAt(bvh: BVH, filter: number): number {
    const masks = edgeMasksFor(bvh, filter);
    const order = bvh.triangleOrder;
    const count = referenceCount(bvh);
    const layout = this.layout!;
    let slot = this.slotMasks.indexOf(masks);
    if (slot < 0) {
      slot = this.nextSlot;
      this.nextSlot = (slot + 1) % EDGE_MASK_SLOTS;
      const perReference = new Uint8Array(this.buffer(), layout.masks + slot * count, count);
      for (let k = 0; k < count; k++) perReference[k] = masks[order === null ? k : order[k]!]!;
      this.slotMasks[slot] = masks;
    }
    return layout.masks + slot * count;
  }
}
