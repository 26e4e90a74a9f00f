/**
 * The core's public face: what a library user, a test, a benchmark or the headless runner imports.
 * Nothing reachable from here imports three.js or touches the DOM.
 */
export { ColliderscopeError, InvalidParameterError, type ErrorLocation } from './errors';
export { Random } from './math/random';
export * from './terrain/index';
export * from './scene/index';
export type { MetricValue, SimSystem, SystemContext, World } from './world/simSystem';
export { TimingRing, summarize, type PhaseStats, type PhaseSeries } from './world/timings';
export * from './sim/index';
export * from './wind/index';
export * from './systems';
export { StateHasher } from './math/hash';
export { createHeadlessSandbox, runFixedSteps, type HeadlessOptions } from './headless';
export { KERNELS, KERNEL_LABELS, DEFAULT_KERNEL, type Kernel } from './platform/kernels';
export * from './field/index';
export * from './query/rayTriangle/index';
export * from './bvh/index';
export * from './meshes/index';
export * from './query/rays/index';
export * from './broadphase/index';
export {
  BroadPhaseSystem,
  BROAD_PHASE_SCENES,
  DEFAULT_BROAD_PHASE_SETTINGS,
  type BroadPhaseSettings,
  type BroadPhaseSceneName,
} from './broadphase/broadPhaseSystem';
export type { SceneBroadPhase } from './broadphase/broadPhaseSection';
export type { SceneParticles } from './particles/particlesSection';
export type { SceneActors } from './actors/actorsSection';
export { BoxProbeSystem, DEFAULT_BOX_PROBE, parseBoxProbe, type BoxProbeSettings, type SceneBoxProbe } from './boxProbe/boxProbeSystem';
export * from './particles/index';
export * from './emitters/index';
export * from './cracks/index';
export * from './query/capsule/index';
export * from './capsules/index';
export * from './query/rays/strategies';
export * from './query/boxes/index';
export * from './actors/index';
export { loadSimdRays, simdRayKernel, simdRaysUnavailableReason } from './query/rays/simdRays';
export { SimdRayKernel, type SimdCastOptions } from './query/rays/rayKernel';
export { RayPool, RayPoolUnavailableError, type RayPoolCast, type RayPoolCastOptions, type RayPoolOptions } from './query/rays/rayPool';
export { SharedMemoryFullError, hardwareThreads, sharedMemoryUnavailableReason } from './platform/sharedMemory';
export { MAX_POOL_WORKERS } from './platform/workerPool';
export {
  SimdParticleKernel,
  type ResidentKernel,
  loadSimdParticles,
  simdParticleKernel,
  simdParticlesUnavailableReason,
} from './particles/particleKernel';
export { ParticlePool, ParticlePoolUnavailableError, type ParticlePoolOptions, type ParticlePoolWork } from './particles/particlePool';
export {
  SimdBoxTriangleKernel,
  loadSimdBoxTriangles,
  simdBoxTriangleKernel,
  simdBoxTrianglesUnavailableReason,
} from './query/boxTriangle/boxTriangleKernel';
export { SimdCapsuleKernel } from './query/capsule/capsuleKernel';
export {
  CapsulePool,
  CapsulePoolUnavailableError,
  type CapsulePoolOptions,
  type CapsulePoolSweep,
  type CapsulePoolSweepOptions,
} from './query/capsule/capsulePool';
export { loadSimdCapsules, simdCapsuleKernel, simdCapsulesUnavailableReason, sweepCapsulesSimd } from './query/capsule/simdCapsules';
export { loadAllKernels } from './loadKernels';
