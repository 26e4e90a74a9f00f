/**
 * Whether this engine can share memory between threads, and the shared WebAssembly memory itself. In a
 * page, SharedArrayBuffer exists only when it is cross-origin isolated (COOP same-origin + COEP
 * require-corp, see vite.config.ts and public/isolation-worker.js); Node always has it.
 */

import { WASM_PAGE_BYTES } from './moduleMemory';

/** Null when threads can share memory here; otherwise why not, in words for the HUD. */
export function sharedMemoryUnavailableReason(): string | null {
  const scope = globalThis as { crossOriginIsolated?: boolean };
  if (scope.crossOriginIsolated === false) return 'page not cross-origin isolated';
  if (typeof SharedArrayBuffer !== 'function' || typeof Atomics !== 'object') return 'this engine has no SharedArrayBuffer';
  return null;
}

/** Hardware threads of this machine (navigator.hardwareConcurrency, or Node's os), at least 1. */
export function hardwareThreads(): number {
  const scope = globalThis as { navigator?: { hardwareConcurrency?: number } };
  const count = scope.navigator?.hardwareConcurrency;
  return typeof count === 'number' && count >= 1 ? Math.floor(count) : 1;
}

/** Thrown when the shared memory cannot hold what it is asked to (it cannot move, so it has a maximum). */
export class SharedMemoryFullError extends Error {
  readonly requestedBytes: number;
  readonly maximumBytes: number;
  constructor(requestedBytes: number, maximumBytes: number, cause: unknown) {
    super(
      `the shared memory cannot grow to ${requestedBytes} bytes: its maximum is ${maximumBytes} bytes (${cause instanceof Error ? cause.message : String(cause)}); ` +
        'cast fewer rays at once, use a smaller terrain, or create the pool with a larger maximumMemoryBytes',
    );
    this.name = 'SharedMemoryFullError';
    this.requestedBytes = requestedBytes;
    this.maximumBytes = maximumBytes;
  }
}

/** A shared memory of `initialPages` that may grow to `maximumPages` (64 KiB each). */
export function createSharedMemory(initialPages: number, maximumPages: number): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: initialPages, maximum: maximumPages, shared: true });
}

/** Grows a shared memory to hold `bytes` bytes, or throws SharedMemoryFullError changing nothing. */
export function growSharedMemoryTo(memory: WebAssembly.Memory, bytes: number, maximumPages: number): void {
  const missing = bytes - memory.buffer.byteLength;
  if (missing <= 0) return;
  const pages = Math.ceil(missing / WASM_PAGE_BYTES);
  const maximumBytes = maximumPages * WASM_PAGE_BYTES;
  if (memory.buffer.byteLength / WASM_PAGE_BYTES + pages > maximumPages) throw new SharedMemoryFullError(bytes, maximumBytes, 'over the maximum');
  try {
    memory.grow(pages);
  } catch (error) {
    throw new SharedMemoryFullError(bytes, maximumBytes, error);
  }
}

/**
 * Whether this thread may block on Atomics.wait: workers and Node may, a page's main thread may not
 * (Atomics.wait throws there), so code that waits on shared memory spins on such a thread instead.
 */
export function threadCanBlock(): boolean {
  try {
    // The word holds 0, not 1: a thread allowed to wait returns 'not-equal' at once.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
}
