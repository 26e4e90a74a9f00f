/**
 * The body of a shared-memory pool worker (sharedKernelPool.ts), in a page or a Node worker thread,
 * whatever its kernel: instantiates the kernel's shared-memory build over the pool's memory once, then
 * runs chunks of each job it is told of (chunkClaims.ts), first blocking until the caller has staged it
 * (awaitJob), and answers { type: 'done', job }. An error is caught and answered as
 * { type: 'failed', job, error }; the pool then drops this worker and finishes its chunks.
 */

import { awaitJob, pullChunks, type ChunkFault, type ChunkJob, type ChunkRunner } from './chunkClaims';
import { connectToParent } from './workerPort';

/** The first message to a worker. */
export interface PoolInitMessage {
  type: 'init';
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  slot: number;
}

/** A job: the batch (its chunk job and where its data lie), and how long to wait for it to be staged. */
export interface PoolJobMessage<Job extends ChunkJob = ChunkJob> {
  type: 'job';
  job: number;
  batch: Job;
  fault: ChunkFault | null;
  /** The longest a worker waits for the job to be staged before taking no part in it. */
  waitMs: number;
}

/** Runs this worker: `runnerFor` sets the kernel's exports up for one job's batch. */
export async function servePoolWorker<Exports, Job extends ChunkJob>(runnerFor: (kernel: Exports, batch: Job) => ChunkRunner): Promise<void> {
  const parent = await connectToParent();
  let kernel: Exports | null = null;
  let memory: WebAssembly.Memory | null = null;
  let slot = 0;
  let words: Int32Array | null = null;

  parent.onMessage((data) => {
    const message = data as PoolInitMessage | PoolJobMessage<Job>;
    if (message.type === 'init') {
      slot = message.slot;
      memory = message.memory;
      WebAssembly.instantiate(message.module, { env: { memory: message.memory } }).then(
        (instance) => {
          kernel = instance.exports as unknown as Exports;
          parent.post({ type: 'ready' });
        },
        (error: unknown) => parent.post({ type: 'failed', job: 0, error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    try {
      if (kernel === null || memory === null) throw new Error('a job came before the kernel was ready');
      // The memory may have grown since the last job: views are made afresh over its current buffer.
      if (words === null || words.buffer.byteLength !== memory.buffer.byteLength) words = new Int32Array(memory.buffer);
      const fault = message.fault;
      // The caller may still be staging the batch (it tells the workers first). A job given up on
      // leaves nothing to claim: pullChunks then runs nothing.
      awaitJob(words, message.batch, message.waitMs);
      pullChunks(
        runnerFor(kernel, message.batch),
        words,
        message.batch,
        slot,
        fault === null
          ? undefined
          : () => {
              if (fault === 'exit') parent.exit();
              throw new Error('simulated fault in a worker');
            },
      );
      parent.post({ type: 'done', job: message.job });
    } catch (error) {
      parent.post({ type: 'failed', job: message.job, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
