import { defineConfig } from 'vite';

// The library build (npm run build:lib): the core and the three.js adapter as ES modules in dist/lib,
// three left to the user; the WebAssembly kernels inlined into the bundles (library mode inlines assets).
// Types: tsconfig.lib.json.
export default defineConfig({
  publicDir: false,
  // The ray pool's worker awaits its parent at the top level: module workers only.
  worker: { format: 'es' },
  build: {
    outDir: 'dist/lib',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: { core: 'src/core.ts', three: 'src/adapters/three/index.ts' },
      formats: ['es'],
    },
    rollupOptions: { external: [/^three($|\/)/] },
  },
});
