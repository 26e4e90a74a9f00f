import { browserWorkerPort } from '../../platform/browserWorkers';
import { spawnNodeWorker } from '../../platform/nodeWorkers';
import type { PoolWorkerPort } from '../../platform/workerPort';

/**
 * Starts one capsule pool worker: a module Web Worker in a page (this exact `new Worker(new URL(…))`
 * form lets Vite bundle the worker), a worker thread in Node.
 */
export function spawnCapsuleWorker(): Promise<PoolWorkerPort> {
  if (typeof Worker === 'function')
    return Promise.resolve(
      browserWorkerPort(new Worker(new URL('./capsulePoolWorker.ts', import.meta.url), { type: 'module', name: 'capsule pool' })),
    );
  return spawnNodeWorker(new URL('./capsulePoolWorker.ts', import.meta.url));
}
