import { MAX_LEAF_SIZE } from '../../bvh/options';
import type { BoxBatch, BoxOverlapList, BoxQueryOptions } from './boxTypes';
import { BoxWorkspace } from './boxWorkspace';
import { createBoxQueryCounters } from './boxTypes';
import { keptTriangles, leafTestCode, testLeaf } from './leafTests';
import { checkBoxBatch, resolveBoxQueryOptions } from './overlapBoxes';
import { prepareBoxes } from './prepareBoxes';

/**
 * The reference every box query is checked against: each valid box against every triangle of the mesh
 * with the same box-triangle test (and, for an oriented box, the same move into its frame), no tree.
 * Same result conventions as overlapBoxes; pairs come box by box, triangles in id order. With
 * `materials` (material id per triangle, id → mask), the triangles options.filter rejects are skipped.
 */
export function overlapBoxesBruteForce(
  positions: Float32Array,
  indices: Uint32Array,
  boxes: BoxBatch,
  out: BoxOverlapList,
  options: Partial<Pick<BoxQueryOptions, 'test' | 'includeRejected' | 'filter'>> = {},
  materials: { readonly ids: Uint8Array; readonly masks: Uint32Array } | null = null,
): void {
  const resolved = resolveBoxQueryOptions(options);
  checkBoxBatch(boxes, out);
  const triangleCount = indices.length / 3;
  // The whole mesh as one run of triangles in id order, cut into leaf-sized pieces.
  const mesh = { positions, indices, triangleCount, triangleOrder: null, hasDuplicateReferences: false, maxDepth: 0 };
  const workspace = new BoxWorkspace(mesh);
  const valid = prepareBoxes(boxes, workspace);
  workspace.beginQuery();
  out.count = 0;
  out.dropped = 0;
  out.exitCounts.fill(0);
  const test = leafTestCode(resolved.test);
  const tally = createBoxQueryCounters();
  const kept = workspace.keptTriangles;
  for (let i = 0; i < valid; i++) {
    const box = workspace.active[i]!;
    for (let first = 0; first < triangleCount; first += MAX_LEAF_SIZE) {
      const count = Math.min(MAX_LEAF_SIZE, triangleCount - first);
      if (materials === null) testLeaf(mesh, workspace, box, null, first, count, test, resolved.includeRejected, out, tally);
      else {
        const n = keptTriangles(null, first, count, materials.ids, materials.masks, resolved.filter, kept);
        testLeaf(mesh, workspace, box, kept, 0, n, test, resolved.includeRejected, out, tally);
      }
    }
  }
}
