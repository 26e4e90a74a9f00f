export {
  EXIT_AXIS_X,
  EXIT_AXIS_Y,
  EXIT_AXIS_Z,
  EXIT_CONTAINED,
  EXIT_COUNT,
  EXIT_EDGE_FIRST,
  EXIT_INVALID,
  EXIT_NAMES,
  EXIT_OVERLAP,
  EXIT_PLANE,
  EXIT_SEPARATED,
  exitKind,
  isOverlapExit,
  type ExitKind,
} from './exits';
export { mollerV1 } from './mollerV1';
export { mollerV2 } from './mollerV2';
export { overlapBoxWithTriangles } from './optimized';
export { boxTriangleOptimized } from './single';
export { BOX_TRIANGLE_VARIANTS, getBoxTriangleTest, testBoxTriangle, type BoxTriangleTest, type BoxTriangleVariant } from './registry';
export { isValidBox, isValidTriangle } from './validate';
