import { describe, expect, it, vi } from 'vitest';
import { WorkerPool } from '../../../src/platform/workerPool';
import type { PoolWorkerPort } from '../../../src/platform/workerPort';

/** A worker in this thread: answers its init at once, and each job as `answer` says. */
function fakeWorker(answer: (job: number) => unknown, seen: unknown[]): PoolWorkerPort {
  let listener: (message: unknown) => void = () => {};
  return {
    post: (message) => {
      seen.push(message);
      const m = message as { type: string; job?: number };
      queueMicrotask(() => listener(m.type === 'init' ? { type: 'ready' } : answer(m.job!)));
    },
    keepAlive: () => undefined,
    onMessage: (l) => (listener = l),
    onFailure: () => undefined,
    terminate: () => Promise.resolve(),
  };
}

describe('WorkerPool.post: jobs for a caller that waits on shared memory itself', () => {
  it('sends each live worker its message and returns at once; answers are ignored, failures still drop the worker', async () => {
    const seen: unknown[][] = [[], []];
    let spawned = 0;
    const pool = new WorkerPool(
      () => {
        const k = spawned++;
        return Promise.resolve(fakeWorker((job) => (k === 1 ? { type: 'failed', job, error: 'boom' } : { type: 'done', job }), seen[k]!));
      },
      (slot) => ({ type: 'init', slot }),
    );
    await pool.resize(2);
    expect(pool.slots()).toEqual([1, 2]);
    expect(pool.busy).toBe(false);
    pool.post((slot, job) => ({ type: 'job', slot, job }));
    expect(seen[0]).toEqual([
      { type: 'init', slot: 1 },
      { type: 'job', slot: 1, job: 1 },
    ]);
    expect(seen[1]).toEqual([
      { type: 'init', slot: 2 },
      { type: 'job', slot: 2, job: 1 },
    ]);
    await vi.waitFor(() => expect(pool.notices).toEqual(['worker 2 failed: boom']));
    expect(pool.slots()).toEqual([1]);
    // A job started by run() afterwards is waited for as usual.
    const outcome = await pool.run(
      (slot, job) => ({ type: 'job', slot, job }),
      () => undefined,
    );
    expect(outcome).toEqual({ lost: 0, notices: [] });
  });

  it('refuses to post while a run() job is under way, and says it is busy', async () => {
    const pool = new WorkerPool(
      () => Promise.resolve(fakeWorker((job) => ({ type: 'done', job }), [])),
      (slot) => ({ type: 'init', slot }),
    );
    await pool.resize(1);
    let busyInside = false;
    const running = pool.run(
      (slot, job) => ({ type: 'job', slot, job }),
      () => {
        busyInside = pool.busy;
        expect(() => pool.post(() => ({}))).toThrow(/one job at a time/);
      },
    );
    await running;
    expect(busyInside).toBe(true);
    expect(pool.busy).toBe(false);
  });
});
