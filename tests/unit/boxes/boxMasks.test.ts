import { beforeAll, describe, expect, it } from 'vitest';
import { MASK_ALL, buildBVH, type BVH, type BuildOptions, type MaterialInput } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { loadSimdBoxTriangles } from '../../../src/query/boxTriangle/boxTriangleKernel';
import { isOverlapExit } from '../../../src/query/boxTriangle/index';
import {
  createBoxOverlapList,
  overlapBoxes,
  overlapBoxesBruteForce,
  type BoxBatch,
  type BoxOverlapList,
  type BoxQueryOptions,
} from '../../../src/query/boxes/index';
import { generateTerrain, materialFilter, terrainMaterialInput, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates } from '../bvh/meshes';
import { meshBounds, type Bounds } from '../rays/raySets';
import { filtersToTry, randomMaterials } from '../bvh/randomMaterials';

let terrain: TerrainMesh;
let terrainBvh: BVH;
beforeAll(async () => {
  terrain = generateTerrain({ cells: 40, seed: 17, waterLevel: 0.2, snowLevel: 0.7 });
  terrainBvh = buildBVH(terrain.positions, terrain.indices, {}, terrainMaterialInput(terrain));
  expect(await loadSimdBoxTriangles()).not.toBeNull();
});

/** Random boxes over the mesh bounds, some oriented: sizes from a sliver to a third of the mesh. */
function randomBoxes(seed: number, count: number, bounds: Bounds, oriented: boolean): BoxBatch {
  const random = new Random(seed);
  const batch: BoxBatch = {
    count,
    centers: new Float32Array(3 * count),
    halfSizes: new Float32Array(3 * count),
    axes: oriented ? new Float32Array(9 * count) : null,
  };
  const extent = Math.max(bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1], bounds.max[2] - bounds.min[2]);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      batch.centers[3 * i + k] = random.range(bounds.min[k]!, bounds.max[k]!);
      batch.halfSizes[3 * i + k] = i % 13 === 0 && k === 1 ? 0 : extent * random.range(0.002, 0.15) ** 2 * 4;
    }
    if (oriented) {
      // A rotation about a random axis, as rows.
      const angle = random.range(-Math.PI, Math.PI);
      let [x, y, z] = [random.range(-1, 1), random.range(-1, 1), random.range(-1, 1)];
      const length = Math.hypot(x, y, z) || 1;
      [x, y, z] = [x / length, y / length, z / length];
      const c = Math.cos(angle),
        s = Math.sin(angle),
        t = 1 - c;
      batch.axes!.set(
        [
          t * x * x + c,
          t * x * y - s * z,
          t * x * z + s * y,
          t * x * y + s * z,
          t * y * y + c,
          t * y * z - s * x,
          t * x * z - s * y,
          t * y * z + s * x,
          t * z * z + c,
        ],
        9 * i,
      );
    }
  }
  return batch;
}

const pairs = (list: BoxOverlapList): string[] => {
  const result: string[] = [];
  for (let i = 0; i < list.count; i++) result.push(`${list.box[i]}:${list.triangle[i]}:${list.exit[i]}`);
  return result.sort();
};

/** overlapBoxes with a filter equals the brute force that skips the triangles the filter rejects; returns the pairs. */
function expectFilteredPairs(
  mesh: { positions: Float32Array; indices: Uint32Array },
  materials: MaterialInput,
  bvh: BVH,
  boxes: BoxBatch,
  options: Partial<BoxQueryOptions> & { filter: number },
): number {
  const expected = createBoxOverlapList(200_000);
  overlapBoxesBruteForce(mesh.positions, mesh.indices, boxes, expected, options, materials);
  const actual = createBoxOverlapList(200_000);
  const counters = overlapBoxes(bvh, boxes, actual, options);
  expect(expected.dropped + actual.dropped).toBe(0);
  // Rejected pairs depend on which leaves a box reaches; with them listed only the overlaps must match.
  const compared = (list: BoxOverlapList): string[] => pairs(list).filter((p) => !options.includeRejected || isOverlapExit(Number(p.split(':')[2])));
  expect({ filter: options.filter, pairs: compared(actual) }).toEqual({ filter: options.filter, pairs: compared(expected) });
  for (let i = 0; i < actual.count; i++) expect((materials.masks[materials.ids[actual.triangle[i]!]!]! & options.filter) !== 0).toBe(true);
  expect(counters.hits).toBe(compared(actual).length);
  // A filter that keeps every material of the table pays for no check.
  if (materials.masks.every((mask) => (mask & options.filter) !== 0)) expect(counters.subtreesMasked + counters.trianglesMasked).toBe(0);
  return actual.count;
}

describe('box queries with collision filters against brute force', () => {
  it('terrain materials: every filter, batched and not, axis-aligned and oriented (seed 17)', () => {
    const input = terrainMaterialInput(terrain);
    const bounds = meshBounds(terrain.positions);
    const aligned = randomBoxes(701, 120, bounds, false);
    const oriented = randomBoxes(702, 60, bounds, true);
    const filters = [MASK_ALL, 0, materialFilter(['grass', 'rock', 'snow']), materialFilter(['water']), materialFilter(['rock', 'snow'])];
    let found = 0;
    for (const filter of filters)
      for (const batched of [true, false]) {
        found += expectFilteredPairs(terrain, input, terrainBvh, aligned, { filter, batched });
        expectFilteredPairs(terrain, input, terrainBvh, oriented, { filter, batched, test: 'v2' });
      }
    expect(found).toBeGreaterThan(1000);
  });

  it('filter 0 finds nothing and enters no node; MASK_ALL is the unfiltered query', () => {
    const boxes = randomBoxes(703, 80, meshBounds(terrain.positions), false);
    const list = createBoxOverlapList(100_000);
    const none = overlapBoxes(terrainBvh, boxes, list, { filter: 0 });
    expect(list.count).toBe(0);
    expect(none.nodesVisited).toBe(0);
    expect(none.trianglesTested).toBe(0);
    expect(none.subtreesMasked).toBe(1);
    const all = overlapBoxes(terrainBvh, boxes, list, { filter: MASK_ALL });
    const allPairs = pairs(list);
    const unfiltered = overlapBoxes(terrainBvh, boxes, list);
    expect(pairs(list)).toEqual(allPairs);
    expect(all).toEqual(unfiltered);
  });

  it('ignoring water cuts subtrees and tests fewer triangles', () => {
    const boxes = randomBoxes(704, 200, meshBounds(terrain.positions), false);
    const list = createBoxOverlapList(200_000);
    const all = overlapBoxes(terrainBvh, boxes, list);
    const wet = overlapBoxes(terrainBvh, boxes, list, { filter: materialFilter(['water']) });
    expect(wet.subtreesMasked).toBeGreaterThan(0);
    expect(wet.nodesVisited).toBeLessThan(all.nodesVisited);
    expect(wet.trianglesTested).toBeLessThan(all.trianglesTested);
    expect(wet.hits).toBeGreaterThan(0);
  });

  const meshes = [triangleSoup(7, 600), crossedSlivers(8, 300), stackedDuplicates(30), flatGrid(10), withDegenerates(12)];
  const buildVariants: Partial<BuildOptions>[] = [
    {},
    { spatialOverlapThreshold: 0 },
    { shareHalfFullLeaves: false },
    { maxLeafSize: 1 },
    { reorderTriangles: true },
  ];
  for (const [v, options] of buildVariants.entries()) {
    it(`random 32-bit masks and filters on adversarial meshes, build ${JSON.stringify(options)} (seed ${710 + v})`, () => {
      const random = new Random(710 + v);
      for (const mesh of meshes) {
        const indices = mesh.indices.slice();
        const materials = randomMaterials(random, indices.length / 3, 1 + random.int(16));
        const bvh = buildBVH(mesh.positions, indices, options, materials);
        // The BVH's triangle ids name the (possibly reordered) mesh; its material ids follow them.
        const reordered = { positions: mesh.positions, indices };
        const byBvhId = { ids: bvh.masks.materialIds, masks: materials.masks };
        const bounds = meshBounds(mesh.positions);
        const aligned = randomBoxes(random.int(1e6), 40, bounds, false);
        const oriented = randomBoxes(random.int(1e6), 20, bounds, true);
        for (const filter of filtersToTry(random)) {
          expectFilteredPairs(reordered, byBvhId, bvh, aligned, {
            filter,
            batched: random.int(2) === 0,
            test: (['optimized', 'v1', 'v2'] as const)[random.int(3)],
          });
          expectFilteredPairs(reordered, byBvhId, bvh, oriented, { filter });
          expectFilteredPairs(reordered, byBvhId, bvh, aligned, { filter, includeRejected: true, batched: false });
        }
      }
    });
  }

  it('the SIMD leaf test keeps the same pairs under a filter (seed 720)', () => {
    const random = new Random(720);
    const soup = triangleSoup(720, 800);
    const materials = randomMaterials(random, soup.indices.length / 3, 9);
    const bvh = buildBVH(soup.positions, soup.indices, {}, materials);
    const boxes = randomBoxes(721, 60, meshBounds(soup.positions), true);
    const overlapPairs = (list: BoxOverlapList): string[] => pairs(list).map((p) => p.split(':').slice(0, 2).join(':'));
    for (const filter of filtersToTry(random)) {
      const simd = createBoxOverlapList(100_000);
      const v1 = createBoxOverlapList(100_000);
      overlapBoxes(bvh, boxes, simd, { filter, test: 'wasm-simd' });
      overlapBoxesBruteForce(soup.positions, soup.indices, boxes, v1, { filter, test: 'v1' }, materials);
      expect(overlapPairs(simd).sort()).toEqual(overlapPairs(v1).sort());
    }
  });

  it('names a filter that is not a 32-bit unsigned integer', () => {
    const boxes = randomBoxes(705, 2, meshBounds(terrain.positions), false);
    for (const filter of [-1, 1.5, 2 ** 32, NaN, '3' as unknown as number])
      expect(() => overlapBoxes(terrainBvh, boxes, createBoxOverlapList(10), { filter })).toThrow(InvalidParameterError);
    expect(() => overlapBoxes(terrainBvh, boxes, createBoxOverlapList(10), { filter: -1 })).toThrow(/filter/);
  });
});
