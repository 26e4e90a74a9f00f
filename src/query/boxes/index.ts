// Box queries over the BVH and the box-triangle tests they run at the leaves.
export * from '../boxTriangle/index';
export { overlapBoxes, resolveBoxQueryOptions } from './overlapBoxes';
export { overlapBoxesBruteForce } from './bruteForce';
export { AXES_TOLERANCE } from './prepareBoxes';
export {
  BOX_QUERY_TESTS,
  createBoxOverlapList,
  createBoxQueryCounters,
  DEFAULT_BOX_QUERY_OPTIONS,
  type BoxQueryTest,
  type BoxBatch,
  type BoxOverlapList,
  type BoxQueryCounters,
  type BoxQueryOptions,
} from './boxTypes';
