import { loadWasmBuilder } from './bvh/wasmBuilder';
import { loadWasmRefit } from './bvh/wasmRefit';
import { loadSimdParticles } from './particles/particleKernel';
import { loadSimdBoxTriangles } from './query/boxTriangle/boxTriangleKernel';
import { loadSimdCapsules } from './query/capsule/simdCapsules';
import { loadSimdRays } from './query/rays/simdRays';
import { loadWasmHeights } from './terrain/wasmHeights';

/**
 * Loads every WebAssembly kernel the systems and builders use, as the page does, so the runner, the
 * soak run and the tests run the same code as the page. A kernel that cannot load leaves its callers on
 * their TypeScript twins, which report it; this never throws for that.
 */
export async function loadAllKernels(): Promise<void> {
  await Promise.all([
    loadSimdRays(),
    loadSimdParticles(),
    loadSimdCapsules(),
    loadSimdBoxTriangles(),
    loadWasmBuilder(),
    loadWasmRefit(),
    loadWasmHeights(),
  ]);
}
