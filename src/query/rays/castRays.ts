import type { BVH } from '../../bvh/buildBVH';
import { InvalidParameterError } from '../../errors';
import { getRayTriangleKernel } from '../rayTriangle/registry';
import { modeCode, resolveCastOptions } from './castOptions';
import { MODE_ALL } from './rayTypes';
import type { QueryCounters } from '../counters';
import { filterRejectsSome } from '../walk/maskFilter';
import type { CastOptions, RayBatch, RayHits } from './rayTypes';
import { workspaceFor } from './rayWorkspace';
import { traverseFloat } from './traverseFloat';
import { traverseQuantized } from './traverseQuantized';

function checkBatch(bvh: BVH, rays: RayBatch, hits: RayHits, layout: CastOptions['layout']): void {
  const n = rays.count;
  if (!(Number.isInteger(n) && n >= 0)) throw new InvalidParameterError('rays.count', 'a whole number ≥ 0', n);
  if (!(rays.origins instanceof Float32Array) || rays.origins.length < 3 * n)
    throw new InvalidParameterError('rays.origins', `a Float32Array of at least ${3 * n} numbers`, rays.origins);
  if (!(rays.directions instanceof Float32Array) || rays.directions.length < 3 * n)
    throw new InvalidParameterError('rays.directions', `a Float32Array of at least ${3 * n} numbers`, rays.directions);
  if (!(rays.tMax instanceof Float32Array) || rays.tMax.length < n)
    throw new InvalidParameterError('rays.tMax', `a Float32Array of at least ${n} numbers`, rays.tMax);
  if (!(hits.t instanceof Float32Array) || hits.t.length < n)
    throw new InvalidParameterError('hits.t', `a Float32Array of at least ${n} numbers`, hits.t);
  if (!(hits.triangle instanceof Int32Array) || hits.triangle.length < n)
    throw new InvalidParameterError('hits.triangle', `an Int32Array of at least ${n} numbers`, hits.triangle);
  if ((layout === 'quantized' ? bvh.quantized : bvh.float) === null)
    throw new InvalidParameterError('layout', `a layout the BVH was built with (${bvh.options.layouts.join(', ')})`, layout);
}

/** A usable ray: finite origin and direction, non-zero direction, tMax > 0 (NaN fails every test). */
export function isValidRay(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMax: number): boolean {
  const finite =
    Math.abs(ox) < Infinity &&
    Math.abs(oy) < Infinity &&
    Math.abs(oz) < Infinity &&
    Math.abs(dx) < Infinity &&
    Math.abs(dy) < Infinity &&
    Math.abs(dz) < Infinity;
  return finite && (dx !== 0 || dy !== 0 || dz !== 0) && tMax > 0;
}

/**
 * Casts a batch of rays: closest hit, any hit, or all hits (into options.allHits, with the closest one
 * also in `hits`). Results are written into `hits`; returns the work done. Invalid rays are flagged
 * (t = NaN, triangle −1) and counted, never traversed.
 */
export function castRays(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<CastOptions> = {}): QueryCounters {
  const resolved = resolveCastOptions(options);
  checkBatch(bvh, rays, hits, resolved.layout);
  const kernel = getRayTriangleKernel(resolved.triangleTest);
  const workspace = workspaceFor(bvh);
  const mode = modeCode(resolved.mode);
  const allHits = resolved.allHits ?? null;
  if (allHits !== null) {
    allHits.count = 0;
    allHits.dropped = 0;
  }
  const { origins, directions, tMax } = rays;
  const hitT = hits.t;
  const hitTriangle = hits.triangle;
  const rayData = workspace.rayData;
  const doubleSided = resolved.doubleSided;
  workspace.resetCounters();
  const filter = resolved.filter;
  const filtering = filterRejectsSome(bvh.masks, filter);
  let invalidRays = 0;
  let hitCount = 0;
  const quantized = bvh.quantized;
  const float = bvh.float;
  const useQuantized = resolved.layout === 'quantized';

  for (let ray = 0; ray < rays.count; ray++) {
    const r3 = 3 * ray;
    const ox = origins[r3]!,
      oy = origins[r3 + 1]!,
      oz = origins[r3 + 2]!;
    const dx = directions[r3]!,
      dy = directions[r3 + 1]!,
      dz = directions[r3 + 2]!;
    const limit = tMax[ray]!;
    if (!isValidRay(ox, oy, oz, dx, dy, dz, limit)) {
      hitT[ray] = NaN;
      hitTriangle[ray] = -1;
      invalidRays++;
      continue;
    }
    kernel.prepareRay(ox, oy, oz, dx, dy, dz, rayData);
    if (useQuantized)
      traverseQuantized(bvh, quantized!, kernel, workspace, ox, oy, oz, dx, dy, dz, limit, mode, doubleSided, allHits, ray, null, filtering, filter);
    else traverseFloat(bvh, float!, kernel, workspace, ox, oy, oz, dx, dy, dz, limit, mode, doubleSided, allHits, ray, null, filtering, filter);
    hitT[ray] = workspace.bestT;
    hitTriangle[ray] = workspace.bestTriangle;
    if (workspace.bestTriangle >= 0) hitCount++;
  }
  return workspace.counters(rays.count, invalidRays, mode === MODE_ALL && allHits !== null ? allHits.count + allHits.dropped : hitCount);
}
