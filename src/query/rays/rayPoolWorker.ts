/**
 * A worker of the ray pool (rayPool.ts), in a page or a Node worker thread: instantiates the
 * shared-memory ray kernel over the pool's memory once, then casts chunks of each batch it is told of
 * (rayChunks.ts), first blocking until the caller has staged it (awaitCast), and answers
 * { type: 'done', job }. An error is caught and answered as { type: 'failed', job, error }; the pool
 * then drops this worker and finishes its chunks.
 */

import { connectToParent } from '../../platform/workerPort';
import { awaitCast, pullRayChunks, type RayChunkFault, type RayChunkJob, type SharedRayExports } from './rayChunks';

interface InitMessage {
  type: 'init';
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  slot: number;
}
interface JobMessage {
  type: 'job';
  job: number;
  batch: RayChunkJob;
  fault: RayChunkFault | null;
  waitMs: number;
}

const parent = await connectToParent();
let kernel: SharedRayExports | null = null;
let memory: WebAssembly.Memory | null = null;
let slot = 0;
let words: Int32Array | null = null;

parent.onMessage((data) => {
  const message = data as InitMessage | JobMessage;
  if (message.type === 'init') {
    slot = message.slot;
    memory = message.memory;
    WebAssembly.instantiate(message.module, { env: { memory: message.memory } }).then(
      (instance) => {
        kernel = instance.exports as unknown as SharedRayExports;
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
    // The caller may still be staging the rays (castNow tells the workers first). A cast given up on
    // leaves nothing to claim: pullRayChunks then casts nothing.
    awaitCast(words, message.batch, message.waitMs);
    pullRayChunks(
      kernel,
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
