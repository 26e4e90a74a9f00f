/**
 * Fetches and instantiates a WebAssembly module given by a URL made with
 * `new URL('./file.wasm', import.meta.url)`: Vite turns that pattern into an asset URL in the page, and
 * under Node (Vitest, tsx) it stays a file: URL, read from disk. The only place in the core that asks
 * which environment it runs in.
 */

interface NodeFileSystem {
  readFile(path: URL): Promise<Uint8Array>;
}

/** Thrown when the compiled module is missing, e.g. `npm run build:wasm` was never run. */
export class WasmModuleMissingError extends Error {
  constructor(url: URL, cause: unknown) {
    super(`WebAssembly module ${url.pathname} could not be loaded (${cause instanceof Error ? cause.message : String(cause)}); run \`npm run build:wasm\``);
    this.name = 'WasmModuleMissingError';
  }
}

export async function instantiateWasm(url: URL, imports: WebAssembly.Imports = {}): Promise<WebAssembly.Instance> {
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
        return (await WebAssembly.instantiateStreaming(response, imports)).instance;
      }
      bytes = await response.arrayBuffer();
    }
  } catch (error) {
    throw new WasmModuleMissingError(url, error);
  }
  const source = bytes instanceof Uint8Array ? bytes.slice().buffer : bytes;
  return (await WebAssembly.instantiate(source, imports)).instance;
}
