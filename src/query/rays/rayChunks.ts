/**
 * How the threads of the ray pool share a batch (rayPool.ts): the batch is cut into chunks of
 * consecutive rays; a thread claims the next chunk with Atomics.add on the cursor word of the shared
 * memory, casts it with its own instance of the shared-memory kernel (castRaysShared.ts), writes the
 * chunk's work counters into the chunk's record and then marks it done. A chunk cast twice (by a thread
 * finishing a dead worker's share) writes the same bytes again, so no chunk is ever lost or counted
 * twice. The same code runs on the calling thread and in every worker (rayPoolWorker.ts).
 *
 * Chunk record (CHUNK_RECORD_BYTES, at chunks + 32·c): i32 done (0/1) | i32 × 5 counters: nodes visited,
 * triangles tested, subtrees masked, triangles masked, invalid rays.
 */

export const CHUNK_RECORD_BYTES = 32;

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
  /** Byte address of the cursor (i32, 4-aligned) and of the first chunk record. */
  cursor: number;
  chunks: number;
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

/**
 * Claims and casts chunks until none is left; returns how many this thread cast. `fault` (tests only)
 * is raised at the first claim, after the cursor has moved, so the claimed chunk is left undone.
 */
export function pullRayChunks(kernel: SharedRayExports, words: Int32Array, job: RayChunkJob, slot: number, fault?: () => void): number {
  beginThread(kernel, job, slot);
  const cursor = job.cursor >> 2;
  let cast = 0;
  for (;;) {
    const chunk = Atomics.add(words, cursor, 1);
    fault?.();
    if (chunk >= job.chunkCount) return cast;
    castChunk(kernel, words, job, chunk);
    cast++;
  }
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
