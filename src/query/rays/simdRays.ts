import type { BVH } from '../../bvh/buildBVH';
import { MASK_ALL } from '../../bvh/collisionMasks';
import { sharedKernel } from '../../platform/loadWasm';
import { castRays } from './castRays';
import { SimdRayKernel, type SimdCastOptions } from './rayKernel';
import type { QueryCounters } from '../counters';
import type { RayBatch, RayHits } from './rayTypes';

/** Where the compiled kernel lands (npm run build:wasm; the pre-scripts of test, dev, build and bench run it). */
const KERNEL_URL = new URL('../../platform/generated/rays.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (instance) => new SimdRayKernel(instance));

/**
 * Loads the shared SIMD ray kernel once. Resolves to null, with simdRaysUnavailableReason() saying
 * why, when the engine lacks WebAssembly SIMD or the module cannot be loaded; callers then keep the
 * TypeScript path.
 */
export const loadSimdRays = (): Promise<SimdRayKernel | null> => shared.load();

/** The loaded kernel, or null before loadSimdRays() resolved (or when it is unavailable). */
export const simdRayKernel = (): SimdRayKernel | null => shared.current();
export const simdRaysUnavailableReason = (): string => shared.unavailableReason();

/**
 * castRays through the SIMD kernel when it is loaded, through the TypeScript walk otherwise: the same
 * buffers, conventions and results either way (closest or any hit over the quantized layout).
 */
export function castRaysSimd(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<SimdCastOptions> = {}): QueryCounters {
  const kernel = shared.current();
  if (kernel !== null) return kernel.cast(bvh, rays, hits, options);
  return castRays(bvh, rays, hits, {
    layout: 'quantized',
    mode: options.mode ?? 'closest',
    doubleSided: options.doubleSided ?? false,
    filter: options.filter ?? MASK_ALL,
  });
}
