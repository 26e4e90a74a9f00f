import type { BVH } from '../../bvh/buildBVH';
import { bvhRevision, lastGeometryChange } from '../../bvh/revision';
import { childIndex, childLeafCount } from '../../bvh/childWord';
import { QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32 } from '../../bvh/quantizedLayout';
import { MASK_ALL } from '../../bvh/collisionMasks';
import { NODE_RECORD_BYTES, frameMagnitudes, rewriteNodeRecords, writeNodeRecords, quantizedNodesOf } from '../../bvh/nodeRecords';
import { alignTo, growMemoryTo } from '../../platform/moduleMemory';
import { filterRejectsSome } from '../walk/maskFilter';
import { createSweepCounters, type CapsuleBatch, type CapsuleHits, type SweepCounters, type SweepOptions } from './capsuleTypes';
import { PAIRS_PER_TRIANGLE } from './featureBits';
import { checkBatch, edgeMasksFor, resolveSweepOptions } from './sweepCapsules';

/** The exports of the compiled kernel (src/platform/assembly/capsule/sweepCapsules.ts). */
interface CapsuleKernelExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  countersAt(): number;
  sweepCapsules(
    nodes: number,
    nodeCount: number,
    magnitude: number,
    triangles: number,
    references: number,
    masks: number,
    stack: number,
    start: number,
    end: number,
    motion: number,
    radius: number,
    toi: number,
    triangle: number,
    point: number,
    normal: number,
    count: number,
    flags: number,
    traceCapsule: number,
    trace: number,
    traceCapacity: number,
    referenceMasks: number,
    nodeMasks: number,
    filter: number,
  ): void;
}

const STACK_ENTRY_BYTES = 8;
const TRIANGLE_GROUP_BYTES = 144;
/** Bytes per capsule in the staging area: start, end, motion (3 × f32 each), radius, then toi,
 *  triangle, point and normal (3 × f32 each). */
const CAPSULE_BYTES = 72;
const TRACE_ENTRY_BYTES = 12;
/** Edge-mask arrays resident at once (the mesh's, and those of filtered meshes: edgeMasksFor). */
const EDGE_MASK_SLOTS = 4;
/** i32 counters the kernel writes per batch (sweepCapsules.ts: COUNTERS). */
const KERNEL_COUNTERS = 17;

/** Addresses inside the module's memory of the resident BVH and the staging areas. */
interface Layout {
  stack: number;
  magnitude: number;
  nodes: number;
  triangles: number;
  references: number;
  /** EDGE_MASK_SLOTS arrays of one edge-mask byte per reference. */
  masks: number;
  /** The material mask (u32) of each reference's triangle, then the 256 node masks (u32). */
  referenceMasks: number;
  nodeMasks: number;
  /** Start of the staging areas: capsules, then the trace. */
  staging: number;
  capsuleCapacity: number;
  traceCapacity: number;
}

/**
 * The WebAssembly SIMD capsule sweep over the quantized 4-way BVH: one module instance, its memory laid
 * out as
 *
 *   heapBase → traversal stack (8 B per entry) | the frames' magnitude bound per axis (3 × f64) |
 *            node records (nodeRecords.ts, 128 B each) | triangles in leaf-reference order, four at a
 *            time as structure of arrays (144 B per group) | the caller's triangle id per reference
 *            (i32) | EDGE_MASK_SLOTS × the edge mask per reference (u8) | the material mask per
 *            reference (u32) | the node masks (256 × u32) | capsule staging (72 B per capsule) | the
 *            trace (12 B per traced triangle)
 *
 * One BVH is resident at a time: it is copied in once, when first swept against, and stays until
 * another BVH is (its edge masks follow on the first sweep that uses them; a filter that rejects some
 * material needs those of the filtered mesh, kept in one of the other edge-mask slots). Capsules are staged per
 * call (40 B in and 32 B out per capsule, next to a sweep of a dozen nodes and a score of triangles);
 * the sweep itself touches only module memory. The memory only grows; views are made from
 * memory.buffer after every possible growth (growing detaches the old buffer).
 */
export class SimdCapsuleKernel {
  private readonly exports: CapsuleKernelExports;
  private layout: Layout | null = null;
  private resident: BVH | null = null;
  /** bvhRevision of the resident BVH when copied in: a refit since makes the copy stale. */
  private residentRevision = -1;
  /** The edge-mask array held by each slot, and the slot the next new array takes. */
  private readonly slotMasks: (Uint8Array | null)[] = new Array<Uint8Array | null>(EDGE_MASK_SLOTS).fill(null);
  private nextSlot = 0;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as CapsuleKernelExports;
  }

  /** Bytes of module memory in use (for the HUD and the benchmark). */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** Copies a BVH into the module's memory now rather than on its first sweep. */
  upload(bvh: BVH): void {
    const nodes = quantizedNodesOf(bvh);
    const order = bvh.triangleOrder;
    const count = order === null ? bvh.triangleCount : order.length;
    const stack = alignTo(this.exports.heapBase(), 64);
    // Each level pops one entry and pushes at most four: 3·depth + 1 entries at most, plus slack.
    const magnitude = stack + STACK_ENTRY_BYTES * (3 * bvh.maxDepth + 8);
    const nodeStart = alignTo(magnitude + 24, 128);
    const triangles = nodeStart + NODE_RECORD_BYTES * nodes.nodeCount;
    const references = alignTo(triangles + TRIANGLE_GROUP_BYTES * Math.ceil(count / 4), 16);
    const masks = references + 4 * count;
    const referenceMasks = alignTo(masks + EDGE_MASK_SLOTS * count, 16);
    const nodeMasks = referenceMasks + 4 * count;
    const staging = alignTo(nodeMasks + 4 * 256, 64);
    const capsuleCapacity = this.layout?.capsuleCapacity ?? 1024;
    const traceCapacity = this.layout?.traceCapacity ?? 0;
    this.ensureMemory(staging + CAPSULE_BYTES * capsuleCapacity + TRACE_ENTRY_BYTES * traceCapacity);
    const buffer = this.exports.memory.buffer;
    new Float64Array(buffer, magnitude, 3).set(frameMagnitudes(nodes));
    writeNodeRecords(nodes, buffer, nodeStart);
    // Groups of four references: coordinate r (ax, ay, az, bx, …, cz) of reference k at float
    // 36·(k >> 2) + 4·r + (k & 3).
    const grouped = new Float32Array(buffer, triangles, 36 * Math.ceil(count / 4));
    const ids = new Int32Array(buffer, references, count);
    const positions = bvh.positions;
    const indices = bvh.indices;
    for (let k = 0; k < count; k++) {
      const triangle = order === null ? k : order[k]!;
      ids[k] = triangle;
      const o = 36 * (k >> 2) + (k & 3);
      for (let corner = 0; corner < 3; corner++) {
        const v = 3 * indices[3 * triangle + corner]!;
        grouped[o + 12 * corner] = positions[v]!;
        grouped[o + 12 * corner + 4] = positions[v + 1]!;
        grouped[o + 12 * corner + 8] = positions[v + 2]!;
      }
    }
    const { materialIds, materialMasks } = bvh.masks;
    const referenceMask = new Uint32Array(buffer, referenceMasks, count);
    for (let k = 0; k < count; k++) referenceMask[k] = materialMasks[materialIds[ids[k]!]!]!;
    new Uint32Array(buffer, nodeMasks, 256).set(bvh.masks.nodeMasks);
    this.layout = {
      stack,
      magnitude,
      nodes: nodeStart,
      triangles,
      references,
      masks,
      referenceMasks,
      nodeMasks,
      staging,
      capsuleCapacity,
      traceCapacity,
    };
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
  private patch(bvh: BVH): boolean {
    const change = lastGeometryChange(bvh);
    const layout = this.layout;
    if (this.resident !== bvh || change === null || change.wholeTree || change.fromRevision !== this.residentRevision || layout === null)
      return false;
    const nodes = quantizedNodesOf(bvh);
    const buffer = this.exports.memory.buffer;
    new Float64Array(buffer, layout.magnitude, 3).set(frameMagnitudes(nodes));
    rewriteNodeRecords(nodes, buffer, layout.nodes, change.frames, change.nodes, change.nodeCount);
    const order = bvh.triangleOrder;
    const count = order === null ? bvh.triangleCount : order.length;
    const grouped = new Float32Array(buffer, layout.triangles, 36 * Math.ceil(count / 4));
    const { positions, indices } = bvh;
    for (let i = 0; i < change.leafSlotCount; i++) {
      const slot = change.leafSlots[i]!;
      const word = nodes.u32[QUANTIZED_NODE_U32 * (slot >> 2) + QUANTIZED_WORDS_U32 + (slot & 3)]!;
      const first = childIndex(word);
      for (let k = first; k < first + childLeafCount(word); k++) {
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
    this.residentRevision = bvhRevision(bvh);
    return true;
  }

  /** Makes a BVH resident (with its edge masks for `filter` if they will be used) now rather than on the
   *  next sweep, so a timed sweep times the sweep alone. */
  prepare(bvh: BVH, edgeMasks = true, filter = MASK_ALL): void {
    if ((this.resident !== bvh || this.residentRevision !== bvhRevision(bvh)) && !this.patch(bvh)) this.upload(bvh);
    if (edgeMasks) this.edgeMasksAt(bvh, filter);
  }

  /** Address of the edge masks a sweep with `filter` uses (edgeMasksFor), copied per leaf reference into a
   *  slot unless one holds them already (computed on first use, kept with the BVH). */
  private edgeMasksAt(bvh: BVH, filter: number): number {
    const masks = edgeMasksFor(bvh, filter);
    const order = bvh.triangleOrder;
    const count = order === null ? bvh.triangleCount : order.length;
    const layout = this.layout!;
    let slot = this.slotMasks.indexOf(masks);
    if (slot < 0) {
      slot = this.nextSlot;
      this.nextSlot = (slot + 1) % EDGE_MASK_SLOTS;
      const perReference = new Uint8Array(this.exports.memory.buffer, layout.masks + slot * count, count);
      for (let k = 0; k < count; k++) perReference[k] = masks[order === null ? k : order[k]!]!;
      this.slotMasks[slot] = masks;
    }
    return layout.masks + slot * count;
  }

  /**
   * sweepCapsules through the kernel: the same buffers, options, conventions and validation (invalid
   * capsules flagged, counted, never swept), and the same contacts — time, triangle, point and normal —
   * as the TypeScript sweep (the culls and the exact tests are its float64 operations; see
   * src/platform/assembly/capsule/walk.ts for the box test).
   */
  sweep(bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits, options: Partial<SweepOptions> = {}): SweepCounters {
    const resolved = resolveSweepOptions(options);
    checkBatch(bvh, capsules, hits);
    if ((this.resident !== bvh || this.residentRevision !== bvhRevision(bvh)) && !this.patch(bvh)) this.upload(bvh);
    const filter = resolved.filter;
    const edgeMasks = resolved.edgeMasks ? this.edgeMasksAt(bvh, filter) : 0;
    const count = capsules.count;
    const trace = resolved.trace ?? null;
    let layout = this.layout!;
    const traceCapacity = trace === null ? 0 : trace.capacity;
    if (count > layout.capsuleCapacity || traceCapacity > layout.traceCapacity) {
      const capsuleCapacity = count > layout.capsuleCapacity ? Math.max(count, 2 * layout.capsuleCapacity) : layout.capsuleCapacity;
      layout = this.layout = { ...layout, capsuleCapacity, traceCapacity: Math.max(traceCapacity, layout.traceCapacity) };
      this.ensureMemory(layout.staging + CAPSULE_BYTES * layout.capsuleCapacity + TRACE_ENTRY_BYTES * layout.traceCapacity);
    }
    const capacity = layout.capsuleCapacity;
    const start = layout.staging;
    const end = start + 12 * capacity;
    const motion = end + 12 * capacity;
    const radius = motion + 12 * capacity;
    const toi = radius + 4 * capacity;
    const triangle = toi + 4 * capacity;
    const point = triangle + 4 * capacity;
    const normal = point + 12 * capacity;
    const traceAt = normal + 12 * capacity;
    const buffer = this.exports.memory.buffer;
    new Float32Array(buffer, start, 3 * count).set(capsules.start.subarray(0, 3 * count));
    new Float32Array(buffer, end, 3 * count).set(capsules.end.subarray(0, 3 * count));
    new Float32Array(buffer, motion, 3 * count).set(capsules.motion.subarray(0, 3 * count));
    new Float32Array(buffer, radius, count).set(capsules.radius.subarray(0, count));
    const nodes = bvh.quantized!;
    const flags = (resolved.edgeMasks ? 1 : 0) | (resolved.quickCull ? 2 : 0) | (filterRejectsSome(bvh.masks, filter) ? 4 : 0);
    const traceCapsule = trace === null ? -1 : (resolved.traceCapsule ?? 0);
    this.exports.sweepCapsules(
      layout.nodes,
      nodes.nodeCount,
      layout.magnitude,
      layout.triangles,
      layout.references,
      edgeMasks,
      layout.stack,
      start,
      end,
      motion,
      radius,
      toi,
      triangle,
      point,
      normal,
      count,
      flags,
      traceCapsule,
      traceAt,
      traceCapacity,
      layout.referenceMasks,
      layout.nodeMasks,
      filter,
    );
    hits.toi.set(new Float32Array(buffer, toi, count));
    hits.triangle.set(new Int32Array(buffer, triangle, count));
    hits.point.set(new Float32Array(buffer, point, 3 * count));
    hits.normal.set(new Float32Array(buffer, normal, 3 * count));
    const tally = new Int32Array(buffer, this.exports.countersAt(), KERNEL_COUNTERS);
    if (trace !== null) {
      const traced = tally[12]!;
      const entries = new Int32Array(buffer, traceAt, 3 * traced);
      for (let k = 0; k < traced; k++) {
        trace.triangle[k] = entries[3 * k]!;
        trace.kept[k] = entries[3 * k + 1]!;
        trace.tested[k] = entries[3 * k + 2]!;
      }
      trace.count = traced;
    }
    const counters = createSweepCounters();
    counters.queries = count;
    counters.invalid = tally[11]!;
    counters.nodesVisited = tally[0]!;
    counters.boxesTested = 4 * tally[0]!;
    counters.leavesVisited = tally[13]!;
    counters.trianglesTested = tally[1]!;
    counters.culled = tally[14]!;
    counters.hits = tally[10]!;
    counters.subtreesMasked = tally[15]!;
    counters.trianglesMasked = tally[16]!;
    counters.pairsPossible = PAIRS_PER_TRIANGLE * tally[1]!;
    counters.pairsKept = tally[2]!;
    counters.pairsTested = tally[3]!;
    counters.sphereVertex = tally[4]!;
    counters.sphereEdge = tally[5]!;
    counters.sphereFace = tally[6]!;
    counters.cylinderVertex = tally[7]!;
    counters.cylinderEdge = tally[8]!;
    counters.cylinderFace = tally[9]!;
    return counters;
  }

  private ensureMemory(bytes: number): void {
    growMemoryTo(this.exports.memory, bytes);
  }
}
