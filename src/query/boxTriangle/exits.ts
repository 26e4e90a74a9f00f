/**
 * What a box-triangle test reports: not just overlap or not, but which of the separating-axis tests
 * decided it, so a caller can count the exits (the cost of the test depends on it) and the sandbox can
 * colour each triangle by the path it took. One small integer per test, stored in a Uint8Array.
 *
 *   0        invalid input (NaN or infinite coordinate, negative or NaN half-size): no answer
 *   1        overlap, the box contains all three vertices (the optimized test's extra first exit)
 *   2        overlap, no separating axis among the 13
 *   3, 4, 5  separated along the box's x, y, z axis (the triangle's bounding box misses the box)
 *   6        separated along the triangle's normal (the box lies off the triangle's plane)
 *   7..15    separated along edge × axis: 7 + 3·edge + axis, edge 0 = v1 − v0, 1 = v2 − v1, 2 = v0 − v2
 *   16       separated, axis not kept (the WebAssembly SIMD test runs every axis branch-free)
 */
export const EXIT_INVALID = 0;
export const EXIT_CONTAINED = 1;
export const EXIT_OVERLAP = 2;
export const EXIT_AXIS_X = 3;
export const EXIT_AXIS_Y = 4;
export const EXIT_AXIS_Z = 5;
export const EXIT_PLANE = 6;
export const EXIT_EDGE_FIRST = 7;
export const EXIT_SEPARATED = 16;
export const EXIT_COUNT = 17;

export const EXIT_EDGE0_X = 7;
export const EXIT_EDGE0_Y = 8;
export const EXIT_EDGE0_Z = 9;
export const EXIT_EDGE1_X = 10;
export const EXIT_EDGE1_Y = 11;
export const EXIT_EDGE1_Z = 12;
export const EXIT_EDGE2_X = 13;
export const EXIT_EDGE2_Y = 14;
export const EXIT_EDGE2_Z = 15;

/** Whether an exit code means the box and the triangle overlap. */
export const isOverlapExit = (exit: number): boolean => exit === EXIT_CONTAINED || exit === EXIT_OVERLAP;

/** Short human names, indexed by exit code (HUD lines, benchmark tables, test messages). */
export const EXIT_NAMES: readonly string[] = Object.freeze([
  'invalid',
  'contained',
  'overlap',
  'axis x',
  'axis y',
  'axis z',
  'plane',
  'edge0×x',
  'edge0×y',
  'edge0×z',
  'edge1×x',
  'edge1×y',
  'edge1×z',
  'edge2×x',
  'edge2×y',
  'edge2×z',
  'separated',
]);

/** The kind of an exit, coarser than the code: what the sandbox colours by. */
export type ExitKind = 'invalid' | 'contained' | 'overlap' | 'axis' | 'plane' | 'edge' | 'separated';

export function exitKind(exit: number): ExitKind {
  if (exit === EXIT_CONTAINED) return 'contained';
  if (exit === EXIT_OVERLAP) return 'overlap';
  if (exit >= EXIT_AXIS_X && exit <= EXIT_AXIS_Z) return 'axis';
  if (exit === EXIT_PLANE) return 'plane';
  if (exit >= EXIT_EDGE_FIRST && exit < EXIT_SEPARATED) return 'edge';
  if (exit === EXIT_SEPARATED) return 'separated';
  return 'invalid';
}
