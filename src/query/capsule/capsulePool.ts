import type { BVH } from '../../bvh/buildBVH';
import { InvalidParameterError } from '../../errors';
import { chunkSizeFor, sumChunkCounter, type ChunkFault } from '../../platform/chunkClaims';
import { alignTo } from '../../platform/moduleMemory';
import { growSharedMemoryTo } from '../../platform/sharedMemory';
import { PooledKernel } from '../../platform/pooledKernel';
import { SharedKernelPool, type PoolRun, type SharedKernelPoolOptions } from '../../platform/sharedKernelPool';
import { MAX_POOL_WORKERS } from '../../platform/workerPool';
import { CHUNK_RECORD_BYTES, capsuleChunkRunner, type CapsuleChunkJob, type SharedCapsuleExports } from './capsuleChunks';
import { spawnCapsuleWorker } from './capsulePoolSpawn';
import { CapsuleScene, capsuleStackBytes, planCapsuleScene } from './capsuleScene';
import {
  KERNEL_COUNTERS,
  STAGED_CAPSULE_BYTES,
  capsuleKernelFlags,
  capsuleStagingAt,
  stageCapsules,
  sweepCountersFrom,
  unstageContacts,
  type CapsuleStaging,
} from './capsuleStaging';
import type { CapsuleBatch, CapsuleHits, SweepCounters, SweepOptions } from './capsuleTypes';
import { checkBatch, resolveSweepOptions } from './sweepCapsules';

/** Where the compiled shared-memory kernel lands (npm run build:wasm). */
const KERNEL_URL = new URL('../../platform/generated/capsuleShared.wasm', import.meta.url);
/** The kernel's declared maximum (--maximumMemory in package.json): 1 GiB. */
const KERNEL_MAXIMUM_PAGES = 16384;
/**
 * Capsules per chunk at most, and at least; a batch is cut into about 8 chunks per thread or more. A
 * capsule costs a few microseconds (a dozen nodes, a score of triangles), so even the smallest chunk
 * outweighs its claim.
 */
const MAX_CHUNK_CAPSULES = 64;
const MIN_CHUNK_CAPSULES = 4;
const CHUNKS_PER_THREAD = 8;

/** Thrown by CapsulePool.create where threads cannot share memory or the kernel cannot run. */
export class CapsulePoolUnavailableError extends Error {
  constructor(reason: string) {
    super(`the capsule pool cannot run here: ${reason}`);
    this.name = 'CapsulePoolUnavailableError';
  }
}

/** Workers, memory ceiling (default 1 GiB), how workers start (default spawnCapsuleWorker), straggler wait (src/platform/sharedKernelPool.ts). */
export type CapsulePoolOptions = SharedKernelPoolOptions;

/** sweepCapsules' options but the trace (a traced capsule is swept on one thread: sweepCapsulesSimd), and how the pool runs. */
export interface CapsulePoolSweepOptions extends Omit<SweepOptions, 'trace' | 'traceCapsule'> {
  /** Whether the calling thread sweeps chunks too (default true); it always finishes what workers leave. */
  mainThread: boolean;
  /** Tests only: the worker in this slot raises this fault on its first claim. */
  fault: { slot: number; kind: ChunkFault } | null;
}

export interface CapsulePoolSweep {
  counters: SweepCounters;
  /** Threads that took part: the live workers when the sweep started, plus the calling thread. */
  threads: number;
  /** The sweep's wall time (staging to contacts back), ms. */
  wallMs: number;
  /** Each thread's busy time on this sweep, ms: [0] the calling thread, then the workers in slot order. */
  busyMs: number[];
  /** The calling thread's serial part, ms: checking and staging the capsules, and copying the contacts out. */
  stagingMs: number;
  /** sweepNow: how long the calling thread waited for workers to finish their last chunks, ms (sweep: 0). */
  waitMs: number;
  /** Chunks the batch was cut into, and how many the calling thread swept (its share, plus recovery). */
  chunks: number;
  chunksOnCaller: number;
  /** What went wrong during this sweep (a worker lost, and its chunks finished by the others). */
  notices: string[];
}

/** Addresses of the pool's shared memory past the cursor and thread records (the BVH's copy: CapsuleScene). */
interface PoolLayout {
  areas: number;
  areaStride: number;
  stackOffset: number;
  staging: number;
  capsuleCapacity: number;
}

/** A sweep between its staging and its contacts. */
interface StagedSweep {
  job: CapsuleChunkJob;
  staging: CapsuleStaging;
  count: number;
}

/**
 * The SIMD capsule sweep on a pool of threads over one shared WebAssembly memory
 * (src/platform/sharedKernelPool.ts): every thread (the caller and N workers) runs its own instance of
 * the shared-memory build (src/platform/assembly/capsule/sweepCapsulesShared.ts) over the same bytes,
 * claiming chunks of the batch with an atomic counter (src/platform/chunkClaims.ts). Past the pool's
 * cursor and thread records, the memory holds
 *
 *   one work area per thread slot, 0 … MAX_POOL_WORKERS (walk scratch, traversal stack) | the BVH's
 *   copy (capsuleScene.ts) | capsule staging (capsuleStaging.ts, 72 B per capsule) | one chunk record
 *   per chunk (capsuleChunks.ts)
 *
 * The BVH is copied in once per tree revision (patched after one partial refit, as the single-thread
 * kernel does), the capsules once per sweep. Each capsule is swept alone by the single-thread kernel's
 * own walk, culls and feature tests, so contacts (time, triangle, point, normal) are bit for bit the
 * same whatever the thread count; counters are summed per chunk.
 */
export class CapsulePool extends PooledKernel<SharedCapsuleExports> {
  private layout: PoolLayout | null = null;
  private readonly scene: CapsuleScene;
  /** The summed counters of the last sweep (KERNEL_COUNTERS, reused). */
  private readonly tally = new Int32Array(KERNEL_COUNTERS);

  private constructor(threads: SharedKernelPool<SharedCapsuleExports>) {
    super(threads);
    this.scene = new CapsuleScene(() => threads.memory.buffer);
  }

  /** Loads the kernel and starts the workers. Throws CapsulePoolUnavailableError where threads cannot share memory. */
  static async create(options: Partial<CapsulePoolOptions> = {}): Promise<CapsulePool> {
    const spec = {
      url: KERNEL_URL,
      maximumPages: KERNEL_MAXIMUM_PAGES,
      spawn: spawnCapsuleWorker,
      unavailable: (reason: string) => new CapsulePoolUnavailableError(reason),
      badParameter: (field: string, expected: string, received: unknown) => new InvalidParameterError(field, expected, received),
    };
    return new CapsulePool(await SharedKernelPool.create<SharedCapsuleExports>(spec, options));
  }

  /** Copies a BVH into the shared memory now rather than on its first sweep. */
  upload(bvh: BVH): void {
    const { kernel, memory, maximumPages } = this.threads;
    const areas = this.threads.firstFreeByte;
    const stackOffset = alignTo(kernel.threadAreaBytes(), 64);
    const areaStride = stackOffset + alignTo(capsuleStackBytes(bvh), 64);
    const scene = planCapsuleScene(bvh, areas + (MAX_POOL_WORKERS + 1) * areaStride);
    const capsuleCapacity = this.layout?.capsuleCapacity ?? 1024;
    growSharedMemoryTo(memory, stagingEnd(scene.end, capsuleCapacity), maximumPages);
    this.scene.write(bvh, scene);
    this.layout = { areas, areaStride, stackOffset, staging: scene.end, capsuleCapacity };
  }

  /**
   * Sweeps a batch of capsules on every thread of the pool: sweepCapsules' buffers, options (but the
   * trace), conventions and validation, the same contacts and counters as the single-thread SIMD kernel.
   * One sweep at a time per pool.
   */
  async sweep(bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits, options: Partial<CapsulePoolSweepOptions> = {}): Promise<CapsulePoolSweep> {
    const started = performance.now();
    const staged = this.prepare(bvh, capsules, hits, options);
    const caller = capsuleChunkRunner(this.threads.kernel, staged.job);
    const stage = (): void => stageCapsules(capsules, this.threads.memory.buffer, staged.staging);
    const run = await this.threads.run(staged.job, stage, caller, options.mainThread ?? true, options.fault ?? null);
    return this.finish(staged, hits, started, run);
  }

  /**
   * The same sweep without giving up the thread, for a caller that must have the contacts at once (a
   * simulation step): SharedKernelPool.runNow. Returns null, sweeping nothing, while a straggler from an
   * earlier sweep may still be writing into the staging area (or while an asynchronous sweep runs, or
   * workers start or stop): the caller then sweeps on its own thread.
   */
  sweepNow(
    bvh: BVH,
    capsules: CapsuleBatch,
    hits: CapsuleHits,
    options: Partial<Omit<CapsulePoolSweepOptions, 'mainThread'>> = {},
  ): CapsulePoolSweep | null {
    if (!this.threads.canRunNow()) return null;
    const started = performance.now();
    const staged = this.prepare(bvh, capsules, hits, options);
    const caller = capsuleChunkRunner(this.threads.kernel, staged.job);
    const stage = (): void => stageCapsules(capsules, this.threads.memory.buffer, staged.staging);
    const run = this.threads.runNow(staged.job, stage, caller, options.fault ?? null);
    return this.finish(staged, hits, started, run);
  }

  /** Checks a sweep, brings the BVH's copy up to date, makes room for the capsules and cuts the batch into chunks. */
  private prepare(bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits, options: Partial<CapsulePoolSweepOptions>): StagedSweep {
    if ('trace' in options && (options as { trace?: unknown }).trace !== undefined)
      throw new InvalidParameterError('trace', 'no trace: the pool traces nothing (sweep a traced capsule with sweepCapsulesSimd)', 'a trace');
    const resolved = resolveSweepOptions(options);
    checkBatch(bvh, capsules, hits);
    if (!this.scene.holds(bvh) && !this.scene.patch(bvh)) this.upload(bvh);
    const edgeMasks = resolved.edgeMasks ? this.scene.edgeMasksAt(bvh, resolved.filter) : 0;
    const count = capsules.count;
    let layout = this.layout!;
    if (count > layout.capsuleCapacity) {
      const capsuleCapacity = Math.max(count, 2 * layout.capsuleCapacity);
      growSharedMemoryTo(this.threads.memory, stagingEnd(layout.staging, capsuleCapacity), this.threads.maximumPages);
      layout = this.layout = { ...layout, capsuleCapacity };
    }
    const staging = capsuleStagingAt(layout.staging, layout.capsuleCapacity);
    const scene = this.scene.layout!;
    const chunkSize = chunkSizeFor(count, this.threads.workers + 1, MIN_CHUNK_CAPSULES, MAX_CHUNK_CAPSULES, CHUNKS_PER_THREAD);
    const job: CapsuleChunkJob = {
      sweep: [
        scene.nodes,
        bvh.quantized!.nodeCount,
        scene.magnitude,
        scene.triangles,
        scene.references,
        edgeMasks,
        staging.start,
        staging.end,
        staging.motion,
        staging.radius,
        staging.toi,
        staging.triangle,
        staging.point,
        staging.normal,
        capsuleKernelFlags(bvh, resolved),
        scene.referenceMasks,
        scene.nodeMasks,
        resolved.filter,
      ],
      count,
      chunkSize,
      chunkCount: Math.ceil(count / chunkSize),
      tag: this.threads.nextTag(),
      cursor: this.threads.cursor,
      chunks: alignTo(staging.stagingEnd, 64),
      recordBytes: CHUNK_RECORD_BYTES,
      threads: this.threads.threads,
      areas: layout.areas,
      areaStride: layout.areaStride,
      stackOffset: layout.stackOffset,
    };
    return { job, staging, count };
  }

  /** Copies the contacts out and sums the chunks' counters. */
  private finish(staged: StagedSweep, hits: CapsuleHits, started: number, run: PoolRun): CapsulePoolSweep {
    const { job, staging, count } = staged;
    const unstageStart = performance.now();
    const buffer = this.threads.memory.buffer;
    unstageContacts(count, buffer, staging, hits);
    const words = new Int32Array(buffer);
    const tally = this.tally;
    for (let index = 0; index < KERNEL_COUNTERS; index++) tally[index] = sumChunkCounter(words, job, index);
    const counters = sweepCountersFrom(tally, count);
    const stagingMs = run.stagedMs + performance.now() - unstageStart;
    return {
      counters,
      threads: run.slots.length + 1,
      wallMs: performance.now() - started,
      busyMs: this.threads.busyMs(job, run),
      stagingMs,
      waitMs: run.waitMs,
      chunks: job.chunkCount,
      chunksOnCaller: run.chunksOnCaller,
      notices: run.notices,
    };
  }
}

/** The end of the capsule staging area and of the chunk records after it, for `capacity` capsules. */
function stagingEnd(staging: number, capacity: number): number {
  return alignTo(staging + STAGED_CAPSULE_BYTES * capacity, 64) + CHUNK_RECORD_BYTES * Math.ceil(capacity / MIN_CHUNK_CAPSULES);
}
