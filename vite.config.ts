import { defineConfig } from 'vite';

/**
 * Cross-origin isolation: with these two headers the page gets SharedArrayBuffer, which the worker pool
 * needs (threads sharing one WebAssembly memory). Static hosts that cannot set headers get them from
 * public/isolation-worker.js instead; without either the app runs on one thread and says so.
 */
const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// Scenes live in scenes/ at the top level; the dev server and the build both serve them from /scenes/.
export default defineConfig({
  publicDir: 'public',
  server: { port: 5173, strictPort: false, headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    // Multi-page: the sandbox and the adapter example.
    rollupOptions: { input: { main: 'index.html', raycast: 'examples/raycast.html' } },
  },
  worker: { format: 'es' },
  // Pre-bundle every dependency up front: a dependency discovered on first load makes the dev server
  // reload the page, which loses its state (and breaks browser tests mid-run).
  optimizeDeps: {
    include: ['three', 'three/examples/jsm/controls/OrbitControls.js', 'lil-gui', 'stats.js'],
    // AssemblyScript sources are not the page's modules (they compile to .wasm): not scanned.
    entries: ['index.html', 'examples/*.html', 'src/**/*.ts', '!src/platform/assembly/**'],
  },
});
