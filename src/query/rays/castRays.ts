import type { BVH } from '../../bvh/buildBVH';
import { InvalidParameterError } from '../../errors';
import { getRayTriangleKernel } from '../rayTriangle/registry';
import { modeCode, resolveCastOptions, usesReferenceWalk } from './castOptions';
import { castWithStrategy } from './castRaysWith';
import { MODE_ALL } from './rayTypes';
import type { QueryCounters } from '../counters';
import { filterRejectsSome } from '../walk/maskFilter';
import type { SimdCastOptions } from './rayKernel';
import type { CastOptions, RayBatch, RayCastReport, RayHits } from './rayTypes';
import { simdRayKernel, simdRaysUnavailableReason } from './simdRays';
import { workspaceFor } from './rayWorkspace';
import { traverseFloat } from './traverseFloat';
import { traverseQuantized } from './traverseQuantized';
import { isValidRay } from './validRay';
import { CastOrder } from './rayOrder';
import { castsInOrder } from './rayStaging';

/** The reference walk's cast order for big batches (rayOrder.ts). */
const castOrder = new CastOrder();

export { isValidRay } from './validRay';

function checkBatch(bvh: BVH, rays: RayBatch, hits: RayHits, options: CastOptions): void {
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
  // The binary tree is built on first use and carries both layouts.
  if (options.tree === '4-way' && (options.layout === 'quantized' ? bvh.quantized : bvh.float) === null)
    throw new InvalidParameterError('layout', `a layout the BVH was built with (${bvh.options.layouts.join(', ')})`, options.layout);
}

/**
 * Why the WebAssembly SIMD kernel cannot serve these (resolved) options on this BVH, or '' when it can.
 */
export function wasmSimdRefusal(bvh: BVH, options: CastOptions): string {
  if (simdRayKernel() === null) return simdRaysUnavailableReason() || 'WebAssembly SIMD not loaded';
  if (options.tree !== '4-way' || options.layout !== 'quantized' || bvh.quantized === null) return 'SIMD walks the 4-way quantized tree only';
  if (options.triangleTest !== 'watertight') return 'SIMD uses the watertight test only';
  return '';
}

/**
 * Casts a batch of rays, the one entry point for every kernel, tree, layout, node sorting and batching
 * (see CastOptions; the defaults are the TypeScript reference walk). Closest hit, any hit, or all hits
 * (into options.allHits, with the closest one also in `hits`). Results are written into `hits`: t and
 * the triangle per ray (a miss: +∞ and −1); invalid rays are flagged (t = NaN, triangle −1) and
 * counted, never traversed. Returns the work done and the kernel that ran.
 *
 * Counters: the reference walk counts a 4-way node visit and four box tests per popped node, and leaves;
 * the binary tree counts one box test per popped node (nodesVisited = boxesTested); batches count
 * item-node visits and item-box tests; the SIMD kernel counts nodes and triangles only.
 */
export function castRays(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<CastOptions> = {}): RayCastReport {
  const resolved = resolveCastOptions(options);
  checkBatch(bvh, rays, hits, resolved);
  const filtering = filterRejectsSome(bvh.masks, resolved.filter);
  let fallbackReason: string | undefined;
  if (resolved.kernel === 'wasm-simd') {
    fallbackReason = wasmSimdRefusal(bvh, resolved);
    if (fallbackReason === '') {
      const simd: Partial<SimdCastOptions> = { mode: resolved.mode, doubleSided: resolved.doubleSided, batch: resolved.batchSize };
      if (resolved.allHits !== undefined) simd.allHits = resolved.allHits;
      if (resolved.aloneBelow !== undefined) simd.aloneBelow = resolved.aloneBelow;
      if (filtering) simd.filter = resolved.filter;
      // The counters are a fresh object: labelled in place rather than copied (one ray per call is common).
      const report = simdRayKernel()!.cast(bvh, rays, hits, simd) as RayCastReport;
      report.kernel = 'wasm-simd';
      return report;
    }
  }
  const counters = usesReferenceWalk(resolved)
    ? castReference(bvh, rays, hits, resolved, filtering)
    : castWithStrategy(bvh, rays, hits, resolved, filtering);
  const report: RayCastReport = { ...counters, kernel: 'typescript' };
  if (fallbackReason !== undefined) report.fallbackReason = fallbackReason;
  return report;
}

/** The reference walk, one ray at a time over the 4-way tree in exit-distance order (the only one with mode 'all'). */
function castReference(bvh: BVH, rays: RayBatch, hits: RayHits, resolved: CastOptions, filtering: boolean): QueryCounters {
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
  let invalidRays = 0;
  let hitCount = 0;
  const quantized = bvh.quantized;
  const float = bvh.float;
  const useQuantized = resolved.layout === 'quantized';
  // Big batches in the order of where the rays cross the scene, as the SIMD kernel casts them (same
  // hits, warmer caches); all-hits lists keep the caller's order.
  const order =
    quantized !== null && mode !== MODE_ALL && castsInOrder(true, rays.count) ? castOrder.order(rays, rays.count, quantized.rootFrame) : null;

  for (let k = 0; k < rays.count; k++) {
    const ray = order === null ? k : order[k]!;
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
