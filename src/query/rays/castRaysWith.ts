import { binaryBVHFor, type BinaryBVH } from '../../bvh/binaryBVH';
import type { BVH } from '../../bvh/buildBVH';
import { bvhRevision } from '../../bvh/revision';
import { wideOctantPermutations } from '../../bvh/octantOrder';
import { packLeafTriangles } from '../../bvh/leafTriangles';
import { BINARY_FLOAT_LINK, BINARY_FLOAT_NODE_WORDS, binaryLeafCount, binaryLeafStart, isBinaryLeaf } from '../../bvh/binaryLayout';
import { BatchCounters, BatchStack } from '../batch/batchItems';
import { rayBatchCounters, type QueryCounters } from '../counters';
import { voteModeFor, walkBinaryFloat, walkBinaryQuantized, walkWideFloat, walkWideQuantized } from '../batch/batchWalk';
import { getRayTriangleKernel } from '../rayTriangle/registry';
import { RayBatchItems } from './batchRays';
import { traverseBinaryFloat, traverseBinaryQuantized } from './binaryTraverse';
import { isValidRay } from './validRay';
import { MODE_ANY, MODE_CLOSEST, type CastOptions, type RayBatch, type RayHits, type RayTree } from './rayTypes';
import { sortingCode } from './sorting';
import { StrategyWorkspace } from './strategyWorkspace';
import { traverseWideFloat, traverseWideQuantized } from './wideTraverse';
import { CastOrder } from './rayOrder';
import { castsInOrder } from './rayStaging';

/** The one-ray-at-a-time strategies' cast order for big batches (rayOrder.ts), as the reference walk's. */
const castOrder = new CastOrder();

/** Batches: below a node reached by fewer rays than this, each finishes the subtree alone (CastOptions.aloneBelow). */
const DEFAULT_ALONE_BELOW = 4;

/** Everything castRaysWith keeps per BVH: the binary layout, the 4-way permutations, scratch. */
interface StrategyState {
  /** bvhRevision when made: the packed triangles, permutations and binary tree follow the geometry. */
  revision: number;
  binary: BinaryBVH | null;
  permutations: Uint8Array | null;
  wideTriangles: Float32Array | null;
  binaryTriangles: Float32Array | null;
  single: StrategyWorkspace | null;
  /** Per binary node, the union of the masks of the triangles below it (binaryNodeMasksFor). */
  binaryMasks: Uint32Array | null;
  stack: BatchStack | null;
  items: RayBatchItems | null;
  readonly counters: BatchCounters;
  readonly scratch: Float64Array;
}

const states = new WeakMap<BVH, StrategyState>();

function stateFor(bvh: BVH): StrategyState {
  let state = states.get(bvh);
  const revision = bvhRevision(bvh);
  if (state === undefined || state.revision !== revision) {
    state = {
      revision,
      binary: null,
      permutations: null,
      wideTriangles: null,
      binaryTriangles: null,
      single: null,
      binaryMasks: null,
      stack: null,
      items: null,
      counters: new BatchCounters(),
      scratch: new Float64Array(40),
    };
    states.set(bvh, state);
  }
  return state;
}

/** The per-octant slot permutations of a 4-way BVH (8 bytes per node), computed once and kept with it. */
export function octantPermutationsFor(bvh: BVH): Uint8Array {
  const state = stateFor(bvh);
  if (state.permutations === null) state.permutations = wideOctantPermutations(bvh);
  return state.permutations;
}

/** The leaf-ordered triangle copy for one tree of a BVH, built once and kept with it. */
export function leafTrianglesFor(bvh: BVH, tree: RayTree): Float32Array {
  const state = stateFor(bvh);
  if (tree === 'binary') {
    if (state.binary === null) state.binary = binaryBVHFor(bvh);
    if (state.binaryTriangles === null) {
      // The same builder gives the same leaf order: share the 4-way tree's copy when it already exists.
      const order = state.binary.triangleOrder;
      const wide = bvh.triangleOrder;
      const same = state.wideTriangles !== null && wide !== null && wide.length === order.length && wide.every((v, i) => v === order[i]);
      state.binaryTriangles = same ? state.wideTriangles : packLeafTriangles(bvh.positions, bvh.indices, order);
    }
    return state.binaryTriangles!;
  }
  if (state.wideTriangles === null) state.wideTriangles = packLeafTriangles(bvh.positions, bvh.indices, bvh.triangleOrder);
  return state.wideTriangles;
}

/**
 * The union of the collision masks below each node of the BVH's binary tree, built on the first
 * filtered cast over it and kept with it: the binary nodes have no spare bits for an index into the
 * BVH's interned table, so the unions live beside them (4 bytes per node). Children follow their
 * parent in the layout, so one descending pass sees every child before its parent.
 */
export function binaryNodeMasksFor(bvh: BVH): Uint32Array {
  const state = stateFor(bvh);
  if (state.binary === null) state.binary = binaryBVHFor(bvh);
  if (state.binaryMasks === null) {
    const { nodes, triangleOrder } = state.binary;
    const { materialIds, materialMasks } = bvh.masks;
    const u32 = nodes.floatU32;
    const unions = new Uint32Array(nodes.nodeCount);
    for (let node = nodes.nodeCount - 1; node >= 0; node--) {
      const link = u32[BINARY_FLOAT_NODE_WORDS * node + BINARY_FLOAT_LINK]!;
      let union = 0;
      if (isBinaryLeaf(link)) {
        const first = binaryLeafStart(link);
        const end = first + binaryLeafCount(link);
        for (let k = first; k < end; k++) union |= materialMasks[materialIds[triangleOrder[k]!]!]!;
      } else union = unions[link]! | unions[link + 1]!;
      unions[node] = union >>> 0;
    }
    state.binaryMasks = unions;
  }
  return state.binaryMasks;
}

/**
 * Builds now what a strategy would otherwise build on first use: the binary layout (the builder run
 * again with the BVH's options) and the 4-way permutations. Returns the milliseconds spent.
 */
export function prepareRayStrategies(bvh: BVH, what: { binary?: boolean; permutations?: boolean; packedTriangles?: boolean } = {}): number {
  const start = performance.now();
  const state = stateFor(bvh);
  if (what.binary !== false && state.binary === null) state.binary = binaryBVHFor(bvh);
  if (what.permutations !== false) octantPermutationsFor(bvh);
  if (what.packedTriangles !== false) {
    leafTrianglesFor(bvh, '4-way');
    if (what.binary !== false) leafTrianglesFor(bvh, 'binary');
  }
  return performance.now() - start;
}

/**
 * castRays' strategy walks (castRays resolved and checked the options and buffers): the binary or the
 * 4-way tree, quantized or float, a node sorting, one ray at a time or in batches (closest or any hit),
 * leaf triangles packed or indexed. Same result conventions as castRays. The binary layout and the
 * 4-way permutations are built on first use (see prepareRayStrategies).
 *
 * Counters: for the binary tree a node visit is one ray-box test of a popped node, so nodesVisited =
 * boxesTested; for the 4-way tree a visit is a node whose child boxes the ray tests (four each one at a
 * time; in batches only the non-empty slots count).
 */
export function castWithStrategy(bvh: BVH, rays: RayBatch, hits: RayHits, strategy: CastOptions, filtering: boolean): QueryCounters {
  const state = stateFor(bvh);
  const binaryTree = strategy.tree === 'binary';
  if (binaryTree && state.binary === null) state.binary = binaryBVHFor(bvh);
  const sorting = sortingCode(strategy.sorting);
  const permutations = !binaryTree && strategy.sorting === 'precomputed' ? octantPermutationsFor(bvh) : null;
  const kernel = getRayTriangleKernel(strategy.triangleTest);
  const mode = strategy.mode === 'any' ? MODE_ANY : MODE_CLOSEST;
  const leafTriangles = strategy.triangles === 'packed' ? leafTrianglesFor(bvh, strategy.tree) : null;
  const binaryDepth = state.binary?.nodes.maxDepth ?? 0;
  const stackCapacity = Math.max(binaryDepth + 2, 3 * bvh.maxDepth + 8);
  if (state.single === null || state.single.binaryStack.length < binaryDepth + 2) state.single = new StrategyWorkspace(binaryDepth, bvh.maxDepth);
  if (state.stack === null || state.stack.capacity < stackCapacity) state.stack = new BatchStack(stackCapacity);
  const single = state.single;
  single.resetCounters();
  const counters = state.counters;
  counters.reset();
  const masks = bvh.masks;
  const binaryNodeMasks = filtering && binaryTree ? binaryNodeMasksFor(bvh) : null;
  single.filtering = filtering;
  single.filter = strategy.filter;
  single.materialIds = masks.materialIds;
  single.materialMasks = masks.materialMasks;
  if (binaryNodeMasks !== null) single.binaryNodeMasks = binaryNodeMasks;

  const { origins, directions, tMax } = rays;
  const hitT = hits.t;
  const hitTriangle = hits.triangle;
  let invalidRays = 0;

  if (strategy.batchSize === 0) {
    const binary = state.binary;
    const quantized = strategy.layout === 'quantized';
    const rayData = single.rayData;
    const order = bvh.quantized !== null && castsInOrder(true, rays.count) ? castOrder.order(rays, rays.count, bvh.quantized.rootFrame) : null;
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
      if (binaryTree) {
        if (quantized)
          traverseBinaryQuantized(
            binary!,
            kernel,
            rayData,
            leafTriangles,
            single,
            ox,
            oy,
            oz,
            dx,
            dy,
            dz,
            limit,
            mode,
            strategy.doubleSided,
            sorting,
          );
        else traverseBinaryFloat(binary!, kernel, rayData, leafTriangles, single, ox, oy, oz, dx, dy, dz, limit, mode, strategy.doubleSided, sorting);
      } else if (quantized)
        traverseWideQuantized(
          bvh,
          bvh.quantized!,
          permutations,
          kernel,
          rayData,
          leafTriangles,
          single,
          ox,
          oy,
          oz,
          dx,
          dy,
          dz,
          limit,
          mode,
          strategy.doubleSided,
          sorting,
        );
      else
        traverseWideFloat(
          bvh,
          bvh.float!,
          permutations,
          kernel,
          rayData,
          leafTriangles,
          single,
          ox,
          oy,
          oz,
          dx,
          dy,
          dz,
          limit,
          mode,
          strategy.doubleSided,
          sorting,
        );
      hitT[ray] = single.bestT;
      hitTriangle[ray] = single.bestTriangle;
    }
    return rayBatchCounters(single, rays.count, invalidRays, hitTriangle);
  }

  const capacity = Math.max(1, Math.min(strategy.batchSize, rays.count));
  if (state.items === null || state.items.capacity < capacity) state.items = new RayBatchItems(capacity);
  const items = state.items;
  items.kernel = kernel;
  items.mode = mode;
  items.doubleSided = strategy.doubleSided;
  items.positions = bvh.positions;
  items.indices = bvh.indices;
  items.triangleOrder = binaryTree ? state.binary!.triangleOrder : bvh.triangleOrder;
  items.leafTriangles = leafTriangles;
  items.aloneBelow = strategy.aloneBelow ?? DEFAULT_ALONE_BELOW;
  items.binary = state.binary;
  items.bvh = bvh;
  items.quantized = strategy.layout === 'quantized';
  items.sorting = sorting;
  items.permutations = permutations;
  items.workspace = single;
  items.voteMode = voteModeFor(sorting);
  items.trianglesTested = 0;
  items.trianglesMasked = 0;
  items.filtering = filtering;
  items.filter = strategy.filter;
  items.materialIds = masks.materialIds;
  items.materialMasks = masks.materialMasks;
  const wideNodeMasks = filtering ? masks.nodeMasks : null;
  const filter = strategy.filter;
  const stack = state.stack;

  const run = (): void => {
    const count = items.count;
    if (count === 0) return;
    if (binaryTree) {
      if (strategy.layout === 'quantized') walkBinaryQuantized(state.binary!.nodes, items, count, sorting, stack, counters, binaryNodeMasks, filter);
      else walkBinaryFloat(state.binary!.nodes, items, count, sorting, stack, counters, binaryNodeMasks, filter);
    } else if (strategy.layout === 'quantized')
      walkWideQuantized(bvh.quantized!, permutations, items, count, sorting, stack, counters, state.scratch, wideNodeMasks, filter);
    else walkWideFloat(bvh.float!, permutations, items, count, sorting, stack, counters, state.scratch, wideNodeMasks, filter);
    items.finish();
    for (let j = 0; j < count; j++) {
      const ray = items.rayIndex[j]!;
      hitT[ray] = items.hitT[j]!;
      hitTriangle[ray] = items.bestTriangle[j]!;
    }
  };

  // Two passes: rays without a zero direction component, then those with one, never mixed in a batch.
  for (let pass = 0; pass < 2; pass++) {
    const regularPass = pass === 0;
    items.clear(regularPass);
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
        if (regularPass) {
          hitT[ray] = NaN;
          hitTriangle[ray] = -1;
          invalidRays++;
        }
        continue;
      }
      if ((dx !== 0 && dy !== 0 && dz !== 0) !== regularPass) continue;
      items.add(ray, ox, oy, oz, dx, dy, dz, limit);
      if (items.count === capacity) {
        run();
        items.clear(regularPass);
      }
    }
    run();
  }
  const trianglesTested = items.trianglesTested;
  const walk = {
    nodesVisited: counters.nodesVisited + single.nodesVisited,
    boxesTested: counters.boxesTested + single.boxesTested,
    trianglesTested: trianglesTested + single.trianglesTested,
    subtreesMasked: counters.subtreesMasked + single.subtreesMasked,
    trianglesMasked: items.trianglesMasked + single.trianglesMasked,
  };
  return rayBatchCounters(walk, rays.count, invalidRays, hits.triangle);
}
