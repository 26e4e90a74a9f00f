/**
 * The two ends of a pool worker, the same in a page (Web Worker) and in Node (worker_threads): the
 * parent holds a PoolWorkerPort per worker, the worker a ParentPort. Messages are structured clones
 * (a WebAssembly.Module and a shared WebAssembly.Memory pass as themselves).
 */

export interface PoolWorkerPort {
  post(message: unknown): void;
  /** Whether the worker keeps the program running (Node: while the pool waits for it; pages: no-op). */
  keepAlive(on: boolean): void;
  /** Every message the worker sends. */
  onMessage(listener: (message: unknown) => void): void;
  /** Called once if the worker dies (an uncaught error, or it exits) with what is known of why. */
  onFailure(listener: (reason: string) => void): void;
  terminate(): Promise<void>;
}

export type SpawnPoolWorker = () => Promise<PoolWorkerPort>;

/** The worker's end: the messages from its parent, and a way out (used to simulate a killed worker). */
export interface ParentPort {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  exit(): void;
}

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

interface NodeWorkerThreads {
  parentPort: { postMessage(message: unknown): void; on(type: 'message', listener: (message: unknown) => void): void } | null;
}

/** Inside a worker: its parent, whether the worker is a Web Worker or a Node worker thread. */
export async function connectToParent(): Promise<ParentPort> {
  const scope = globalThis as unknown as Partial<WorkerScope> & { WorkerGlobalScope?: unknown };
  if (scope.WorkerGlobalScope !== undefined) {
    const self = scope as WorkerScope;
    return {
      post: (message) => self.postMessage(message),
      onMessage: (listener) => self.addEventListener('message', (event) => listener(event.data)),
      exit: () => self.close(),
    };
  }
  // A variable specifier keeps bundlers from resolving a Node module for the page.
  const specifier = 'node:worker_threads';
  const { parentPort } = (await import(/* @vite-ignore */ specifier)) as NodeWorkerThreads;
  if (parentPort === null) throw new Error('connectToParent() runs inside a worker only');
  const processExit = (globalThis as unknown as { process: { exit(code: number): never } }).process;
  return {
    post: (message) => parentPort.postMessage(message),
    onMessage: (listener) => parentPort.on('message', listener),
    exit: () => processExit.exit(1),
  };
}
