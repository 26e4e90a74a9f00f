import { sharedKernel } from '../../platform/loadWasm';
import { SimdRayKernel } from './rayKernel';

/** Where the compiled kernel lands (npm run build:wasm; the pre-scripts of test, dev, build and bench run it). */
const KERNEL_URL = new URL('../../platform/generated/rays.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (instance) => new SimdRayKernel(instance));

/**
 * Loads the shared SIMD ray kernel once. Resolves to null, with simdRaysUnavailableReason() saying
 * why, when the engine lacks WebAssembly SIMD or the module cannot be loaded; castRays with kernel
 * 'wasm-simd' then runs the TypeScript walk and says why.
 */
export const loadSimdRays = (): Promise<SimdRayKernel | null> => shared.load();

/** The loaded kernel, or null before loadSimdRays() resolved (or when it is unavailable). */
export const simdRayKernel = (): SimdRayKernel | null => shared.current();
export const simdRaysUnavailableReason = (): string => shared.unavailableReason();
