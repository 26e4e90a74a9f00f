import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { MASK_ALL } from '../../../src/bvh/collisionMasks';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import {
  createCapsuleBatch,
  createCapsuleHits,
  createCapsuleTrace,
  sweepCapsules,
  type CapsuleBatch,
  type SweepOptions,
} from '../../../src/query/capsule/index';
import type { SimdCapsuleKernel } from '../../../src/query/capsule/capsuleKernel';
import { loadSimdCapsules, sweepCapsulesSimd } from '../../../src/query/capsule/simdCapsules';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, stackedDuplicates, triangleSoup, withDegenerates } from '../bvh/meshes';
import { axisDistance, centreAbove, inFront, randomSweeps, type Mesh, type SweepShape } from './capsuleCheck';
import { coplanarTerraces, flatPlane, heightAt, heightfield, needles, sharpRidges, spikes, type Heightfield } from './heightfields';

const BENCH_LIKE: SweepShape = { halfLength: [0, 1.5], radius: [0.05, 0.8], motion: [0.5, 8] };

let terrain: TerrainMesh;
let terrainBvh: BVH;
let kernel: SimdCapsuleKernel;
beforeAll(async () => {
  terrain = generateTerrain({ cells: 40, worldSize: 40, heightScale: 10, seed: 71 });
  terrainBvh = buildBVH(terrain.positions, terrain.indices);
  const loaded = await loadSimdCapsules();
  // Node 20+ has WebAssembly SIMD; a null here means the module was not built (npm run build:wasm).
  expect(loaded).not.toBeNull();
  kernel = loaded!;
});

interface Agreement {
  hits: number;
  startsInContact: number;
  /** Sweeps whose contact time agrees but whose triangle differs: two triangles touched at the very
   *  same time (a shared vertex or edge), where the box order decides which one is reported. */
  ties: number;
}

/**
 * The kernel against its TypeScript twin on the same sweeps: the same hit or miss and the same float32
 * toi for every sweep, and the same triangle, point and normal bit for bit (the culls and exact tests
 * are the same float64 operations), except at exact ties between triangles, where either triangle's
 * contact is right (checked: the reported triangle is at distance r from the axis at toi). The SIMD
 * box test lets a few more boxes through (float32 with a rounding slack), so its work counters are at
 * least the TypeScript ones, and within a few percent.
 */
function expectSameAsTypeScript(mesh: Mesh, bvh: BVH, batch: CapsuleBatch, options: Partial<SweepOptions> = {}): Agreement {
  const expected = createCapsuleHits(batch.count);
  const actual = createCapsuleHits(batch.count);
  const expectedCounters = sweepCapsules(bvh, batch, expected, options);
  const counters = kernel.sweep(bvh, batch, actual, options);
  const mismatches: string[] = [];
  let hits = 0,
    startsInContact = 0,
    ties = 0;
  for (let i = 0; i < batch.count; i++) {
    const i3 = 3 * i;
    const triangle = expected.triangle[i]!;
    if (triangle >= 0) hits++;
    if (triangle >= 0 && expected.toi[i] === 0) startsInContact++;
    const sameTime = triangle >= 0 === actual.triangle[i]! >= 0 && Object.is(expected.toi[i], actual.toi[i]);
    let same = sameTime && actual.triangle[i] === triangle;
    for (let a = 0; a < 3 && same; a++)
      same = Object.is(expected.point[i3 + a], actual.point[i3 + a]) && Object.is(expected.normal[i3 + a], actual.normal[i3 + a]);
    if (same) continue;
    if (sameTime && triangle >= 0 && actual.triangle[i] !== triangle) {
      const distance = axisDistance(mesh, batch, i, actual.toi[i]!, actual.triangle[i]!);
      if (actual.toi[i] === 0 ? distance <= batch.radius[i]! + 1e-5 : Math.abs(distance - batch.radius[i]!) <= 1e-4) {
        ties++;
        continue;
      }
    }
    if (mismatches.length < 5) {
      mismatches.push(
        `sweep ${i}: TypeScript ${triangle} at ${expected.toi[i]} (${Array.from(expected.normal.subarray(i3, i3 + 3)).join(',')}), SIMD ${actual.triangle[i]} at ${actual.toi[i]} (${Array.from(actual.normal.subarray(i3, i3 + 3)).join(',')})`,
      );
    }
  }
  expect(mismatches).toEqual([]);
  expect(ties).toBeLessThanOrEqual(Math.ceil(0.002 * batch.count));
  expect(counters.hits).toBe(expectedCounters.hits);
  expect(counters.invalid).toBe(expectedCounters.invalid);
  expect(counters.queries).toBe(expectedCounters.queries);
  expect(counters.boxesTested).toBe(4 * counters.nodesVisited);
  // The kernel's float32 culls keep a rounding slack, so of the triangles both walks reach it may cull a
  // few fewer; it reaches at least as many (its node boxes are as loose or looser), so those past the
  // culls are at least as many, and the culled count stays close.
  expect(counters.trianglesTested - counters.culled).toBeGreaterThanOrEqual(expectedCounters.trianglesTested - expectedCounters.culled);
  expect(counters.culled).toBeGreaterThanOrEqual(0.99 * expectedCounters.culled - 20);
  expect(counters.culled).toBeLessThanOrEqual(1.05 * expectedCounters.culled + 20);
  for (const key of ['nodesVisited', 'leavesVisited', 'trianglesTested', 'pairsKept', 'pairsTested', 'subtreesMasked', 'trianglesMasked'] as const) {
    expect(counters[key]).toBeGreaterThanOrEqual(expectedCounters[key]);
    expect(counters[key]).toBeLessThanOrEqual(1.05 * expectedCounters[key] + 20);
  }
  return { hits, startsInContact, ties };
}

const terrainCentre = (lift: [number, number]) => centreAbove((x, z) => sampleTerrainHeight(terrain, x, z), lift);
const fieldCentre = (field: Heightfield, lift: [number, number]) => centreAbove((x, z) => heightAt(field, x, z), lift);

const aboveTerrain = (): ((batch: CapsuleBatch, i: number) => boolean) => inFront((x, z) => sampleTerrainHeight(terrain, x, z), 20);

// The sweeps of tests/unit/capsule/sweepCapsules.test.ts, seed for seed, each also with the options
// that test leaves at their defaults.
describe('WebAssembly SIMD capsule sweeps against the TypeScript sweep', () => {
  it('random sweeps of random orientation over a terrain, from above, default options (seed 601)', () => {
    const batch = randomSweeps(601, 8000, BENCH_LIKE, terrainCentre([0, 4]), aboveTerrain());
    const result = expectSameAsTypeScript(terrain, terrainBvh, batch);
    expect(result.hits).toBeGreaterThan(3000);
    expect(result.startsInContact).toBeGreaterThan(400);
  });

  it('from anywhere, under the surface too, without edge masks (seed 602), and without the quick cull (seed 603)', () => {
    const anywhere = randomSweeps(602, 1500, BENCH_LIKE, terrainCentre([-3, 4]));
    expectSameAsTypeScript(terrain, terrainBvh, anywhere, { edgeMasks: false });
    expectSameAsTypeScript(terrain, terrainBvh, anywhere);
    const all = randomSweeps(603, 400, BENCH_LIKE, terrainCentre([-1, 4]));
    expectSameAsTypeScript(terrain, terrainBvh, all, { edgeMasks: false, quickCull: false });
    expectSameAsTypeScript(terrain, terrainBvh, all, { quickCull: false });
  });

  it('a BVH that reordered the mesh in place, and one with a swept-radius build (seed 606)', () => {
    const indices = terrain.indices.slice();
    const reordered = buildBVH(terrain.positions, indices, { reorderTriangles: true, spatialSplits: false });
    expect(reordered.triangleOrder).toBeNull();
    const batch = randomSweeps(606, 800, BENCH_LIKE, terrainCentre([0, 4]), aboveTerrain());
    expectSameAsTypeScript({ positions: terrain.positions, indices }, reordered, batch);
    const swept = buildBVH(terrain.positions, terrain.indices, { sweptRadius: 1.5 });
    expectSameAsTypeScript(terrain, swept, batch);
  });

  it('long capsules (seed 604), and spheres (zero-length axis) thin and fat (seed 605)', () => {
    const long = randomSweeps(604, 600, { halfLength: [2, 6], radius: [0.02, 0.3], motion: [0.5, 6] }, terrainCentre([0, 3]), aboveTerrain());
    expectSameAsTypeScript(terrain, terrainBvh, long);
    const spheres = randomSweeps(605, 600, { halfLength: [0, 0], radius: [0.05, 2], motion: [0.5, 6] }, terrainCentre([0, 4]), aboveTerrain());
    expectSameAsTypeScript(terrain, terrainBvh, spheres);
  });

  const fields: ReadonlyArray<[string, () => Heightfield]> = [
    ['sharp ridges', sharpRidges],
    ['coplanar terraces', coplanarTerraces],
    ['needles', () => needles(31)],
    ['spikes', () => spikes(32)],
    ['flat plane', flatPlane],
  ];
  fields.forEach(([name, make], index) => {
    it(`adversarial heightfield: ${name}, from above with edge masks and from anywhere without (seeds ${610 + index}, ${620 + index})`, () => {
      const field = make();
      const bvh = buildBVH(field.positions, field.indices);
      const front = randomSweeps(
        610 + index,
        2500,
        BENCH_LIKE,
        fieldCentre(field, [0, 4]),
        inFront((x, z) => heightAt(field, x, z), 12),
      );
      expect(expectSameAsTypeScript(field, bvh, front).hits).toBeGreaterThan(300);
      const anywhere = randomSweeps(620 + index, 400, BENCH_LIKE, fieldCentre(field, [-4, 4]));
      expectSameAsTypeScript(field, bvh, anywhere, { edgeMasks: false });
      expectSameAsTypeScript(field, bvh, anywhere);
    });
  });

  it('triangle soups, crossed slivers, stacked duplicates and degenerate triangles (seeds 630–633)', () => {
    const meshes = [triangleSoup(630, 300), crossedSlivers(631, 150), stackedDuplicates(20), withDegenerates(632)];
    for (const mesh of meshes) {
      const bvh = buildBVH(mesh.positions, mesh.indices);
      const batch = randomSweeps(633, 300, { halfLength: [0, 4], radius: [0.05, 2], motion: [1, 40] }, (random) => [
        random.range(-50, 50),
        random.range(-50, 50),
        random.range(-50, 50),
      ]);
      expectSameAsTypeScript(mesh, bvh, batch, { edgeMasks: false });
      expectSameAsTypeScript(mesh, bvh, batch);
    }
  });

  it('starts in contact: centres within r of the surface and axes through it (seed 640)', () => {
    const batch = randomSweeps(640, 1500, { halfLength: [0, 1.5], radius: [0.1, 0.8], motion: [0.5, 5] }, terrainCentre([-0.6, 0.6]));
    expect(expectSameAsTypeScript(terrain, terrainBvh, batch, { edgeMasks: false }).startsInContact).toBeGreaterThan(500);
  });

  it('exact grazes of a flat plane: sliding exactly r above it and a hair higher, descents onto its shared vertices, edges and diagonals', () => {
    const plane = flatPlane();
    const bvh = buildBVH(plane.positions, plane.indices);
    const rows: number[][][] = [];
    for (const r of [0.25, 0.5, 1]) {
      for (const y of [r, Math.fround(r * (1 + 2 ** -18))]) rows.push([[-3, y, 0.3], [-1, y, 0.7], [r], [6, 0, 2]]);
    }
    for (let x = -8; x <= 8; x += 0.5) {
      for (let z = -8; z <= 8; z += 0.5) {
        for (const axis of [
          [1, 0, 0],
          [0, 0, 1],
          [Math.SQRT1_2, 0, Math.SQRT1_2],
          [0.6, 0.8, 0],
        ]) {
          const h = 0.75,
            r = 0.5,
            lift = 3;
          const low = axis[1]! > 0 ? [x + h * axis[0]!, lift, z + h * axis[2]!] : [x, lift, z];
          rows.push([
            [low[0]! - h * axis[0]!, low[1]! + r - h * axis[1]!, low[2]! - h * axis[2]!],
            [low[0]! + h * axis[0]!, low[1]! + r + h * axis[1]!, low[2]! + h * axis[2]!],
            [r],
            [0, -10, 0],
          ]);
        }
      }
    }
    const batch = createCapsuleBatch(rows.length);
    rows.forEach(([p0, p1, r, motion], i) => {
      batch.start.set(p0!, 3 * i);
      batch.end.set(p1!, 3 * i);
      batch.radius[i] = r![0]!;
      batch.motion.set(motion!, 3 * i);
    });
    const result = expectSameAsTypeScript(plane, bvh, batch);
    expect(result.hits).toBe(rows.length - 3);
    expect(result.startsInContact).toBe(3);
  });

  it('spheres and capsules aimed at points of the shared edges of a tilted, uneven coplanar grid (seed 645)', () => {
    const xs = Array.from({ length: 25 }, (_, k) => -12 + k + 0.3 * Math.sin(k));
    const zs = Array.from({ length: 25 }, (_, k) => -12 + k + 0.3 * Math.cos(k));
    const field = heightfield('tilted plane', xs, zs, (_i, _j, x, z) => 0.3711 * x + 0.2137 * z);
    const bvh = buildBVH(field.positions, field.indices);
    const random = new Random(645);
    const count = 8000;
    const batch = createCapsuleBatch(count);
    const length = Math.hypot(0.3711, 1, 0.2137);
    const normal = [-0.3711 / length, 1 / length, -0.2137 / length];
    const { positions: p, indices } = field;
    for (let i = 0; i < count; i++) {
      let a = 0,
        b = 0;
      do {
        const t = random.int(indices.length / 3),
          e = random.int(3);
        a = indices[3 * t + e]!;
        b = indices[3 * t + ((e + 1) % 3)]!;
      } while (Math.abs(p[3 * a]!) > 9 || Math.abs(p[3 * a + 2]!) > 9);
      const u = random.next();
      const onEdge = [0, 1, 2].map((k) => p[3 * a + k]! + u * (p[3 * b + k]! - p[3 * a + k]!));
      const r = random.range(0.1, 1),
        lift = random.range(0.5, 3);
      const h = i % 2 === 0 ? 0 : random.range(0.2, 1.5);
      const side = [normal[2]!, 0, -normal[0]!];
      const sideLength = Math.hypot(side[0]!, side[2]!);
      const centre = onEdge.map((v, k) => v + (r + lift) * normal[k]!);
      batch.start.set(centre, 3 * i);
      batch.end.set(
        centre.map((v, k) => v + (h * side[k]!) / sideLength),
        3 * i,
      );
      batch.radius[i] = r;
      batch.motion.set(
        normal.map((v) => -2 * (r + lift) * v),
        3 * i,
      );
    }
    expect(expectSameAsTypeScript(field, bvh, batch).hits).toBe(count);
  });

  it('axis-parallel capsules and motions (±0 components), sweeps exactly along the flat plane and onto its vertices', () => {
    const plane = flatPlane();
    const bvh = buildBVH(plane.positions, plane.indices);
    const directions = [
      [0, -1, 0],
      [0, 1, 0],
      [1, 0, 0],
      [-0, -0, -1],
      [0, 0, 0],
      [1, -1, 0],
      [0, -3, 1],
    ];
    const batch = createCapsuleBatch(2 * 9 * directions.length);
    let i = 0;
    for (const [mx, my, mz] of directions) {
      for (let k = 0; k < 9; k++) {
        for (const lift of [0.5, 2]) {
          // Spheres and axis-parallel capsules over grid points, exactly r above or higher.
          const x = (k % 3) - 1,
            z = Math.floor(k / 3) - 1;
          batch.start.set([x, lift, z], 3 * i);
          batch.end.set(k % 2 === 0 ? [x, lift, z] : k % 3 === 0 ? [x + 1, lift, z] : [x, lift + 1, z], 3 * i);
          batch.radius[i] = 0.5;
          batch.motion.set([mx! * 4, my! * 4, mz! * 4], 3 * i);
          i++;
        }
      }
    }
    expect(heightAt(plane, 0, 0)).toBe(0);
    expectSameAsTypeScript(plane, bvh, batch);
    expectSameAsTypeScript(plane, bvh, batch, { edgeMasks: false });
  });
});

/** A random table of `count` material masks (0, MASK_ALL or random bits) and a random material per triangle. */
function randomMaterials(random: Random, triangles: number, count: number): { ids: Uint8Array; masks: Uint32Array } {
  const masks = Uint32Array.from({ length: count }, () => {
    const kind = random.int(4);
    return kind === 0 ? 0 : kind === 1 ? MASK_ALL : random.nextUint32() & (kind === 2 ? 0xff : MASK_ALL);
  });
  return { ids: Uint8Array.from({ length: triangles }, () => random.int(count)), masks };
}

describe('collision filters: the kernel skips what the TypeScript sweep skips', () => {
  it('a terrain with a random material table: filters 0, MASK_ALL and random 32-bit ones, each option (seeds 770–772)', () => {
    const random = new Random(770);
    const bvh = buildBVH(terrain.positions, terrain.indices, {}, randomMaterials(random, terrain.indices.length / 3, 10));
    const front = randomSweeps(771, 1500, BENCH_LIKE, terrainCentre([0, 4]), aboveTerrain());
    const anywhere = randomSweeps(772, 600, BENCH_LIKE, terrainCentre([-3, 4]));
    const filters = [0, MASK_ALL, 1, 0x80000000, random.nextUint32(), random.nextUint32(), random.nextUint32(), random.nextUint32()];
    let masked = 0;
    // More filters than the kernel keeps edge masks for, then the first ones again: slots are reused.
    for (const filter of [...filters, ...filters.slice(0, 3)]) {
      expectSameAsTypeScript(terrain, bvh, front, { filter });
      expectSameAsTypeScript(terrain, bvh, anywhere, { filter, edgeMasks: false });
      expectSameAsTypeScript(terrain, bvh, anywhere, { filter, quickCull: false });
      masked += kernel.sweep(bvh, front, createCapsuleHits(front.count), { filter }).subtreesMasked;
    }
    expect(masked).toBeGreaterThan(0);
    const none = kernel.sweep(bvh, front, createCapsuleHits(front.count), { filter: 0 });
    expect(none.hits).toBe(0);
    expect(none.nodesVisited).toBe(0);
    expect(none.subtreesMasked).toBe(front.count);
  });

  it('a filter that rejects nothing runs no check: same contacts and counters as no filter', () => {
    const batch = randomSweeps(773, 1000, BENCH_LIKE, terrainCentre([0, 4]), aboveTerrain());
    const unfiltered = createCapsuleHits(batch.count);
    const base = kernel.sweep(terrainBvh, batch, unfiltered);
    for (const filter of [MASK_ALL, 1, 0x80000000]) {
      const hits = createCapsuleHits(batch.count);
      expect(kernel.sweep(terrainBvh, batch, hits, { filter })).toEqual(base);
      expect(hits).toEqual(unfiltered);
    }
    expect(base.subtreesMasked + base.trianglesMasked).toBe(0);
  });

  const fields: ReadonlyArray<[string, () => Heightfield]> = [
    ['sharp ridges', sharpRidges],
    ['needles', () => needles(33)],
    ['spikes', () => spikes(34)],
  ];
  fields.forEach(([name, make], index) => {
    it(`adversarial heightfield: ${name}, materials alternating between neighbours, each filter (seed ${780 + index})`, () => {
      const field = make();
      const columns = field.xs.length - 1;
      const ids = Uint8Array.from(
        { length: field.indices.length / 3 },
        (_, t) => ((t & 1) + ((t >> 1) % columns) + Math.floor((t >> 1) / columns)) % 3,
      );
      const bvh = buildBVH(field.positions, field.indices, {}, { ids, masks: Uint32Array.from([1, 2, 4]) });
      const batch = randomSweeps(780 + index, 800, BENCH_LIKE, fieldCentre(field, [-4, 4]));
      for (const filter of [0, 1, 2, 4, 3, 5, 6, MASK_ALL]) {
        expectSameAsTypeScript(field, bvh, batch, { filter });
        expectSameAsTypeScript(field, bvh, batch, { filter, edgeMasks: false });
      }
    });
  });

  it('traces the triangles the filter keeps, as the TypeScript trace (seed 790)', () => {
    const random = new Random(790);
    const bvh = buildBVH(terrain.positions, terrain.indices, {}, randomMaterials(random, terrain.indices.length / 3, 4));
    const batch = randomSweeps(791, 40, { halfLength: [1, 2], radius: [0.5, 1], motion: [4, 8] }, terrainCentre([0.5, 2]));
    const filter = bvh.masks.materialMasks[1]! | bvh.masks.materialMasks[2]!;
    for (const traceCapsule of [0, 17, 39]) {
      const expected = createCapsuleTrace(5000);
      const actual = createCapsuleTrace(5000);
      sweepCapsules(bvh, batch, createCapsuleHits(40), { trace: expected, traceCapsule, filter });
      kernel.sweep(bvh, batch, createCapsuleHits(40), { trace: actual, traceCapsule, filter });
      const seen = new Map<number, [number, number]>();
      for (let k = 0; k < actual.count; k++) seen.set(actual.triangle[k]!, [actual.kept[k]!, actual.tested[k]!]);
      for (let k = 0; k < expected.count; k++) expect(seen.get(expected.triangle[k]!)).toEqual([expected.kept[k]!, expected.tested[k]!]);
      const { materialIds, materialMasks } = bvh.masks;
      for (let k = 0; k < actual.count; k++) expect(materialMasks[materialIds[actual.triangle[k]!]!]! & filter).not.toBe(0);
    }
  });

  it('rejects a bad filter with the error sweepCapsules throws', () => {
    const batch = randomSweeps(792, 4, BENCH_LIKE, terrainCentre([0, 4]));
    for (const filter of [-1, 2 ** 32, 0.5, NaN]) expect(() => kernel.sweep(terrainBvh, batch, createCapsuleHits(4), { filter })).toThrow(/filter/);
  });
});

describe('input handling', () => {
  it('degenerate capsules (zero radius, zero motion, zero-length segment) and invalid ones (NaN, ∞, negative radius) as sweepCapsules handles them', () => {
    const x = 0.3,
      z = -0.2,
      y = sampleTerrainHeight(terrain, x, z);
    const rows: { start: number[]; end: number[]; radius: number; motion: number[] }[] = [
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, y + 2, z], radius: 0.5, motion: [0, -5, 0] }, // plain
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, y + 2, z], radius: 0, motion: [0, -5, 0] }, // a segment
      { start: [x, y + 2, z], end: [x, y + 2, z], radius: 0, motion: [0, -5, 0] }, // a point
      { start: [x, y + 2, z], end: [x, y + 2, z], radius: 0.5, motion: [0, -5, 0] }, // a sphere
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, y + 2, z], radius: 0.5, motion: [0, 0, 0] }, // static, apart
      { start: [x - 0.5, y + 0.2, z], end: [x + 0.5, y + 0.2, z], radius: 0.5, motion: [0, 0, 0] }, // static, touching
      { start: [x - 0.5, y - 1, z], end: [x + 0.5, y + 1, z], radius: 0, motion: [0, 0, 0] }, // static segment through the surface
      { start: [NaN, y + 2, z], end: [x + 0.5, y + 2, z], radius: 0.5, motion: [0, -5, 0] },
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, NaN, z], radius: 0.5, motion: [0, -5, 0] },
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, y + 2, z], radius: 0.5, motion: [Infinity, -5, 0] },
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, y + 2, z], radius: -1, motion: [0, -5, 0] },
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, y + 2, z], radius: NaN, motion: [0, -5, 0] },
      { start: [x - 0.5, y + 2, z], end: [x + 0.5, y + 2, z], radius: Infinity, motion: [0, -5, 0] },
      { start: [-Infinity, y + 2, z], end: [x + 0.5, y + 2, z], radius: 0.5, motion: [0, -5, 0] },
    ];
    const batch = createCapsuleBatch(rows.length);
    rows.forEach((row, i) => {
      batch.start.set(row.start, 3 * i);
      batch.end.set(row.end, 3 * i);
      batch.radius[i] = row.radius;
      batch.motion.set(row.motion, 3 * i);
    });
    const expected = createCapsuleHits(rows.length);
    const actual = createCapsuleHits(rows.length);
    // Results left in the buffers by an earlier sweep must not leak into these.
    actual.point.fill(7);
    actual.normal.fill(7);
    const expectedCounters = sweepCapsules(terrainBvh, batch, expected);
    const counters = kernel.sweep(terrainBvh, batch, actual);
    expect(counters.invalid).toBe(7);
    expect(counters.invalid).toBe(expectedCounters.invalid);
    expect(Array.from(actual.triangle)).toEqual(Array.from(expected.triangle));
    expect(Array.from(actual.toi)).toEqual(Array.from(expected.toi));
    expect(Array.from(actual.point)).toEqual(Array.from(expected.point));
    expect(Array.from(actual.normal)).toEqual(Array.from(expected.normal));
    expect(Array.from(actual.triangle.subarray(0, 4)).every((t) => t >= 0)).toBe(true);
    expect([actual.triangle[4], actual.toi[4]]).toEqual([-1, 1]);
    expect(actual.toi[5]).toBe(0);
    expect(actual.toi[6]).toBe(0);
    expect(Array.from(actual.toi.subarray(7)).every(Number.isNaN)).toBe(true);
  });

  it('rejects malformed batches and options with the errors sweepCapsules throws', () => {
    const batch = createCapsuleBatch(2);
    const floatOnly = buildBVH(terrain.positions, terrain.indices, { layouts: ['float'] });
    const calls: [string, () => unknown][] = [
      ['count too big', () => kernel.sweep(terrainBvh, { ...batch, count: 3 }, createCapsuleHits(3))],
      ['hits too small', () => kernel.sweep(terrainBvh, batch, createCapsuleHits(1))],
      ['negative count', () => kernel.sweep(terrainBvh, { ...batch, count: -1 }, createCapsuleHits(2))],
      ['not a Float32Array', () => kernel.sweep(terrainBvh, { ...batch, radius: [1, 1] as unknown as Float32Array }, createCapsuleHits(2))],
      ['bad option', () => kernel.sweep(terrainBvh, batch, createCapsuleHits(2), { quickCull: 1 as unknown as boolean })],
      ['no quantized layout', () => kernel.sweep(floatOnly, batch, createCapsuleHits(2))],
    ];
    for (const [name, call] of calls) expect(call, name).toThrow(InvalidParameterError);
  });

  it('traces one capsule: the triangles it reached with the pairs kept and tested, as the TypeScript trace (seed 740)', () => {
    const batch = randomSweeps(740, 40, { halfLength: [1, 2], radius: [0.5, 1], motion: [4, 8] }, terrainCentre([0.5, 2]));
    for (const traceCapsule of [0, 17, 39]) {
      const expected = createCapsuleTrace(5000);
      const actual = createCapsuleTrace(5000);
      sweepCapsules(terrainBvh, batch, createCapsuleHits(40), { trace: expected, traceCapsule });
      kernel.sweep(terrainBvh, batch, createCapsuleHits(40), { trace: actual, traceCapsule });
      expect(expected.count).toBeGreaterThan(0);
      // The SIMD box test may let a leaf more through; every triangle the TypeScript sweep traced is
      // traced with the same pairs.
      const seen = new Map<number, [number, number]>();
      for (let k = 0; k < actual.count; k++) seen.set(actual.triangle[k]!, [actual.kept[k]!, actual.tested[k]!]);
      for (let k = 0; k < expected.count; k++) expect(seen.get(expected.triangle[k]!)).toEqual([expected.kept[k]!, expected.tested[k]!]);
      expect(actual.count).toBeLessThanOrEqual(expected.count + 14);
    }
    // A trace smaller than the sweep keeps its first entries.
    const small = createCapsuleTrace(3);
    kernel.sweep(terrainBvh, batch, createCapsuleHits(40), { trace: small, traceCapsule: 0 });
    expect(small.count).toBe(3);
  });

  it('switches between BVHs, grows its memory for big batches, and misses everything on a mesh without triangles (seed 750)', () => {
    const other = generateTerrain({ cells: 24, worldSize: 40, heightScale: 20, seed: 5 });
    const otherBvh = buildBVH(other.positions, other.indices);
    const small = randomSweeps(750, 200, BENCH_LIKE, terrainCentre([0, 4]));
    const big = randomSweeps(751, 20_000, BENCH_LIKE, terrainCentre([-1, 6]));
    expectSameAsTypeScript(terrain, terrainBvh, small);
    expectSameAsTypeScript(other, otherBvh, small);
    const before = kernel.memoryBytes;
    expectSameAsTypeScript(terrain, terrainBvh, big);
    expect(kernel.memoryBytes).toBeGreaterThan(before);
    expectSameAsTypeScript(other, otherBvh, small);
    expectSameAsTypeScript(terrain, terrainBvh, small);
    const empty = buildBVH(new Float32Array(0), new Uint32Array(0));
    const hits = createCapsuleHits(small.count);
    const counters = kernel.sweep(empty, small, hits);
    expect(counters.hits).toBe(0);
    expect(Array.from(hits.triangle).every((t) => t === -1)).toBe(true);
    expect(Array.from(hits.toi).every((t) => t === 1)).toBe(true);
  });

  it('sweepCapsulesSimd uses the loaded kernel', () => {
    const batch = randomSweeps(760, 500, BENCH_LIKE, terrainCentre([0, 4]));
    const viaWrapper = createCapsuleHits(batch.count);
    const direct = createCapsuleHits(batch.count);
    sweepCapsulesSimd(terrainBvh, batch, viaWrapper);
    kernel.sweep(terrainBvh, batch, direct);
    expect(Array.from(viaWrapper.toi)).toEqual(Array.from(direct.toi));
    expect(Array.from(viaWrapper.triangle)).toEqual(Array.from(direct.triangle));
  });

  it('without WebAssembly SIMD the loader resolves to null with a reason, and sweepCapsulesSimd answers through TypeScript', async () => {
    vi.resetModules();
    vi.doMock('../../../src/platform/simdSupport', () => ({ isWasmSimdSupported: () => false }));
    try {
      const fresh = await import('../../../src/query/capsule/simdCapsules');
      expect(fresh.simdCapsuleKernel()).toBeNull();
      expect(await fresh.loadSimdCapsules()).toBeNull();
      expect(fresh.simdCapsulesUnavailableReason()).toMatch(/no WebAssembly SIMD/);
      const batch = randomSweeps(761, 300, BENCH_LIKE, terrainCentre([0, 4]));
      const actual = createCapsuleHits(batch.count);
      const expected = createCapsuleHits(batch.count);
      fresh.sweepCapsulesSimd(terrainBvh, batch, actual);
      sweepCapsules(terrainBvh, batch, expected);
      expect(Array.from(actual.triangle)).toEqual(Array.from(expected.triangle));
      expect(Array.from(actual.toi)).toEqual(Array.from(expected.toi));
    } finally {
      vi.doUnmock('../../../src/platform/simdSupport');
      vi.resetModules();
    }
  });
});
