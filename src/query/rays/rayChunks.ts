/**
 * How the threads of the ray pool share a batch (rayPool.ts): the batch is cut into chunks of
 * consecutive rays; a thread claims the next chunk by moving the cursor word of the shared memory on
 * atomically (Atomics.compareExchange), casts it with its own instance of the shared-memory kernel (castRaysShared.ts), writes the
 * chunk's work counters into the chunk's record and then marks it done. A chunk cast twice (by a thread
 * finishing a dead worker's share) writes the same bytes again, so no chunk is ever lost or counted
 * twice. The same code runs on the calling thread and in every worker (rayPoolWorker.ts).
 *
 * The cursor word carries the cast's tag (its top 11 bits) beside the next chunk (its low 20 bits): a
 * worker that wakes late, after the caller finished the batch alone and began the next one, sees
 * another tag and claims nothing, so the caller never waits for a worker that has nothing to do.
 *
 * Chunk record (CHUNK_RECORD_BYTES, at chunks + 32·c): i32 done (0/1) | i32 × 5 counters: nodes visited,
 * triangles tested, subtrees masked, triangles masked, invalid rays.
 *
 * Thread record (THREAD_RECORD_BYTES, at threads + 16·slot): i32 busy (1 from before a thread's first
 * claim until after its last chunk, even when it throws) | i32 the tag of the cast it last pulled from |
 * i32 microseconds it was busy with it | i32 chunks it cast. A calling thread that cannot wait for
 * messages (a page's main thread) waits on the busy words instead: once none is set, every claimed chunk
 * is either done or abandoned by a thread that failed, and it casts the abandoned ones itself.
 *
 * castNow tells the workers of a cast before staging it: each worker blocks on the cursor word
 * (awaitCast) until the caller publishes the cast there, so the message's trip and the worker's wake-up
 * happen during the staging rather than after it.
 */

export const CHUNK_RECORD_BYTES = 32;
export const THREAD_RECORD_BYTES = 16;
/** Chunks per batch at most (the cursor's low bits), and the tags that tell casts apart (its high bits). */
export const MAX_CHUNKS = (1 << 20) - 1;
export const CAST_TAGS = 1 << 11;

/** The exports of raysShared.wasm. */
export interface SharedRayExports {
  heapBase(): number;
  threadAreaBytes(): number;
  beginCast(
    nodes: number,
    nodeCount: number,
    magnitude: number,
    triangles: number,
    order: number,
    origins: number,
    directions: number,
    tMaxs: number,
    hitT: number,
    hitTriangle: number,
    flags: number,
    masks: number,
    filter: number,
    area: number,
    stack: number,
  ): void;
  castRange(first: number, end: number, counters: number): void;
}

/** One batch, as every thread needs it: addresses in the shared memory and how it is cut. */
export interface RayChunkJob {
  /** beginCast's arguments before the thread's own: nodes … filter (13 numbers). */
  cast: number[];
  count: number;
  chunkSize: number;
  chunkCount: number;
  /** This cast's tag, 0 … CAST_TAGS − 1: the cursor starts at tag << 20. */
  tag: number;
  /** Byte address of the cursor (i32, 4-aligned) and of the first chunk record. */
  cursor: number;
  chunks: number;
  /** Byte address of thread slot 0's record (16-aligned); slot s's is THREAD_RECORD_BYTES·s further. */
  threads: number;
  /** Work area of thread slot s (0: the calling thread) at areas + s·areaStride; its stack follows it. */
  areas: number;
  areaStride: number;
  stackOffset: number;
}

/** A fault to simulate in a worker (the bad-condition tests): throw, or exit, on its first claim. */
export type RayChunkFault = 'throw' | 'exit';

function beginThread(kernel: SharedRayExports, job: RayChunkJob, slot: number): void {
  const area = job.areas + slot * job.areaStride;
  const c = job.cast;
  kernel.beginCast(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!, c[10]!, c[11]!, c[12]! >>> 0, area, area + job.stackOffset);
}

function castChunk(kernel: SharedRayExports, words: Int32Array, job: RayChunkJob, chunk: number): void {
  const first = chunk * job.chunkSize;
  const record = job.chunks + chunk * CHUNK_RECORD_BYTES;
  kernel.castRange(first, Math.min(first + job.chunkSize, job.count), record + 4);
  Atomics.store(words, record >> 2, 1);
}

/** The cursor's value when a cast tagged `tag` begins. */
export const startingCursor = (tag: number): number => tag << 20;

/**
 * The cursor's value before the first cast: the last tag's, with no chunk left, so that a worker told
 * of cast 0 before it is staged waits for it (awaitCast) rather than taking the zeroed word for it.
 */
export const UNUSED_CURSOR = ((CAST_TAGS - 1) << 20) | MAX_CHUNKS;

/**
 * A worker, told of a cast that the caller may still be staging (castNow tells the workers first, so
 * that their wake-up overlaps the staging): blocks on the cursor word until the caller publishes the
 * cast there (Atomics.notify). True once it is published; false when a later cast has begun (this one
 * is over) or after `waitMs` (the caller gave up on it), and the worker then takes no part.
 */
export function awaitCast(words: Int32Array, job: RayChunkJob, waitMs: number): boolean {
  const cursor = job.cursor >> 2;
  const previousTag = (job.tag + CAST_TAGS - 1) % CAST_TAGS;
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
 * The caller: publishes a staged cast to the workers (those blocked in awaitCast wake up), or, when
 * `staged` is false (its staging failed), the cast's tag with no chunk to claim, so nobody waits for it.
 */
export function publishCast(words: Int32Array, job: RayChunkJob, staged = true): void {
  Atomics.store(words, job.cursor >> 2, staged ? startingCursor(job.tag) : startingCursor(job.tag) | MAX_CHUNKS);
  Atomics.notify(words, job.cursor >> 2);
}

/** The next chunk of the job, or −1 when none is left or the cursor belongs to another cast. */
function claimChunk(words: Int32Array, job: RayChunkJob): number {
  const cursor = job.cursor >> 2;
  for (;;) {
    const value = Atomics.load(words, cursor);
    const chunk = value & MAX_CHUNKS;
    if (value >>> 20 !== job.tag || chunk >= job.chunkCount) return -1;
    if (Atomics.compareExchange(words, cursor, value, value + 1) === value) return chunk;
  }
}

/**
 * Claims and casts chunks until none is left; returns how many this thread cast. Its thread record says
 * it is busy meanwhile, then how long it was. `fault` (tests only) is raised right after the first
 * claim, so the claimed chunk is left undone.
 */
export function pullRayChunks(kernel: SharedRayExports, words: Int32Array, job: RayChunkJob, slot: number, fault?: () => void): number {
  const record = (job.threads + slot * THREAD_RECORD_BYTES) >> 2;
  Atomics.store(words, record, 1);
  const start = performance.now();
  let cast = 0;
  try {
    beginThread(kernel, job, slot);
    for (;;) {
      const chunk = claimChunk(words, job);
      fault?.();
      if (chunk < 0) return cast;
      castChunk(kernel, words, job, chunk);
      cast++;
    }
  } finally {
    words[record + 1] = job.tag;
    words[record + 2] = Math.round(1000 * (performance.now() - start));
    words[record + 3] = cast;
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
export function waitForThreads(words: Int32Array, job: RayChunkJob, slots: readonly number[], waitMs: number, canBlock: boolean): number[] {
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
export function threadBusy(words: Int32Array, job: RayChunkJob, slot: number): boolean {
  return Atomics.load(words, (job.threads + slot * THREAD_RECORD_BYTES) >> 2) !== 0;
}

/** The milliseconds the thread in `slot` spent on this job (0 when it took no part: it woke too late, or not yet). */
export function threadBusyMs(words: Int32Array, job: RayChunkJob, slot: number): number {
  const record = (job.threads + slot * THREAD_RECORD_BYTES) >> 2;
  if (Atomics.load(words, record) !== 0 || words[record + 1] !== job.tag) return 0;
  return words[record + 2]! / 1000;
}

/** Whether every chunk of the job is marked done. */
export function allChunksDone(words: Int32Array, job: RayChunkJob): boolean {
  for (let chunk = 0; chunk < job.chunkCount; chunk++) if (Atomics.load(words, (job.chunks + chunk * CHUNK_RECORD_BYTES) >> 2) === 0) return false;
  return true;
}

/** Casts every chunk not marked done (after workers were lost); returns how many. */
export function finishUndoneChunks(kernel: SharedRayExports, words: Int32Array, job: RayChunkJob, slot: number): number {
  beginThread(kernel, job, slot);
  let cast = 0;
  for (let chunk = 0; chunk < job.chunkCount; chunk++) {
    if (Atomics.load(words, (job.chunks + chunk * CHUNK_RECORD_BYTES) >> 2) !== 0) continue;
    castChunk(kernel, words, job, chunk);
    cast++;
  }
  return cast;
}
