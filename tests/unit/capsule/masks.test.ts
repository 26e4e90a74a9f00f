import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { MASK_ALL } from '../../../src/bvh/collisionMasks';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { createCapsuleHits, sweepCapsules, type CapsuleBatch, type SweepOptions } from '../../../src/query/capsule/index';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../../src/terrain/index';
import { centreAbove, compareWithReference, inFront, keptByFilter, randomSweeps, type Comparison, type SweepShape } from './capsuleCheck';
import { coplanarTerraces, heightAt, needles, sharpRidges, spikes, type Heightfield } from './heightfields';

/**
 * Capsule sweeps with a collision filter against the brute-force sweep that skips the triangles the
 * filter rejects: filter 0 (rejects everything), MASK_ALL (rejects nothing) and random 32-bit filters,
 * over random material tables (some masks 0, some MASK_ALL, some sharing bits), on a terrain and on the
 * adversarial heightfields with materials alternating between neighbouring triangles (every shared edge a
 * material border, where the edge masks of the filtered mesh must differ from the whole mesh's).
 */

const BENCH_LIKE: SweepShape = { halfLength: [0, 1.5], radius: [0.05, 0.8], motion: [0.5, 8] };

function expectAgreement(result: Comparison, maxGrazeShare = 0.002): void {
  expect(result.failures.slice(0, 5)).toEqual([]);
  expect(result.grazes).toBeLessThanOrEqual(Math.ceil(maxGrazeShare * result.sweeps));
}

/** A random material table of `count` masks (one 0, one MASK_ALL, the rest random bits, a few bits each). */
function randomMaterials(random: Random, triangles: number, count: number): { ids: Uint8Array; masks: Uint32Array } {
  const masks = new Uint32Array(count);
  for (let m = 0; m < count; m++) {
    const kind = random.int(5);
    masks[m] = kind === 0 ? 0 : kind === 1 ? MASK_ALL : (random.nextUint32() & (random.int(2) === 0 ? 0xff : MASK_ALL)) >>> 0;
  }
  const ids = Uint8Array.from({ length: triangles }, () => random.int(count));
  return { ids, masks };
}

/** Materials alternating between neighbouring triangles: a cell's two triangles differ, and so do neighbouring cells'. */
function alternatingMaterials(triangles: number, columns: number): { ids: Uint8Array; masks: Uint32Array } {
  const ids = Uint8Array.from({ length: triangles }, (_, t) => {
    const cell = t >> 1;
    return ((t & 1) + (cell % columns) + Math.floor(cell / columns)) % 3;
  });
  return { ids, masks: Uint32Array.from([1, 2, 4]) };
}

/** Capsule i's axis (ends and middle) above the surface all along its motion (65 samples). */
function staysAbove(height: (x: number, z: number) => number, batch: CapsuleBatch, i: number): boolean {
  const i3 = 3 * i;
  const s = batch.start,
    e = batch.end,
    d = batch.motion;
  for (let step = 0; step <= 64; step++) {
    const t = step / 64;
    for (const u of [0, 0.5, 1]) {
      const x = s[i3]! + u * (e[i3]! - s[i3]!) + t * d[i3]!;
      const y = s[i3 + 1]! + u * (e[i3 + 1]! - s[i3 + 1]!) + t * d[i3 + 1]!;
      const z = s[i3 + 2]! + u * (e[i3 + 2]! - s[i3 + 2]!) + t * d[i3 + 2]!;
      if (!(y > height(x, z))) return false;
    }
  }
  return true;
}

const random32 = (random: Random): number => random.nextUint32();

let terrain: TerrainMesh;
let bvh: BVH;
let plain: BVH;
const filters: number[] = [];
beforeAll(() => {
  terrain = generateTerrain({ cells: 40, worldSize: 40, heightScale: 10, seed: 71 });
  const random = new Random(800);
  bvh = buildBVH(terrain.positions, terrain.indices, {}, randomMaterials(random, terrain.indices.length / 3, 12));
  plain = buildBVH(terrain.positions, terrain.indices);
  filters.push(0, MASK_ALL, 1, 0x80000000);
  for (let k = 0; k < 4; k++) filters.push(random32(random));
});

const terrainCentre = (lift: [number, number]) => centreAbove((x, z) => sampleTerrainHeight(terrain, x, z), lift);

function sweep(target: BVH, batch: CapsuleBatch, options: Partial<SweepOptions> = {}) {
  const hits = createCapsuleHits(batch.count);
  const counters = sweepCapsules(target, batch, hits, options);
  return { hits, counters };
}

describe('capsule sweeps with a collision filter against the brute force that skips filtered triangles', () => {
  it('over a terrain with a random material table: filters 0, MASK_ALL and random ones, with and without edge masks (seed 801)', () => {
    // With edge masks, sweeps whose axis stays above the whole terrain: through a hole of the filtered
    // mesh a capsule can reach a triangle from behind, where edge masks are not exact (SweepOptions.edgeMasks;
    // the next tests cover the edge masks of filtered meshes from anywhere).
    const height = (x: number, z: number): number => sampleTerrainHeight(terrain, x, z);
    const front = inFront(height, 20);
    const above = randomSweeps(801, 1000, BENCH_LIKE, terrainCentre([0, 4]), (batch, i) => front(batch, i) && staysAbove(height, batch, i));
    const anywhere = randomSweeps(802, 600, BENCH_LIKE, terrainCentre([-3, 4]));
    let masked = 0;
    for (const filter of filters) {
      const fromAbove = compareWithReference(terrain, bvh, above, { filter });
      expectAgreement(fromAbove);
      expectAgreement(compareWithReference(terrain, bvh, anywhere, { filter, edgeMasks: false }));
      expectAgreement(compareWithReference(terrain, bvh, anywhere, { filter, edgeMasks: false, quickCull: false }));
      masked += fromAbove.counters.subtreesMasked + fromAbove.counters.trianglesMasked;
    }
    expect(masked).toBeGreaterThan(0);
  });

  it('filter 0 cuts the root of every sweep; a filter that rejects nothing runs no check and equals the unfiltered sweep', () => {
    const batch = randomSweeps(803, 500, BENCH_LIKE, terrainCentre([-1, 4]));
    const none = sweep(bvh, batch, { filter: 0 });
    expect(Array.from(none.hits.triangle).every((t) => t === -1)).toBe(true);
    expect(Array.from(none.hits.toi).every((t) => t === 1)).toBe(true);
    expect(none.counters.nodesVisited).toBe(0);
    expect(none.counters.trianglesTested).toBe(0);
    expect(none.counters.subtreesMasked).toBe(batch.count);

    // The mesh without materials: every triangle MASK_ALL, so any filter but 0 rejects nothing.
    const unfiltered = sweep(plain, batch);
    for (const filter of [MASK_ALL, 1, 0x80000000]) {
      const all = sweep(plain, batch, { filter });
      expect(all.hits).toEqual(unfiltered.hits);
      expect(all.counters).toEqual(unfiltered.counters);
      expect(all.counters.subtreesMasked + all.counters.trianglesMasked).toBe(0);
    }
    // The same with materials, for the filter that is the union of their masks.
    const { materialMasks, materialCount } = bvh.masks;
    let union = 0;
    for (let m = 0; m < materialCount; m++) union |= materialMasks[m]!;
    const withMaterials = sweep(bvh, batch, { filter: MASK_ALL });
    expect(sweep(bvh, batch, { filter: union >>> 0 })).toEqual(withMaterials);
  });

  it('equals the unfiltered sweep of a BVH of the kept triangles only (edge masks of the filtered mesh, from behind too; seed 804)', () => {
    const batch = randomSweeps(804, 800, BENCH_LIKE, terrainCentre([-3, 4]));
    const random = new Random(805);
    for (let k = 0; k < 3; k++) {
      const filter = random32(random);
      const keep = keptByFilter(bvh, filter);
      const kept: number[] = [];
      for (let t = 0; t < keep.length; t++) if (keep[t] !== 0) kept.push(t);
      const indices = new Uint32Array(3 * kept.length);
      kept.forEach((t, j) => indices.set(bvh.indices.subarray(3 * t, 3 * t + 3), 3 * j));
      const filtered = sweep(bvh, batch, { filter });
      const alone = sweep(buildBVH(terrain.positions, indices), batch);
      let ties = 0;
      for (let i = 0; i < batch.count; i++) {
        expect(filtered.hits.toi[i]).toBe(alone.hits.toi[i]);
        const mine = filtered.hits.triangle[i]!,
          theirs = alone.hits.triangle[i]!;
        if (theirs < 0) expect(mine).toBe(-1);
        else if (mine !== kept[theirs]) ties++;
      }
      expect(ties).toBeLessThanOrEqual(Math.ceil(0.005 * batch.count));
    }
  });

  const fields: [string, () => Heightfield][] = [
    ['sharp ridges', sharpRidges],
    ['coplanar terraces', coplanarTerraces],
    ['needles', () => needles(41)],
    ['spikes', () => spikes(42)],
  ];
  fields.forEach(([name, make], index) => {
    it(`adversarial heightfield: ${name}, materials alternating between neighbours, each filter (seed ${810 + index})`, () => {
      const field = make();
      const columns = field.xs.length - 1;
      const target = buildBVH(field.positions, field.indices, {}, alternatingMaterials(field.indices.length / 3, columns));
      const height = (x: number, z: number): number => heightAt(field, x, z);
      const inside = inFront(height, 12);
      const front = randomSweeps(810 + index, 800, BENCH_LIKE, centreAbove(height, [0, 4]), inside);
      const above = randomSweeps(
        830 + index,
        600,
        BENCH_LIKE,
        centreAbove(height, [0, 4]),
        (batch, i) => inside(batch, i) && staysAbove(height, batch, i),
      );
      const anywhere = randomSweeps(820 + index, 300, BENCH_LIKE, centreAbove(height, [-4, 4]));
      for (const filter of [0, 1, 2, 4, 3, 5, 6, MASK_ALL]) {
        expectAgreement(compareWithReference(field, target, anywhere, { filter, edgeMasks: false }));
        // From above with edge masks: holes in the filtered mesh let a capsule reach a triangle from
        // behind, where edge masks are not exact, so only sweeps whose axis stays above the whole surface.
        expectAgreement(compareWithReference(field, target, filter === MASK_ALL ? front : above, { filter }));
      }
    });
  });

  it('rejects a filter that is not a 32-bit unsigned integer, naming it', () => {
    const batch = randomSweeps(840, 4, BENCH_LIKE, terrainCentre([0, 4]));
    for (const filter of [-1, 2 ** 32, 1.5, NaN, Infinity, '3', null]) {
      const call = () => sweepCapsules(bvh, batch, createCapsuleHits(4), { filter: filter as number });
      expect(call).toThrow(InvalidParameterError);
      expect(call).toThrow(/filter/);
    }
  });
});
