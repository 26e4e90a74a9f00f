/**
 * The particle kernel's part in a pool job (src/platform/chunkClaims.ts says how the threads share one):
 * the job's items are the entries of a chunk table in the shared memory, one chunk each (i32 kind,
 * parameter block, first, end: see src/platform/assembly/particles/moveParticlesShared.ts), run by a
 * thread's own instance of the shared-memory kernel in that thread's work area, the same on the calling
 * thread and in every worker (particlePoolWorker.ts).
 *
 * Chunk record (CHUNK_RECORD_BYTES, at chunks + 32·c): i32 done (0/1) | the chunk's results (a move's
 * five list ends and counts, the lookups' hits, or the slots the scan found) | padding.
 */

import type { ChunkJob, ChunkRunner } from '../platform/chunkClaims';

export const CHUNK_RECORD_BYTES = 32;
/** Bytes of a chunk table entry. */
export const CHUNK_ENTRY_BYTES = 16;
/** What a chunk table entry runs. */
export const CHUNK_MOVE = 0;
export const CHUNK_ASK = 1;
export const CHUNK_NET = 2;

/** The exports of particlesShared.wasm. */
export interface SharedParticleExports {
  heapBase(): number;
  threadAreaBytes(): number;
  stepBlockBytes(): number;
  askBlockBytes(): number;
  netBlockBytes(): number;
  beginThread(area: number): void;
  runChunk(entry: number, out: number): void;
}

/** One job: its chunks are the entries of the table at `table`; thread slot s works at areas + s·areaStride. */
export interface ParticleChunkJob extends ChunkJob {
  table: number;
  areas: number;
  areaStride: number;
}

/** A thread's instance of the particle kernel, for one job. */
export function particleChunkRunner(kernel: SharedParticleExports, job: ParticleChunkJob): ChunkRunner {
  return {
    begin: (slot) => kernel.beginThread(job.areas + slot * job.areaStride),
    run: (first, end, resultsAt) => {
      // One entry per item (the job's chunk size is 1).
      for (let entry = first; entry < end; entry++) kernel.runChunk(job.table + CHUNK_ENTRY_BYTES * entry, resultsAt);
    },
  };
}
