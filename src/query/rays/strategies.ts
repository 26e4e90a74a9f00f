/** Public face of the ray strategies (tree layout × node sorting × batching, options of castRays) and the batched walk. */
export { prepareRayStrategies, octantPermutationsFor, leafTrianglesFor, binaryNodeMasksFor } from './castRaysWith';
export { RAY_BATCH_SIZES } from './castOptions';
export { RAY_TREES, type RayTree } from './rayTypes';
export { BINARY_SORTINGS, WIDE_SORTINGS, type BinarySorting, type WideSorting, type NodeSorting } from './sorting';
export { RayBatchItems } from './batchRays';
export { VOTE_NONE, VOTE_OCTANTS, VOTE_DIRECTIONS, BatchCounters, BatchStack, type BatchItems } from '../batch/batchItems';
export { walkBinaryFloat, walkBinaryQuantized, walkWideFloat, walkWideQuantized, voteModeFor } from '../batch/batchWalk';
export { buildBinaryBVH, binaryBVHFor, attachBinaryBVH, hasBinaryBVH, type BinaryBVH } from '../../bvh/binaryBVH';
export { packBinary, type BinaryNodes } from '../../bvh/binaryLayout';
export { octantOf, wideOctantPermutations } from '../../bvh/octantOrder';
export { packLeafTriangles } from '../../bvh/leafTriangles';
export { emitRays, RAY_EMITTER_KINDS, MAX_EMITTED_RAYS, type RayEmitter, type RayEmitterKind } from './rayEmitters';
