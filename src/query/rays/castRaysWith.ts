import { binaryBVHFor, type BinaryBVH } from '../../bvh/binaryBVH';
import type { BVH } from '../../bvh/buildBVH';
import { wideOctantPermutations } from '../../bvh/octantOrder';
import { packLeafTriangles } from '../../bvh/leafTriangles';
import { BVH_LAYOUTS, type BVHLayoutName } from '../../bvh/options';
import { InvalidParameterError } from '../../errors';
import { BatchCounters, BatchStack } from '../batch/batchItems';
import { rayBatchCounters, type QueryCounters } from '../counters';
import { voteModeFor, walkBinaryFloat, walkBinaryQuantized, walkWideFloat, walkWideQuantized } from '../batch/batchWalk';
import { DEFAULT_RAY_TRIANGLE_KERNEL, getRayTriangleKernel, type RayTriangleKernelName } from '../rayTriangle/registry';
import { RayBatchItems } from './batchRays';
import { traverseBinaryFloat, traverseBinaryQuantized } from './binaryTraverse';
import { isValidRay } from './castRays';
import { MODE_ANY, MODE_CLOSEST, type RayBatch, type RayHits } from './rayTypes';
import { BINARY_SORTINGS, WIDE_SORTINGS, sortingCode, type NodeSorting } from './sorting';
import { StrategyWorkspace } from './strategyWorkspace';
import { traverseWideFloat, traverseWideQuantized } from './wideTraverse';

export const RAY_TREES = ['binary', '4-way'] as const;
export type RayTree = (typeof RAY_TREES)[number];
/** Batch sizes offered by the sandbox and the benchmark; 0 = one ray at a time, Infinity = all rays. */
export const RAY_BATCH_SIZES = [0, 1, 4, 16, 64, 256, Infinity] as const;

/** A strategy set for castRaysWith: tree, layout, node sorting, batching, and the usual cast options. */
export interface RayStrategy {
  tree: RayTree;
  layout: BVHLayoutName;
  sorting: NodeSorting;
  /** 0: one ray at a time (per-ray child order); n ≥ 1: n rays go down the tree together; Infinity: all. */
  batchSize: number;
  mode: 'closest' | 'any';
  triangleTest: RayTriangleKernelName;
  doubleSided: boolean;
  /** 'packed': leaves read their triangles from a copy in leaf order (36 bytes per reference, few cache
   *  lines per leaf); 'indexed': through triangleOrder, the index buffer and the vertices. */
  triangles: 'packed' | 'indexed';
  /** Batches only: a ray that is alone, or among fewer than this many, below a node finishes that
   *  subtree by itself with its own child order (0 or 1: never; the whole walk stays batched). */
  aloneBelow: number;
}

export const DEFAULT_RAY_STRATEGY: Readonly<RayStrategy> = Object.freeze({
  tree: '4-way',
  layout: 'quantized',
  sorting: 'tmax',
  batchSize: 0,
  mode: 'closest',
  triangleTest: DEFAULT_RAY_TRIANGLE_KERNEL,
  doubleSided: false,
  triangles: 'packed',
  aloneBelow: 4,
});

export function resolveRayStrategy(input: Partial<RayStrategy>): RayStrategy {
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<RayStrategy>;
  const strategy: RayStrategy = { ...DEFAULT_RAY_STRATEGY, ...given };
  if (given.sorting === undefined && strategy.tree === 'binary') strategy.sorting = 'precomputed';
  if (!(RAY_TREES as readonly string[]).includes(strategy.tree)) throw new InvalidParameterError('tree', "'binary' or '4-way'", strategy.tree);
  if (!(BVH_LAYOUTS as readonly string[]).includes(strategy.layout))
    throw new InvalidParameterError('layout', "'quantized' or 'float'", strategy.layout);
  const sortings: readonly string[] = strategy.tree === 'binary' ? BINARY_SORTINGS : WIDE_SORTINGS;
  if (!sortings.includes(strategy.sorting))
    throw new InvalidParameterError('sorting', `for the ${strategy.tree} tree one of ${sortings.map((s) => `'${s}'`).join(', ')}`, strategy.sorting);
  const size = strategy.batchSize;
  if (!(typeof size === 'number' && size >= 0 && (Number.isInteger(size) || size === Infinity)))
    throw new InvalidParameterError('batchSize', 'a whole number ≥ 0 or Infinity', size);
  if (!(Number.isInteger(strategy.aloneBelow) && strategy.aloneBelow >= 0))
    throw new InvalidParameterError('aloneBelow', 'a whole number ≥ 0', strategy.aloneBelow);
  if (strategy.mode !== 'closest' && strategy.mode !== 'any') throw new InvalidParameterError('mode', "'closest' or 'any'", strategy.mode);
  getRayTriangleKernel(strategy.triangleTest, 'triangleTest');
  if (strategy.triangles !== 'packed' && strategy.triangles !== 'indexed')
    throw new InvalidParameterError('triangles', "'packed' or 'indexed'", strategy.triangles);
  if (typeof strategy.doubleSided !== 'boolean') throw new InvalidParameterError('doubleSided', 'true or false', strategy.doubleSided);
  return strategy;
}

/** Everything castRaysWith keeps per BVH: the binary layout, the 4-way permutations, scratch. */
interface StrategyState {
  binary: BinaryBVH | null;
  permutations: Uint8Array | null;
  wideTriangles: Float32Array | null;
  binaryTriangles: Float32Array | null;
  single: StrategyWorkspace | null;
  stack: BatchStack | null;
  items: RayBatchItems | null;
  readonly counters: BatchCounters;
  readonly scratch: Float64Array;
}

const states = new WeakMap<BVH, StrategyState>();

function stateFor(bvh: BVH): StrategyState {
  let state = states.get(bvh);
  if (state === undefined) {
    state = {
      binary: null,
      permutations: null,
      wideTriangles: null,
      binaryTriangles: null,
      single: null,
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

function checkBuffers(bvh: BVH, rays: RayBatch, hits: RayHits, strategy: RayStrategy): void {
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
  if (strategy.tree === '4-way' && (strategy.layout === 'quantized' ? bvh.quantized : bvh.float) === null) {
    throw new InvalidParameterError('layout', `a layout the BVH was built with (${bvh.options.layouts.join(', ')})`, strategy.layout);
  }
}

/**
 * Casts rays with a chosen strategy set: the binary or the 4-way tree, quantized or float, a node
 * sorting, one ray at a time or in batches (closest or any hit). Same result conventions as castRays:
 * hits written per ray, invalid rays flagged (t = NaN, triangle −1) and counted. The binary layout and
 * the 4-way permutations are built on first use (see prepareRayStrategies).
 *
 * Counters: for the binary tree a node visit is one ray-box test of a popped node, so nodesVisited =
 * boxesTested; for the 4-way tree a visit is a node whose child boxes the ray tests (four each one at a
 * time; in batches only the non-empty slots count).
 */
export function castRaysWith(bvh: BVH, rays: RayBatch, hits: RayHits, options: Partial<RayStrategy> = {}): QueryCounters {
  const strategy = resolveRayStrategy(options);
  checkBuffers(bvh, rays, hits, strategy);
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

  const { origins, directions, tMax } = rays;
  const hitT = hits.t;
  const hitTriangle = hits.triangle;
  let invalidRays = 0;

  if (strategy.batchSize === 0) {
    const binary = state.binary;
    const quantized = strategy.layout === 'quantized';
    const rayData = single.rayData;
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
  items.aloneBelow = strategy.aloneBelow;
  items.binary = state.binary;
  items.bvh = bvh;
  items.quantized = strategy.layout === 'quantized';
  items.sorting = sorting;
  items.permutations = permutations;
  items.workspace = single;
  items.voteMode = voteModeFor(sorting);
  items.trianglesTested = 0;
  const stack = state.stack;

  const run = (): void => {
    const count = items.count;
    if (count === 0) return;
    if (binaryTree) {
      if (strategy.layout === 'quantized') walkBinaryQuantized(state.binary!.nodes, items, count, sorting, stack, counters);
      else walkBinaryFloat(state.binary!.nodes, items, count, sorting, stack, counters);
    } else if (strategy.layout === 'quantized')
      walkWideQuantized(bvh.quantized!, permutations, items, count, sorting, stack, counters, state.scratch);
    else walkWideFloat(bvh.float!, permutations, items, count, sorting, stack, counters, state.scratch);
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
  };
  return rayBatchCounters(walk, rays.count, invalidRays, hits.triangle);
}
