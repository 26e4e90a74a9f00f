import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import { alignTo } from '../../../src/platform/moduleMemory';
import { CastOrder, RayOrder, type RayOrderExports } from '../../../src/query/rays/rayOrder';
import { buildBVH } from '../../../src/bvh/index';
import { castRays } from '../../../src/query/rays/castRays';
import { createAllHitsList } from '../../../src/query/rays/rayTypes';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain } from '../../../src/terrain/index';
import { emptyHits, meshBounds, randomRays } from './raySets';
import { rayOrderScratchAt, rayStagingAt, stageRays, unstageHits } from '../../../src/query/rays/rayStaging';
import type { RayBatch } from '../../../src/query/rays/rayTypes';

const wasm = readFileSync(fileURLToPath(new URL('../../../src/platform/generated/rays.wasm', import.meta.url)));
const kernel = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as RayOrderExports & {
  memory: WebAssembly.Memory;
  heapBase(): number;
};

function batch(count: number): RayBatch {
  return { count, origins: new Float32Array(3 * count), directions: new Float32Array(3 * count), tMax: new Float32Array(count).fill(Infinity) };
}

/** Stages the batch as the kernels do (stageRays): the order, and the staged rays read back. */
function sortBatch(rays: RayBatch, frame: number[]): { order: Int32Array; staged: RayBatch; unstage: (t: Float32Array) => Float32Array } {
  const count = rays.count;
  const staging = rayStagingAt(alignTo(kernel.heapBase(), 64), count);
  const scratch = rayOrderScratchAt(alignTo(staging.end, 64), count);
  const pages = Math.ceil((scratch.end - kernel.memory.buffer.byteLength) / 65536);
  if (pages > 0) kernel.memory.grow(pages);
  const buffer = kernel.memory.buffer;
  stageRays(new RayOrder(), kernel, frame, rays, scratch, buffer, staging);
  const staged: RayBatch = {
    count,
    origins: new Float32Array(buffer, staging.origins, 3 * count).slice(),
    directions: new Float32Array(buffer, staging.directions, 3 * count).slice(),
    tMax: new Float32Array(buffer, staging.tMaxs, count).slice(),
  };
  const order = new Int32Array(buffer, scratch.order, count).slice();
  // Hits in cast order back to the caller's (unorderHits): t = the cast position.
  const unstage = (t: Float32Array): Float32Array => {
    new Float32Array(buffer, staging.hitT, count).set(t);
    new Int32Array(buffer, staging.hitTriangle, count).fill(7);
    const hits = { t: new Float32Array(count), triangle: new Int32Array(count) };
    unstageHits(kernel, scratch, count, buffer, staging, hits);
    expect(hits.triangle.every((x) => x === 7)).toBe(true);
    return hits.t;
  };
  return { order, staged, unstage };
}

/** The order is a permutation and the staged rays are the caller's, bit for bit, at their places. */
function expectPermutationStaged(rays: RayBatch, order: Int32Array, staged: RayBatch): void {
  expect([...order].sort((a, b) => a - b)).toEqual([...Array(rays.count).keys()]);
  const expected = batch(rays.count);
  for (let at = 0; at < rays.count; at++) {
    const ray = order[at]!;
    expected.origins.set(rays.origins.subarray(3 * ray, 3 * ray + 3), 3 * at);
    expected.directions.set(rays.directions.subarray(3 * ray, 3 * ray + 3), 3 * at);
    expected.tMax[at] = rays.tMax[ray]!;
  }
  const bits = (values: Float32Array): Uint32Array => new Uint32Array(values.buffer, values.byteOffset, values.length);
  expect(bits(staged.origins)).toEqual(bits(expected.origins));
  expect(bits(staged.directions)).toEqual(bits(expected.directions));
  expect(bits(staged.tMax)).toEqual(bits(expected.tMax));
}

/**
 * Pairs of rays from different origins, in different directions, whose spans inside the frame have
 * one midpoint: each starts inside the frame at distance r before the pair's point and stops r past it.
 */
function crossingPairs(frame: number[], pairs: number, random: Random): RayBatch {
  const rays = batch(2 * pairs);
  for (let p = 0; p < pairs; p++) {
    const target = [0, 1, 2].map((axis) => random.range(frame[axis]!, frame[axis + 3]!));
    for (let side = 0; side < 2; side++) {
      const i = 2 * p + side;
      const raw = [random.range(-1, 1), random.range(-1, 1), random.range(-1, 1)];
      const length = Math.hypot(raw[0]!, raw[1]!, raw[2]!);
      const d = raw.map((x) => x / length);
      // The room from the point to the frame's boundary, forwards and backwards along d.
      let room = Infinity;
      for (let axis = 0; axis < 3; axis++) {
        const ahead = ((d[axis]! > 0 ? frame[axis + 3]! : frame[axis]!) - target[axis]!) / d[axis]!;
        const behind = ((d[axis]! > 0 ? frame[axis]! : frame[axis + 3]!) - target[axis]!) / -d[axis]!;
        room = Math.min(room, ahead, behind);
      }
      const r = random.range(0.3, 0.9) * room;
      rays.origins.set([target[0]! - r * d[0]!, target[1]! - r * d[1]!, target[2]! - r * d[2]!], 3 * i);
      rays.directions.set(d, 3 * i);
      rays.tMax[i] = 2 * r;
    }
  }
  return rays;
}

describe('RayOrder: the cast order of a big batch', () => {
  it('is a permutation that stages every ray bit for bit, also for invalid and degenerate rays', () => {
    const random = new Random(7);
    const frame = [-100, -5, -100, 100, 20, 100];
    const rays = batch(1500);
    for (let i = 0; i < rays.count; i++) {
      rays.origins.set([random.range(-300, 300), random.range(-10, 60), random.range(-300, 300)], 3 * i);
      rays.directions.set([random.range(-1, 1), random.range(-1, 0), random.range(-1, 1)], 3 * i);
      rays.tMax[i] = random.next() < 0.5 ? Infinity : random.range(0, 400);
    }
    // NaN and infinite origins and directions, zero and axis-parallel directions, origins on the
    // frame's planes, zero and negative tMax, −0 components.
    const odd = [
      [NaN, 0, 0, 0, -1, 0, 10],
      [0, 0, 0, NaN, NaN, NaN, 10],
      [Infinity, 0, 0, -1, 0, 0, Infinity],
      [0, 0, 0, 0, 0, 0, 10],
      [-100, 0, 0, 0, 1, 0, 10],
      [0, 20, 0, 0, -1, 0, 0],
      [0, 20, 0, -0, -1, -0, -5],
      [1e30, 1e30, 1e30, -1, -1, -1, Infinity],
    ];
    odd.forEach((ray, k) => {
      rays.origins.set(ray.slice(0, 3), 3 * k);
      rays.directions.set(ray.slice(3, 6), 3 * k);
      rays.tMax[k] = ray[6]!;
    });
    const { order, staged, unstage } = sortBatch(rays, frame);
    expectPermutationStaged(rays, order, staged);
    const typescript = new CastOrder().order(rays, rays.count, frame).subarray(0, rays.count);
    expect([...typescript].sort((a, b) => a - b)).toEqual([...Array(rays.count).keys()]);
    const back = unstage(Float32Array.from(order, (_, at) => at));
    for (let at = 0; at < rays.count; at++) expect(back[order[at]!]).toBe(at);
    // A flat frame, a frame of zero extent, and a NaN frame.
    for (const other of [
      [0, 0, 0, 100, 0, 100],
      [1, 1, 1, 1, 1, 1],
      [NaN, NaN, NaN, NaN, NaN, NaN],
    ]) {
      const again = sortBatch(rays, other);
      expectPermutationStaged(rays, again.order, again.staged);
      const typescript = new CastOrder().order(rays, rays.count, other).subarray(0, rays.count);
      expect([...typescript].sort((a, b) => a - b)).toEqual([...Array(rays.count).keys()]);
    }
  });

  it('puts rays whose spans in the scene share a midpoint next to each other, from any origin, in flat or tall frames', () => {
    for (const frame of [
      [-256, 0, -256, 256, 60, 256],
      [-10, -400, -10, 10, 400, 10],
      [0, 0, 0, 100, 100, 100],
    ]) {
      const pairs = 2000;
      const rays = crossingPairs(frame, pairs, new Random(11));
      // The kernel's order, and the TypeScript walks' (the same key in float64).
      for (const order of [sortBatch(rays, frame).order, new CastOrder().order(rays, rays.count, frame).subarray(0, rays.count)]) {
        const rank = new Int32Array(rays.count);
        order.forEach((ray, at) => (rank[ray] = at));
        let adjacent = 0;
        for (let p = 0; p < pairs; p++) if (Math.abs(rank[2 * p]! - rank[2 * p + 1]!) <= 2) adjacent++;
        // By chance (a random order) about 4 / 4000 of the pairs would be this close.
        expect(adjacent / pairs).toBeGreaterThan(0.8);
      }
    }
  });

  it('the TypeScript walks cast a big batch in that order with the hits of one ray at a time (seed 41)', () => {
    const terrain = generateTerrain({ cells: 24, seed: 41 });
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(41, 1500, meshBounds(terrain.positions));
    for (const options of [{}, { tree: 'binary' as const, sorting: 'precomputed' as const, triangles: 'packed' as const }]) {
      const batch = emptyHits(rays.count);
      castRays(bvh, rays, batch, options);
      const one = emptyHits(1);
      for (let i = 0; i < rays.count; i++) {
        const single = {
          count: 1,
          origins: rays.origins.subarray(3 * i, 3 * i + 3),
          directions: rays.directions.subarray(3 * i, 3 * i + 3),
          tMax: rays.tMax.subarray(i, i + 1),
        };
        castRays(bvh, single, one, options);
        if (!Object.is(one.t[0], batch.t[i]) || one.triangle[0] !== batch.triangle[i])
          expect({ ray: i, t: batch.t[i], triangle: batch.triangle[i] }).toEqual({ ray: i, t: one.t[0], triangle: one.triangle[0] });
      }
    }
  });

  it('the SIMD kernel sorts big casts the same after an all-hits cast used the memory of the order scratch (seed 43)', async () => {
    const simd = (await loadSimdRays())!;
    const terrain = generateTerrain({ cells: 24, seed: 43 });
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const rays = randomRays(43, 2000, meshBounds(terrain.positions));
    const first = emptyHits(rays.count);
    simd.cast(bvh, rays, first);
    // The all-hits list lies where the sorted cast's scratch lay: with room for 18,000 hits its t
    // column starts 72,000 bytes in, where the plan was (after 36 bytes per ray of the 2,000).
    const allHits = createAllHitsList(18000);
    simd.cast(bvh, rays, emptyHits(rays.count), { mode: 'all', allHits });
    expect(allHits.count).toBeGreaterThan(100);
    const again = emptyHits(rays.count);
    simd.cast(bvh, rays, again);
    expect(Array.from(again.triangle)).toEqual(Array.from(first.triangle));
    expect(Array.from(again.t)).toEqual(Array.from(first.t));
    const typescript = emptyHits(rays.count);
    castRays(bvh, rays, typescript);
    expect(Array.from(again.triangle)).toEqual(Array.from(typescript.triangle));
  });
});
