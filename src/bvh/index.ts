export { buildBVH, type BVH } from './buildBVH';
export { loadWasmBuilder, wasmBuilderUnavailableReason } from './wasmBuilder';
export {
  BUILDER_LABELS,
  BVH_BUILDERS,
  BVH_LAYOUTS,
  DEFAULT_BUILD_OPTIONS,
  MAX_LEAF_SIZE,
  TERRAIN_BUILDER,
  resolveBuildOptions,
  type BuildOptions,
  type BVHBuilderName,
  type BVHLayoutName,
} from './options';
export type { BVHStats } from './stats';
export { MAX_BVH_TRIANGLES } from './meshInput';
export { forEachNodeBox, collectNodeBoxes, type NodeBoxList, type NodeBoxVisitor } from './nodeBoxes';
export { CHILD_TYPE_EMPTY, CHILD_TYPE_NODE, childIndex, childLeafCount, childType, nodeMaskIndexAt, nodeMaskIndexOf } from './childWord';
export { QUANTIZED_NODE_BYTES, quantizedBound, quantizedChildWord, type QuantizedNodes } from './quantizedLayout';
export { FLOAT_NODE_WORDS, floatBound, floatChildWord, type FloatNodes } from './floatLayout';
export { QUANT_MAX, QUANT_STEP_SCALE, quantizationStep } from './quantize';
export { buildBinaryTree } from './sahBuilder';
export type { BuildTree } from './buildTree';
export { collapseToWide } from './collapse';
export { shareHalfFullLeaves } from './shareLeaves';
export type { WideTree } from './wideTree';
export { MASK_ALL, MASK_TABLE_SIZE, checkFilter, triangleKept, validateMaterials, type CollisionMasks, type MaterialInput } from './collisionMasks';
export {
  DEFAULT_REFIT_OPTIONS,
  REFIT_REBUILD_DEGRADATION,
  bvhRevision,
  positionsRevision,
  prepareRefit,
  refitPrepared,
  refitBVH,
  refitSahCost,
  type RefitOptions,
  type RefitReport,
} from './refit';
export { adoptRefitState, type RefitState } from './refitState';
export { loadWasmRefit, wasmRefitUnavailableReason } from './wasmRefit';
