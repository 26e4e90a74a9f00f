export {
  RayEmitterSystem,
  FIRST_PAIRS,
  RECENT_TRACES,
  WARMUP_TRACES,
  parallelEfficiency,
  poolTakes,
  rayEmittersNeedPreparation,
  simdRefusal,
  type TraceResult,
} from './rayEmitterSystem';
export {
  DEFAULT_RAY_EMITTERS,
  LEAF_TRIANGLES,
  SWEEP_DEGREES_PER_SECOND,
  batchSizeOf,
  parseRayEmitters,
  resolveRayEmitters,
  sortingsFor,
  type EmitterBatchSize,
  type LeafTriangles,
  type RayEmitterSettings,
  type RayEmitterStrategy,
  type SceneRayEmitters,
} from './rayEmittersSection';
export {
  EXTERNAL_RAY_CASTERS,
  createExternalRayCaster,
  externalRayCasterMissing,
  registerExternalRayCaster,
  registeredExternalRayCasters,
  type ExternalRayCaster,
  type ExternalRayCasterName,
} from './externalRayCasters';
