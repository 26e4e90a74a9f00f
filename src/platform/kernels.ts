/**
 * Which code runs a hot loop. Every system spells its kernel option this way, defaults to the fastest
 * correct one, falls back to TypeScript where WebAssembly SIMD cannot run, and reports the kernel that
 * actually ran (the two give the same results, so switching is only a matter of speed).
 */
export const KERNELS = ['typescript', 'wasm-simd'] as const;
export type Kernel = (typeof KERNELS)[number];

export const DEFAULT_KERNEL: Kernel = 'wasm-simd';

export const KERNEL_LABELS: Readonly<Record<Kernel, string>> = {
  typescript: 'TypeScript',
  'wasm-simd': 'WebAssembly SIMD',
};
