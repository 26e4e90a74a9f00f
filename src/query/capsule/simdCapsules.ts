import type { BVH } from '../../bvh/buildBVH';
import { sharedKernel } from '../../platform/loadWasm';
import { SimdCapsuleKernel } from './capsuleKernel';
import type { CapsuleBatch, CapsuleHits, SweepCounters, SweepOptions } from './capsuleTypes';
import { sweepCapsules } from './sweepCapsules';

/** Where the compiled kernel lands (npm run build:wasm; the pre-scripts of test, dev, build and bench run it). */
const KERNEL_URL = new URL('../../platform/generated/capsule.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (instance) => new SimdCapsuleKernel(instance));

/**
 * Loads the shared SIMD capsule sweep once. Resolves to null, with simdCapsulesUnavailableReason()
 * saying why, when the engine lacks WebAssembly SIMD or the module cannot be loaded; callers then keep
 * the TypeScript sweep.
 */
export const loadSimdCapsules = (): Promise<SimdCapsuleKernel | null> => shared.load();

/** The loaded kernel, or null before loadSimdCapsules() resolved (or when it is unavailable). */
export const simdCapsuleKernel = (): SimdCapsuleKernel | null => shared.current();
export const simdCapsulesUnavailableReason = (): string => shared.unavailableReason();

/**
 * sweepCapsules through the SIMD kernel when it is loaded, through the TypeScript sweep otherwise: the
 * same buffers, options, conventions and contacts either way.
 */
export function sweepCapsulesSimd(bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits, options: Partial<SweepOptions> = {}): SweepCounters {
  const kernel = shared.current();
  if (kernel !== null) return kernel.sweep(bvh, capsules, hits, options);
  return sweepCapsules(bvh, capsules, hits, options);
}
