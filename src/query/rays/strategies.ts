/** Public face of the ray strategies (tree layout × node sorting × batching) and the batched walk. */
export {
  castRaysWith,
  prepareRayStrategies,
  octantPermutationsFor,
  leafTrianglesFor,
  resolveRayStrategy,
  DEFAULT_RAY_STRATEGY,
  RAY_TREES,
  RAY_BATCH_SIZES,
  type RayStrategy,
  type RayTree,
} from './castRaysWith';
export { BINARY_SORTINGS, WIDE_SORTINGS, type BinarySorting, type WideSorting, type NodeSorting } from './sorting';
export { RayBatchItems } from './batchRays';
export { VOTE_NONE, VOTE_OCTANTS, VOTE_DIRECTIONS, BatchCounters, BatchStack, type BatchItems } from '../batch/batchItems';
export { walkBinaryFloat, walkBinaryQuantized, walkWideFloat, walkWideQuantized, voteModeFor } from '../batch/batchWalk';
export { buildBinaryBVH, binaryBVHFor, attachBinaryBVH, hasBinaryBVH, type BinaryBVH } from '../../bvh/binaryBVH';
export { packBinary, type BinaryNodes } from '../../bvh/binaryLayout';
export { octantOf, wideOctantPermutations } from '../../bvh/octantOrder';
export { packLeafTriangles } from '../../bvh/leafTriangles';
export { emitRays, RAY_EMITTER_KINDS, MAX_EMITTED_RAYS, type RayEmitter, type RayEmitterKind } from './rayEmitters';
