import { describe, expect, it } from 'vitest';
import {
  InvalidParameterError,
  MASK_ALL,
  Random,
  buildBVH,
  generateTerrain,
  materialFilter,
  terrainMaterialInput,
  type MaterialInput,
} from '../../../src/core';
import { filtersToTry, randomMaterials } from '../bvh/randomMaterials';
import { TriangleBoxQuery } from '../../../src/actors/triangleBoxQuery';
import { closestPointOnTriangle } from '../../../src/actors/closestPointOnTriangle';

const boundsCache = new WeakMap<Uint32Array, Float64Array>();

/** Every triangle whose float bounding box overlaps the closed query box, ascending. */
function bruteForce(positions: Float32Array, indices: Uint32Array, box: number[]): number[] {
  let bounds = boundsCache.get(indices);
  if (bounds === undefined) {
    bounds = new Float64Array(2 * indices.length);
    for (let t = 0; t < indices.length / 3; t++) {
      for (let a = 0; a < 3; a++) {
        const values = [0, 1, 2].map((k) => positions[3 * indices[3 * t + k]! + a]!);
        bounds[6 * t + a] = Math.min(...values);
        bounds[6 * t + 3 + a] = Math.max(...values);
      }
    }
    boundsCache.set(indices, bounds);
  }
  const [minX, minY, minZ, maxX, maxY, maxZ] = box as [number, number, number, number, number, number];
  const found: number[] = [];
  for (let t = 0; t < indices.length / 3; t++) {
    const o = 6 * t;
    if (
      bounds[o]! > maxX ||
      bounds[o + 3]! < minX ||
      bounds[o + 1]! > maxY ||
      bounds[o + 4]! < minY ||
      bounds[o + 2]! > maxZ ||
      bounds[o + 5]! < minZ
    )
      continue;
    found.push(t);
  }
  return found;
}

/** Separating-axis test of a triangle against a box (box normals, triangle normal, nine edge crosses). */
function triangleIntersectsBox(positions: Float32Array, indices: Uint32Array, t: number, box: number[]): boolean {
  const center = [0, 1, 2].map((k) => (box[k]! + box[k + 3]!) / 2);
  const half = [0, 1, 2].map((k) => (box[k + 3]! - box[k]!) / 2);
  const v = [0, 1, 2].map((k) => [0, 1, 2].map((a) => positions[3 * indices[3 * t + k]! + a]! - center[a]!));
  const sub = (p: number[], q: number[]): number[] => p.map((x, i) => x - q[i]!);
  const cross = (p: number[], q: number[]): number[] => [p[1]! * q[2]! - p[2]! * q[1]!, p[2]! * q[0]! - p[0]! * q[2]!, p[0]! * q[1]! - p[1]! * q[0]!];
  const dot = (p: number[], q: number[]): number => p[0]! * q[0]! + p[1]! * q[1]! + p[2]! * q[2]!;
  const edges = [sub(v[1]!, v[0]!), sub(v[2]!, v[1]!), sub(v[0]!, v[2]!)];
  const axes: number[][] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], cross(edges[0]!, edges[1]!)];
  for (const e of edges)
    for (const u of [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ])
      axes.push(cross(u, e));
  for (const axis of axes) {
    if (axis[0] === 0 && axis[1] === 0 && axis[2] === 0) continue;
    const projections = v.map((p) => dot(p, axis));
    const radius = half[0]! * Math.abs(axis[0]!) + half[1]! * Math.abs(axis[1]!) + half[2]! * Math.abs(axis[2]!);
    if (Math.min(...projections) > radius || Math.max(...projections) < -radius) return false;
  }
  return true;
}

function randomMesh(random: Random, triangles: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array(9 * triangles);
  const indices = new Uint32Array(3 * triangles);
  for (let t = 0; t < triangles; t++) {
    const cx = random.range(-50, 50),
      cy = random.range(-50, 50),
      cz = random.range(-50, 50);
    const size = random.next() < 0.1 ? random.range(5, 30) : random.range(0.1, 3);
    for (let k = 0; k < 3; k++) {
      positions[9 * t + 3 * k] = cx + random.range(-size, size);
      // Some triangles are flat in y (like terrain cells on a plateau), some degenerate to a segment.
      positions[9 * t + 3 * k + 1] = t % 7 === 0 ? cy : cy + random.range(-size, size);
      positions[9 * t + 3 * k + 2] = t % 11 === 0 ? cz : cz + random.range(-size, size);
      indices[3 * t + k] = 3 * t + k;
    }
  }
  return { positions, indices };
}

function randomBoxes(random: Random, positions: Float32Array, count: number): number[][] {
  const boxes: number[][] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    if (kind === 0) {
      // A point box exactly on a vertex: touching counts.
      const v = 3 * random.int(positions.length / 3);
      boxes.push([positions[v]!, positions[v + 1]!, positions[v + 2]!, positions[v]!, positions[v + 1]!, positions[v + 2]!]);
    } else if (kind === 1) {
      // A box whose max face lies exactly on a vertex's coordinate.
      const v = 3 * random.int(positions.length / 3);
      const x = positions[v]!;
      boxes.push([x - 2, positions[v + 1]! - 1, positions[v + 2]! - 1, x, positions[v + 1]! + 1, positions[v + 2]! + 1]);
    } else {
      const c = [random.range(-70, 70), random.range(-70, 70), random.range(-70, 70)];
      const h = kind === 4 ? random.range(10, 80) : random.range(0, 4);
      boxes.push([c[0]! - h, c[1]! - h * random.next(), c[2]! - h, c[0]! + h, c[1]! + h, c[2]! + h]);
    }
  }
  return boxes;
}

describe('TriangleBoxQuery (seed 9)', () => {
  for (const [name, options] of [
    ['no spatial splits', { spatialSplits: false }],
    ['no spatial splits, reordered triangles', { spatialSplits: false, reorderTriangles: true }],
    ['no spatial splits, leaves of 1, no shared leaves', { spatialSplits: false, maxLeafSize: 1, shareHalfFullLeaves: false }],
  ] as const) {
    it(`finds exactly the triangles whose bounding box overlaps, on a random soup: ${name}`, () => {
      const random = new Random(9);
      const { positions, indices } = randomMesh(random, 1500);
      const bvh = buildBVH(positions, indices, options);
      const query = new TriangleBoxQuery(bvh);
      for (const box of randomBoxes(random, positions, 400)) {
        const count = query.run(box[0]!, box[1]!, box[2]!, box[3]!, box[4]!, box[5]!);
        const got = Array.from(query.triangles.subarray(0, count)).sort((a, b) => a - b);
        expect(got).toEqual(bruteForce(bvh.positions, bvh.indices, box));
      }
    });
  }

  it('with spatial splits (the default), finds every intersecting triangle once and nothing outside the bounding-box answer', () => {
    const random = new Random(9);
    const { positions, indices } = randomMesh(random, 1500);
    const bvh = buildBVH(positions, indices, { spatialSplits: true, spatialOverlapThreshold: 0 });
    expect(bvh.hasDuplicateReferences).toBe(true);
    const query = new TriangleBoxQuery(bvh);
    let intersecting = 0;
    for (const box of randomBoxes(random, positions, 200)) {
      const count = query.run(box[0]!, box[1]!, box[2]!, box[3]!, box[4]!, box[5]!);
      const got = Array.from(query.triangles.subarray(0, count));
      expect(new Set(got).size).toBe(got.length);
      const upper = new Set(bruteForce(bvh.positions, bvh.indices, box));
      for (const t of got) expect(upper.has(t)).toBe(true);
      // Lower bound on a hair-smaller box: clipped piece boxes are exact up to rounding.
      const shrink = box.map((x, k) => x + (k < 3 ? 1e-4 : -1e-4));
      if (!shrink.every((x, k) => k >= 3 || x <= shrink[k + 3]!)) continue;
      const gotSet = new Set(got);
      for (const t of upper) {
        if (triangleIntersectsBox(bvh.positions, bvh.indices, t, shrink)) {
          intersecting++;
          expect(gotSet.has(t)).toBe(true);
        }
      }
    }
    expect(intersecting).toBeGreaterThan(100);
  });

  it('finds exactly the bounding-box answer on a terrain (shared leaves entered once), and grows its result list', () => {
    const terrain = generateTerrain({ cells: 48, worldSize: 96, heightScale: 20 });
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const query = new TriangleBoxQuery(bvh);
    const random = new Random(3);
    for (const box of [[-1000, -1000, -1000, 1000, 1000, 1000], ...randomBoxes(random, terrain.positions, 200)]) {
      const count = query.run(box[0]!, box[1]!, box[2]!, box[3]!, box[4]!, box[5]!);
      const got = Array.from(query.triangles.subarray(0, count)).sort((a, b) => a - b);
      expect(got).toEqual(bruteForce(terrain.positions, terrain.indices, box));
    }
    expect(query.counters.nodesVisited).toBeGreaterThan(0);
  });

  it('returns nothing for inverted or NaN boxes, and refuses a BVH without the quantized layout', () => {
    const terrain = generateTerrain({ cells: 16, worldSize: 32 });
    const query = new TriangleBoxQuery(buildBVH(terrain.positions, terrain.indices));
    expect(query.run(1, 0, 0, -1, 10, 10)).toBe(0);
    expect(query.run(NaN, 0, 0, 1, 1, 1)).toBe(0);
    expect(() => new TriangleBoxQuery(buildBVH(terrain.positions, terrain.indices, { layouts: ['float'] }))).toThrow(InvalidParameterError);
  });
});

describe('TriangleBoxQuery with collision filters', () => {
  /** The query under `filter` equals the bounding-box brute force without the triangles it rejects. */
  function expectFiltered(query: TriangleBoxQuery, materials: MaterialInput, boxes: number[][], filter: number): number {
    const { positions, indices } = query.bvh;
    query.filter = filter;
    query.resetCounters();
    let found = 0;
    for (const box of boxes) {
      const count = query.run(box[0]!, box[1]!, box[2]!, box[3]!, box[4]!, box[5]!);
      const got = Array.from(query.triangles.subarray(0, count)).sort((a, b) => a - b);
      const kept = bruteForce(positions, indices, box).filter((t) => (materials.masks[materials.ids[t]!]! & filter) !== 0);
      expect({ filter, box, got }).toEqual({ filter, box, got: kept });
      found += count;
    }
    expect(query.counters.hits).toBe(found);
    expect(query.counters.queries).toBe(boxes.length);
    if (materials.masks.every((mask) => (mask & filter) !== 0)) expect(query.counters.subtreesMasked + query.counters.trianglesMasked).toBe(0);
    return found;
  }

  for (const [seed, options] of [
    [31, { spatialSplits: false }],
    [32, { spatialSplits: false, reorderTriangles: true }],
    [33, { spatialSplits: false, maxLeafSize: 1, shareHalfFullLeaves: false }],
  ] as const) {
    it(`random 32-bit masks and filters equal the brute force that skips rejected triangles: ${JSON.stringify(options)} (seed ${seed})`, () => {
      const random = new Random(seed);
      const { positions, indices } = randomMesh(random, 1200);
      const materials = randomMaterials(random, indices.length / 3, 1 + random.int(20));
      const bvh = buildBVH(positions, indices, options, materials);
      const query = new TriangleBoxQuery(bvh);
      const byBvhId = { ids: bvh.masks.materialIds, masks: materials.masks };
      const boxes = randomBoxes(random, positions, 150);
      for (const filter of filtersToTry(random, 6)) expectFiltered(query, byBvhId, boxes, filter);
    });
  }

  it('terrain materials: ignoring water cuts subtrees; filter 0 enters nothing; a bad filter is named', () => {
    const terrain = generateTerrain({ cells: 40, seed: 17, waterLevel: 0.2, snowLevel: 0.7 });
    const input = terrainMaterialInput(terrain);
    const bvh = buildBVH(terrain.positions, terrain.indices, {}, input);
    const query = new TriangleBoxQuery(bvh);
    const boxes = [[-1000, -1000, -1000, 1000, 1000, 1000], ...randomBoxes(new Random(34), terrain.positions, 200)];
    const all = expectFiltered(query, input, boxes, MASK_ALL);
    const allNodes = query.counters.nodesVisited;
    expect(expectFiltered(query, input, boxes, materialFilter(['grass', 'rock', 'snow']))).toBeLessThan(all);
    expect(expectFiltered(query, input, boxes, materialFilter(['water']))).toBeGreaterThan(0);
    expect(query.counters.subtreesMasked).toBeGreaterThan(0);
    expect(query.counters.nodesVisited).toBeLessThan(allNodes);
    expect(expectFiltered(query, input, boxes, 0)).toBe(0);
    expect(query.counters.nodesVisited).toBe(0);
    for (const filter of [-1, 0.5, 2 ** 32, NaN]) expect(() => (query.filter = filter)).toThrow(InvalidParameterError);
    expect(query.filter).toBe(0);
  });
});

describe('closestPointOnTriangle (seed 4)', () => {
  /** Reference: the nearest of a dense barycentric grid, refined against the exact answer's distance. */
  function sampledDistance(p: number[], tri: number[][]): number {
    let best = Infinity;
    const n = 120;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; i + j <= n; j++) {
        const u = i / n,
          v = j / n,
          w = 1 - u - v;
        const q = [0, 1, 2].map((k) => w * tri[0]![k]! + u * tri[1]![k]! + v * tri[2]![k]!);
        best = Math.min(best, Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!));
      }
    }
    return best;
  }

  it('is never farther than the best sampled point, and lies on the triangle', () => {
    const random = new Random(4);
    const out = new Float64Array(3);
    for (let trial = 0; trial < 150; trial++) {
      const tri = [0, 1, 2].map(() => [random.range(-2, 2), random.range(-2, 2), random.range(-2, 2)]);
      if (trial % 10 === 0) tri[2] = [...tri[1]!]; // degenerate: a segment
      if (trial % 10 === 5) tri[1] = tri[2] = [...tri[0]!]; // degenerate: a point
      const p = [random.range(-4, 4), random.range(-4, 4), random.range(-4, 4)];
      closestPointOnTriangle(
        p[0]!,
        p[1]!,
        p[2]!,
        ...(tri[0] as [number, number, number]),
        ...(tri[1] as [number, number, number]),
        ...(tri[2] as [number, number, number]),
        out,
      );
      const distance = Math.hypot(p[0]! - out[0]!, p[1]! - out[1]!, p[2]! - out[2]!);
      const sampled = sampledDistance(p, tri);
      expect(distance).toBeLessThanOrEqual(sampled + 1e-9);
      // The grid is 1/120 fine: the exact answer is within a grid cell of the sampled one.
      expect(distance).toBeGreaterThan(sampled - 0.08);
      expect(Number.isFinite(out[0]! + out[1]! + out[2]!)).toBe(true);
    }
  });
});
