import { describe, expect, it } from 'vitest';
import { PlaneCache, Random, SURFACE_CODE, SurfaceStores, planeFromTriangle, planeIndexOf } from '../../../src/core';

const SIDE = 0.25;
const HEIGHT = 2;

/** Every entry of a cache as "ix,iy,iz" → plane (float32 values as numbers). */
function entries(cache: PlaneCache): Map<string, number[]> {
  const out = new Map<string, number[]>();
  cache.forEachEntry((slot) => {
    const cell = cache.cellAt(slot);
    expect(cell[3]).toBe(SURFACE_CODE);
    out.set(cell.slice(0, 3).join(), Array.from(cache.planes.subarray(planeIndexOf(slot), planeIndexOf(slot) + 4)));
  });
  return out;
}

/** The plane of a triangle facing up, as float32 values. */
function upPlane(positions: Float32Array, indices: Uint32Array, triangle: number): number[] {
  const plane = new Float32Array(4);
  expect(planeFromTriangle(positions, indices, triangle, Float32Array.of(0, -1, 0), 0, plane, 0)).toBe(true);
  return Array.from(plane);
}

/** A hit at x, y, z on the plane n·p = d, as SurfaceStores.store reads it. */
const hitOf = (x: number, y: number, z: number, nx: number, ny: number, nz: number, d: number): Float64Array =>
  Float64Array.of(x, y, z, nx, ny, nz, d);
const heightOf = (plane: readonly number[], x: number, z: number): number => (plane[3]! - plane[0]! * x - plane[2]! * z) / plane[1]!;

/** Barycentric coordinates of (x, z) in the triangle's xz projection (solved directly, not by edge signs). */
function barycentric(positions: Float32Array, indices: Uint32Array, triangle: number, x: number, z: number): [number, number, number] {
  const [a, b, c] = [0, 1, 2].map((k) => 3 * indices[3 * triangle + k]!) as [number, number, number];
  const x1 = positions[b]! - positions[a]!,
    z1 = positions[b + 2]! - positions[a + 2]!;
  const x2 = positions[c]! - positions[a]!,
    z2 = positions[c + 2]! - positions[a + 2]!;
  const px = x - positions[a]!,
    pz = z - positions[a + 2]!;
  const det = x1 * z2 - x2 * z1;
  const u = (px * z2 - x2 * pz) / det;
  const v = (x1 * pz - px * z1) / det;
  return [1 - u - v, u, v];
}

/** The cells a first hit should fill: the hit's column, and every column (within 4 of it) whose centre the triangle covers. */
function expectedCells(positions: Float32Array, indices: Uint32Array, plane: readonly number[], hit: readonly number[]): Set<string> {
  const cells = new Set<string>();
  const hitX = Math.floor(hit[0]! / SIDE),
    hitZ = Math.floor(hit[2]! / SIDE),
    hitY = Math.floor(hit[1]! / HEIGHT);
  cells.add(`${hitX},${hitY},${hitZ}`).add(`${hitX},${hitY + 1},${hitZ}`);
  if (Math.abs(plane[1]!) < 0.2) return cells;
  for (let ix = hitX - 4; ix <= hitX + 4; ix++) {
    for (let iz = hitZ - 4; iz <= hitZ + 4; iz++) {
      if (ix === hitX && iz === hitZ) continue;
      const x = (ix + 0.5) * SIDE,
        z = (iz + 0.5) * SIDE;
      if (Math.min(...barycentric(positions, indices, 0, x, z)) < 0) continue;
      const iy = Math.floor(heightOf(plane, x, z) / HEIGHT);
      cells.add(`${ix},${iy},${iz}`).add(`${ix},${iy + 1},${iz}`);
    }
  }
  return cells;
}

function randomTriangle(random: Random, steep: boolean): Float32Array {
  const positions = new Float32Array(9);
  for (let k = 0; k < 3; k++) {
    positions[3 * k] = random.range(-1.2, 1.2);
    positions[3 * k + 2] = random.range(-1.2, 1.2);
    positions[3 * k + 1] = steep ? random.range(-6, 6) : random.range(-0.8, 0.8) + 3.9;
  }
  return positions;
}

describe('SurfaceStores', () => {
  it('a first hit fills the hit column and every column whose centre the triangle covers, with its plane (seed 41)', () => {
    const random = new Random(41);
    const indices = new Uint32Array([0, 1, 2]);
    let footprints = 0;
    for (let trial = 0; trial < 300; trial++) {
      const positions = randomTriangle(random, trial % 10 === 0);
      const area =
        (positions[3]! - positions[0]!) * (positions[8]! - positions[2]!) - (positions[5]! - positions[2]!) * (positions[6]! - positions[0]!);
      if (Math.abs(area) < 0.05) continue;
      const plane = upPlane(positions, indices, 0);
      // A hit somewhere on the triangle.
      let u = random.next(),
        v = random.next();
      if (u + v > 1) [u, v] = [1 - u, 1 - v];
      const hit = [0, 1, 2].map((k) => positions[k]! + u * (positions[3 + k]! - positions[k]!) + v * (positions[6 + k]! - positions[k]!));
      const cache = new PlaneCache(4096, SIDE, HEIGHT);
      new SurfaceStores().store(cache, positions, indices, 0, hitOf(hit[0]!, hit[1]!, hit[2]!, plane[0]!, plane[1]!, plane[2]!, plane[3]!));
      const found = entries(cache);
      const wanted = expectedCells(positions, indices, plane, hit);
      expect([...found.keys()].sort()).toEqual([...wanted].sort());
      for (const stored of found.values()) expect(stored).toEqual(plane);
      if (wanted.size > 2) footprints++;
    }
    expect(footprints).toBeGreaterThan(150);
  });

  it('stores a triangle’s footprint once, and again after the cache lost entries or changed', () => {
    const positions = new Float32Array([0, 1, 0, 1, 1.2, 0, 0, 1.1, 1]);
    const indices = new Uint32Array([0, 1, 2]);
    const plane = upPlane(positions, indices, 0);
    const stores = new SurfaceStores();
    const cache = new PlaneCache(4096, SIDE, HEIGHT);
    const hitAt = (x: number, z: number): void =>
      stores.store(cache, positions, indices, 0, hitOf(x, heightOf(plane, x, z), z, plane[0]!, plane[1]!, plane[2]!, plane[3]!));
    hitAt(0.1, 0.1);
    const first = cache.counters.inserts;
    expect(first).toBeGreaterThan(10);
    cache.resetCounters();
    hitAt(0.6, 0.3);
    // Only the new hit's column (two bands) is written: 2 claims, no footprint.
    expect(cache.counters.inserts + cache.counters.updates).toBe(2);
    cache.clear();
    cache.resetCounters();
    hitAt(0.6, 0.3);
    expect(cache.counters.inserts).toBe(first);
    // Another cache (the effect's cell sizes changed): nothing of the old one is assumed.
    const other = new PlaneCache(4096, SIDE, HEIGHT);
    stores.store(other, positions, indices, 0, hitOf(0.6, heightOf(plane, 0.6, 0.3), 0.3, plane[0]!, plane[1]!, plane[2]!, plane[3]!));
    expect(other.size).toBe(first);
    // Stamps that start again (every 40 insertions here instead of 2^30) still skip stored footprints:
    // a footprint is stored in full at most once per restart.
    const restarting = new SurfaceStores(40);
    const roomy = new PlaneCache(4096, SIDE, HEIGHT);
    let fullStores = 0;
    for (let round = 0; round < 30; round++) {
      roomy.resetCounters();
      restarting.store(roomy, positions, indices, 0, hitOf(0.3, heightOf(plane, 0.3, 0.3), 0.3, plane[0]!, plane[1]!, plane[2]!, plane[3]!));
      const claims = roomy.counters.inserts + roomy.counters.updates;
      expect([2, first]).toContain(claims);
      if (claims === first) fullStores++;
      expect([...entries(roomy).keys()].filter((cell) => Number(cell.split(',')[0]) < 100)).toHaveLength(first);
      for (let k = 0; k < 7; k++) roomy.storeCell(500 + 7 * round + k, 0, 0, SURFACE_CODE, 0, 1, 0, 0);
    }
    // 30 rounds of 7 insertions: a restart every 40, so 1 + 5 or 6 full stores.
    expect(fullStores).toBeGreaterThanOrEqual(4);
    expect(fullStores).toBeLessThanOrEqual(8);
    // Footprints off: only the hit's column, every time.
    const hitOnly = new PlaneCache(4096, SIDE, HEIGHT);
    new SurfaceStores().store(
      hitOnly,
      positions,
      indices,
      0,
      hitOf(0.1, heightOf(plane, 0.1, 0.1), 0.1, plane[0]!, plane[1]!, plane[2]!, plane[3]!),
      false,
    );
    expect([...entries(hitOnly).keys()].sort()).toEqual(
      [`0,${Math.floor(heightOf(plane, 0.1, 0.1) / HEIGHT)},0`, `0,${Math.floor(heightOf(plane, 0.1, 0.1) / HEIGHT) + 1},0`].sort(),
    );
    // A cache too small for the footprint evicts its own entries while storing: the next hit stores it again.
    const small = new PlaneCache(6, SIDE, HEIGHT);
    stores.store(small, positions, indices, 0, hitOf(0.1, heightOf(plane, 0.1, 0.1), 0.1, plane[0]!, plane[1]!, plane[2]!, plane[3]!));
    small.resetCounters();
    stores.store(small, positions, indices, 0, hitOf(0.1, heightOf(plane, 0.1, 0.1), 0.1, plane[0]!, plane[1]!, plane[2]!, plane[3]!));
    expect(small.counters.evictions).toBeGreaterThan(0);
    // Evicting only entries older than a footprint leaves it stored; evicting one of its own does not.
    // Ordinals in `sized`: 0–3 four unrelated cells, 4–5 the hit's column, 6… the footprint.
    const sized = new PlaneCache(first + 4, SIDE, HEIGHT);
    const fresh = new SurfaceStores();
    for (let k = 0; k < 4; k++) sized.storeCell(100 + k, 0, 0, SURFACE_CODE, 0, 1, 0, 0);
    const storeAt = (x: number, z: number): void =>
      fresh.store(sized, positions, indices, 0, hitOf(x, heightOf(plane, x, z), z, plane[0]!, plane[1]!, plane[2]!, plane[3]!));
    storeAt(0.1, 0.1);
    for (let k = 0; k < 6; k++) sized.storeCell(200 + k, 0, 0, SURFACE_CODE, 0, 1, 0, 0); // evicts ordinals 0–5
    sized.resetCounters();
    storeAt(0.3, 0.3); // a column of the footprint: updated in place, nothing evicted
    expect(sized.counters.inserts + sized.counters.updates).toBe(2);
    sized.storeCell(300, 0, 0, SURFACE_CODE, 0, 1, 0, 0); // evicts ordinal 6, the footprint's first
    sized.resetCounters();
    storeAt(0.3, 0.3);
    expect(sized.counters.inserts).toBeGreaterThan(0);
    expect(sized.counters.inserts + sized.counters.updates).toBe(first);
    expect(sized.findCell(0, 0, 0, SURFACE_CODE)).toBeGreaterThanOrEqual(0);
  });

  /** Triangles A = (0,0) (1,0) (1,0.7) and B = (0,0) (1,0.7) (0,1) (x, z) with random heights, and their planes. */
  function splitSquare(random: Random): { positions: Float32Array; indices: Uint32Array; planes: number[][] } {
    const h = [0, 1, 2, 3].map(() => random.range(0, 1.2));
    const positions = new Float32Array([0, h[0]!, 0, 1, h[1]!, 0, 1, h[2]!, 0.7, 0, h[3]!, 1]);
    const indices = new Uint32Array([0, 1, 2, 0, 2, 3]);
    return { positions, indices, planes: [upPlane(positions, indices, 0), upPlane(positions, indices, 1)] };
  }

  /** Highest of the two triangles' planes minus the column's plane, at worst over the column's corners (> 0: it sinks). */
  function worstSinking(column: readonly number[], planes: readonly (readonly number[])[], ix: number, iz: number): number {
    let worst = -Infinity;
    for (const [cx, cz] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const) {
      const x = (ix + cx) * SIDE,
        z = (iz + cz) * SIDE;
      worst = Math.max(worst, Math.max(...planes.map((p) => heightOf(p, x, z))) - heightOf(column, x, z));
    }
    return worst;
  }

  it('a hit column across a crease holds the plane that sinks less, raised to nowhere below either side; across a ridge the latest (seed 42)', () => {
    // A = (0,0) (1,0) (1,0.7) and B = (0,0) (1,0.7) (0,1) share the edge z = 0.7x, which crosses column
    // (1, 1) (x, z ∈ [0.25, 0.5]) off-centre. A hit on A there, then one on B there.
    const random = new Random(42);
    let valleys = 0,
      ridges = 0;
    for (let trial = 0; trial < 80; trial++) {
      const { positions, indices, planes } = splitSquare(random);
      const cache = new PlaneCache(4096, SIDE, HEIGHT);
      const stores = new SurfaceStores();
      const hits = [
        [0.48, 0.27],
        [0.3, 0.45],
      ] as const;
      hits.forEach(([x, z], t) => {
        const p = planes[t]!;
        stores.store(cache, positions, indices, t, hitOf(x, heightOf(p, x, z), z, p[0]!, p[1]!, p[2]!, p[3]!));
      });
      const band = Math.floor(heightOf(planes[1]!, 0.3, 0.45) / HEIGHT);
      if (band !== Math.floor(heightOf(planes[0]!, 0.48, 0.27) / HEIGHT)) continue;
      const slot = cache.findCell(1, band, 1, SURFACE_CODE);
      expect(slot).toBeGreaterThanOrEqual(0);
      const column = Array.from(cache.planes.subarray(planeIndexOf(slot), planeIndexOf(slot) + 4));
      // A crease: A's plane passes under B (at B's hit point).
      const valley = heightOf(planes[0]!, 0.3, 0.45) < heightOf(planes[1]!, 0.3, 0.45) - 1e-4;
      if (valley) {
        valleys++;
        expect(worstSinking(column, planes, 1, 1)).toBeLessThan(1e-5);
        // Raised no more than needed (it touches the higher side at some corner), from the plane that sank less.
        expect(worstSinking(column, planes, 1, 1)).toBeGreaterThan(-1e-5);
        const sinks = planes.map((p) => worstSinking(p, planes, 1, 1));
        const base = planes[sinks[0]! < sinks[1]! ? 0 : 1]!;
        expect(column.slice(0, 3)).toEqual(base.slice(0, 3));
      } else {
        ridges++;
        expect(column).toEqual(planes[1]);
      }
    }
    expect(valleys).toBeGreaterThan(10);
    expect(ridges).toBeGreaterThan(10);
  });

  it('a footprint column already holding another triangle’s plane keeps the one that sinks less over it (seed 43)', () => {
    // A and B (splitSquare) share the edge z = 0.7x, which crosses columns off-centre. Column (1, 1) spans x, z ∈ [0.25, 0.5]: its centre (0.375, 0.375) is under B,
    // its corner (0.5, 0.25) under A. A hit on A there writes A's plane into it; B's
    // footprint then offers B's.
    const random = new Random(43);
    let keptOld = 0,
      tookNew = 0;
    for (let trial = 0; trial < 60; trial++) {
      const { positions, indices, planes } = splitSquare(random);
      const cache = new PlaneCache(4096, SIDE, HEIGHT);
      const stores = new SurfaceStores();
      const hitOn = (t: number, x: number, z: number): void => {
        const p = planes[t]!;
        stores.store(cache, positions, indices, t, hitOf(x, heightOf(p, x, z), z, p[0]!, p[1]!, p[2]!, p[3]!));
      };
      hitOn(0, 0.48, 0.27);
      const before = cache.findCell(1, Math.floor(heightOf(planes[1]!, 0.375, 0.375) / HEIGHT), 1, SURFACE_CODE);
      hitOn(1, 0.1, 0.9);
      const slot = cache.findCell(1, Math.floor(heightOf(planes[1]!, 0.375, 0.375) / HEIGHT), 1, SURFACE_CODE);
      expect(slot).toBeGreaterThanOrEqual(0);
      const column = Array.from(cache.planes.subarray(planeIndexOf(slot), planeIndexOf(slot) + 4));
      const sinks = planes.map((p) => worstSinking(p, planes, 1, 1));
      expect(worstSinking(column, planes, 1, 1)).toBeCloseTo(Math.min(...sinks), 5);
      // Only a column that held A's plane before B's footprint came is a real contest.
      if (before >= 0) {
        if (column.every((v, k) => v === planes[0]![k])) keptOld++;
        else tookNew++;
      }
    }
    expect(keptOld).toBeGreaterThan(5);
    expect(tookNew).toBeGreaterThan(5);
  });
});
