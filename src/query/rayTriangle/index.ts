export { RAY_MISS } from './miss';
export {
  RAY_DATA_LENGTH,
  RAY_ORIGIN_X,
  RAY_ORIGIN_Y,
  RAY_ORIGIN_Z,
  RAY_DIRECTION_X,
  RAY_DIRECTION_Y,
  RAY_DIRECTION_Z,
  RAY_VALID,
  createRayData,
  prepareRay,
} from './rayData';
export { differenceOfProducts } from './exactSign';
export { intersectEdgePlane } from './edgePlane';
export { intersectMollerTrumbore } from './mollerTrumbore';
export { intersectWatertight } from './watertight';
export {
  DEFAULT_RAY_TRIANGLE_KERNEL,
  RAY_TRIANGLE_KERNELS,
  RAY_TRIANGLE_KERNEL_NAMES,
  getRayTriangleKernel,
  type RayTriangleKernel,
  type RayTriangleKernelName,
} from './registry';
export {
  CRACK_PATCH_SIZE,
  CRACK_RAY_T_MAX,
  CRACK_TARGET_DIAGONAL,
  CRACK_TARGET_EDGE_X,
  CRACK_TARGET_EDGE_Z,
  CRACK_TARGET_KINDS,
  CRACK_TARGET_VERTEX,
  generateCrackRays,
  type CrackRayOptions,
  type CrackRays,
  type CrackTargetKind,
  type GridMesh,
} from './crackRays';
export { MISSED_RAY_STRIDE, exploreCracks, type CrackCounts, type CrackExploreOptions, type CrackReport } from './crackExplorer';
