import type { BVH } from '../../bvh/buildBVH';
import { bvhRevision } from '../../bvh/revision';
import { KERNEL_STACK_ENTRY_BYTES } from '../../bvh/layoutSpec';
import { InvalidParameterError } from '../../errors';
import { instantiateWasm } from '../../platform/loadWasm';
import { WASM_PAGE_BYTES, alignTo } from '../../platform/moduleMemory';
import { createSharedMemory, growSharedMemoryTo, hardwareThreads, sharedMemoryUnavailableReason, threadCanBlock } from '../../platform/sharedMemory';
import { isWasmSimdSupported } from '../../platform/simdSupport';
import { MAX_POOL_WORKERS, WorkerPool } from '../../platform/workerPool';
import type { SpawnPoolWorker } from '../../platform/workerPort';
import { rayBatchCounters, type QueryCounters } from '../counters';
import {
  CAST_TAGS,
  CHUNK_RECORD_BYTES,
  MAX_CHUNKS,
  THREAD_RECORD_BYTES,
  UNUSED_CURSOR,
  allChunksDone,
  finishUndoneChunks,
  publishCast,
  pullRayChunks,
  threadBusyMs,
  waitForThreads,
  type RayChunkFault,
  type RayChunkJob,
  type SharedRayExports,
} from './rayChunks';
import { checkBuffers } from './rayKernel';
import { RayOrder } from './rayOrder';
import { spawnRayWorker } from './rayPoolSpawn';
import { planRayScene, writeRayScene, type RaySceneLayout } from './rayScene';
import { STAGED_RAY_BYTES, kernelCast, rayStagingAt, stageRays, unstageHits, type KernelCast, type RayStaging } from './rayStaging';
import type { RayBatch, RayHits } from './rayTypes';

/** Where the compiled shared-memory kernel lands (npm run build:wasm). */
const KERNEL_URL = new URL('../../platform/generated/raysShared.wasm', import.meta.url);
/** The kernel's declared maximum (--maximumMemory in package.json): 1 GiB. */
const KERNEL_MAXIMUM_PAGES = 16384;
/** Rays per chunk at most, and at least; a batch is cut into about 8 chunks per thread or more. */
const MAX_CHUNK_RAYS = 256;
const MIN_CHUNK_RAYS = 16;
const CHUNKS_PER_THREAD = 8;
/**
 * How long castNow waits by default, at most, for a worker that claimed a chunk and has not finished it (it
 * may have died: a page's main thread hears of that only later) before casting the chunk itself.
 */
const DEFAULT_STRAGGLER_WAIT_MS = 1000;
/** The longest straggler wait a pool accepts: a minute of a frozen caller is already a hang. */
const MAX_STRAGGLER_WAIT_MS = 60_000;

/** Thrown by RayPool.create where threads cannot share memory or the kernel cannot run. */
export class RayPoolUnavailableError extends Error {
  constructor(reason: string) {
    super(`the ray pool cannot run here: ${reason}`);
    this.name = 'RayPoolUnavailableError';
  }
}

export interface RayPoolOptions {
  /** Worker threads beside the calling thread; default hardware threads − 1, at least 1. */
  workers: number;
  /** The most the shared memory may hold (it cannot move, so it has a ceiling); default 1 GiB. */
  maximumMemoryBytes: number;
  /** How a worker starts (tests swap it); default spawnRayWorker. */
  spawn: SpawnPoolWorker;
  /**
   * castNow's longest wait for a worker inside a chunk before it is taken for dead (default 1 s). A worker
   * merely descheduled on a busy machine for longer is also taken for dead: castNow then declines until it
   * has finished (returns null), so a caller that must use the pool (a test) gives it a long wait.
   */
  stragglerWaitMs: number;
}

export interface RayPoolCastOptions {
  mode: 'closest' | 'any';
  doubleSided: boolean;
  /** Collision filter, as for castRays; MASK_ALL keeps everything. */
  filter: number;
  /** Cast big batches in the Morton order of their origins (results are the same). */
  reorder: boolean;
  /** Whether the calling thread casts chunks too (default true); it always finishes what workers leave. */
  mainThread: boolean;
  /** Tests only: the worker in this slot raises this fault on its first claim. */
  fault: { slot: number; kind: RayChunkFault } | null;
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
  cursor: number;
  threads: number;
  areas: number;
  areaStride: number;
  stackOffset: number;
  scene: RaySceneLayout;
  rays: number;
  rayCapacity: number;
}

/**
 * The SIMD ray kernel on a pool of threads over one shared WebAssembly memory: every thread (the caller
 * and N workers) runs its own instance of the shared-memory build (castRaysShared.ts) over the same
 * bytes, claiming chunks of the batch with an atomic counter (rayChunks.ts). The memory holds
 *
 *   heapBase → cursor (64 B) | one thread record per thread slot (rayChunks.ts) | one work area per thread slot, 0 … MAX_POOL_WORKERS (ray record, hit
 *   scratch, traversal stack) | the BVH's copy (rayScene.ts) | ray staging: origins, directions, tMax,
 *   hit t, hit triangle for rayCapacity rays | one chunk record per chunk (rayChunks.ts)
 *
 * The BVH is copied in once per tree revision, the rays once per cast (in Morton order for big batches,
 * as the single-thread kernel does, hits put back in the caller's order). Each ray is cast by the same
 * walk as in the single-thread kernel (rayKernel.ts), so hits, distances and triangle ids are bit for
 * bit the same whatever the thread count; counters are summed per chunk.
 */
export class RayPool {
  private layout: PoolLayout | null = null;
  private resident: BVH | null = null;
  private residentRevision = -1;
  private readonly rayOrder = new RayOrder();
  private casts = 0;
  /** While workers start or stop (a starting one cannot take a job yet): castNow then casts nothing. */
  private resizing = false;

  private constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly kernel: SharedRayExports,
    private readonly maximumPages: number,
    private readonly pool: WorkerPool,
    private readonly stragglerWaitMs: number,
    /** Whether the calling thread may block on Atomics.wait (not a page's main thread): else it spins. */
    private readonly canBlock: boolean,
  ) {}

  /** The default worker count: hardware threads − 1, at least 1. */
  static defaultWorkers(): number {
    return Math.max(1, hardwareThreads() - 1);
  }

  /** Loads the kernel and starts the workers. Throws RayPoolUnavailableError where threads cannot share memory. */
  static async create(options: Partial<RayPoolOptions> = {}): Promise<RayPool> {
    const reason = sharedMemoryUnavailableReason() ?? (isWasmSimdSupported() ? null : 'this engine has no WebAssembly SIMD');
    if (reason !== null) throw new RayPoolUnavailableError(reason);
    const workers = options.workers ?? RayPool.defaultWorkers();
    const maximumBytes = options.maximumMemoryBytes ?? KERNEL_MAXIMUM_PAGES * WASM_PAGE_BYTES;
    if (!(typeof maximumBytes === 'number' && maximumBytes >= WASM_PAGE_BYTES && maximumBytes <= KERNEL_MAXIMUM_PAGES * WASM_PAGE_BYTES))
      throw new InvalidParameterError(
        'maximumMemoryBytes',
        `a number of bytes from ${WASM_PAGE_BYTES} to ${KERNEL_MAXIMUM_PAGES * WASM_PAGE_BYTES}`,
        maximumBytes,
      );
    const stragglerWaitMs = options.stragglerWaitMs ?? DEFAULT_STRAGGLER_WAIT_MS;
    if (!(typeof stragglerWaitMs === 'number' && stragglerWaitMs >= 0 && stragglerWaitMs <= MAX_STRAGGLER_WAIT_MS))
      throw new InvalidParameterError('stragglerWaitMs', `a number of ms from 0 to ${MAX_STRAGGLER_WAIT_MS}`, stragglerWaitMs);
    const maximumPages = Math.floor(maximumBytes / WASM_PAGE_BYTES);
    const memory = createSharedMemory(1, maximumPages);
    let loaded: WebAssembly.WebAssemblyInstantiatedSource;
    try {
      loaded = await instantiateWasm(KERNEL_URL, { env: { memory } });
    } catch (error) {
      throw new RayPoolUnavailableError(error instanceof Error ? error.message : String(error));
    }
    const module = loaded.module;
    const kernel = loaded.instance.exports as unknown as SharedRayExports;
    const threads = threadRecordsAt(kernel);
    growSharedMemoryTo(memory, threads + (MAX_POOL_WORKERS + 1) * THREAD_RECORD_BYTES, maximumPages);
    Atomics.store(new Int32Array(memory.buffer), cursorAt(kernel) >> 2, UNUSED_CURSOR);
    // A worker starting in a slot has nothing under way: a dead predecessor's busy word is cleared.
    const pool = new WorkerPool(options.spawn ?? spawnRayWorker, (slot) => {
      Atomics.store(new Int32Array(memory.buffer), (threads + slot * THREAD_RECORD_BYTES) >> 2, 0);
      return { type: 'init', module, memory, slot };
    });
    const rayPool = new RayPool(memory, kernel, maximumPages, pool, stragglerWaitMs, threadCanBlock());
    await rayPool.setWorkers(workers);
    return rayPool;
  }

  /** Live workers (the calling thread works too: threads = workers + 1). */
  get workers(): number {
    return this.pool.size;
  }

  /** Every notice so far: workers lost or unable to start. */
  get notices(): readonly string[] {
    return this.pool.notices;
  }

  /** Bytes of shared memory in use. */
  get memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Starts or stops workers (0 … MAX_POOL_WORKERS); not during a cast. */
  async setWorkers(count: number): Promise<void> {
    if (!(Number.isInteger(count) && count >= 0 && count <= MAX_POOL_WORKERS))
      throw new InvalidParameterError('workers', `a whole number from 0 to ${MAX_POOL_WORKERS}`, count);
    this.resizing = true;
    try {
      await this.pool.resize(count);
    } finally {
      this.resizing = false;
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** Copies a BVH into the shared memory now rather than on its first cast. */
  upload(bvh: BVH): void {
    const base = cursorAt(this.kernel);
    const threads = threadRecordsAt(this.kernel);
    const areas = alignTo(threads + (MAX_POOL_WORKERS + 1) * THREAD_RECORD_BYTES, 64);
    const stackOffset = alignTo(this.kernel.threadAreaBytes(), 64);
    // Each level pops one entry and pushes at most four: 3·depth + 1 entries at most, plus slack.
    const areaStride = stackOffset + alignTo(KERNEL_STACK_ENTRY_BYTES * (3 * bvh.maxDepth + 8), 64);
    const { leaves, layout: scene } = planRayScene(bvh, areas + (MAX_POOL_WORKERS + 1) * areaStride);
    const rays = alignTo(scene.end, 64);
    const rayCapacity = this.layout?.rayCapacity ?? 1024;
    growSharedMemoryTo(this.memory, stagingEnd(rays, rayCapacity), this.maximumPages);
    writeRayScene(bvh, leaves, scene, this.memory.buffer);
    this.layout = { cursor: base, threads, areas, areaStride, stackOffset, scene, rays, rayCapacity };
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
    const { job, words } = staged;
    const mainThread = options.mainThread ?? true;
    let stagedMs = 0;
    let chunksOnCaller = 0;
    let callerMs = 0;
    // As in castNow, the workers are told first and wait for the staging (awaitCast).
    const outcome = await this.pool.run(
      (slot, id) => this.jobMessage(staged, slot, id, options),
      () => {
        this.stage(staged, rays, options);
        const start = performance.now();
        stagedMs = start - started;
        if (mainThread) chunksOnCaller += pullRayChunks(this.kernel, words, job, 0);
        callerMs += performance.now() - start;
      },
      // Workers still asleep when the caller has cast the last chunk are not waited for.
      () => allChunksDone(words, job),
    );
    // Whatever a lost worker claimed and left (or everything, when the caller did not pull), done here.
    const start = performance.now();
    chunksOnCaller += finishUndoneChunks(this.kernel, words, job, 0);
    callerMs += performance.now() - start;
    return this.finish(staged, hits, started, stagedMs, callerMs, 0, chunksOnCaller, outcome.notices);
  }

  /**
   * castNow: the same cast without giving up the thread, for a caller that must have the hits at once (a
   * simulation step). The calling thread casts chunks with the workers, then spins on the shared memory
   * until no worker is inside a chunk (it cannot hear of a worker's death meanwhile: a worker still busy
   * after the pool's straggler wait is taken for dead, with a notice, and its chunks are cast here). Returns null,
   * casting nothing, while such a straggler from an earlier cast may still be writing into the staging
   * area (or while an asynchronous cast runs, or workers start or stop): the caller then casts on its own thread.
   */
  castNow(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<Omit<RayPoolCastOptions, 'mainThread'>> = {}): RayPoolCast | null {
    if (this.pool.busy || this.resizing) return null;
    const slots = this.pool.slots();
    const records = new Int32Array(this.memory.buffer);
    const threads = threadRecordsAt(this.kernel);
    for (const slot of slots) if (Atomics.load(records, (threads + slot * THREAD_RECORD_BYTES) >> 2) !== 0) return null;
    const started = performance.now();
    const staged = this.prepare(bvh, rays, hits, options);
    const { job, words } = staged;
    // The workers are told first: they wake up while the rays are staged, and wait for them (awaitCast).
    this.pool.post((slot, id) => this.jobMessage(staged, slot, id, options));
    this.stage(staged, rays, options);
    let start = performance.now();
    const stagedMs = start - started;
    let chunksOnCaller = pullRayChunks(this.kernel, words, job, 0);
    let callerMs = performance.now() - start;
    const notices: string[] = [];
    const stragglerWaitMs = this.stragglerWaitMs;
    const waitStart = performance.now();
    const stragglers = waitForThreads(words, job, slots, stragglerWaitMs, this.canBlock);
    const waitMs = performance.now() - waitStart;
    if (stragglers.length > 0) {
      for (const slot of stragglers) notices.push(`worker ${slot} did not finish its chunk within ${stragglerWaitMs} ms; the calling thread cast it`);
      this.pool.notices.push(...notices);
    }
    start = performance.now();
    chunksOnCaller += finishUndoneChunks(this.kernel, words, job, 0);
    callerMs += performance.now() - start;
    return this.finish(staged, hits, started, stagedMs, callerMs, waitMs, chunksOnCaller, notices);
  }

  /** A worker's message for a cast: the job, and how long it may wait for the job to be staged. */
  private jobMessage(staged: StagedCast, slot: number, id: number, options: Partial<RayPoolCastOptions>): RayJobMessage {
    const fault = options.fault ?? null;
    return {
      type: 'job',
      job: id,
      batch: staged.job,
      fault: fault !== null && fault.slot === slot ? fault.kind : null,
      waitMs: this.stragglerWaitMs,
    };
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
      growSharedMemoryTo(this.memory, stagingEnd(layout.rays, rayCapacity), this.maximumPages);
      layout = this.layout = { ...layout, rayCapacity };
    }
    const staging = rayStagingAt(layout.rays, layout.rayCapacity);
    const chunks = alignTo(staging.end, 64);
    const { scene } = layout;
    const threads = this.pool.size + 1;
    const chunkSize = Math.max(
      MIN_CHUNK_RAYS,
      Math.min(MAX_CHUNK_RAYS, Math.ceil(count / (CHUNKS_PER_THREAD * threads))),
      Math.ceil(count / MAX_CHUNKS),
    );
    const chunkCount = Math.ceil(count / chunkSize);
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
      chunkCount,
      tag: this.casts++ % CAST_TAGS,
      cursor: layout.cursor,
      chunks,
      threads: layout.threads,
      areas: layout.areas,
      areaStride: layout.areaStride,
      stackOffset: layout.stackOffset,
    };
    const words = new Int32Array(this.memory.buffer);
    return { bvh, job, words, order: null, staging, cast, count, slots: this.pool.slots() };
  }

  /**
   * Copies the rays into the shared memory (in Morton order for big batches), clears the chunk records
   * and publishes the cast on the cursor word: from then on any thread may claim its chunks. A cast that
   * fails here is published with nothing to claim, so that no worker waits for it.
   */
  private stage(staged: StagedCast, rays: RayBatch, options: Partial<RayPoolCastOptions>): void {
    const { job, words } = staged;
    try {
      staged.order = stageRays(this.rayOrder, staged.bvh, rays, options.reorder ?? true, this.memory.buffer, staged.staging);
      words.fill(0, job.chunks >> 2, (job.chunks + CHUNK_RECORD_BYTES * job.chunkCount) >> 2);
    } catch (error) {
      publishCast(words, job, false);
      throw error;
    }
    publishCast(words, job);
  }

  /** Puts the hits back in the caller's order and sums the chunks' counters. */
  private finish(
    staged: StagedCast,
    hits: RayHits,
    started: number,
    stagedMs: number,
    callerMs: number,
    waitMs: number,
    chunksOnCaller: number,
    notices: string[],
  ): RayPoolCast {
    const { job, words, order, staging, cast, count, slots } = staged;
    const unstageStart = performance.now();
    unstageHits(order, count, this.memory.buffer, staging, hits);
    const stagingMs = stagedMs + performance.now() - unstageStart;
    let nodesVisited = 0;
    let trianglesTested = 0;
    let subtreesMasked = 0;
    let trianglesMasked = 0;
    let invalidRays = 0;
    for (let c = 0, at = job.chunks >> 2; c < job.chunkCount; c++, at += CHUNK_RECORD_BYTES >> 2) {
      nodesVisited += words[at + 1]!;
      trianglesTested += words[at + 2]!;
      subtreesMasked += words[at + 3]!;
      trianglesMasked += words[at + 4]!;
      invalidRays += words[at + 5]!;
    }
    const counters = rayBatchCounters(
      {
        nodesVisited,
        boxesTested: 4 * nodesVisited,
        trianglesTested,
        subtreesMasked: subtreesMasked + (cast.rootCut ? count - invalidRays : 0),
        trianglesMasked,
      },
      count,
      invalidRays,
      hits.triangle,
    );
    const busyMs = [callerMs, ...slots.map((slot) => threadBusyMs(words, job, slot))];
    const wallMs = performance.now() - started;
    return { counters, threads: slots.length + 1, wallMs, busyMs, stagingMs, waitMs, chunks: job.chunkCount, chunksOnCaller, notices };
  }
}

/** What a worker is told of a cast (rayPoolWorker.ts). */
interface RayJobMessage {
  type: 'job';
  job: number;
  batch: RayChunkJob;
  fault: RayChunkFault | null;
  /** The longest a worker waits for the cast to be staged before taking no part in it. */
  waitMs: number;
}

/** A cast between its staging and its results. */
interface StagedCast {
  bvh: BVH;
  job: RayChunkJob;
  words: Int32Array;
  order: Int32Array | null;
  staging: RayStaging;
  cast: KernelCast;
  count: number;
  /** The workers the job went to. */
  slots: number[];
}

/** Where the cursor lies: it opens the memory JavaScript may use. */
function cursorAt(kernel: SharedRayExports): number {
  return alignTo(kernel.heapBase(), 64);
}

/** Where the thread records lie: past the cursor. */
function threadRecordsAt(kernel: SharedRayExports): number {
  return cursorAt(kernel) + 64;
}

/** The end of the ray staging area and of the chunk records after it, for `capacity` rays. */
function stagingEnd(rays: number, capacity: number): number {
  return alignTo(rays + STAGED_RAY_BYTES * capacity, 64) + CHUNK_RECORD_BYTES * Math.ceil(capacity / MIN_CHUNK_RAYS);
}
