import { browserWorkerPort } from '../platform/browserWorkers';
import { spawnNodeWorker } from '../platform/nodeWorkers';
import type { PoolWorkerPort } from '../platform/workerPort';

/**
 * Starts one particle pool worker: a module Web Worker in a page (this exact `new Worker(new URL(…))`
 * form lets Vite bundle the worker), a worker thread in Node.
 */
export function spawnParticleWorker(): Promise<PoolWorkerPort> {
  if (typeof Worker === 'function')
    return Promise.resolve(
      browserWorkerPort(new Worker(new URL('./particlePoolWorker.ts', import.meta.url), { type: 'module', name: 'particle pool' })),
    );
  return spawnNodeWorker(new URL('./particlePoolWorker.ts', import.meta.url));
}
