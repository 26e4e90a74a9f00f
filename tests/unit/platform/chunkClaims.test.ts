import { describe, expect, it } from 'vitest';
import {
  THREAD_RECORD_BYTES,
  UNUSED_CURSOR,
  awaitFirstClaim,
  awaitJob,
  clearChunkRecords,
  publishJob,
  pullChunks,
  type ChunkJob,
  type ChunkRunner,
} from '../../../src/platform/chunkClaims';

/** A job over `count` items in chunks of 4, its cursor, thread records and chunk records in `words`. */
function jobOf(tag: number, count: number): ChunkJob {
  return { count, chunkSize: 4, chunkCount: Math.ceil(count / 4), tag, cursor: 0, chunks: 64, recordBytes: 8, threads: 16 };
}

/** A runner that logs its set-ups and the ranges it ran. */
function loggingRunner(): ChunkRunner & { log: string[] } {
  const log: string[] = [];
  return { log, begin: (slot) => log.push(`begin ${slot}`), run: (first, end) => log.push(`run ${first}–${end}`) };
}

describe('chunk claims: threads share a batch through the cursor word', () => {
  it('a thread sets up only once it holds a chunk, and runs each chunk of its job once', () => {
    const words = new Int32Array(64);
    const job = jobOf(5, 10);
    words[0] = UNUSED_CURSOR;
    clearChunkRecords(words, job);
    publishJob(words, job);
    const first = loggingRunner();
    expect(pullChunks(first, words, job, 1)).toBe(3);
    expect(first.log).toEqual(['begin 1', 'run 0–4', 'run 4–8', 'run 8–10']);
    // Done marks on every chunk record, the thread's record: not busy, this job's tag, 3 chunks.
    expect([0, 1, 2].map((chunk) => words[(job.chunks + chunk * job.recordBytes) >> 2])).toEqual([1, 1, 1]);
    const record = (job.threads + THREAD_RECORD_BYTES) >> 2;
    expect([words[record], words[record + 1], words[record + 3]]).toEqual([0, 5, 3]);
    // A thread arriving once every chunk is claimed neither sets up nor runs anything.
    const late = loggingRunner();
    expect(pullChunks(late, words, job, 2)).toBe(0);
    expect(late.log).toEqual([]);
  });

  it('a worker that wakes for a job after the next one began touches nothing of either (its layout may lie over another thread’s)', () => {
    const words = new Int32Array(64);
    const old = jobOf(7, 12);
    const next = jobOf(8, 12);
    words[0] = UNUSED_CURSOR;
    clearChunkRecords(words, next);
    publishJob(words, next);
    expect(awaitJob(words, old, 0)).toBe(false);
    const late = loggingRunner();
    expect(pullChunks(late, words, old, 3)).toBe(0);
    expect(late.log).toEqual([]);
    // The next job's chunks are all still there for its own threads.
    const current = loggingRunner();
    expect(pullChunks(current, words, next, 1)).toBe(3);
  });

  it('awaitFirstClaim (tests that simulate a fault) returns once a chunk is claimed, or false after its wait', () => {
    const words = new Int32Array(64);
    const job = jobOf(9, 8);
    words[0] = UNUSED_CURSOR;
    publishJob(words, job);
    expect(awaitFirstClaim(words, job, 1)).toBe(false);
    Atomics.add(words, 0, 1);
    expect(awaitFirstClaim(words, job, 1)).toBe(true);
  });
});
