import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { gridCellsOf } from '../../../src/bvh/gridBuilder';
import { Random } from '../../../src/math/random';
import { castRays, castRaysBruteForce, type RayBatch } from '../../../src/query/rays/index';
import type { SimdRayKernel } from '../../../src/query/rays/rayKernel';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain } from '../../../src/terrain/index';
import { emptyHits, meshBounds, randomRays } from '../rays/raySets';
import { flatGrid, triangleSoup, type TestMesh } from './meshes';

let rayKernel: SimdRayKernel;
beforeAll(async () => {
  rayKernel = (await loadSimdRays())!;
  expect(rayKernel).not.toBeNull();
});

const terrain = (cells: number, seed: number, heightScale = 30): TestMesh => {
  const mesh = generateTerrain({ cells, seed, worldSize: 2 * cells, heightScale });
  return { name: `terrain ${cells}`, positions: mesh.positions.slice(), indices: mesh.indices.slice() };
};

/** Each triangle named by exactly one leaf reference. */
function expectEveryTriangleOnce(bvh: BVH): void {
  const seen = new Uint8Array(bvh.triangleCount);
  const order = bvh.triangleOrder;
  const references = order === null ? bvh.triangleCount : order.length;
  for (let i = 0; i < references; i++) seen[order === null ? i : order[i]!]!++;
  expect(seen.every((count) => count === 1)).toBe(true);
}

/**
 * Rays straight down onto every vertex and the middle of every edge of a few cells (where two or six
 * triangles meet, the watertight test's ties), plus random rays: hits as brute force's.
 */
function adversarialRays(mesh: TestMesh, seed: number): RayBatch {
  const bounds = meshBounds(mesh.positions);
  const random = randomRays(seed, 200, bounds);
  const vertices = mesh.positions.length / 3;
  const picks = 60;
  const count = random.count + 3 * picks;
  const origins = new Float32Array(3 * count);
  const directions = new Float32Array(3 * count);
  const tMax = new Float32Array(count).fill(Infinity);
  origins.set(random.origins);
  directions.set(random.directions);
  tMax.set(random.tMax);
  const pick = new Random(seed + 1);
  const side = Math.round(Math.sqrt(vertices));
  for (let i = 0; i < picks; i++) {
    const v = pick.int(vertices - side - 1);
    const p = mesh.positions;
    const at = [
      [p[3 * v]!, p[3 * v + 2]!],
      [(p[3 * v]! + p[3 * v + 3]!) / 2, p[3 * v + 2]!],
      [(p[3 * v + 3]! + p[3 * (v + side)]!) / 2, (p[3 * v + 5]! + p[3 * (v + side) + 2]!) / 2],
    ];
    for (let k = 0; k < 3; k++) {
      const r = random.count + 3 * i + k;
      origins.set([at[k]![0]!, bounds.max[1] + 5, at[k]![1]!], 3 * r);
      directions.set([0, -1, 0], 3 * r);
    }
  }
  return { count, origins, directions, tMax };
}

function expectRaysMatchBruteForce(mesh: TestMesh, bvh: BVH, rays: RayBatch): void {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, {});
  for (const [name, walk] of [
    ['quantized', (hits: ReturnType<typeof emptyHits>) => castRays(bvh, rays, hits, { layout: 'quantized' })],
    ['float', (hits: ReturnType<typeof emptyHits>) => castRays(bvh, rays, hits, { layout: 'float' })],
    ['simd', (hits: ReturnType<typeof emptyHits>) => rayKernel.cast(bvh, rays, hits, {})],
  ] as const) {
    const actual = emptyHits(rays.count);
    walk(actual);
    const mismatches: string[] = [];
    for (let i = 0; i < rays.count; i++)
      if (!Object.is(expected.t[i], actual.t[i])) mismatches.push(`${name} ray ${i}: expected t ${expected.t[i]}, got ${actual.t[i]}`);
    expect(mismatches.slice(0, 3)).toEqual([]);
  }
}

describe('the grid builder: a heightfield halved into quadrants', () => {
  it('recognises generateTerrain grids, and nothing that only has their counts', () => {
    for (const cells of [16, 37]) expect(gridCellsOf(terrain(cells, 3).positions, terrain(cells, 3).indices)).toBe(cells);
    expect(gridCellsOf(flatGrid(9).positions, flatGrid(9).indices)).toBe(9);
    const grid = terrain(16, 3);
    const swapped = grid.indices.slice();
    swapped.copyWithin(0, 6, 12);
    swapped.set(grid.indices.subarray(0, 6), 6);
    expect(gridCellsOf(grid.positions, swapped)).toBe(0);
    const bent = grid.indices.slice();
    bent[100] = bent[100]! + 1;
    expect(gridCellsOf(grid.positions, bent)).toBe(0);
    expect(gridCellsOf(grid.positions.subarray(3), grid.indices)).toBe(0);
    const soup = triangleSoup(4, 2 * 16 * 16);
    expect(gridCellsOf(soup.positions, soup.indices)).toBe(0);
  });

  for (const [label, mesh] of [
    ['ridged terrain, 37 cells (odd: uneven halves)', terrain(37, 5)],
    ['steep terrain, 24 cells', terrain(24, 9, 400)],
    ['flat grid (boxes of zero height)', flatGrid(20)],
  ] as const) {
    it(`${label}: every triangle in one leaf, rays as brute force's on every walk`, () => {
      const bvh = buildBVH(mesh.positions.slice(), mesh.indices.slice(), { builder: 'grid' });
      expect(bvh.stats.builder).toBe('grid');
      expect(bvh.stats.builderFallback).toBe('');
      expectEveryTriangleOnce(bvh);
      expectRaysMatchBruteForce(mesh, bvh, adversarialRays(mesh, 17));
    });
  }

  it('positions moved anywhere (the grid is its indices): boxes still hold every triangle', () => {
    const mesh = terrain(20, 7);
    const random = new Random(8);
    for (let i = 0; i < mesh.positions.length; i++) mesh.positions[i]! += random.range(-3, 3);
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'grid' });
    expect(bvh.stats.builder).toBe('grid');
    expectRaysMatchBruteForce(mesh, bvh, randomRays(23, 300, meshBounds(mesh.positions)));
  });

  it('a terrain of the same size reuses the kept shape and packs the same bytes as a fresh one', () => {
    const bytes = (bvh: BVH): number[] => [...new Uint8Array(bvh.quantized!.buffer)];
    const first = terrain(24, 41);
    const second = terrain(24, 42);
    const before = buildBVH(first.positions.slice(), first.indices.slice(), { builder: 'grid' });
    const other = buildBVH(second.positions.slice(), second.indices.slice(), { builder: 'grid' });
    expect(other.triangleOrder).toBe(before.triangleOrder);
    // Its boxes are its own: rays on the second terrain are brute force's.
    expectRaysMatchBruteForce(second, other, adversarialRays(second, 31));
    const again = buildBVH(first.positions.slice(), first.indices.slice(), { builder: 'grid' });
    expect(bytes(again)).toEqual(bytes(before));
    // One other size in between (a worker warming up on small terrains) keeps this shape too.
    const small = terrain(17, 1);
    buildBVH(small.positions, small.indices, { builder: 'grid' });
    const back = buildBVH(first.positions.slice(), first.indices.slice(), { builder: 'grid' });
    expect(back.triangleOrder).toBe(before.triangleOrder);
    expect(bytes(back)).toEqual(bytes(before));
    // Two other sizes in between make a new shape; coming back, the bytes are the same still.
    buildBVH(small.positions, small.indices, { builder: 'grid' });
    const smaller = terrain(16, 2);
    buildBVH(smaller.positions, smaller.indices, { builder: 'grid' });
    const rebuilt = buildBVH(first.positions.slice(), first.indices.slice(), { builder: 'grid' });
    expect(rebuilt.triangleOrder).not.toBe(before.triangleOrder);
    expect(bytes(rebuilt)).toEqual(bytes(before));
    // A shape whose arrays were transferred away (a worker posting the order without copying it) is made afresh.
    structuredClone(rebuilt.triangleOrder!.buffer, { transfer: [rebuilt.triangleOrder!.buffer] });
    const afterTransfer = buildBVH(first.positions.slice(), first.indices.slice(), { builder: 'grid' });
    expect(afterTransfer.triangleOrder!.length).toBe(first.indices.length / 3);
    expect(bytes(afterTransfer)).toEqual(bytes(before));
  });

  it('another mesh, or leaves too small for a cell, fall back to the SAH builder and say why', () => {
    const soup = triangleSoup(4, 300);
    const fromSoup = buildBVH(soup.positions, soup.indices, { builder: 'grid' });
    expect(fromSoup.stats.builder).toBe('typescript');
    expect(fromSoup.stats.builderFallback).toMatch(/not a heightfield grid/);
    expectRaysMatchBruteForce(soup, fromSoup, randomRays(29, 200, meshBounds(soup.positions)));
    const grid = terrain(16, 3);
    const tiny = buildBVH(grid.positions, grid.indices, { builder: 'grid', maxLeafSize: 1 });
    expect(tiny.stats.builder).toBe('typescript');
    expect(tiny.stats.builderFallback).toMatch(/two triangles/);
  });
});
