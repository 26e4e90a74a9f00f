import { overlapBoxWithTriangles } from './optimized';

// One triangle as a run of one (same arguments as the baselines): for tests and one-off queries.
const singleIndices = new Uint32Array(3);
const singleExit = new Uint8Array(1);

/** The optimized test on one box (box[b..b+5]) and one triangle (three vertex indices); returns the exit. */
export function boxTriangleOptimized(
  box: Float64Array,
  b: number,
  positions: Float32Array,
  vertex0: number,
  vertex1: number,
  vertex2: number,
): number {
  singleIndices[0] = vertex0;
  singleIndices[1] = vertex1;
  singleIndices[2] = vertex2;
  overlapBoxWithTriangles(box, b, positions, singleIndices, null, 0, 1, singleExit);
  return singleExit[0]!;
}
