import type { BVH } from '../bvh/buildBVH';
import { castRays } from '../query/rays/castRays';
import type { RayBatch, RayCounters, RayHits } from '../query/rays/rayTypes';
import { instantiateWasm } from './loadWasm';
import { SimdRayKernel, type SimdCastOptions } from './rayKernel';
import { isWasmSimdSupported } from './simdSupport';

/** Where the compiled kernel lands (npm run build:wasm; the pre-scripts of test, dev, build and bench run it). */
const KERNEL_URL = new URL('./generated/rays.wasm', import.meta.url);

let kernel: SimdRayKernel | null = null;
let loading: Promise<SimdRayKernel | null> | null = null;
let unavailableReason = '';

/**
 * Loads the shared SIMD ray kernel once. Resolves to null, with simdRaysUnavailableReason() saying
 * why, when the engine lacks WebAssembly SIMD or the module cannot be loaded; callers then keep the
 * TypeScript path.
 */
export function loadSimdRays(): Promise<SimdRayKernel | null> {
  if (loading === null) {
    loading = (async () => {
      if (!isWasmSimdSupported()) {
        unavailableReason = 'this browser has no WebAssembly SIMD';
        return null;
      }
      try {
        kernel = new SimdRayKernel(await instantiateWasm(KERNEL_URL));
      } catch (error) {
        unavailableReason = error instanceof Error ? error.message : String(error);
      }
      return kernel;
    })();
  }
  return loading;
}

/** The loaded kernel, or null before loadSimdRays() resolved (or when it is unavailable). */
export const simdRayKernel = (): SimdRayKernel | null => kernel;
export const simdRaysUnavailableReason = (): string => unavailableReason;

/**
 * castRays through the SIMD kernel when it is loaded, through the TypeScript walk otherwise: the same
 * buffers, conventions and results either way (closest or any hit over the quantized layout).
 */
export function castRaysSimd(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<SimdCastOptions> = {}): RayCounters {
  if (kernel !== null) return kernel.cast(bvh, rays, hits, options);
  return castRays(bvh, rays, hits, { layout: 'quantized', mode: options.mode ?? 'closest', doubleSided: options.doubleSided ?? false });
}
