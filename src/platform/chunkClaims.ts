/**
 * How the threads of a shared-memory pool (sharedKernelPool.ts) share a batch: the batch is cut into
 * chunks of consecutive items; a thread claims the next chunk by moving the cursor word of the shared
 * memory on atomically (Atomics.compareExchange), runs it with its own instance of a shared-memory kernel
 * (a ChunkRunner: the ray kernel, the capsule kernel…), which writes the chunk's work counters into the
 * chunk's record, and then marks it done. A chunk run twice (by a thread finishing a dead worker's share)
 * writes the same bytes again, so no chunk is ever lost or counted twice. The same code runs on the
 * calling thread and in every worker (poolWorkerLoop.ts).
 *
 * The cursor word carries the job's tag (its top 11 bits) beside the next chunk (its low 20 bits): a
 * worker that wakes late, after the caller finished the batch alone and began the next one, sees
 * another tag and claims nothing, so the caller never waits for a worker that has nothing to do.
 *
 * Chunk record (job.recordBytes, at chunks + recordBytes·c): i32 done (0/1), then the kernel's counters.
 *
 * Thread record (THREAD_RECORD_BYTES, at threads + 16·slot): i32 busy (1 from before a thread's first
 * claim until after its last chunk, even when it throws) | i32 the tag of the job it last pulled from |
 * i32 microseconds it was busy with it | i32 chunks it ran. A calling thread that cannot wait for
 * messages (a page's main thread) waits on the busy words instead: once none is set, every claimed chunk
 * is either done or abandoned by a thread that failed, and it runs the abandoned ones itself.
 *
 * The caller tells the workers of a job before staging it: each worker blocks on the cursor word
 * (awaitJob) until the caller publishes the job there, so the message's trip and the worker's wake-up
 * happen during the staging rather than after it.
 */

export const THREAD_RECORD_BYTES = 16;
/** Chunks per batch at most (the cursor's low bits), and the tags that tell jobs apart (its high bits). */
export const MAX_CHUNKS = (1 << 20) - 1;
export const JOB_TAGS = 1 << 11;

/** One batch, as every thread needs it to claim chunks (a kernel's job adds where its data lies). */
export interface ChunkJob {
  count: number;
  chunkSize: number;
  chunkCount: number;
  /** This job's tag, 0 … JOB_TAGS − 1: the cursor starts at tag << 20. */
  tag: number;
  /** Byte address of the cursor (i32, 4-aligned) and of the first chunk record. */
  cursor: number;
  chunks: number;
  /** Bytes per chunk record (a multiple of 4): the done word, then the kernel's counters. */
  recordBytes: number;
  /** Byte address of thread slot 0's record (16-aligned); slot s's is THREAD_RECORD_BYTES·s further. */
  threads: number;
}

/** A thread's own instance of a shared-memory kernel, set up for one job. */
export interface ChunkRunner {
  /** Sets the instance up for the job, in the work area of thread slot `slot` (0: the calling thread);
   *  called once the thread holds a chunk of the job (it may write to its work area). */
  begin(slot: number): void;
  /** Runs the items [first, end), writing their results and the range's counters at `countersAt`. */
  run(first: number, end: number, countersAt: number): void;
}

/** A fault to simulate in a worker (the bad-condition tests): throw, or exit, on its first claim. */
export type ChunkFault = 'throw' | 'exit';

function runChunk(runner: ChunkRunner, words: Int32Array, job: ChunkJob, chunk: number): void {
  const first = chunk * job.chunkSize;
  const record = job.chunks + chunk * job.recordBytes;
  runner.run(first, Math.min(first + job.chunkSize, job.count), record + 4);
  Atomics.store(words, record >> 2, 1);
}

/** The cursor's value when a job tagged `tag` begins. */
export const startingCursor = (tag: number): number => tag << 20;

/**
 * The cursor's value before the first job: the last tag's, with no chunk left, so that a worker told
 * of job 0 before it is staged waits for it (awaitJob) rather than taking the zeroed word for it.
 */
export const UNUSED_CURSOR = ((JOB_TAGS - 1) << 20) | MAX_CHUNKS;

/** How a batch of `count` items is cut for `threads` threads: chunks of `min` to `max` items, about `perThread` chunks per thread or more. */
export function chunkSizeFor(count: number, threads: number, min: number, max: number, perThread: number): number {
  return Math.max(min, Math.min(max, Math.ceil(count / (perThread * threads))), Math.ceil(count / MAX_CHUNKS));
}

/**
 * A worker, told of a job that the caller may still be staging: blocks on the cursor word until the
 * caller publishes the job there (Atomics.notify). True once it is published; false when a later job
 * has begun (this one is over) or after `waitMs` (the caller gave up on it), and the worker then takes
 * no part.
 */
export function awaitJob(words: Int32Array, job: ChunkJob, waitMs: number): boolean {
  const cursor = job.cursor >> 2;
  const previousTag = (job.tag + JOB_TAGS - 1) % JOB_TAGS;
  const deadline = performance.now() + waitMs;
  for (;;) {
    const value = Atomics.load(words, cursor);
    const tag = value >>> 20;
    if (tag === job.tag) return true;
    if (tag !== previousTag) return false;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(words, cursor, value, left);
  }
}

/**
 * The caller: publishes a staged job to the workers (those blocked in awaitJob wake up), or, when
 * `staged` is false (its staging failed), the job's tag with no chunk to claim, so nobody waits for it.
 */
export function publishJob(words: Int32Array, job: ChunkJob, staged = true): void {
  Atomics.store(words, job.cursor >> 2, staged ? startingCursor(job.tag) : startingCursor(job.tag) | MAX_CHUNKS);
  Atomics.notify(words, job.cursor >> 2);
}

/** Clears the job's chunk records (none done, no counters) before it is published. */
export function clearChunkRecords(words: Int32Array, job: ChunkJob): void {
  words.fill(0, job.chunks >> 2, (job.chunks + job.recordBytes * job.chunkCount) >> 2);
}

/** The next chunk of the job, or −1 when none is left or the cursor belongs to another job. */
function claimChunk(words: Int32Array, job: ChunkJob): number {
  const cursor = job.cursor >> 2;
  for (;;) {
    const value = Atomics.load(words, cursor);
    const chunk = value & MAX_CHUNKS;
    if (value >>> 20 !== job.tag || chunk >= job.chunkCount) return -1;
    if (Atomics.compareExchange(words, cursor, value, value + 1) === value) return chunk;
  }
}

/**
 * Tests only: waits, spinning, until some thread has claimed the job's first chunk or `waitMs` has
 * passed. A caller that simulates a fault in a worker lets that worker claim first, so that the fault
 * lands inside a chunk however the threads happen to be scheduled.
 */
export function awaitFirstClaim(words: Int32Array, job: ChunkJob, waitMs: number): boolean {
  const cursor = job.cursor >> 2;
  const deadline = performance.now() + waitMs;
  while (Atomics.load(words, cursor) === startingCursor(job.tag)) if (performance.now() > deadline) return false;
  return true;
}

/**
 * Claims and runs chunks until none is left; returns how many this thread ran. Its thread record says
 * it is busy meanwhile, then how long it was. `fault` (tests only) is raised right after the first
 * claim, so the claimed chunk is left undone.
 */
export function pullChunks(runner: ChunkRunner, words: Int32Array, job: ChunkJob, slot: number, fault?: () => void): number {
  const record = (job.threads + slot * THREAD_RECORD_BYTES) >> 2;
  Atomics.store(words, record, 1);
  const start = performance.now();
  let ran = 0;
  try {
    for (;;) {
      const chunk = claimChunk(words, job);
      fault?.();
      if (chunk < 0) return ran;
      // Set up only once a chunk is held: the job cannot end meanwhile. A thread that woke after its
      // job ended must not touch the memory by that job's layout (a kernel's set-up may clear its work
      // area, which the next job may have placed elsewhere, over another thread's).
      if (ran === 0) runner.begin(slot);
      runChunk(runner, words, job, chunk);
      ran++;
    }
  } finally {
    words[record + 1] = job.tag;
    words[record + 2] = Math.round(1000 * (performance.now() - start));
    words[record + 3] = ran;
    Atomics.store(words, record, 0);
    // A caller that may block waits on this word (waitForThreads).
    Atomics.notify(words, record);
  }
}

/**
 * The caller, once it has no chunk left to claim: waits until no thread in `slots` is inside a chunk,
 * blocking on their busy words where this thread may block (`canBlock`), spinning elsewhere (a page's
 * main thread); returns the slots still busy after `waitMs` (taken for dead), none when all finished.
 */
export function waitForThreads(words: Int32Array, job: ChunkJob, slots: readonly number[], waitMs: number, canBlock: boolean): number[] {
  const start = performance.now();
  for (const slot of slots) {
    const record = (job.threads + slot * THREAD_RECORD_BYTES) >> 2;
    for (;;) {
      if (Atomics.load(words, record) === 0) break;
      const left = waitMs - (performance.now() - start);
      if (left <= 0) return slots.filter((s) => threadBusy(words, job, s));
      if (canBlock) Atomics.wait(words, record, 1, left);
    }
  }
  return [];
}

/** Whether the thread in `slot` is between its first claim and its last chunk. */
export function threadBusy(words: Int32Array, job: Pick<ChunkJob, 'threads'>, slot: number): boolean {
  return Atomics.load(words, (job.threads + slot * THREAD_RECORD_BYTES) >> 2) !== 0;
}

/** The milliseconds the thread in `slot` spent on this job (0 when it took no part: it woke too late, or not yet). */
export function threadBusyMs(words: Int32Array, job: ChunkJob, slot: number): number {
  const record = (job.threads + slot * THREAD_RECORD_BYTES) >> 2;
  if (Atomics.load(words, record) !== 0 || words[record + 1] !== job.tag) return 0;
  return words[record + 2]! / 1000;
}

/** Whether every chunk of the job is marked done. */
export function allChunksDone(words: Int32Array, job: ChunkJob): boolean {
  for (let chunk = 0; chunk < job.chunkCount; chunk++) if (Atomics.load(words, (job.chunks + chunk * job.recordBytes) >> 2) === 0) return false;
  return true;
}

/** Runs every chunk not marked done (after workers were lost); returns how many. */
export function finishUndoneChunks(runner: ChunkRunner, words: Int32Array, job: ChunkJob, slot: number): number {
  runner.begin(slot);
  let ran = 0;
  for (let chunk = 0; chunk < job.chunkCount; chunk++) {
    if (Atomics.load(words, (job.chunks + chunk * job.recordBytes) >> 2) !== 0) continue;
    runChunk(runner, words, job, chunk);
    ran++;
  }
  return ran;
}

/** Sums counter `index` (0: the first after the done word) over the job's chunk records. */
export function sumChunkCounter(words: Int32Array, job: ChunkJob, index: number): number {
  let sum = 0;
  for (let c = 0, at = (job.chunks >> 2) + 1 + index; c < job.chunkCount; c++, at += job.recordBytes >> 2) sum += words[at]!;
  return sum;
}
