import type { BVH } from '../../bvh/buildBVH';
import { MASK_ALL } from '../../bvh/collisionMasks';
import { alignTo, growMemoryTo } from '../../platform/moduleMemory';
import { CapsuleScene, capsuleStackBytes, planCapsuleScene } from './capsuleScene';
import {
  KERNEL_COUNTERS,
  STAGED_CAPSULE_BYTES,
  TRACED_COUNTER,
  capsuleKernelFlags,
  capsuleStagingAt,
  stageCapsules,
  sweepCountersFrom,
  unstageContacts,
} from './capsuleStaging';
import type { CapsuleBatch, CapsuleHits, SweepCounters, SweepOptions } from './capsuleTypes';
import { checkBatch, resolveSweepOptions } from './sweepCapsules';

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

const TRACE_ENTRY_BYTES = 12;

/** Addresses inside the module's memory of the traversal stack and the staging areas (the BVH's copy: CapsuleScene). */
interface Layout {
  stack: number;
  /** Start of the staging areas: capsules, then the trace. */
  staging: number;
  capsuleCapacity: number;
  traceCapacity: number;
}

/**
 * The WebAssembly SIMD capsule sweep over the quantized 4-way BVH: one module instance, its memory laid
 * out as
 *
 *   heapBase → traversal stack (8 B per entry) | the BVH's copy (capsuleScene.ts) | capsule staging
 *            (72 B per capsule, capsuleStaging.ts) | the trace (12 B per traced triangle)
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
  private readonly scene: CapsuleScene;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as CapsuleKernelExports;
    this.scene = new CapsuleScene(() => this.exports.memory.buffer);
  }

  /** Bytes of module memory in use (for the HUD and the benchmark). */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** Copies a BVH into the module's memory now rather than on its first sweep. */
  upload(bvh: BVH): void {
    const stack = alignTo(this.exports.heapBase(), 64);
    const scene = planCapsuleScene(bvh, stack + capsuleStackBytes(bvh));
    const staging = scene.end;
    const capsuleCapacity = this.layout?.capsuleCapacity ?? 1024;
    const traceCapacity = this.layout?.traceCapacity ?? 0;
    this.ensureMemory(staging + STAGED_CAPSULE_BYTES * capsuleCapacity + TRACE_ENTRY_BYTES * traceCapacity);
    this.scene.write(bvh, scene);
    this.layout = { stack, staging, capsuleCapacity, traceCapacity };
  }

  /** Makes a BVH resident (with its edge masks for `filter` if they will be used) now rather than on the
   *  next sweep, so a timed sweep times the sweep alone. */
  prepare(bvh: BVH, edgeMasks = true, filter = MASK_ALL): void {
    if (!this.scene.holds(bvh) && !this.scene.patch(bvh)) this.upload(bvh);
    if (edgeMasks) this.scene.edgeMasksAt(bvh, filter);
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
    if (!this.scene.holds(bvh) && !this.scene.patch(bvh)) this.upload(bvh);
    const filter = resolved.filter;
    const edgeMasks = resolved.edgeMasks ? this.scene.edgeMasksAt(bvh, filter) : 0;
    const count = capsules.count;
    const trace = resolved.trace ?? null;
    let layout = this.layout!;
    const traceCapacity = trace === null ? 0 : trace.capacity;
    if (count > layout.capsuleCapacity || traceCapacity > layout.traceCapacity) {
      const capsuleCapacity = count > layout.capsuleCapacity ? Math.max(count, 2 * layout.capsuleCapacity) : layout.capsuleCapacity;
      layout = this.layout = { ...layout, capsuleCapacity, traceCapacity: Math.max(traceCapacity, layout.traceCapacity) };
      this.ensureMemory(layout.staging + STAGED_CAPSULE_BYTES * layout.capsuleCapacity + TRACE_ENTRY_BYTES * layout.traceCapacity);
    }
    const staging = capsuleStagingAt(layout.staging, layout.capsuleCapacity);
    const traceAt = staging.stagingEnd;
    const scene = this.scene.layout!;
    stageCapsules(capsules, this.exports.memory.buffer, staging);
    const traceCapsule = trace === null ? -1 : (resolved.traceCapsule ?? 0);
    this.exports.sweepCapsules(
      scene.nodes,
      bvh.quantized!.nodeCount,
      scene.magnitude,
      scene.triangles,
      scene.references,
      edgeMasks,
      layout.stack,
      staging.start,
      staging.end,
      staging.motion,
      staging.radius,
      staging.toi,
      staging.triangle,
      staging.point,
      staging.normal,
      count,
      capsuleKernelFlags(bvh, resolved),
      traceCapsule,
      traceAt,
      traceCapacity,
      scene.referenceMasks,
      scene.nodeMasks,
      filter,
    );
    const buffer = this.exports.memory.buffer;
    unstageContacts(count, buffer, staging, hits);
    const tally = new Int32Array(buffer, this.exports.countersAt(), KERNEL_COUNTERS);
    if (trace !== null) {
      const traced = tally[TRACED_COUNTER]!;
      const entries = new Int32Array(buffer, traceAt, 3 * traced);
      for (let k = 0; k < traced; k++) {
        trace.triangle[k] = entries[3 * k]!;
        trace.kept[k] = entries[3 * k + 1]!;
        trace.tested[k] = entries[3 * k + 2]!;
      }
      trace.count = traced;
    }
    return sweepCountersFrom(tally, count);
  }

  private ensureMemory(bytes: number): void {
    growMemoryTo(this.exports.memory, bytes);
  }
}
