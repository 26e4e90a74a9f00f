import type { BVH } from '../../bvh/buildBVH';
import { InvalidParameterError } from '../../errors';
import { bvhRevision } from '../../bvh/revision';
import { KERNEL_STACK_ENTRY_BYTES } from '../../bvh/layoutSpec';
import { chunkSizeFor, sumChunkCounter, type ChunkFault } from '../../platform/chunkClaims';
import { alignTo } from '../../platform/moduleMemory';
import { growSharedMemoryTo } from '../../platform/sharedMemory';
import { PooledKernel } from '../../platform/pooledKernel';
import { SharedKernelPool, type PoolRun, type SharedKernelPoolOptions } from '../../platform/sharedKernelPool';
import { MAX_POOL_WORKERS } from '../../platform/workerPool';
import { rayBatchCounters, type QueryCounters } from '../counters';
import { CHUNK_RECORD_BYTES, rayChunkRunner, type RayChunkJob, type SharedRayExports } from './rayChunks';
import { checkBuffers } from './rayKernel';
import { RayOrder } from './rayOrder';
import { spawnRayWorker } from './rayPoolSpawn';
import { planRayScene, writeRayScene, type RaySceneLayout } from './rayScene';
import {
  STAGED_RAY_BYTES,
  castsInOrder,
  kernelCast,
  rayOrderScratchAt,
  rayStagingAt,
  stageRays,
  unstageHits,
  type KernelCast,
  type RayOrderScratch,
  type RayStaging,
} from './rayStaging';
import type { RayBatch, RayHits } from './rayTypes';

/** Where the compiled shared-memory kernel lands (npm run build:wasm). */
const KERNEL_URL = new URL('../../platform/generated/raysShared.wasm', import.meta.url);
/** The kernel's declared maximum (--maximumMemory in package.json): 1 GiB. */
const KERNEL_MAXIMUM_PAGES = 16384;
/** Rays per chunk at most, and at least; a batch is cut into about 8 chunks per thread or more. */
const MAX_CHUNK_RAYS = 256;
const MIN_CHUNK_RAYS = 16;
const CHUNKS_PER_THREAD = 8;

/** Thrown by RayPool.create where threads cannot share memory or the kernel cannot run. */
export class RayPoolUnavailableError extends Error {
  constructor(reason: string) {
    super(`the ray pool cannot run here: ${reason}`);
    this.name = 'RayPoolUnavailableError';
  }
}

/** Workers, memory ceiling (default 1 GiB), how workers start (default spawnRayWorker), straggler wait (src/platform/sharedKernelPool.ts). */
export type RayPoolOptions = SharedKernelPoolOptions;

export interface RayPoolCastOptions {
  mode: 'closest' | 'any';
  doubleSided: boolean;
  /** Collision filter, as for castRays; MASK_ALL keeps everything. */
  filter: number;
  /** Cast big batches in the order of where the rays cross the scene (rayOrder.ts; results are the same). */
  reorder: boolean;
  /** Whether the calling thread casts chunks too (default true); it always finishes what workers leave. */
  mainThread: boolean;
  /** Tests only: the worker in this slot raises this fault on its first claim. */
  fault: { slot: number; kind: ChunkFault } | null;
}

export interface RayPoolCast {
  counters: QueryCounters;
  /** Threads that took part: the live workers when the cast started, plus the calling thread. */
  threads: number;
  /** The cast's wall time (staging to hits back), ms. */
  wallMs: number;
  /**
   * Each thread's busy time on this cast, ms: [0] the calling thread (its chunks and any it finished for
   * others), then the workers in slot order (0 for one that woke after the work was gone).
   */
  busyMs: number[];
  /**
   * The calling thread's serial part, ms: checking and staging the rays before any chunk can be claimed,
   * and putting the hits back after the last one (the part that no thread count shortens).
   */
  stagingMs: number;
  /** castNow: how long the calling thread waited for workers to finish their last chunks, ms (cast: 0). */
  waitMs: number;
  /** Chunks the batch was cut into, and how many the calling thread cast (its share, plus recovery). */
  chunks: number;
  chunksOnCaller: number;
  /** What went wrong during this cast (a worker lost, and its chunks finished by the others). */
  notices: string[];
}

/** Addresses of the pool's shared memory. */
interface PoolLayout {
  areas: number;
  areaStride: number;
  stackOffset: number;
  scene: RaySceneLayout;
  rays: number;
  rayCapacity: number;
}

/**
 * The SIMD ray kernel on a pool of threads over one shared WebAssembly memory (src/platform/sharedKernelPool.ts):
 * every thread (the caller and N workers) runs its own instance of the shared-memory build
 * (castRaysShared.ts) over the same bytes, claiming chunks of the batch with an atomic counter
 * (src/platform/chunkClaims.ts). Past the pool's cursor and thread records, the memory holds
 *
 *   one work area per thread slot, 0 … MAX_POOL_WORKERS (ray record, hit scratch, traversal stack) |
 *   the BVH's copy (rayScene.ts) | ray staging: origins, directions, tMax, hit t, hit triangle for
 *   rayCapacity rays | one chunk record per chunk (rayChunks.ts) | a sorted cast's order scratch
 *   (rayStaging.ts; big batches only)
 *
 * The BVH is copied in once per tree revision, the rays once per cast (in rayOrder.ts' order for big batches,
 * as the single-thread kernel does, hits put back in the caller's order). Each ray is cast by the same
 * walk as in the single-thread kernel (rayKernel.ts), so hits, distances and triangle ids are bit for
 * bit the same whatever the thread count; counters are summed per chunk.
 */
export class RayPool extends PooledKernel<SharedRayExports> {
  private layout: PoolLayout | null = null;
  private resident: BVH | null = null;
  private residentRevision = -1;
  private readonly rayOrder = new RayOrder();

  private constructor(threads: SharedKernelPool<SharedRayExports>) {
    super(threads);
  }

  /** Loads the kernel and starts the workers. Throws RayPoolUnavailableError where threads cannot share memory. */
  static async create(options: Partial<RayPoolOptions> = {}): Promise<RayPool> {
    const spec = {
      url: KERNEL_URL,
      maximumPages: KERNEL_MAXIMUM_PAGES,
      spawn: spawnRayWorker,
      unavailable: (reason: string) => new RayPoolUnavailableError(reason),
      badParameter: (field: string, expected: string, received: unknown) => new InvalidParameterError(field, expected, received),
    };
    return new RayPool(await SharedKernelPool.create<SharedRayExports>(spec, options));
  }

  /** Copies a BVH into the shared memory now rather than on its first cast. */
  upload(bvh: BVH): void {
    const { kernel, memory, maximumPages } = this.threads;
    const areas = this.threads.firstFreeByte;
    const stackOffset = alignTo(kernel.threadAreaBytes(), 64);
    // Each level pops one entry and pushes at most four: 3·depth + 1 entries at most, plus slack.
    const areaStride = stackOffset + alignTo(KERNEL_STACK_ENTRY_BYTES * (3 * bvh.maxDepth + 8), 64);
    const { leaves, layout: scene } = planRayScene(bvh, areas + (MAX_POOL_WORKERS + 1) * areaStride);
    const rays = alignTo(scene.end, 64);
    const rayCapacity = this.layout?.rayCapacity ?? 1024;
    growSharedMemoryTo(memory, stagingEnd(rays, rayCapacity), maximumPages);
    writeRayScene(bvh, leaves, scene, memory.buffer);
    this.layout = { areas, areaStride, stackOffset, scene, rays, rayCapacity };
    this.resident = bvh;
    this.residentRevision = bvhRevision(bvh);
  }

  /**
   * Casts a batch of rays on every thread of the pool: closest or any hit, the conventions of castRays
   * (t and the caller's triangle id per ray; a miss: +∞ and −1; an invalid ray: NaN and −1, counted),
   * the same hits as the single-thread SIMD kernel. One cast at a time per pool.
   */
  async cast(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<RayPoolCastOptions> = {}): Promise<RayPoolCast> {
    const started = performance.now();
    const staged = this.prepare(bvh, rays, hits, options);
    const caller = rayChunkRunner(this.threads.kernel, staged.job);
    // As in castNow, the workers are told first and wait for the staging (awaitJob).
    const run = await this.threads.run(staged.job, () => this.stage(staged, rays), caller, options.mainThread ?? true, options.fault ?? null);
    return this.finish(staged, hits, started, run);
  }

  /**
   * castNow: the same cast without giving up the thread, for a caller that must have the hits at once (a
   * simulation step): SharedKernelPool.runNow. Returns null, casting nothing, while a straggler from an
   * earlier cast may still be writing into the staging area (or while an asynchronous cast runs, or
   * workers start or stop): the caller then casts on its own thread.
   */
  castNow(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<Omit<RayPoolCastOptions, 'mainThread'>> = {}): RayPoolCast | null {
    if (!this.threads.canRunNow()) return null;
    const started = performance.now();
    const staged = this.prepare(bvh, rays, hits, options);
    const caller = rayChunkRunner(this.threads.kernel, staged.job);
    const run = this.threads.runNow(staged.job, () => this.stage(staged, rays), caller, options.fault ?? null);
    return this.finish(staged, hits, started, run);
  }

  /** Checks a cast, copies the BVH in (when new), makes room for the rays and cuts the batch into chunks. */
  private prepare(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<RayPoolCastOptions>): StagedCast {
    checkBuffers(rays, hits);
    if (this.resident !== bvh || this.residentRevision !== bvhRevision(bvh)) this.upload(bvh);
    const cast = kernelCast(bvh, options);
    const count = rays.count;
    let layout = this.layout!;
    if (count > layout.rayCapacity) {
      const rayCapacity = Math.max(count, 2 * layout.rayCapacity);
      growSharedMemoryTo(this.threads.memory, stagingEnd(layout.rays, rayCapacity), this.threads.maximumPages);
      layout = this.layout = { ...layout, rayCapacity };
    }
    // A sorted cast's scratch lies past the chunk records, so small casts never need its memory.
    const scratch = castsInOrder(options.reorder ?? true, count)
      ? rayOrderScratchAt(alignTo(stagingEnd(layout.rays, layout.rayCapacity), 64), count)
      : null;
    if (scratch !== null) growSharedMemoryTo(this.threads.memory, scratch.end, this.threads.maximumPages);
    const staging = rayStagingAt(layout.rays, layout.rayCapacity);
    const { scene } = layout;
    const chunkSize = chunkSizeFor(count, this.threads.workers + 1, MIN_CHUNK_RAYS, MAX_CHUNK_RAYS, CHUNKS_PER_THREAD);
    const job: RayChunkJob = {
      cast: [
        scene.nodes,
        cast.nodeCount,
        scene.magnitude,
        scene.triangles,
        scene.order,
        staging.origins,
        staging.directions,
        staging.tMaxs,
        staging.hitT,
        staging.hitTriangle,
        cast.flags,
        scene.masks,
        cast.filter,
      ],
      count,
      chunkSize,
      chunkCount: Math.ceil(count / chunkSize),
      tag: this.threads.nextTag(),
      cursor: this.threads.cursor,
      chunks: alignTo(staging.end, 64),
      recordBytes: CHUNK_RECORD_BYTES,
      threads: this.threads.threads,
      areas: layout.areas,
      areaStride: layout.areaStride,
      stackOffset: layout.stackOffset,
    };
    return { bvh, job, scratch, staging, cast, count };
  }

  /** Copies the rays into the shared memory (in rayOrder.ts' order for big batches). */
  private stage(staged: StagedCast, rays: RayBatch): void {
    stageRays(this.rayOrder, this.threads.kernel, staged.bvh.quantized!.rootFrame, rays, staged.scratch, this.threads.memory.buffer, staged.staging);
  }

  /** Puts the hits back in the caller's order and sums the chunks' counters. */
  private finish(staged: StagedCast, hits: RayHits, started: number, run: PoolRun): RayPoolCast {
    const { job, scratch, staging, cast, count } = staged;
    const unstageStart = performance.now();
    unstageHits(this.threads.kernel, scratch, count, this.threads.memory.buffer, staging, hits);
    const stagingMs = run.stagedMs + performance.now() - unstageStart;
    const words = new Int32Array(this.threads.memory.buffer);
    const nodesVisited = sumChunkCounter(words, job, 0);
    const invalidRays = sumChunkCounter(words, job, 4);
    const counters = rayBatchCounters(
      {
        nodesVisited,
        boxesTested: 4 * nodesVisited,
        trianglesTested: sumChunkCounter(words, job, 1),
        subtreesMasked: sumChunkCounter(words, job, 2) + (cast.rootCut ? count - invalidRays : 0),
        trianglesMasked: sumChunkCounter(words, job, 3),
      },
      count,
      invalidRays,
      hits.triangle,
    );
    const busyMs = this.threads.busyMs(job, run);
    const wallMs = performance.now() - started;
    return {
      counters,
      threads: run.slots.length + 1,
      wallMs,
      busyMs,
      stagingMs,
      waitMs: run.waitMs,
      chunks: job.chunkCount,
      chunksOnCaller: run.chunksOnCaller,
      notices: run.notices,
    };
  }
}

/** A cast between its staging and its results. */
interface StagedCast {
  bvh: BVH;
  job: RayChunkJob;
  /** A sorted cast's scratch (rayOrder.ts): the hits come back through it. */
  scratch: RayOrderScratch | null;
  staging: RayStaging;
  cast: KernelCast;
  count: number;
}

/** The end of the ray staging area and of the chunk records after it, for `capacity` rays. */
function stagingEnd(rays: number, capacity: number): number {
  return alignTo(rays + STAGED_RAY_BYTES * capacity, 64) + CHUNK_RECORD_BYTES * Math.ceil(capacity / MIN_CHUNK_RAYS);
}
