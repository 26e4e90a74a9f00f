export { castRays, isValidRay } from './castRays';
export { castRaysBruteForce } from './bruteForce';
export { traceRay, type RayTrace } from './traceRay';
export { DEFAULT_CAST_OPTIONS } from './castOptions';
export { createAllHitsList, type AllHitsList, type CastOptions, type RayBatch, type RayCounters, type RayHits, type RayQueryMode } from './rayTypes';
