import type { BVH } from '../../bvh/buildBVH';
import { checkFilter } from '../../bvh/collisionMasks';
import { InvalidParameterError } from '../../errors';
import { filterRejectsSome } from '../walk/maskFilter';
import {
  BOX_QUERY_TESTS,
  createBoxQueryCounters,
  DEFAULT_BOX_QUERY_OPTIONS,
  type BoxBatch,
  type BoxOverlapList,
  type BoxQueryCounters,
  type BoxQueryOptions,
} from './boxTypes';
import { boxWorkspaceFor } from './boxWorkspace';
import { leafTestCode } from './leafTests';
import { prepareBoxes } from './prepareBoxes';
import { traverseBoxes } from './traverseBoxes';

export function resolveBoxQueryOptions(options: Partial<BoxQueryOptions> = {}): BoxQueryOptions {
  const resolved: BoxQueryOptions = { ...DEFAULT_BOX_QUERY_OPTIONS, ...options };
  if (!(BOX_QUERY_TESTS as readonly string[]).includes(resolved.test))
    throw new InvalidParameterError('test', `one of ${BOX_QUERY_TESTS.join(', ')}`, resolved.test);
  if (typeof resolved.batched !== 'boolean') throw new InvalidParameterError('batched', 'true or false', resolved.batched);
  if (typeof resolved.includeRejected !== 'boolean') throw new InvalidParameterError('includeRejected', 'true or false', resolved.includeRejected);
  checkFilter(resolved.filter);
  return resolved;
}

/** Throws InvalidParameterError for a malformed batch or list (per-box problems are not errors). */
export function checkBoxBatch(boxes: BoxBatch, out: BoxOverlapList): void {
  const n = boxes.count;
  if (!(Number.isInteger(n) && n >= 0 && n < 2 ** 28)) throw new InvalidParameterError('boxes.count', 'a whole number below 2^28', n);
  if (!(boxes.centers instanceof Float32Array) || boxes.centers.length < 3 * n)
    throw new InvalidParameterError('boxes.centers', `a Float32Array of at least ${3 * n} numbers`, boxes.centers);
  if (!(boxes.halfSizes instanceof Float32Array) || boxes.halfSizes.length < 3 * n)
    throw new InvalidParameterError('boxes.halfSizes', `a Float32Array of at least ${3 * n} numbers`, boxes.halfSizes);
  const axes = boxes.axes ?? null;
  if (axes !== null && (!(axes instanceof Float32Array) || axes.length < 9 * n))
    throw new InvalidParameterError('boxes.axes', `null or a Float32Array of at least ${9 * n} numbers`, axes);
  if (!(
    out.box instanceof Int32Array &&
    out.triangle instanceof Int32Array &&
    out.exit instanceof Uint8Array &&
    out.exitCounts instanceof Int32Array
  )) {
    throw new InvalidParameterError('out', 'a list from createBoxOverlapList', out);
  }
  if (!(out.capacity <= out.box.length && out.capacity <= out.triangle.length && out.capacity <= out.exit.length))
    throw new InvalidParameterError('out.capacity', 'at most the length of its arrays', out.capacity);
}

/**
 * Every triangle of the BVH overlapping each box of the batch, among those options.filter keeps: pairs
 * (box, triangle, exit) into `out` (reset first; order unspecified), each pair once even where spatial
 * splits put a triangle in two leaves. Invalid boxes are skipped and counted. Needs the quantized layout.
 * Returns the work done.
 */
export function overlapBoxes(bvh: BVH, boxes: BoxBatch, out: BoxOverlapList, options: Partial<BoxQueryOptions> = {}): BoxQueryCounters {
  const resolved = resolveBoxQueryOptions(options);
  checkBoxBatch(boxes, out);
  const nodes = bvh.quantized;
  if (nodes === null) throw new InvalidParameterError('bvh', "a BVH built with the 'quantized' layout", bvh.options.layouts);
  const workspace = boxWorkspaceFor(bvh);
  const valid = prepareBoxes(boxes, workspace);
  workspace.beginQuery();
  out.count = 0;
  out.dropped = 0;
  out.exitCounts.fill(0);
  const test = leafTestCode(resolved.test);
  const filter = resolved.filter;
  const filtering = filterRejectsSome(bvh.masks, filter);
  const tally = createBoxQueryCounters();
  tally.queries = boxes.count;
  tally.invalid = boxes.count - valid;
  if (resolved.batched) traverseBoxes(bvh, nodes, workspace, valid, test, resolved.includeRejected, filtering, filter, out, tally);
  else {
    // One walk per box: the first entry of `active` is the box, moved there in turn.
    const active = workspace.active;
    for (let i = 0; i < valid; i++) {
      const box = active[i]!;
      active[i] = active[0]!;
      active[0] = box;
      traverseBoxes(bvh, nodes, workspace, 1, test, resolved.includeRejected, filtering, filter, out, tally);
      active[0] = active[i]!;
      active[i] = box;
    }
  }
  return tally;
}
