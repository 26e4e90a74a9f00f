export {
  ParticleSystem,
  PARTICLE_MODES,
  PARTICLE_KERNELS,
  PARTICLE_PHASES,
  DEFAULT_PARTICLE_OPTIONS,
  type ParticleMode,
  type ParticleKernel,
  type ParticleSystemOptions,
  type ParticleFrameCounters,
  type ParticleTotals,
  type ParticlePhaseMs,
  type ParticleSystemState,
} from './particleSystem';
export {
  PARTICLE_EFFECT_KINDS,
  particleEffectPreset,
  effectCapacity,
  validateEffectParams,
  MAX_EFFECT_CAPACITY,
  type ParticleEffectKind,
  type ParticleEffectParams,
} from './effectParams';
export { PlaneCache, MAX_PLANE_CACHE_SIZE, planeIndexOf, type PlaneCacheCounters, type PlaneCacheState } from './planeCache';
export { planeCacheKey, directionCode, cellCoordinate, DIRECTION_CODES, SURFACE_CODE, CACHE_KEYINGS, type CacheKeying } from './cacheKey';
export { ParticleBuffers, NO_PLANE_OFFSET, PLANE_NONE, PLANE_RAY, PLANE_CACHE, PLANE_CONTACT, PLANE_FAR } from './particleBuffers';
export { ParticleEffect } from './particleEffect';
export { planeFromTriangle } from './planeFromTriangle';
export { TerrainHeightSampler } from './terrainHeight';
export { showcaseEffects } from './showcase';
export { PlaneRaycaster, RAY_PICKS, lookBehind, type RayPick } from './raycastPlanes';
export { SurfaceStores } from './surfaceStores';
export { askCache } from './askCache';
export { adoptPlane } from './adoptPlane';
