import type { BVH } from '../../bvh/buildBVH';
import { bvhRevision, lastGeometryChange } from '../../bvh/revision';
import { MASK_ALL, checkFilter } from '../../bvh/collisionMasks';
import { InvalidParameterError } from '../../errors';
import { filterRejectsSome } from '../walk/maskFilter';
import { createSweepCounters, type CapsuleBatch, type CapsuleHits, type SweepCounters, type SweepOptions } from './capsuleTypes';
import { computeEdgeMasks } from './edgeMasks';
import { edgePartners, patchEdgeMasks } from './edgeMaskPatch';
import { PAIRS_PER_TRIANGLE } from './featureBits';
import { sweepQuantized } from './sweepQuantized';
import {
  QUEUE_CYLINDER_EDGE,
  QUEUE_CYLINDER_FACE,
  QUEUE_CYLINDER_VERTEX,
  QUEUE_SPHERE_EDGE,
  QUEUE_SPHERE_FACE,
  QUEUE_SPHERE_VERTEX,
  sweepWorkspaceFor,
  type SweepWorkspace,
} from './sweepWorkspace';

export const DEFAULT_SWEEP_OPTIONS: Readonly<SweepOptions> = Object.freeze({ edgeMasks: true, quickCull: true, filter: MASK_ALL });

/** Edge masks depend on the geometry (an edge's convexity), so each entry keeps the BVH revision it was
 *  computed at (revision.ts) and is recomputed after a refit. */
interface CachedEdgeMasks {
  revision: number;
  masks: Uint8Array;
  /** edgePartners of the mesh, made at the first patch (the topology outlives refits). */
  partner: Int32Array | null;
  stamp: Int32Array | null;
  epoch: number;
}
const edgeMaskCache = new WeakMap<BVH, CachedEdgeMasks>();
/** Edge masks of filtered meshes, per BVH and filter (the last FILTERED_MASKS_KEPT filters). */
const filteredEdgeMaskCache = new WeakMap<BVH, { revision: number; byFilter: Map<number, Uint8Array> }>();
const FILTERED_MASKS_KEPT = 8;

/**
 * The BVH's mesh edge masks (computed on first use, then kept with the BVH); with a filter that rejects
 * some material, those of the mesh made of the triangles the filter keeps (an edge the whole mesh leaves
 * to a filtered neighbour is a border edge there, tested by the kept triangle).
 */
export function edgeMasksFor(bvh: BVH, filter: number = MASK_ALL): Uint8Array {
  if (filterRejectsSome(bvh.masks, filter)) return filteredEdgeMasksFor(bvh, filter);
  const revision = bvhRevision(bvh);
  let cached = edgeMaskCache.get(bvh);
  if (cached !== undefined && cached.revision !== revision) {
    // One partial refit since: recompute the moved triangles' bits and their neighbours' only, in a
    // copy (a new array tells the capsule kernel to copy the masks in again).
    const change = lastGeometryChange(bvh);
    if (change !== null && !change.wholeTree && change.fromRevision === cached.revision) {
      cached.partner ??= edgePartners(bvh.indices, bvh.positions.length / 3);
      cached.stamp ??= new Int32Array(bvh.triangleCount);
      cached.masks = cached.masks.slice();
      patchEdgeMasks(bvh.positions, bvh.indices, cached.partner, cached.masks, change.triangles, change.triangleCount, cached.stamp, ++cached.epoch);
      cached.revision = revision;
    }
  }
  if (cached === undefined || cached.revision !== revision) {
    cached = {
      revision,
      masks: computeEdgeMasks(bvh.positions, bvh.indices),
      partner: cached?.partner ?? null,
      stamp: cached?.stamp ?? null,
      epoch: cached?.epoch ?? 0,
    };
    edgeMaskCache.set(bvh, cached);
  }
  return cached.masks;
}

function filteredEdgeMasksFor(bvh: BVH, filter: number): Uint8Array {
  const revision = bvhRevision(bvh);
  let cached = filteredEdgeMaskCache.get(bvh);
  if (cached === undefined || cached.revision !== revision)
    filteredEdgeMaskCache.set(bvh, (cached = { revision, byFilter: new Map<number, Uint8Array>() }));
  const byFilter = cached.byFilter;
  let masks = byFilter.get(filter);
  if (masks === undefined) {
    const { materialIds, materialMasks } = bvh.masks;
    const keep = new Uint8Array(bvh.triangleCount);
    for (let t = 0; t < keep.length; t++) keep[t] = (materialMasks[materialIds[t]!]! & filter) !== 0 ? 1 : 0;
    masks = computeEdgeMasks(bvh.positions, bvh.indices, undefined, keep);
    if (byFilter.size >= FILTERED_MASKS_KEPT) byFilter.delete(byFilter.keys().next().value!);
    byFilter.set(filter, masks);
  }
  return masks;
}

export function resolveSweepOptions(input: Partial<SweepOptions>): SweepOptions {
  const options: SweepOptions = { ...DEFAULT_SWEEP_OPTIONS, ...input };
  if (typeof options.edgeMasks !== 'boolean') throw new InvalidParameterError('edgeMasks', 'true or false', options.edgeMasks);
  if (typeof options.quickCull !== 'boolean') throw new InvalidParameterError('quickCull', 'true or false', options.quickCull);
  if (options.trace !== undefined && !(options.trace.triangle instanceof Int32Array))
    throw new InvalidParameterError('trace', 'a CapsuleTrace (createCapsuleTrace)', options.trace);
  checkFilter(options.filter, 'filter');
  return options;
}

/** Throws an InvalidParameterError naming the first malformed buffer (or a BVH without the quantized layout). */
export function checkBatch(bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits): void {
  const n = capsules.count;
  if (!(Number.isInteger(n) && n >= 0)) throw new InvalidParameterError('capsules.count', 'a whole number ≥ 0', n);
  for (const name of ['start', 'end', 'motion'] as const) {
    if (!(capsules[name] instanceof Float32Array) || capsules[name].length < 3 * n)
      throw new InvalidParameterError(`capsules.${name}`, `a Float32Array of at least ${3 * n} numbers`, capsules[name]);
  }
  if (!(capsules.radius instanceof Float32Array) || capsules.radius.length < n)
    throw new InvalidParameterError('capsules.radius', `a Float32Array of at least ${n} numbers`, capsules.radius);
  if (!(hits.toi instanceof Float32Array) || hits.toi.length < n)
    throw new InvalidParameterError('hits.toi', `a Float32Array of at least ${n} numbers`, hits.toi);
  if (!(hits.triangle instanceof Int32Array) || hits.triangle.length < n)
    throw new InvalidParameterError('hits.triangle', `an Int32Array of at least ${n} numbers`, hits.triangle);
  if (!(hits.point instanceof Float32Array) || hits.point.length < 3 * n)
    throw new InvalidParameterError('hits.point', `a Float32Array of at least ${3 * n} numbers`, hits.point);
  if (!(hits.normal instanceof Float32Array) || hits.normal.length < 3 * n)
    throw new InvalidParameterError('hits.normal', `a Float32Array of at least ${3 * n} numbers`, hits.normal);
  if (bvh.quantized === null) throw new InvalidParameterError('bvh', "a BVH built with the 'quantized' layout", bvh.options.layouts);
}

const finite = (x: number): boolean => Math.abs(x) < Infinity;

/** Copies a slot's best contact into the caller's results for capsule i. */
function writeResult(ws: SweepWorkspace, slot: number, hits: CapsuleHits, i: number, counters: SweepCounters): void {
  const triangle = ws.bestTriangle[slot]!;
  hits.triangle[i] = triangle;
  if (triangle < 0) {
    hits.toi[i] = 1;
    return;
  }
  counters.hits++;
  hits.toi[i] = ws.bestT[slot]!;
  const o = 6 * slot,
    i3 = 3 * i;
  const contact = ws.contact;
  hits.point[i3] = contact[o]!;
  hits.point[i3 + 1] = contact[o + 1]!;
  hits.point[i3 + 2] = contact[o + 2]!;
  hits.normal[i3] = contact[o + 3]!;
  hits.normal[i3 + 1] = contact[o + 4]!;
  hits.normal[i3 + 2] = contact[o + 5]!;
}

/**
 * Sweeps a batch of capsules against the BVH's mesh: for each, the first time of contact along its
 * motion, the triangle, the contact point and the normal (see CapsuleHits). Triangles count from both
 * sides. Returns the work done; invalid capsules are flagged and counted, never traversed. With a
 * `filter`, only the triangles whose material mask shares a bit with it count (see SweepOptions).
 */
export function sweepCapsules(bvh: BVH, capsules: CapsuleBatch, hits: CapsuleHits, options: Partial<SweepOptions> = {}): SweepCounters {
  const resolved = resolveSweepOptions(options);
  checkBatch(bvh, capsules, hits);
  const ws = sweepWorkspaceFor(bvh);
  const filter = resolved.filter;
  const filtering = filterRejectsSome(bvh.masks, filter);
  const masks = resolved.edgeMasks ? edgeMasksFor(bvh, filter) : null;
  const trace = resolved.trace ?? null;
  const traceCapsule = resolved.traceCapsule ?? 0;
  if (trace !== null) trace.count = 0;
  const counters = createSweepCounters();
  counters.queries = capsules.count;
  ws.drained.fill(0);
  const { start, end, radius, motion } = capsules;
  const { toi, triangle, point, normal } = hits;
  const nodes = bvh.quantized!;
  for (let i = 0; i < capsules.count; i++) {
    const i3 = 3 * i;
    const p0x = start[i3]!,
      p0y = start[i3 + 1]!,
      p0z = start[i3 + 2]!;
    const p1x = end[i3]!,
      p1y = end[i3 + 1]!,
      p1z = end[i3 + 2]!;
    const dx = motion[i3]!,
      dy = motion[i3 + 1]!,
      dz = motion[i3 + 2]!;
    const r = radius[i]!;
    const valid =
      finite(p0x) &&
      finite(p0y) &&
      finite(p0z) &&
      finite(p1x) &&
      finite(p1y) &&
      finite(p1z) &&
      finite(dx) &&
      finite(dy) &&
      finite(dz) &&
      r >= 0 &&
      finite(r);
    point[i3] = point[i3 + 1] = point[i3 + 2] = 0;
    normal[i3] = normal[i3 + 1] = normal[i3 + 2] = 0;
    if (!valid) {
      toi[i] = NaN;
      triangle[i] = -1;
      counters.invalid++;
      continue;
    }
    ws.load(0, p0x, p0y, p0z, p1x, p1y, p1z, dx, dy, dz, r);
    sweepQuantized(bvh, nodes, ws, 0, masks, resolved.quickCull, trace !== null && i === traceCapsule ? trace : null, counters, filtering, filter);
    writeResult(ws, 0, hits, i, counters);
  }
  counters.pairsPossible = PAIRS_PER_TRIANGLE * counters.trianglesTested;
  counters.sphereVertex = ws.drained[QUEUE_SPHERE_VERTEX]!;
  counters.sphereEdge = ws.drained[QUEUE_SPHERE_EDGE]!;
  counters.sphereFace = ws.drained[QUEUE_SPHERE_FACE]!;
  counters.cylinderEdge = ws.drained[QUEUE_CYLINDER_EDGE]!;
  counters.cylinderVertex = ws.drained[QUEUE_CYLINDER_VERTEX]!;
  counters.cylinderFace = ws.drained[QUEUE_CYLINDER_FACE]!;
  return counters;
}
