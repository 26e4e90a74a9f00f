/**
 * The capsule kernel's part in a pool job (src/platform/chunkClaims.ts says how the threads share one):
 * a chunk is a range of consecutive staged capsules, swept by a thread's own instance of the
 * shared-memory kernel (src/platform/assembly/capsule/sweepCapsulesShared.ts) in that thread's work
 * area, the same on the calling thread and in every worker (capsulePoolWorker.ts).
 *
 * Chunk record (CHUNK_RECORD_BYTES, at chunks + 80·c): i32 done (0/1) | the chunk's KERNEL_COUNTERS
 * (capsuleStaging.ts) | padding.
 */

import type { ChunkJob, ChunkRunner } from '../../platform/chunkClaims';

export const CHUNK_RECORD_BYTES = 80;

/** The exports of capsuleShared.wasm. */
export interface SharedCapsuleExports {
  heapBase(): number;
  threadAreaBytes(): number;
  beginSweep(
    nodes: number,
    nodeCount: number,
    magnitude: number,
    triangles: number,
    references: number,
    masks: number,
    start: number,
    end: number,
    motion: number,
    radius: number,
    toi: number,
    triangle: number,
    point: number,
    normal: number,
    flags: number,
    referenceMasks: number,
    nodeMasks: number,
    filter: number,
    area: number,
    stack: number,
  ): void;
  sweepChunk(first: number, end: number, counters: number): void;
}

/** One batch of capsules, as every thread needs it: how it is cut, and addresses in the shared memory. */
export interface CapsuleChunkJob extends ChunkJob {
  /** beginSweep's arguments before the thread's own: nodes … filter (18 numbers). */
  sweep: number[];
  /** Work area of thread slot s (0: the calling thread) at areas + s·areaStride; its stack follows it. */
  areas: number;
  areaStride: number;
  stackOffset: number;
}

/** A thread's instance of the capsule kernel, for one batch. */
export function capsuleChunkRunner(kernel: SharedCapsuleExports, job: CapsuleChunkJob): ChunkRunner {
  return {
    begin: (slot) => {
      const area = job.areas + slot * job.areaStride;
      const s = job.sweep;
      kernel.beginSweep(
        s[0]!,
        s[1]!,
        s[2]!,
        s[3]!,
        s[4]!,
        s[5]!,
        s[6]!,
        s[7]!,
        s[8]!,
        s[9]!,
        s[10]!,
        s[11]!,
        s[12]!,
        s[13]!,
        s[14]!,
        s[15]!,
        s[16]!,
        s[17]! >>> 0,
        area,
        area + job.stackOffset,
      );
    },
    run: (first, end, countersAt) => kernel.sweepChunk(first, end, countersAt),
  };
}
