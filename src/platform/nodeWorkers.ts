import type { PoolWorkerPort } from './workerPort';

interface NodeWorker {
  postMessage(message: unknown): void;
  on(type: 'message', listener: (message: unknown) => void): void;
  on(type: 'error', listener: (error: Error) => void): void;
  on(type: 'exit', listener: (code: number) => void): void;
  terminate(): Promise<number>;
  ref(): void;
  unref(): void;
}
interface NodeWorkerThreads {
  Worker: new (script: URL | string, options?: { eval?: boolean; name?: string }) => NodeWorker;
}

/**
 * A Node worker thread running the module at `url`, as a pool worker. A TypeScript source (tests and
 * benchmarks run from source) is loaded through tsx, which registers itself in the new thread first.
 * The thread keeps the process alive only while the pool waits for it (keepAlive), so a pool left open
 * never hangs a test run or a script.
 */
export async function spawnNodeWorker(url: URL): Promise<PoolWorkerPort> {
  // A variable specifier keeps bundlers from resolving a Node module for the page.
  const specifier = 'node:worker_threads';
  const { Worker } = (await import(/* @vite-ignore */ specifier)) as NodeWorkerThreads;
  const worker = url.pathname.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`, { eval: true })
    : new Worker(url);
  worker.unref();
  let terminating = false;
  return {
    post: (message) => worker.postMessage(message),
    // A late answer must not let go of a worker being terminated (its exit is awaited).
    keepAlive: (on) => (terminating ? undefined : on ? worker.ref() : worker.unref()),
    onMessage: (listener) => worker.on('message', listener),
    onFailure: (listener) => {
      let told = false;
      const tell = (reason: string): void => {
        if (told || terminating) return;
        told = true;
        listener(reason);
      };
      worker.on('error', (error) => tell(error.message));
      worker.on('exit', (code) => tell(`exited with code ${code}`));
    },
    terminate: async () => {
      terminating = true;
      // An unreferenced worker's exit would not keep the program waiting for it.
      worker.ref();
      await worker.terminate();
    },
  };
}
