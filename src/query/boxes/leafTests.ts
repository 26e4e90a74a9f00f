import type { BVH } from '../../bvh/buildBVH';
import { EXIT_CONTAINED, EXIT_OVERLAP, EXIT_SEPARATED } from '../boxTriangle/exits';
import { simdBoxTriangleKernel } from '../boxTriangle/boxTriangleKernel';
import { mollerV1 } from '../boxTriangle/mollerV1';
import { mollerV2 } from '../boxTriangle/mollerV2';
import { overlapBoxWithTriangles } from '../boxTriangle/optimized';
import type { BoxOverlapList, BoxQueryTest } from './boxTypes';
import type { BoxWorkspace } from './boxWorkspace';

/** The box-triangle test as a small integer, so the leaf loop stays monomorphic. */
export const TEST_V1 = 0;
export const TEST_V2 = 1;
export const TEST_OPTIMIZED = 2;
export const TEST_SIMD = 3;

export function leafTestCode(test: BoxQueryTest): number {
  return test === 'v1' ? TEST_V1 : test === 'v2' ? TEST_V2 : test === 'wasm-simd' ? TEST_SIMD : TEST_OPTIMIZED;
}

/** The triangles a leaf range names: a BVH, or a plain mesh for the brute-force reference. */
export type LeafSource = Pick<BVH, 'positions' | 'indices' | 'triangleOrder'>;

/** Work tallies of one query, bumped by the traversal and the leaf tests. */
export interface QueryTally {
  nodesVisited: number;
  childBoxesDecoded: number;
  boxNodeTests: number;
  triangleTests: number;
  overlaps: number;
}

/**
 * Tests box `box` against the leaf range first .. first + count − 1 (of triangleOrder, or triangle ids
 * when the mesh was reordered) and records the results in `out`. An oriented box's triangles are first
 * moved into its frame (relative to its centre, rotated, stored in float32 as the tests read them).
 */
export function testLeaf(
  bvh: LeafSource,
  workspace: BoxWorkspace,
  box: number,
  first: number,
  count: number,
  test: number,
  includeRejected: boolean,
  out: BoxOverlapList,
  tally: QueryTally,
): void {
  const order = bvh.triangleOrder;
  let positions = bvh.positions;
  let indices = bvh.indices;
  let triangles = order;
  let start = first;
  if (workspace.oriented[box] === 1) {
    moveIntoBoxFrame(bvh, workspace, box, first, count);
    positions = workspace.localPositions;
    indices = workspace.localIndices;
    triangles = null;
    start = 0;
  }
  const exits = workspace.leafExits;
  const kernelBox = workspace.kernelBox;
  const b = 6 * box;
  const simd = test === TEST_SIMD ? simdBoxTriangleKernel() : null;
  if (simd !== null) {
    simd.overlap(kernelBox, b, positions, indices, triangles, start, count, exits, workspace.oriented[box] === 1);
    for (let k = 0; k < count; k++) exits[k] = exits[k] === 1 ? EXIT_OVERLAP : EXIT_SEPARATED;
  } else if (test === TEST_OPTIMIZED || test === TEST_SIMD) {
    overlapBoxWithTriangles(kernelBox, b, positions, indices, triangles, start, count, exits);
  } else {
    for (let k = 0; k < count; k++) {
      const t = triangles === null ? start + k : triangles[start + k]!;
      const i3 = 3 * t;
      exits[k] =
        test === TEST_V1
          ? mollerV1(kernelBox, b, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!)
          : mollerV2(kernelBox, b, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!);
    }
  }
  tally.triangleTests += count;

  const exitCounts = out.exitCounts;
  const duplicated = workspace.duplicated;
  for (let k = 0; k < count; k++) {
    const exit = exits[k]!;
    exitCounts[exit]!++;
    const overlap = exit === EXIT_CONTAINED || exit === EXIT_OVERLAP;
    if (!overlap && !includeRejected) continue;
    const triangle = order !== null ? order[first + k]! : first + k;
    // A triangle in two leaves (spatial splits) reaches the same box twice, with the same answer.
    if (duplicated !== null && duplicated[triangle] === 1 && !workspace.addPair(box, triangle)) continue;
    if (overlap) tally.overlaps++;
    if (out.count < out.capacity) {
      out.box[out.count] = box;
      out.triangle[out.count] = triangle;
      out.exit[out.count] = exit;
      out.count++;
    } else out.dropped++;
  }
}

function moveIntoBoxFrame(bvh: LeafSource, workspace: BoxWorkspace, box: number, first: number, count: number): void {
  const order = bvh.triangleOrder;
  const { positions, indices } = bvh;
  const local = workspace.localPositions;
  const r = workspace.rotation;
  const o = 9 * box;
  const cx = workspace.center[3 * box]!,
    cy = workspace.center[3 * box + 1]!,
    cz = workspace.center[3 * box + 2]!;
  for (let k = 0; k < count; k++) {
    const triangle = order !== null ? order[first + k]! : first + k;
    for (let v = 0; v < 3; v++) {
      const p = 3 * indices[3 * triangle + v]!;
      const dx = positions[p]! - cx,
        dy = positions[p + 1]! - cy,
        dz = positions[p + 2]! - cz;
      const l = 9 * k + 3 * v;
      local[l] = r[o]! * dx + r[o + 1]! * dy + r[o + 2]! * dz;
      local[l + 1] = r[o + 3]! * dx + r[o + 4]! * dy + r[o + 5]! * dz;
      local[l + 2] = r[o + 6]! * dx + r[o + 7]! * dy + r[o + 8]! * dz;
    }
  }
}
