/**
 * A pool of workers that take part in jobs over one shared memory, with the calling thread working
 * too. It knows nothing of the work: a job is a message per worker (what to do is in shared memory,
 * claimed chunk by chunk with an atomic counter, see chunkClaims.ts) and a function the
 * calling thread runs meanwhile. run() resolves once every worker that got the job has answered it, or
 * died: a worker that throws, exits or is terminated during a job is dropped from the pool with a
 * notice, and the caller finishes whatever it left undone (the job outcome names it).
 *
 * Messages from a worker: { type: 'ready' } after its init message, { type: 'done', job } after a job,
 * { type: 'failed', job, error } when it caught an error (it then takes no more work).
 */

import type { PoolWorkerPort, SpawnPoolWorker } from './workerPort';

/** Workers beyond this are refused (each takes a work area in the shared memory). */
export const MAX_POOL_WORKERS = 63;

export interface PoolJobOutcome {
  /** Workers that died during the job: the chunks they claimed may be undone. */
  lost: number;
  /** What went wrong, in words (also kept in WorkerPool.notices). */
  notices: string[];
}

interface PoolEntry {
  readonly slot: number;
  readonly port: PoolWorkerPort;
  /** The job this worker is doing and how to report its end (null: the worker answered it). */
  waiter: { job: number; settle: (failure: string | null) => void } | null;
  alive: boolean;
}

type WorkerReport = { type: 'ready' } | { type: 'done'; job: number } | { type: 'failed'; job: number; error: string };

function isReport(message: unknown): message is WorkerReport {
  return typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string';
}

export class WorkerPool {
  private readonly entries = new Map<number, PoolEntry>();
  private jobs = 0;
  private running = false;
  /** Every notice so far (workers lost, workers that could not start), oldest first. */
  readonly notices: string[] = [];

  /** `init(slot)`: the first message of the worker in work area `slot` (1 … MAX_POOL_WORKERS). */
  constructor(
    private readonly spawn: SpawnPoolWorker,
    private readonly init: (slot: number) => unknown,
  ) {}

  /** Live workers. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether a job started by run() is under way. */
  get busy(): boolean {
    return this.running;
  }

  /** The work areas of the live workers, in increasing order. */
  slots(): number[] {
    return [...this.entries.keys()].sort((a, b) => a - b);
  }

  /**
   * Starts or stops workers until `count` are live (between 0 and MAX_POOL_WORKERS); one that cannot
   * start is left out with a notice. Not while a job runs.
   */
  async resize(count: number): Promise<void> {
    if (!(Number.isInteger(count) && count >= 0 && count <= MAX_POOL_WORKERS))
      throw new RangeError(`a pool has 0 to ${MAX_POOL_WORKERS} workers, not ${String(count)}`);
    if (this.running) throw new Error('the pool cannot be resized while a job runs');
    const stopping = this.slots().slice(count);
    for (const slot of stopping) await this.stop(slot);
    const starting: Promise<void>[] = [];
    for (let slot = 1; this.entries.size + starting.length < count; slot++) if (!this.entries.has(slot)) starting.push(this.start(slot));
    await Promise.all(starting);
  }

  /**
   * Sends each live worker its job message (`message(slot, job)`), runs `work` on the calling thread,
   * then waits for every worker's answer, unless `finished()` says after `work` that nothing is left
   * (workers that have not answered yet then answer later, and must by then claim nothing of it). A
   * worker that fails is dropped (outcome.lost counts them). If `work` throws, the workers are still
   * waited for before the error is passed on.
   */
  async run(message: (slot: number, job: number) => unknown, work: () => void, finished: () => boolean = () => false): Promise<PoolJobOutcome> {
    if (this.running) throw new Error('one job at a time: the previous job of this pool has not finished');
    this.running = true;
    const job = ++this.jobs;
    const answers: Promise<string | null>[] = [];
    try {
      for (const entry of this.entries.values()) {
        answers.push(new Promise((settle) => (entry.waiter = { job, settle })));
        entry.port.keepAlive(true);
        entry.port.post(message(entry.slot, job));
      }
      let failure: Error | null = null;
      try {
        work();
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
      if (failure === null && finished()) return { lost: 0, notices: [] };
      const failures = (await Promise.all(answers)).filter((answer): answer is string => answer !== null);
      if (failure !== null) throw failure;
      return { lost: failures.length, notices: failures };
    } finally {
      this.running = false;
    }
  }

  /**
   * Sends each live worker a job message (`message(slot, job)`) and returns at once: for a caller that
   * waits on the shared memory itself rather than for answers (a page's main thread cannot wait for
   * messages mid-frame). The answers are ignored; a worker that fails is still dropped with a notice.
   */
  post(message: (slot: number, job: number) => unknown): void {
    if (this.running) throw new Error('one job at a time: the previous job of this pool has not finished');
    const job = ++this.jobs;
    for (const entry of this.entries.values()) entry.port.post(message(entry.slot, job));
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    for (const slot of this.slots()) await this.stop(slot);
  }

  private async start(slot: number): Promise<void> {
    let port: PoolWorkerPort;
    try {
      port = await this.spawn();
    } catch (error) {
      this.notice(`worker ${slot} could not start (${describe(error)})`);
      return;
    }
    const entry: PoolEntry = { slot, port, waiter: null, alive: true };
    const ready = new Promise<string | null>((settle) => (entry.waiter = { job: 0, settle }));
    port.onMessage((report) => {
      if (!isReport(report)) return;
      const waiter = entry.waiter;
      if (report.type === 'failed') this.drop(entry, `worker ${slot} failed: ${report.error}`);
      else if (waiter !== null && (report.type === 'ready' ? waiter.job === 0 : waiter.job === report.job)) {
        entry.waiter = null;
        port.keepAlive(false);
        waiter.settle(null);
      }
    });
    port.onFailure((reason) => this.drop(entry, `worker ${slot} died (${reason})`));
    this.entries.set(slot, entry);
    port.keepAlive(true);
    port.post(this.init(slot));
    await ready;
  }

  /** Takes a failed worker out of the pool and settles what it was doing with the reason. */
  private drop(entry: PoolEntry, reason: string): void {
    if (!entry.alive) return;
    entry.alive = false;
    this.entries.delete(entry.slot);
    this.notice(reason);
    const waiter = entry.waiter;
    entry.waiter = null;
    void entry.port.terminate();
    waiter?.settle(reason);
  }

  private async stop(slot: number): Promise<void> {
    const entry = this.entries.get(slot);
    if (entry === undefined) return;
    entry.alive = false;
    this.entries.delete(slot);
    await entry.port.terminate();
  }

  private notice(text: string): void {
    this.notices.push(text);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
