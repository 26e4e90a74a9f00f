/**
 * The core's public face: what a library user, a test, a benchmark or the headless runner imports.
 * Nothing reachable from here imports three.js or touches the DOM.
 */
export { ColliderscopeError, InvalidParameterError, type ErrorLocation } from './errors';
export { Random } from './math/random';
export * from './terrain/index';
export * from './scene/index';
export * from './sim/index';
export * from './field/index';
export * from './query/rayTriangle/index';
export * from './bvh/index';
export * from './query/rays/index';
export * from './broadphase/index';
export * from './particles/index';
export * from './query/capsule/index';
export * from './query/rays/strategies';
export * from './query/boxes/index';
export * from './actors/index';
export { castRaysSimd, loadSimdRays, simdRayKernel, simdRaysUnavailableReason } from './query/rays/simdRays';
export { SimdRayKernel, type SimdCastOptions } from './query/rays/rayKernel';
export { SimdParticleKernel, loadSimdParticles, simdParticleKernel, simdParticlesUnavailableReason } from './particles/particleKernel';
export {
  SimdBoxTriangleKernel,
  loadSimdBoxTriangles,
  simdBoxTriangleKernel,
  simdBoxTrianglesUnavailableReason,
} from './query/boxTriangle/boxTriangleKernel';
export { SimdCapsuleKernel } from './query/capsule/capsuleKernel';
export { loadSimdCapsules, simdCapsuleKernel, simdCapsulesUnavailableReason, sweepCapsulesSimd } from './query/capsule/simdCapsules';
