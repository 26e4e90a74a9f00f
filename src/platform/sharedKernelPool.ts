/**
 * A shared-memory build of a WebAssembly kernel on a pool of threads: every thread (the caller and N
 * workers, workerPool.ts) runs its own instance of the kernel over one shared WebAssembly memory, and a
 * job's batch is cut into chunks that the threads claim with an atomic counter (chunkClaims.ts). This
 * holds what does not depend on the kernel: the memory, the workers, the straggler wait, and the two
 * ways to run a job (run: the caller yields while workers finish; runNow: the caller keeps its thread,
 * for a simulation step). A kernel's pool (src/query/rays/rayPool.ts, src/query/capsule/capsulePool.ts)
 * lays out its data past firstFreeByte, stages its batch and reads its results.
 *
 *   heapBase → cursor (64 B) | one thread record per thread slot (chunkClaims.ts) | the kernel's data
 */

import {
  JOB_TAGS,
  THREAD_RECORD_BYTES,
  UNUSED_CURSOR,
  allChunksDone,
  awaitFirstClaim,
  clearChunkRecords,
  finishUndoneChunks,
  publishJob,
  pullChunks,
  threadBusy,
  threadBusyMs,
  waitForThreads,
  type ChunkFault,
  type ChunkJob,
  type ChunkRunner,
} from './chunkClaims';
import { instantiateWasm } from './loadWasm';
import { WASM_PAGE_BYTES, alignTo } from './moduleMemory';
import type { PoolJobMessage } from './poolWorkerLoop';
import { createSharedMemory, growSharedMemoryTo, hardwareThreads, sharedMemoryUnavailableReason, threadCanBlock } from './sharedMemory';
import { isWasmSimdSupported } from './simdSupport';
import { MAX_POOL_WORKERS, WorkerPool } from './workerPool';
import type { SpawnPoolWorker } from './workerPort';

/**
 * How long runNow waits by default, at most, for a worker that claimed a chunk and has not finished it (it
 * may have died: a page's main thread hears of that only later) before running the chunk itself.
 */
const DEFAULT_STRAGGLER_WAIT_MS = 1000;
/** Tests only: how long runNow, simulating a fault, waits for a worker's first claim before it claims too. */
const FAULT_CLAIM_WAIT_MS = 10_000;
/** The longest straggler wait a pool accepts: a minute of a frozen caller is already a hang. */
const MAX_STRAGGLER_WAIT_MS = 60_000;

export interface SharedKernelPoolOptions {
  /** Worker threads beside the calling thread; default hardware threads − 1, at least 1. */
  workers: number;
  /** The most the shared memory may hold (it cannot move, so it has a ceiling); default the kernel's maximum. */
  maximumMemoryBytes: number;
  /** How a worker starts (tests swap it); default the kernel's own worker. */
  spawn: SpawnPoolWorker;
  /**
   * runNow's longest wait for a worker inside a chunk before it is taken for dead (default 1 s). A worker
   * merely descheduled on a busy machine for longer is also taken for dead: runNow then declines until it
   * has finished (canRunNow is false), so a caller that must use the pool (a test) gives it a long wait.
   */
  stragglerWaitMs: number;
}

/** The kernel a pool runs: its compiled shared-memory build and how its workers start. */
export interface SharedKernelSpec {
  url: URL;
  /** The kernel's declared maximum memory in pages (--maximumMemory). */
  maximumPages: number;
  spawn: SpawnPoolWorker;
  /** The error thrown where threads cannot share memory or the kernel cannot run, from the reason. */
  unavailable: (reason: string) => Error;
  /** The error thrown for a bad option or worker count (the core's InvalidParameterError, which this layer cannot import). */
  badParameter: (field: string, expected: string, received: unknown) => Error;
}

/** How a job went, seen from the calling thread. */
export interface PoolRun {
  /** The workers the job went to (slot order). */
  slots: number[];
  /** The calling thread's time before any chunk could be claimed (staging), ms. */
  stagedMs: number;
  /** The calling thread's time running chunks (its share, plus any it finished for others), ms. */
  callerMs: number;
  /** runNow: how long the calling thread waited for workers to finish their last chunks, ms (run: 0). */
  waitMs: number;
  chunksOnCaller: number;
  /** What went wrong during this job (a worker lost, and its chunks finished by the others). */
  notices: string[];
}

export class SharedKernelPool<Exports extends { heapBase(): number }> {
  private jobs = 0;
  /** While workers start or stop (a starting one cannot take a job yet): runNow then runs nothing. */
  private resizing = false;

  private constructor(
    readonly memory: WebAssembly.Memory,
    /** The calling thread's instance of the kernel. */
    readonly kernel: Exports,
    readonly maximumPages: number,
    private readonly pool: WorkerPool,
    readonly stragglerWaitMs: number,
    /** Whether the calling thread may block on Atomics.wait (not a page's main thread): else it spins. */
    private readonly canBlock: boolean,
    private readonly badParameter: SharedKernelSpec['badParameter'],
  ) {}

  /** The default worker count: hardware threads − 1, at least 1. */
  static defaultWorkers(): number {
    return Math.max(1, hardwareThreads() - 1);
  }

  /** Loads the kernel and starts the workers. Throws spec.unavailable(reason) where threads cannot share memory. */
  static async create<Exports extends { heapBase(): number }>(
    spec: SharedKernelSpec,
    options: Partial<SharedKernelPoolOptions> = {},
  ): Promise<SharedKernelPool<Exports>> {
    const reason = sharedMemoryUnavailableReason() ?? (isWasmSimdSupported() ? null : 'this engine has no WebAssembly SIMD');
    if (reason !== null) throw spec.unavailable(reason);
    const workers = options.workers ?? SharedKernelPool.defaultWorkers();
    const ceiling = spec.maximumPages * WASM_PAGE_BYTES;
    const maximumBytes = options.maximumMemoryBytes ?? ceiling;
    if (!(typeof maximumBytes === 'number' && maximumBytes >= WASM_PAGE_BYTES && maximumBytes <= ceiling))
      throw spec.badParameter('maximumMemoryBytes', `a number of bytes from ${WASM_PAGE_BYTES} to ${ceiling}`, maximumBytes);
    const stragglerWaitMs = options.stragglerWaitMs ?? DEFAULT_STRAGGLER_WAIT_MS;
    if (!(typeof stragglerWaitMs === 'number' && stragglerWaitMs >= 0 && stragglerWaitMs <= MAX_STRAGGLER_WAIT_MS))
      throw spec.badParameter('stragglerWaitMs', `a number of ms from 0 to ${MAX_STRAGGLER_WAIT_MS}`, stragglerWaitMs);
    const maximumPages = Math.floor(maximumBytes / WASM_PAGE_BYTES);
    const memory = createSharedMemory(1, maximumPages);
    let loaded: WebAssembly.WebAssemblyInstantiatedSource;
    try {
      loaded = await instantiateWasm(spec.url, { env: { memory } });
    } catch (error) {
      throw spec.unavailable(error instanceof Error ? error.message : String(error));
    }
    const module = loaded.module;
    const kernel = loaded.instance.exports as unknown as Exports;
    const threads = threadRecordsOf(kernel);
    growSharedMemoryTo(memory, threads + (MAX_POOL_WORKERS + 1) * THREAD_RECORD_BYTES, maximumPages);
    Atomics.store(new Int32Array(memory.buffer), cursorOf(kernel) >> 2, UNUSED_CURSOR);
    // A worker starting in a slot has nothing under way: a dead predecessor's busy word is cleared.
    const pool = new WorkerPool(options.spawn ?? spec.spawn, (slot) => {
      Atomics.store(new Int32Array(memory.buffer), (threads + slot * THREAD_RECORD_BYTES) >> 2, 0);
      return { type: 'init', module, memory, slot };
    });
    const kernelPool = new SharedKernelPool(memory, kernel, maximumPages, pool, stragglerWaitMs, threadCanBlock(), spec.badParameter);
    await kernelPool.setWorkers(workers);
    return kernelPool;
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

  /** Byte address of the cursor word (the first thing past the kernel's static data). */
  get cursor(): number {
    return cursorOf(this.kernel);
  }

  /** Byte address of thread slot 0's record. */
  get threads(): number {
    return threadRecordsOf(this.kernel);
  }

  /** The first byte a kernel's pool may lay its data out from (64-aligned). */
  get firstFreeByte(): number {
    return alignTo(this.threads + (MAX_POOL_WORKERS + 1) * THREAD_RECORD_BYTES, 64);
  }

  /** The tag of the next job (chunkClaims.ts). */
  nextTag(): number {
    return this.jobs++ % JOB_TAGS;
  }

  /** Starts or stops workers (0 … MAX_POOL_WORKERS); not during a job. */
  async setWorkers(count: number): Promise<void> {
    if (!(Number.isInteger(count) && count >= 0 && count <= MAX_POOL_WORKERS))
      throw this.badParameter('workers', `a whole number from 0 to ${MAX_POOL_WORKERS}`, count);
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

  /** The live workers' slots, in increasing order. */
  slots(): number[] {
    return this.pool.slots();
  }

  /**
   * Whether runNow may run a job now: not while a job of run() is under way, workers start or stop, or a
   * straggler from an earlier job may still be writing into the staging area.
   */
  canRunNow(): boolean {
    if (this.pool.busy || this.resizing) return false;
    const words = new Int32Array(this.memory.buffer);
    const threads = { threads: this.threads };
    for (const slot of this.pool.slots()) if (threadBusy(words, threads, slot)) return false;
    return true;
  }

  /**
   * Runs a job on every thread, the caller yielding while the workers finish: tells the workers, stages
   * the batch (`stage`: copies it in), publishes it, runs chunks on the calling thread (unless
   * `mainThread` is false), then runs whatever a lost worker claimed and left.
   */
  async run<Job extends ChunkJob>(job: Job, stage: () => void, caller: ChunkRunner, mainThread: boolean, fault: FaultAt | null): Promise<PoolRun> {
    const started = performance.now();
    const slots = this.pool.slots();
    let words: Int32Array<ArrayBufferLike> = new Int32Array(this.memory.buffer);
    let stagedMs = 0;
    let chunksOnCaller = 0;
    let callerMs = 0;
    const outcome = await this.pool.run(
      (slot, id) => this.jobMessage(job, slot, id, fault),
      () => {
        words = this.stage(job, stage);
        const start = performance.now();
        stagedMs = start - started;
        if (mainThread) chunksOnCaller += pullChunks(caller, words, job, 0);
        callerMs += performance.now() - start;
      },
      // Workers still asleep when the caller has run the last chunk are not waited for.
      () => allChunksDone(words, job),
    );
    const start = performance.now();
    chunksOnCaller += finishUndoneChunks(caller, words, job, 0);
    callerMs += performance.now() - start;
    return { slots, stagedMs, callerMs, waitMs: 0, chunksOnCaller, notices: outcome.notices };
  }

  /**
   * Runs a job without giving up the thread, for a caller that must have the results at once (a
   * simulation step): the calling thread runs chunks with the workers, then waits on the shared memory
   * until no worker is inside a chunk (it cannot hear of a worker's death meanwhile: a worker still busy
   * after the straggler wait is taken for dead, with a notice, and its chunks are run here). Check
   * canRunNow first.
   */
  runNow<Job extends ChunkJob>(job: Job, stage: () => void, caller: ChunkRunner, fault: FaultAt | null = null): PoolRun {
    const started = performance.now();
    const slots = this.pool.slots();
    // The workers are told first: they wake up while the batch is staged, and wait for it (awaitJob).
    this.pool.post((slot, id) => this.jobMessage(job, slot, id, fault));
    const words = this.stage(job, stage);
    // A simulated fault (tests only) should land inside a chunk, whatever the scheduling: the workers claim first.
    if (fault !== null && job.chunkCount > 0) awaitFirstClaim(words, job, FAULT_CLAIM_WAIT_MS);
    let start = performance.now();
    const stagedMs = start - started;
    let chunksOnCaller = pullChunks(caller, words, job, 0);
    let callerMs = performance.now() - start;
    const notices: string[] = [];
    const stragglerWaitMs = this.stragglerWaitMs;
    const waitStart = performance.now();
    const stragglers = waitForThreads(words, job, slots, stragglerWaitMs, this.canBlock);
    const waitMs = performance.now() - waitStart;
    if (stragglers.length > 0) {
      for (const slot of stragglers) notices.push(`worker ${slot} did not finish its chunk within ${stragglerWaitMs} ms; the calling thread ran it`);
      this.pool.notices.push(...notices);
    }
    start = performance.now();
    chunksOnCaller += finishUndoneChunks(caller, words, job, 0);
    callerMs += performance.now() - start;
    return { slots, stagedMs, callerMs, waitMs, chunksOnCaller, notices };
  }

  /** Each thread's busy time on a job, ms: [0] the calling thread, then the workers in `slots` order. */
  busyMs(job: ChunkJob, run: PoolRun): number[] {
    const words = new Int32Array(this.memory.buffer);
    return [run.callerMs, ...run.slots.map((slot) => threadBusyMs(words, job, slot))];
  }

  /** A worker's message for a job: the batch, and how long it may wait for the job to be staged. */
  private jobMessage<Job extends ChunkJob>(job: Job, slot: number, id: number, fault: FaultAt | null): PoolJobMessage<Job> {
    return { type: 'job', job: id, batch: job, fault: fault !== null && fault.slot === slot ? fault.kind : null, waitMs: this.stragglerWaitMs };
  }

  /**
   * Stages the batch, clears the chunk records and publishes the job on the cursor word: from then on
   * any thread may claim its chunks. A job that fails here is published with nothing to claim, so that
   * no worker waits for it. Returns a view of the memory as it is after the staging (it may have grown).
   */
  private stage(job: ChunkJob, stage: () => void): Int32Array {
    try {
      stage();
      const words = new Int32Array(this.memory.buffer);
      clearChunkRecords(words, job);
      publishJob(words, job);
      return words;
    } catch (error) {
      publishJob(new Int32Array(this.memory.buffer), job, false);
      throw error;
    }
  }
}

/** Tests only: the worker in `slot` raises this fault on its first claim. */
export interface FaultAt {
  slot: number;
  kind: ChunkFault;
}

/** Where the cursor lies: it opens the memory JavaScript may use. */
function cursorOf(kernel: { heapBase(): number }): number {
  return alignTo(kernel.heapBase(), 64);
}

/** Where the thread records lie: past the cursor. */
function threadRecordsOf(kernel: { heapBase(): number }): number {
  return cursorOf(kernel) + 64;
}
