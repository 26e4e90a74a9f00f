import type { PoolWorkerPort } from './workerPort';

/** A Web Worker as a pool worker. Its 'error' event (an uncaught error) counts as its death. */
export function browserWorkerPort(worker: Worker): PoolWorkerPort {
  return {
    post: (message) => worker.postMessage(message),
    keepAlive: () => undefined,
    onMessage: (listener) => worker.addEventListener('message', (event: MessageEvent<unknown>) => listener(event.data)),
    onFailure: (listener) => {
      worker.addEventListener('error', (event: ErrorEvent) => listener(event.message || 'an uncaught error'), { once: true });
      worker.addEventListener('messageerror', () => listener('a message it could not read'), { once: true });
    },
    terminate: () => {
      worker.terminate();
      return Promise.resolve();
    },
  };
}
