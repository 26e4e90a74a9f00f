/**
 * Fetches and instantiates a WebAssembly module given by a URL made with
 * `new URL('./file.wasm', import.meta.url)`: Vite turns that pattern into an asset URL in the page, and
 * under Node (Vitest, tsx) it stays a file: URL, read from disk. The only place in the core that asks
 * which environment it runs in.
 */

import { isWasmSimdSupported } from './simdSupport';

interface NodeFileSystem {
  readFile(path: URL): Promise<Uint8Array>;
}

/** Thrown when the compiled module is missing, e.g. `npm run build:wasm` was never run. */
export class WasmModuleMissingError extends Error {
  constructor(url: URL, cause: unknown) {
    super(
      `WebAssembly module ${url.pathname} could not be loaded (${cause instanceof Error ? cause.message : String(cause)}); run \`npm run build:wasm\``,
    );
    this.name = 'WasmModuleMissingError';
  }
}

export async function instantiateWasm(url: URL, imports: WebAssembly.Imports = {}): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  let bytes: Uint8Array | ArrayBuffer;
  try {
    if (url.protocol === 'file:') {
      // A variable specifier keeps bundlers from resolving a Node module for the page.
      const specifier = 'node:fs/promises';
      const fs = (await import(/* @vite-ignore */ specifier)) as NodeFileSystem;
      bytes = await fs.readFile(url);
    } else {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      if (typeof WebAssembly.instantiateStreaming === 'function' && response.headers.get('content-type') === 'application/wasm') {
        return await WebAssembly.instantiateStreaming(response, imports);
      }
      bytes = await response.arrayBuffer();
    }
  } catch (error) {
    throw new WasmModuleMissingError(url, error);
  }
  const source = bytes instanceof Uint8Array ? bytes.slice().buffer : bytes;
  return await WebAssembly.instantiate(source, imports);
}

/** A SIMD kernel loaded once, on first demand, shared by every caller. */
export interface SharedKernel<K> {
  /** Loads it once; null (with unavailableReason() saying why) where SIMD or the module is missing. */
  load(): Promise<K | null>;
  /** The kernel once load() has resolved with one, else null: callers keep their TypeScript path. */
  current(): K | null;
  unavailableReason(): string;
}

/**
 * `make` gets the first instance and the compiled module (for kernels that need an instance, and so a
 * memory, of their own per user).
 */
export function sharedKernel<K>(url: URL, make: (instance: WebAssembly.Instance, module: WebAssembly.Module) => K): SharedKernel<K> {
  let kernel: K | null = null;
  let loading: Promise<K | null> | null = null;
  let reason = '';
  return {
    load() {
      loading ??= (async () => {
        if (!isWasmSimdSupported()) {
          reason = 'this engine has no WebAssembly SIMD';
          return null;
        }
        try {
          const { instance, module } = await instantiateWasm(url);
          kernel = make(instance, module);
        } catch (error) {
          reason = error instanceof Error ? error.message : String(error);
        }
        return kernel;
      })();
      return loading;
    },
    current: () => kernel,
    unavailableReason: () => reason,
  };
}
