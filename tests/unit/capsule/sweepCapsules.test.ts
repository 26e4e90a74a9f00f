import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { createCapsuleBatch, createCapsuleHits, createCapsuleTrace, segmentTriangleClosest, sweepCapsules } from '../../../src/query/capsule/index';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, stackedDuplicates, triangleSoup, withDegenerates } from '../bvh/meshes';
import { axisDistance, centreAbove, compareWithReference, inFront, randomSweeps, type Comparison, type SweepShape } from './capsuleCheck';
import { coplanarTerraces, flatPlane, heightAt, heightfield, needles, sharpRidges, spikes, type Heightfield } from './heightfields';

/** No failure, and disagreements explained as grazes rare (none expected outside exact-touch cases). */
function expectAgreement(result: Comparison, maxGrazeShare = 0.002): void {
  expect(result.failures.slice(0, 5)).toEqual([]);
  expect(result.grazes).toBeLessThanOrEqual(Math.ceil(maxGrazeShare * result.sweeps));
}

const BENCH_LIKE: SweepShape = { halfLength: [0, 1.5], radius: [0.05, 0.8], motion: [0.5, 8] };

let terrain: TerrainMesh;
let terrainBvh: BVH;
beforeAll(() => {
  terrain = generateTerrain({ cells: 40, worldSize: 40, heightScale: 10, seed: 71 });
  terrainBvh = buildBVH(terrain.positions, terrain.indices);
});

const terrainCentre = (lift: [number, number]) => centreAbove((x, z) => sampleTerrainHeight(terrain, x, z), lift);
const fieldCentre = (field: Heightfield, lift: [number, number]) => centreAbove((x, z) => heightAt(field, x, z), lift);

describe('sweepCapsules against the brute-force reference', () => {
  it('random sweeps of random orientation over a terrain, from above, default options (seed 601)', () => {
    const batch = randomSweeps(
      601,
      8000,
      BENCH_LIKE,
      terrainCentre([0, 4]),
      inFront((x, z) => sampleTerrainHeight(terrain, x, z), 20),
    );
    const result = compareWithReference(terrain, terrainBvh, batch);
    expectAgreement(result);
    expect(result.hits).toBeGreaterThan(3000);
    expect(result.startsInContact).toBeGreaterThan(400);
    // The quick cull does its job: most pairs never reach a test.
    expect(result.counters.pairsKept).toBeLessThan(0.3 * result.counters.pairsPossible);
    expect(result.counters.pairsTested).toBeLessThan(result.counters.pairsKept);
  });

  it('sweeps from anywhere, under the surface too, without edge masks (seed 602)', () => {
    const batch = randomSweeps(602, 1500, BENCH_LIKE, terrainCentre([-3, 4]));
    expectAgreement(compareWithReference(terrain, terrainBvh, batch, { edgeMasks: false }));
  });

  it('without the quick cull and the edge masks: every pair of every reached triangle (seed 603)', () => {
    const batch = randomSweeps(603, 400, BENCH_LIKE, terrainCentre([-1, 4]));
    const culled = compareWithReference(terrain, terrainBvh, batch, { edgeMasks: false });
    const all = compareWithReference(terrain, terrainBvh, batch, { edgeMasks: false, quickCull: false });
    expectAgreement(all);
    // The cull only skips pairs that cannot touch: identical answers.
    expect(Array.from(culled.ours.toi)).toEqual(Array.from(all.ours.toi));
    expect(Array.from(culled.ours.triangle)).toEqual(Array.from(all.ours.triangle));
    expect(all.counters.pairsKept).toBeGreaterThan(3 * culled.counters.pairsKept);
  });

  it('a BVH that reordered the mesh in place (no triangle order array), and one with a swept-radius build (seed 606)', () => {
    const indices = terrain.indices.slice();
    const reordered = buildBVH(terrain.positions, indices, { reorderTriangles: true, spatialSplits: false });
    expect(reordered.triangleOrder).toBeNull();
    const batch = randomSweeps(
      606,
      800,
      BENCH_LIKE,
      terrainCentre([0, 4]),
      inFront((x, z) => sampleTerrainHeight(terrain, x, z), 20),
    );
    expectAgreement(compareWithReference({ positions: terrain.positions, indices }, reordered, batch));
    const swept = buildBVH(terrain.positions, terrain.indices, { sweptRadius: 1.5 });
    expectAgreement(compareWithReference(terrain, swept, batch));
  });

  it('long capsules and spheres (zero-length axis), thin and fat (seed 604)', () => {
    const long = randomSweeps(
      604,
      600,
      { halfLength: [2, 6], radius: [0.02, 0.3], motion: [0.5, 6] },
      terrainCentre([0, 3]),
      inFront((x, z) => sampleTerrainHeight(terrain, x, z), 20),
    );
    expectAgreement(compareWithReference(terrain, terrainBvh, long));
    const spheres = randomSweeps(
      605,
      600,
      { halfLength: [0, 0], radius: [0.05, 2], motion: [0.5, 6] },
      terrainCentre([0, 4]),
      inFront((x, z) => sampleTerrainHeight(terrain, x, z), 20),
    );
    expectAgreement(compareWithReference(terrain, terrainBvh, spheres));
  });

  const fields: ReadonlyArray<[string, () => Heightfield]> = [
    ['sharp ridges', sharpRidges],
    ['coplanar terraces', coplanarTerraces],
    ['needles', () => needles(31)],
    ['spikes', () => spikes(32)],
    ['flat plane', flatPlane],
  ];
  fields.forEach(([name, make], index) => {
    it(`adversarial heightfield: ${name}, from above with edge masks and from anywhere without (seed ${610 + index})`, () => {
      const field = make();
      const bvh = buildBVH(field.positions, field.indices);
      const front = randomSweeps(
        610 + index,
        2500,
        BENCH_LIKE,
        fieldCentre(field, [0, 4]),
        inFront((x, z) => heightAt(field, x, z), 12),
      );
      const result = compareWithReference(field, bvh, front);
      expectAgreement(result);
      expect(result.hits).toBeGreaterThan(300);
      const anywhere = randomSweeps(620 + index, 400, BENCH_LIKE, fieldCentre(field, [-4, 4]));
      expectAgreement(compareWithReference(field, bvh, anywhere, { edgeMasks: false }));
    });
  });

  it('triangle soups, crossed slivers, stacked duplicates and degenerate triangles (seed 630)', () => {
    const meshes = [triangleSoup(630, 300), crossedSlivers(631, 150), stackedDuplicates(20), withDegenerates(632)];
    for (const mesh of meshes) {
      const bvh = buildBVH(mesh.positions, mesh.indices);
      const batch = randomSweeps(633, 300, { halfLength: [0, 4], radius: [0.05, 2], motion: [1, 40] }, (random) => [
        random.range(-50, 50),
        random.range(-50, 50),
        random.range(-50, 50),
      ]);
      expectAgreement(compareWithReference(mesh, bvh, batch, { edgeMasks: false }));
    }
  });
});

describe('exact grazes and shared edges of a flat plane', () => {
  let plane: Heightfield;
  let bvh: BVH;
  beforeAll(() => {
    plane = flatPlane();
    bvh = buildBVH(plane.positions, plane.indices);
  });

  function sweepOne(p0: number[], p1: number[], r: number, motion: number[]): { toi: number; triangle: number; normal: number[] } {
    const batch = createCapsuleBatch(1);
    batch.start.set(p0);
    batch.end.set(p1);
    batch.radius[0] = r;
    batch.motion.set(motion);
    const hits = createCapsuleHits(1);
    sweepCapsules(bvh, batch, hits);
    return { toi: hits.toi[0]!, triangle: hits.triangle[0]!, normal: Array.from(hits.normal) };
  }

  it('a capsule sliding along the plane exactly r above it touches from the start; a hair higher it misses', () => {
    for (const r of [0.25, 0.5, 1]) {
      const touching = sweepOne([-3, r, 0.3], [-1, r, 0.7], r, [6, 0, 2]);
      expect(touching.triangle).toBeGreaterThanOrEqual(0);
      expect(touching.toi).toBe(0);
      expect(touching.normal[1]).toBeCloseTo(1, 6);
      const above = Math.fround(r * (1 + 2 ** -18));
      expect(sweepOne([-3, above, 0.3], [-1, above, 0.7], r, [6, 0, 2]).triangle).toBe(-1);
    }
  });

  it('descents onto shared vertices, shared edges and the diagonals hit at the exact time (coplanar edges kept once)', () => {
    let checked = 0;
    for (let x = -8; x <= 8; x += 0.5) {
      for (let z = -8; z <= 8; z += 0.5) {
        for (const axis of [
          [1, 0, 0],
          [0, 0, 1],
          [Math.SQRT1_2, 0, Math.SQRT1_2],
          [0.6, 0.8, 0],
        ]) {
          // The capsule's lowest point sits exactly over (x, z): a vertex, an edge or a diagonal of the grid.
          const h = 0.75,
            r = 0.5,
            lift = 3;
          const low = axis[1]! > 0 ? [x + h * axis[0]!, lift, z + h * axis[2]!] : [x, lift, z];
          const p0 = [low[0]! - h * axis[0]!, low[1]! + r - h * axis[1]!, low[2]! - h * axis[2]!];
          const p1 = [low[0]! + h * axis[0]!, low[1]! + r + h * axis[1]!, low[2]! + h * axis[2]!];
          const bottom = Math.min(p0[1]!, p1[1]!) - r;
          const hit = sweepOne(p0.map(Math.fround), p1.map(Math.fround), r, [0, -10, 0]);
          expect(hit.triangle).toBeGreaterThanOrEqual(0);
          expect(Math.abs(hit.toi - bottom / 10)).toBeLessThan(1e-6);
          expect(hit.normal[1]).toBeCloseTo(1, 5);
          checked++;
        }
      }
    }
    expect(checked).toBe(33 * 33 * 4);
  });
});

describe('coplanar shared edges', () => {
  it('spheres and capsules aimed at points of the shared edges of a tilted, uneven coplanar grid never fall through (seed 645)', () => {
    // Rounded float32 vertices and a tilt: the contact point on a shared edge lands, by rounding, just
    // outside both faces now and then; only the edge kept once by one of the two triangles catches it.
    const xs = Array.from({ length: 25 }, (_, k) => -12 + k + 0.3 * Math.sin(k));
    const zs = Array.from({ length: 25 }, (_, k) => -12 + k + 0.3 * Math.cos(k));
    const field = heightfield('tilted plane', xs, zs, (_i, _j, x, z) => 0.3711 * x + 0.2137 * z);
    const fieldBvh = buildBVH(field.positions, field.indices);
    const random = new Random(645);
    const count = 8000;
    const batch = createCapsuleBatch(count);
    const length = Math.hypot(0.3711, 1, 0.2137);
    const normal = [-0.3711 / length, 1 / length, -0.2137 / length];
    const { positions: p, indices } = field;
    const expected = new Float64Array(count);
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
      // Half of them capsules lying in a plane parallel to the surface, their axis end over the edge point.
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
      expected[i] = lift / (2 * (r + lift));
    }
    const hits = createCapsuleHits(count);
    sweepCapsules(fieldBvh, batch, hits);
    let fellThrough = 0;
    let worst = 0;
    for (let i = 0; i < count; i++) {
      if (hits.triangle[i]! < 0) fellThrough++;
      else worst = Math.max(worst, Math.abs(hits.toi[i]! - expected[i]!));
    }
    expect(fellThrough).toBe(0);
    expect(worst).toBeLessThan(1e-4);
  });
});

describe('starts in contact', () => {
  it('give t = 0 and a normal that separates (seed 640)', () => {
    // Centres within r of the surface, and axes through it.
    const batch = randomSweeps(640, 1500, { halfLength: [0, 1.5], radius: [0.1, 0.8], motion: [0.5, 5] }, terrainCentre([-0.6, 0.6]));
    const hits = createCapsuleHits(batch.count);
    sweepCapsules(bvh(), batch, hits, { edgeMasks: false });
    let inContact = 0;
    const p = terrain.positions,
      ix = terrain.indices;
    for (let i = 0; i < batch.count; i++) {
      let minimum = Infinity;
      const cx = 0.5 * (batch.start[3 * i]! + batch.end[3 * i]!),
        cz = 0.5 * (batch.start[3 * i + 2]! + batch.end[3 * i + 2]!);
      for (let k = 0; k < terrain.triangleCount; k++) {
        // Only triangles near the capsule (half-length ≤ 1.5, radius ≤ 0.8) can be within r of it.
        const v = 3 * ix[3 * k]!;
        if (Math.abs(p[v]! - cx) > 4 || Math.abs(p[v + 2]! - cz) > 4) continue;
        minimum = Math.min(minimum, axisDistance(terrain, batch, i, 0, k));
      }
      const r = batch.radius[i]!;
      if (minimum < r - 1e-9) {
        inContact++;
        expect(hits.toi[i]).toBe(0);
        // Moving a little along the normal takes the contact triangle no closer.
        const k = hits.triangle[i]!;
        const n = [hits.normal[3 * i]!, hits.normal[3 * i + 1]!, hits.normal[3 * i + 2]!];
        const moved = createCapsuleBatch(1);
        moved.start.set([0, 1, 2].map((a) => batch.start[3 * i + a]! + 1e-3 * n[a]!));
        moved.end.set([0, 1, 2].map((a) => batch.end[3 * i + a]! + 1e-3 * n[a]!));
        moved.radius[0] = r;
        expect(axisDistance(terrain, moved, 0, 0, k)).toBeGreaterThanOrEqual(axisDistance(terrain, batch, i, 0, k) - 1e-6);
      } else if (minimum > r + 1e-9) expect(hits.toi[i]).toBeGreaterThan(0);
    }
    expect(inContact).toBeGreaterThan(500);
  });
});

const bvh = (): BVH => terrainBvh;

describe('input handling', () => {
  it('flags NaN, infinite and negative-radius capsules, sweeps zero motions and zero radii', () => {
    const batch = createCapsuleBatch(6);
    const x = 0,
      z = 0,
      y = sampleTerrainHeight(terrain, x, z);
    for (let i = 0; i < 6; i++) {
      batch.start.set([x - 0.5, y + 2, z], 3 * i);
      batch.end.set([x + 0.5, y + 2, z], 3 * i);
      batch.radius[i] = 0.5;
      batch.motion.set([0, -5, 0], 3 * i);
    }
    batch.start[0] = NaN;
    batch.motion[4] = Infinity;
    batch.radius[2] = -1;
    batch.motion.set([0, 0, 0], 9); // static, 2 above: no contact
    batch.start.set([x - 0.5, y + 0.2, z], 12); // static, touching
    batch.end.set([x + 0.5, y + 0.2, z], 12);
    batch.motion.set([0, 0, 0], 12);
    batch.radius[5] = 0; // a segment
    const hits = createCapsuleHits(6);
    const counters = sweepCapsules(bvh(), batch, hits);
    expect(counters.invalid).toBe(3);
    expect([0, 1, 2].map((i) => Number.isNaN(hits.toi[i]!) && hits.triangle[i] === -1)).toEqual([true, true, true]);
    expect(hits.triangle[3]).toBe(-1);
    expect(hits.toi[3]).toBe(1);
    expect(hits.toi[4]).toBe(0);
    expect(hits.triangle[5]).toBeGreaterThanOrEqual(0);
  });

  it('rejects malformed batches and options with a clear error', () => {
    const batch = createCapsuleBatch(2);
    expect(() => sweepCapsules(bvh(), { ...batch, count: 3 }, createCapsuleHits(3))).toThrow(InvalidParameterError);
    expect(() => sweepCapsules(bvh(), batch, createCapsuleHits(1))).toThrow(InvalidParameterError);
    expect(() => sweepCapsules(bvh(), { ...batch, count: -1 }, createCapsuleHits(2))).toThrow(InvalidParameterError);
    expect(() => sweepCapsules(bvh(), batch, createCapsuleHits(2), { edgeMasks: 'yes' as unknown as boolean })).toThrow(InvalidParameterError);
    const floatOnly = buildBVH(terrain.positions, terrain.indices, { layouts: ['float'] });
    expect(() => sweepCapsules(floatOnly, batch, createCapsuleHits(2))).toThrow(/quantized/);
  });

  it('traces the triangles of one sweep with the pairs kept and tested', () => {
    const batch = randomSweeps(650, 3, BENCH_LIKE, terrainCentre([1, 3]));
    const trace = createCapsuleTrace(4096);
    const hits = createCapsuleHits(3);
    const all = sweepCapsules(bvh(), batch, hits);
    const one = {
      ...batch,
      count: 1,
      start: batch.start.slice(3),
      end: batch.end.slice(3),
      radius: batch.radius.slice(1),
      motion: batch.motion.slice(3),
    };
    const single = sweepCapsules(bvh(), one, createCapsuleHits(1), { trace, traceCapsule: 0 });
    expect(trace.count).toBe(single.trianglesTested);
    expect(all.trianglesTested).toBeGreaterThanOrEqual(single.trianglesTested);
    for (let k = 0; k < trace.count; k++) expect(trace.tested[k]! & ~trace.kept[k]!).toBe(0);
  });
});

describe('the reference itself', () => {
  it('segment–triangle distance matches a dense sampling of both', () => {
    const random = { v: 1 };
    const next = (): number => ((random.v = (random.v * 16807) % 2147483647) / 2147483647) * 4 - 2;
    const out = new Float64Array(7);
    for (let trial = 0; trial < 200; trial++) {
      const p = [next(), next(), next()],
        q = [next(), next(), next()];
      const a = [next(), next(), next()],
        b = [next(), next(), next()],
        c = [next(), next(), next()];
      const exact = segmentTriangleClosest(
        p[0]!,
        p[1]!,
        p[2]!,
        q[0]!,
        q[1]!,
        q[2]!,
        a[0]!,
        a[1]!,
        a[2]!,
        b[0]!,
        b[1]!,
        b[2]!,
        c[0]!,
        c[1]!,
        c[2]!,
        out,
      );
      let sampled = Infinity;
      const n = 24;
      for (let s = 0; s <= n; s++) {
        const x = p.map((v, k) => v + (s / n) * (q[k]! - v));
        for (let u = 0; u <= n; u++) {
          for (let v = 0; u + v <= n; v++) {
            const y = a.map((w, k) => w + (u / n) * (b[k]! - w) + (v / n) * (c[k]! - w));
            sampled = Math.min(sampled, Math.hypot(x[0]! - y[0]!, x[1]! - y[1]!, x[2]! - y[2]!));
          }
        }
      }
      expect(exact).toBeLessThanOrEqual(sampled + 1e-12);
      expect(exact).toBeGreaterThan(sampled - 0.35);
      expect(Math.hypot(out[1]! - out[4]!, out[2]! - out[5]!, out[3]! - out[6]!)).toBeCloseTo(exact, 9);
    }
  });
});
