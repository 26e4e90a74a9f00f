import type { BVH } from '../../bvh/buildBVH';
import { InvalidParameterError } from '../../errors';
import { getRayTriangleKernel } from '../rayTriangle/registry';
import { resolveCastOptions } from './castOptions';
import { isValidRay } from './validRay';
import { createQueryCounters, type QueryCounters } from '../counters';
import { filterRejectsSome } from '../walk/maskFilter';
import { MODE_CLOSEST, type CastOptions } from './rayTypes';
import { workspaceFor } from './rayWorkspace';
import { traverseFloat } from './traverseFloat';
import { traverseQuantized } from './traverseQuantized';

/** One closest-hit ray with the 4-way nodes it visited, in visiting order, for step-by-step replay. */
export interface RayTrace {
  t: number;
  triangle: number;
  valid: boolean;
  /** Node indices in the order the traversal visited them (a shared node can appear twice). */
  visited: Int32Array;
  counters: QueryCounters;
}

/**
 * Casts one ray the same way castRays does (same traversal code, same ordering), recording every node
 * it pops. Allocates its result; meant for a click, not for batches.
 */
export function traceRay(
  bvh: BVH,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  tMax = Infinity,
  options: Partial<Pick<CastOptions, 'layout' | 'triangleTest' | 'doubleSided' | 'filter'>> = {},
): RayTrace {
  const resolved = resolveCastOptions({ ...options, mode: 'closest' });
  const nodes = resolved.layout === 'quantized' ? bvh.quantized : bvh.float;
  if (nodes === null)
    throw new InvalidParameterError('layout', `a layout the BVH was built with (${bvh.options.layouts.join(', ')})`, resolved.layout);
  const [ox, oy, oz] = [Math.fround(origin[0]!), Math.fround(origin[1]!), Math.fround(origin[2]!)];
  const [dx, dy, dz] = [Math.fround(direction[0]!), Math.fround(direction[1]!), Math.fround(direction[2]!)];
  const limit = Math.fround(tMax);
  if (!isValidRay(ox, oy, oz, dx, dy, dz, limit)) {
    const counters = createQueryCounters();
    counters.queries = 1;
    counters.invalid = 1;
    return { t: NaN, triangle: -1, valid: false, visited: new Int32Array(0), counters };
  }
  const kernel = getRayTriangleKernel(resolved.triangleTest);
  const workspace = workspaceFor(bvh);
  workspace.resetCounters();
  workspace.logCount = 0;
  const filtering = filterRejectsSome(bvh.masks, resolved.filter);
  const log = new Int32Array(2 * Math.max(1, nodes.nodeCount));
  kernel.prepareRay(ox, oy, oz, dx, dy, dz, workspace.rayData);
  const sided = resolved.doubleSided;
  if (nodes.layout === 'quantized')
    traverseQuantized(bvh, nodes, kernel, workspace, ox, oy, oz, dx, dy, dz, limit, MODE_CLOSEST, sided, null, 0, log, filtering, resolved.filter);
  else traverseFloat(bvh, nodes, kernel, workspace, ox, oy, oz, dx, dy, dz, limit, MODE_CLOSEST, sided, null, 0, log, filtering, resolved.filter);
  const counters = workspace.counters(1, 0, workspace.bestTriangle >= 0 ? 1 : 0);
  const visited = log.slice(0, workspace.logCount);
  workspace.logCount = 0;
  return { t: workspace.bestT, triangle: workspace.bestTriangle, valid: true, visited, counters };
}
