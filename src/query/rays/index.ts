export { castRays, isValidRay, wasmSimdRefusal } from './castRays';
export { castRaysBruteForce } from './bruteForce';
export { traceRay, type RayTrace } from './traceRay';
export { DEFAULT_CAST_OPTIONS, resolveCastOptions } from './castOptions';
export {
  createAllHitsList,
  type AllHitsList,
  type CastOptions,
  type RayCastReport,
  type RayBatch,
  type RayHits,
  type RayQueryMode,
} from './rayTypes';
export { createQueryCounters, formatQueryCounters, QUERY_COUNTER_NAMES, type QueryCounters } from '../counters';
