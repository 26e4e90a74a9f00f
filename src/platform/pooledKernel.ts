import { SharedKernelPool } from './sharedKernelPool';

/**
 * What every pool of one kernel (rays, capsules) offers beside its own casts: its workers, notices,
 * memory, resizing and closing, all of them its SharedKernelPool's.
 */
export abstract class PooledKernel<Exports extends { heapBase(): number }> {
  protected constructor(protected readonly threads: SharedKernelPool<Exports>) {}

  /** The default worker count: hardware threads − 1, at least 1. */
  static defaultWorkers(): number {
    return SharedKernelPool.defaultWorkers();
  }

  /** Live workers (the calling thread works too: threads = workers + 1). */
  get workers(): number {
    return this.threads.workers;
  }

  /** Every notice so far: workers lost or unable to start. */
  get notices(): readonly string[] {
    return this.threads.notices;
  }

  /** Bytes of shared memory in use. */
  get memoryBytes(): number {
    return this.threads.memoryBytes;
  }

  /** Starts or stops workers (0 … MAX_POOL_WORKERS); not while a job runs. */
  setWorkers(count: number): Promise<void> {
    return this.threads.setWorkers(count);
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
