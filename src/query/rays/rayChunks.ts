/**
 * The ray kernel's part in a pool job (src/platform/chunkClaims.ts says how the threads share one): a
 * chunk is a range of consecutive staged rays, cast by a thread's own instance of the shared-memory
 * kernel (castRaysShared.ts) in that thread's work area, the same on the calling thread and in every
 * worker (rayPoolWorker.ts).
 *
 * Chunk record (CHUNK_RECORD_BYTES, at chunks + 32·c): i32 done (0/1) | i32 × 5 counters: nodes visited,
 * triangles tested, subtrees masked, triangles masked, invalid rays.
 */

import type { ChunkJob, ChunkRunner } from '../../platform/chunkClaims';
import type { RayOrderExports } from './rayOrder';

export const CHUNK_RECORD_BYTES = 32;

/** The exports of raysShared.wasm. */
export interface SharedRayExports extends RayOrderExports {
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

/** One batch of rays, as every thread needs it: how it is cut, and addresses in the shared memory. */
export interface RayChunkJob extends ChunkJob {
  /** beginCast's arguments before the thread's own: nodes … filter (13 numbers). */
  cast: number[];
  /** Work area of thread slot s (0: the calling thread) at areas + s·areaStride; its stack follows it. */
  areas: number;
  areaStride: number;
  stackOffset: number;
}

/** A thread's instance of the ray kernel, for one cast. */
export function rayChunkRunner(kernel: SharedRayExports, job: RayChunkJob): ChunkRunner {
  return {
    begin: (slot) => {
      const area = job.areas + slot * job.areaStride;
      const c = job.cast;
      kernel.beginCast(
        c[0]!,
        c[1]!,
        c[2]!,
        c[3]!,
        c[4]!,
        c[5]!,
        c[6]!,
        c[7]!,
        c[8]!,
        c[9]!,
        c[10]!,
        c[11]!,
        c[12]! >>> 0,
        area,
        area + job.stackOffset,
      );
    },
    run: (first, end, countersAt) => kernel.castRange(first, end, countersAt),
  };
}
