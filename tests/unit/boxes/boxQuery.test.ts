import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, refitBVH, type BVH, type BuildOptions } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { EXIT_CONTAINED, EXIT_COUNT, EXIT_OVERLAP, EXIT_SEPARATED, isOverlapExit } from '../../../src/query/boxTriangle/index';
import { loadSimdBoxTriangles } from '../../../src/query/boxTriangle/boxTriangleKernel';
import {
  createBoxOverlapList,
  overlapBoxes,
  overlapBoxesBruteForce,
  type BoxBatch,
  type BoxOverlapList,
  type BoxQueryOptions,
} from '../../../src/query/boxes/index';
import { applyTerrainEdit, generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates, type TestMesh } from '../bvh/meshes';
import { meshBounds, type Bounds } from '../rays/raySets';

let terrain: TerrainMesh;
beforeAll(() => {
  terrain = generateTerrain({ cells: 40, seed: 17 });
});

function emptyBatch(count: number, oriented = false): BoxBatch {
  return { count, centers: new Float32Array(3 * count), halfSizes: new Float32Array(3 * count), axes: oriented ? new Float32Array(9 * count) : null };
}

/** Random boxes over the mesh bounds: sizes from a sliver to a third of the mesh, some flat. */
function randomBoxes(seed: number, count: number, bounds: Bounds, oriented = false): BoxBatch {
  const random = new Random(seed);
  const batch = emptyBatch(count, oriented);
  const extent = Math.max(bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1], bounds.max[2] - bounds.min[2]);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      batch.centers[3 * i + k] = random.range(bounds.min[k]!, bounds.max[k]!);
      batch.halfSizes[3 * i + k] = i % 17 === 0 && k === 1 ? 0 : extent * random.range(0.002, 0.15) ** 2 * 4;
    }
    if (oriented) setRandomAxes(batch.axes!, i, random);
  }
  return batch;
}

/** A random rotation (from a random unit quaternion) as three rows. */
function setRandomAxes(axes: Float32Array, i: number, random: Random): void {
  let [w, x, y, z] = [random.range(-1, 1), random.range(-1, 1), random.range(-1, 1), random.range(-1, 1)];
  const length = Math.hypot(w, x, y, z);
  [w, x, y, z] = [w / length, x / length, y / length, z / length];
  axes.set(
    [
      1 - 2 * (y * y + z * z),
      2 * (x * y - w * z),
      2 * (x * z + w * y),
      2 * (x * y + w * z),
      1 - 2 * (x * x + z * z),
      2 * (y * z - w * x),
      2 * (x * z - w * y),
      2 * (y * z + w * x),
      1 - 2 * (x * x + y * y),
    ],
    9 * i,
  );
}

/** The list as sorted "box:triangle:exit" strings. */
function pairs(list: BoxOverlapList): string[] {
  const result: string[] = [];
  for (let i = 0; i < list.count; i++) result.push(`${list.box[i]}:${list.triangle[i]}:${list.exit[i]}`);
  return result.sort();
}

function expectSameAsBruteForce(
  mesh: { positions: Float32Array; indices: Uint32Array },
  bvh: BVH,
  boxes: BoxBatch,
  options: Partial<BoxQueryOptions> = {},
): number {
  const capacity = 200_000;
  const expected = createBoxOverlapList(capacity);
  overlapBoxesBruteForce(mesh.positions, mesh.indices, boxes, expected, options);
  const actual = createBoxOverlapList(capacity);
  overlapBoxes(bvh, boxes, actual, options);
  expect(expected.dropped).toBe(0);
  expect(actual.dropped).toBe(0);
  if (options.includeRejected) {
    // Rejected pairs depend on which leaves a box reaches; only the overlaps must match.
    const overlaps = (list: BoxOverlapList): string[] => pairs(list).filter((p) => isOverlapExit(Number(p.split(':')[2])));
    expect(overlaps(actual)).toEqual(overlaps(expected));
  } else expect(pairs(actual)).toEqual(pairs(expected));
  return expected.count;
}

describe('overlapBoxes against brute force', () => {
  for (const test of ['optimized', 'v1', 'v2'] as const) {
    for (const batched of [true, false]) {
      it(`random boxes on a terrain, ${test}, ${batched ? 'batched' : 'one walk per box'} (seed 601)`, () => {
        const bvh = buildBVH(terrain.positions, terrain.indices);
        const found = expectSameAsBruteForce(terrain, bvh, randomBoxes(601, 150, meshBounds(terrain.positions)), { test, batched });
        expect(found).toBeGreaterThan(500);
      });
    }
  }

  it('oriented boxes on a terrain, batched and not (seed 602)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const boxes = randomBoxes(602, 120, meshBounds(terrain.positions), true);
    const found = expectSameAsBruteForce(terrain, bvh, boxes);
    expectSameAsBruteForce(terrain, bvh, boxes, { batched: false, test: 'v1' });
    expect(found).toBeGreaterThan(300);
  });

  const meshes = (): TestMesh[] => [triangleSoup(7, 600), crossedSlivers(8, 300), stackedDuplicates(30), flatGrid(10), withDegenerates(12)];
  const buildVariants: Partial<BuildOptions>[] = [
    {},
    { spatialOverlapThreshold: 0 },
    { shareHalfFullLeaves: false },
    { maxLeafSize: 1 },
    { reorderTriangles: true },
  ];
  for (const options of buildVariants) {
    it(`adversarial meshes, build ${JSON.stringify(options)} (seed 603)`, () => {
      for (const mesh of meshes()) {
        const indices = mesh.indices.slice();
        const bvh = buildBVH(mesh.positions, indices, options);
        const reordered = { positions: mesh.positions, indices };
        const bounds = meshBounds(mesh.positions);
        expectSameAsBruteForce(reordered, bvh, randomBoxes(603, 60, bounds));
        expectSameAsBruteForce(reordered, bvh, randomBoxes(604, 30, bounds, true), { test: 'v2' });
        expectSameAsBruteForce(reordered, bvh, randomBoxes(605, 30, bounds), { includeRejected: true });
      }
    });
  }

  it('spatial splits: a triangle in two leaves is reported once per box', () => {
    const mesh = crossedSlivers(8, 300);
    const bvh = buildBVH(mesh.positions, mesh.indices, { spatialOverlapThreshold: 0 });
    expect(bvh.hasDuplicateReferences).toBe(true);
    const boxes = emptyBatch(1);
    boxes.halfSizes.set([100, 100, 100]); // everything
    const list = createBoxOverlapList(10_000);
    const counters = overlapBoxes(bvh, boxes, list);
    expect(list.count).toBe(300);
    expect(counters.hits).toBe(300);
    expect(counters.trianglesTested).toBeGreaterThan(300);
    expect(new Set(Array.from(list.triangle.subarray(0, list.count))).size).toBe(300);
    expect(list.exitCounts[EXIT_CONTAINED]).toBeGreaterThanOrEqual(300);
  });

  it('touching exactly: boxes with faces, edges and corners on a flat integer grid, and flat boxes in its plane', () => {
    const mesh = flatGrid(10);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const random = new Random(606);
    const boxes = emptyBatch(400);
    for (let i = 0; i < boxes.count; i++) {
      // Integer or half-integer centres and sizes: box faces land on grid lines and vertices.
      boxes.centers.set([random.int(21) / 2, random.int(5) / 2 - 1, random.int(21) / 2], 3 * i);
      boxes.halfSizes.set([random.int(5) / 2, random.int(3) / 2, random.int(5) / 2], 3 * i);
    }
    const found = expectSameAsBruteForce(mesh, bvh, boxes);
    expect(found).toBeGreaterThan(200);
  });
});

describe('overlapBoxes input and counters', () => {
  it('invalid boxes are skipped and counted; the rest still answer', () => {
    const mesh = flatGrid(4);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const boxes = emptyBatch(5, true);
    for (let i = 0; i < 5; i++) {
      boxes.centers.set([2, 0, 2], 3 * i);
      boxes.halfSizes.set([1, 1, 1], 3 * i);
      boxes.axes!.set([1, 0, 0, 0, 1, 0, 0, 0, 1], 9 * i);
    }
    boxes.centers[3] = NaN;
    boxes.halfSizes[7] = -1;
    boxes.halfSizes[9] = Infinity;
    boxes.axes!.set([1, 0, 0, 0, 2, 0, 0, 0, 1], 36); // not orthonormal
    const list = createBoxOverlapList(100);
    const counters = overlapBoxes(bvh, boxes, list);
    expect(counters.invalid).toBe(4);
    expect(new Set(Array.from(list.box.subarray(0, list.count)))).toEqual(new Set([0]));
    expect(list.count).toBeGreaterThan(0);
  });

  it('malformed calls throw InvalidParameterError', () => {
    const mesh = flatGrid(4);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const list = createBoxOverlapList(10);
    const boxes = emptyBatch(2);
    expect(() => overlapBoxes(bvh, { ...boxes, count: 3 }, list)).toThrow(InvalidParameterError);
    expect(() => overlapBoxes(bvh, { ...boxes, centers: new Float64Array(6) as unknown as Float32Array }, list)).toThrow(InvalidParameterError);
    expect(() => overlapBoxes(bvh, boxes, list, { test: 'v9' as never })).toThrow(InvalidParameterError);
    expect(() => overlapBoxes(buildBVH(mesh.positions, mesh.indices.slice(), { layouts: ['float'] }), boxes, list)).toThrow(InvalidParameterError);
  });

  it('a full list counts what did not fit', () => {
    const mesh = flatGrid(10);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const boxes = emptyBatch(1);
    boxes.centers.set([5, 0, 5]);
    boxes.halfSizes.set([20, 1, 20]);
    const list = createBoxOverlapList(50);
    const counters = overlapBoxes(bvh, boxes, list);
    expect(list.count).toBe(50);
    expect(list.dropped).toBe(150);
    expect(counters.hits).toBe(200);
    let tallied = 0;
    for (let e = 0; e < EXIT_COUNT; e++) tallied += list.exitCounts[e]!;
    expect(tallied).toBe(counters.trianglesTested);
  });

  it('batching decodes each node once for the batch: fewer node visits than one walk per box (seed 607)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const boxes = randomBoxes(607, 300, meshBounds(terrain.positions));
    const list = createBoxOverlapList(200_000);
    const batched = overlapBoxes(bvh, boxes, list);
    const single = overlapBoxes(bvh, boxes, list, { batched: false });
    expect(batched.boxesTested).toBe(single.boxesTested);
    expect(batched.trianglesTested).toBe(single.trianglesTested);
    expect(batched.childBoxesDecoded).toBeLessThan(single.childBoxesDecoded / 5);
    expect(batched.nodesVisited).toBeLessThan(single.nodesVisited);
  });
});

describe('the WebAssembly SIMD leaf test', () => {
  beforeAll(async () => {
    // Node 20+ has WebAssembly SIMD; null means the module was not built (npm run build:wasm).
    expect(await loadSimdBoxTriangles()).not.toBeNull();
  });

  /** Box:triangle of every overlap, whatever exit code the test keeps. */
  const overlapPairs = (list: BoxOverlapList): string[] =>
    pairs(list)
      .filter((p) => isOverlapExit(Number(p.split(':')[2])))
      .map((p) => p.split(':').slice(0, 2).join(':'))
      .sort();

  function expectSameAsOptimized(mesh: { positions: Float32Array; indices: Uint32Array }, bvh: BVH, boxes: BoxBatch, batched = true): number {
    const optimized = createBoxOverlapList(200_000);
    const simd = createBoxOverlapList(200_000);
    overlapBoxes(bvh, boxes, optimized, { test: 'optimized', batched });
    overlapBoxes(bvh, boxes, simd, { test: 'wasm-simd', batched, includeRejected: true });
    expect(overlapPairs(simd)).toEqual(overlapPairs(optimized));
    // Everything it rejects is reported as separated (it keeps no axis), nothing as an axis exit.
    for (let i = 0; i < simd.count; i++) expect([EXIT_OVERLAP, EXIT_SEPARATED]).toContain(simd.exit[i]);
    expectSameAsBruteForce(mesh, bvh, boxes, { test: 'wasm-simd', batched });
    return optimized.count;
  }

  it('finds the optimized test’s overlaps on a terrain, axis-aligned and oriented, batched and not (seed 611)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const bounds = meshBounds(terrain.positions);
    expect(expectSameAsOptimized(terrain, bvh, randomBoxes(611, 150, bounds))).toBeGreaterThan(500);
    expect(expectSameAsOptimized(terrain, bvh, randomBoxes(612, 120, bounds, true), false)).toBeGreaterThan(300);
  });

  it('reads the moved triangles after a refit, on the grid builder’s tree and a reordered mesh (seed 615)', () => {
    const mesh = generateTerrain({ cells: 32, seed: 615 });
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'grid' });
    const boxes = randomBoxes(615, 80, meshBounds(mesh.positions));
    expectSameAsOptimized(mesh, bvh, boxes);
    // A deep crater under the boxes: the kernel's float32 rows of the old heights must not answer.
    const edit = applyTerrainEdit(mesh, { frame: 0, kind: 'crater', at: [0, 0], radius: 30, amount: 25 });
    expect(edit).not.toBeNull();
    refitBVH(bvh, edit!.triangles);
    expectSameAsOptimized(mesh, bvh, boxes);
    // Leaves naming runs of the mesh itself (no order array).
    const reordered = generateTerrain({ cells: 24, seed: 616 });
    const direct = buildBVH(reordered.positions, reordered.indices, { reorderTriangles: true, spatialSplits: false });
    expect(direct.triangleOrder).toBeNull();
    expectSameAsOptimized(reordered, direct, randomBoxes(616, 80, meshBounds(reordered.positions)));
  });

  it('on adversarial meshes and exactly touching boxes on an integer grid (seed 613)', () => {
    for (const mesh of [triangleSoup(7, 600), crossedSlivers(8, 300), stackedDuplicates(30), withDegenerates(12)]) {
      const bvh = buildBVH(mesh.positions, mesh.indices);
      expectSameAsOptimized(mesh, bvh, randomBoxes(613, 60, meshBounds(mesh.positions)));
    }
    const grid = flatGrid(10);
    const random = new Random(614);
    const boxes = emptyBatch(300);
    for (let i = 0; i < boxes.count; i++) {
      boxes.centers.set([random.int(21) / 2, random.int(5) / 2 - 1, random.int(21) / 2], 3 * i);
      boxes.halfSizes.set([random.int(5) / 2, random.int(3) / 2, random.int(5) / 2], 3 * i);
    }
    expect(expectSameAsOptimized(grid, buildBVH(grid.positions, grid.indices), boxes)).toBeGreaterThan(150);
  });
});
