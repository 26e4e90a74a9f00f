import type { BVH } from '../../bvh/buildBVH';
import { EXIT_CONTAINED, EXIT_OVERLAP, EXIT_SEPARATED } from '../boxTriangle/exits';
import { simdBoxTriangleKernel } from '../boxTriangle/boxTriangleKernel';
import { mollerV1 } from '../boxTriangle/mollerV1';
import { mollerV2 } from '../boxTriangle/mollerV2';
import { overlapBoxWithTriangles } from '../boxTriangle/optimized';
import { triangleMasked } from '../walk/maskFilter';
import type { BoxOverlapList, BoxQueryCounters, BoxQueryTest } from './boxTypes';
import type { BoxWorkspace } from './boxWorkspace';

/** The box-triangle test as a small integer, so the leaf loop stays monomorphic. */
export const TEST_V1 = 0;
export const TEST_V2 = 1;
export const TEST_OPTIMIZED = 2;
export const TEST_SIMD = 3;

export function leafTestCode(test: BoxQueryTest): number {
  return test === 'v1' ? TEST_V1 : test === 'v2' ? TEST_V2 : test === 'wasm-simd' ? TEST_SIMD : TEST_OPTIMIZED;
}

/** The mesh a leaf's triangle ids index: a BVH's, or a plain mesh for the brute-force reference. */
export type LeafSource = Pick<BVH, 'positions' | 'indices'> & { readonly triangleOrder?: Uint32Array | null };

/**
 * The ids of leaf range first .. first + count − 1 (entries of `order`, or triangle ids themselves when
 * order is null) that `filter` keeps, written to kept[0 ..); returns how many.
 */
export function keptTriangles(
  order: Uint32Array | null,
  first: number,
  count: number,
  materialIds: Uint8Array,
  materialMasks: Uint32Array,
  filter: number,
  kept: Uint32Array,
): number {
  let n = 0;
  const end = first + count;
  for (let k = first; k < end; k++) {
    const triangle = order !== null ? order[k]! : k;
    if (!triangleMasked(materialIds, materialMasks, triangle, filter)) kept[n++] = triangle;
  }
  return n;
}

/**
 * Tests box `box` against `count` triangles — ids[start + k], or start + k when ids is null — and
 * records the results in `out`. An oriented box's triangles are first moved into its frame (relative to
 * its centre, rotated, stored in float32 as the tests read them).
 */
export function testLeaf(
  mesh: LeafSource,
  workspace: BoxWorkspace,
  box: number,
  ids: Uint32Array | null,
  start: number,
  count: number,
  test: number,
  includeRejected: boolean,
  out: BoxOverlapList,
  tally: BoxQueryCounters,
): void {
  let positions = mesh.positions;
  let indices = mesh.indices;
  let triangles = ids;
  let from = start;
  if (workspace.oriented[box] === 1) {
    moveIntoBoxFrame(mesh, workspace, box, ids, start, count);
    positions = workspace.localPositions;
    indices = workspace.localIndices;
    triangles = null;
    from = 0;
  }
  const exits = workspace.leafExits;
  const kernelBox = workspace.kernelBox;
  const b = 6 * box;
  const simd = test === TEST_SIMD ? simdBoxTriangleKernel() : null;
  if (simd !== null) {
    const oriented = workspace.oriented[box] === 1;
    // A run of the leaf order (or of the mesh's own order) is read from the kernel's float32 rows.
    const leafOrder = !oriented && (triangles === null || triangles === mesh.triangleOrder);
    simd.overlap(kernelBox, b, positions, indices, triangles, from, count, exits, oriented, leafOrder);
    for (let k = 0; k < count; k++) exits[k] = exits[k] === 1 ? EXIT_OVERLAP : EXIT_SEPARATED;
  } else if (test === TEST_OPTIMIZED || test === TEST_SIMD) {
    overlapBoxWithTriangles(kernelBox, b, positions, indices, triangles, from, count, exits);
  } else {
    for (let k = 0; k < count; k++) {
      const t = triangles === null ? from + k : triangles[from + k]!;
      const i3 = 3 * t;
      exits[k] =
        test === TEST_V1
          ? mollerV1(kernelBox, b, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!)
          : mollerV2(kernelBox, b, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!);
    }
  }
  tally.trianglesTested += count;

  const exitCounts = out.exitCounts;
  const duplicated = workspace.duplicated;
  for (let k = 0; k < count; k++) {
    const exit = exits[k]!;
    exitCounts[exit]!++;
    const overlap = exit === EXIT_CONTAINED || exit === EXIT_OVERLAP;
    if (!overlap && !includeRejected) continue;
    const triangle = ids !== null ? ids[start + k]! : start + k;
    // A triangle in two leaves (spatial splits) reaches the same box twice, with the same answer.
    if (duplicated !== null && duplicated[triangle] === 1 && !workspace.addPair(box, triangle)) continue;
    if (overlap) tally.hits++;
    if (out.count < out.capacity) {
      out.box[out.count] = box;
      out.triangle[out.count] = triangle;
      out.exit[out.count] = exit;
      out.count++;
    } else out.dropped++;
  }
}

function moveIntoBoxFrame(mesh: LeafSource, workspace: BoxWorkspace, box: number, ids: Uint32Array | null, start: number, count: number): void {
  const { positions, indices } = mesh;
  const local = workspace.localPositions;
  const r = workspace.rotation;
  const o = 9 * box;
  const cx = workspace.center[3 * box]!,
    cy = workspace.center[3 * box + 1]!,
    cz = workspace.center[3 * box + 2]!;
  for (let k = 0; k < count; k++) {
    const triangle = ids !== null ? ids[start + k]! : start + k;
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
