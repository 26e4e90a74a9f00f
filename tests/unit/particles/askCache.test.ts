import { describe, expect, it } from 'vitest';
import {
  PLANE_CACHE,
  PLANE_CONTACT,
  PLANE_NONE,
  PLANE_RAY,
  ParticleBuffers,
  PlaneCache,
  Random,
  SURFACE_CODE,
  adoptPlane,
  askCache,
  loadSimdParticles,
  lookBehind,
  planeIndexOf,
} from '../../../src/core';

const SIDE = 0.5;
const HEIGHT = 1;

/** The cache phase written plainly: a lookup, the own-ray rule and adoptPlane, asker by asker. */
function referenceAsk(b: ParticleBuffers, from: number, to: number, cache: PlaneCache, radius: number, dt: number): void {
  const p = b.positions,
    v = b.velocities,
    planes = cache.planes;
  for (let k = from; k < to; k++) {
    const i = b.askers[k]!;
    const i4 = 4 * i;
    const slot = cache.lookup(p[i4]!, p[i4 + 1]!, p[i4 + 2]!, b.codes[i]!);
    if (slot < 0) continue;
    const at = planeIndexOf(slot);
    const entryDistance = planes[at]! * p[i4]! + planes[at + 1]! * p[i4 + 1]! + planes[at + 2]! * p[i4 + 2]! - planes[at + 3]!;
    const ownDistance = b.planes[i4]! * p[i4]! + b.planes[i4 + 1]! * p[i4 + 1]! + b.planes[i4 + 2]! * p[i4 + 2]! - b.planes[i4 + 3]!;
    if (b.planeSources[i] === PLANE_RAY && !(entryDistance < ownDistance)) continue;
    const speed = Math.hypot(v[i4]!, v[i4 + 1]!, v[i4 + 2]!);
    if (adoptPlane(b, i, planes, at, Float64Array.of(radius, lookBehind(radius, speed, dt) + HEIGHT))) b.planeSources[i] = PLANE_CACHE;
  }
}

function randomSetup(seed: number, count: number): { buffers: ParticleBuffers; cache: PlaneCache; askers: number } {
  const random = new Random(seed);
  const buffers = new ParticleBuffers(count);
  const cache = new PlaneCache(4096, SIDE, HEIGHT);
  // Tilted planes near y = 1 in half the cells of a 4 × 3 × 4 m block.
  for (let ix = -4; ix < 4; ix++) {
    for (let iz = -4; iz < 4; iz++) {
      for (let iy = -1; iy < 2; iy++) {
        if (random.next() < 0.5) continue;
        const nx = random.range(-0.5, 0.5),
          nz = random.range(-0.5, 0.5);
        const length = Math.hypot(nx, 1, nz);
        const code = random.next() < 0.8 ? SURFACE_CODE : random.int(6);
        cache.storeCell(ix, iy, iz, code, nx / length, 1 / length, nz / length, random.range(0.5, 1.5));
      }
    }
  }
  const sources = [PLANE_NONE, PLANE_RAY, PLANE_CACHE, PLANE_CONTACT];
  let askers = 0;
  for (let i = 0; i < count; i++) {
    const i4 = 4 * i;
    buffers.positions.set([random.range(-2, 2), random.range(-0.5, 2), random.range(-2, 2)], i4);
    buffers.velocities.set([random.range(-6, 6), random.range(-9, 3), random.range(-6, 6)], i4);
    const nx = random.range(-0.3, 0.3),
      nz = random.range(-0.3, 0.3);
    const length = Math.hypot(nx, 1, nz);
    buffers.planes.set([nx / length, 1 / length, nz / length, random.range(0, 2)], i4);
    buffers.planeSources[i] = sources[random.int(4)]!;
    buffers.codes[i] = random.next() < 0.8 ? SURFACE_CODE : random.int(6);
    if (random.next() < 0.6) buffers.askers[askers++] = i;
  }
  return { buffers, cache, askers };
}

function copyOf(b: ParticleBuffers): ParticleBuffers {
  const copy = new ParticleBuffers(b.capacity);
  copy.copyFrom(b);
  copy.askers.set(b.askers);
  return copy;
}

describe('askCache', () => {
  for (const seed of [51, 52, 53]) {
    it(`does what a lookup and adoptPlane per asker do, bit for bit (seed ${seed})`, () => {
      const { buffers, cache, askers } = randomSetup(seed, 3000);
      const expected = copyOf(buffers);
      const before = copyOf(buffers);
      const referenceCache = new PlaneCache(4096, SIDE, HEIGHT);
      referenceCache.loadState(cache.saveState());
      // Two effects' worth of askers: ranges [0, 700) and [700, askers).
      for (const [from, to] of [
        [0, 700],
        [700, askers],
      ] as const) {
        askCache(buffers, from, to, cache, 0.08, 1 / 60);
        referenceAsk(expected, from, to, referenceCache, 0.08, 1 / 60);
      }
      const bytes = (b: ParticleBuffers): number[] =>
        [b.positions, b.velocities, b.planes, b.planeSources].flatMap((a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)));
      expect(bytes(buffers)).toEqual(bytes(expected));
      for (const counter of ['lookups', 'hits', 'misses'] as const) expect(cache.counters[counter]).toBe(referenceCache.counters[counter]);
      // The set-up exercises every branch: hits and misses, own planes kept and given up, pushes out and refusals.
      expect(cache.counters.hits).toBeGreaterThan(200);
      expect(cache.counters.misses).toBeGreaterThan(200);
      let pushed = 0,
        kept = 0;
      for (let i = 0; i < buffers.capacity; i++) {
        if (buffers.planeSources[i] === PLANE_CACHE && before.positions[4 * i + 1] !== buffers.positions[4 * i + 1]) pushed++;
        if (buffers.planeSources[i] === PLANE_RAY) kept++;
      }
      expect(pushed).toBeGreaterThan(20);
      expect(kept).toBeGreaterThan(20);
    });
  }

  it('exact ties and edges: touching at exactly the radius, an own plane exactly as high, just within and beyond the reach', () => {
    const buffers = new ParticleBuffers(4);
    const cache = new PlaneCache(64, SIDE, HEIGHT);
    // The surface cell and the one below (where a particle that slipped through it is).
    cache.storeCell(0, 0, 0, SURFACE_CODE, 0, 1, 0, 0.25);
    cache.storeCell(0, -1, 0, SURFACE_CODE, 0, 1, 0, 0.25);
    const radius = 0.125;
    const reach = lookBehind(radius, Math.hypot(0.5, 1), 1 / 64) + HEIGHT;
    // 0: exactly radius above (no push); 1: own ray plane at the same height (kept); 2: behind by just under the reach (adopted); 3: just beyond it (refused).
    const heights = [0.375, 0.375, 0.25 + radius - reach + 1 / 256, 0.25 + radius - reach - 1 / 256];
    heights.forEach((y, i) => {
      buffers.positions.set([0.25, y, 0.25], 4 * i);
      buffers.velocities.set([0.5, -1, 0], 4 * i);
      buffers.planes.set([0, 1, 0, i === 1 ? 0.25 : -5], 4 * i);
      buffers.planeSources[i] = i === 1 ? PLANE_RAY : PLANE_CONTACT;
      buffers.codes[i] = SURFACE_CODE;
      buffers.askers[i] = i;
    });
    const expected = copyOf(buffers);
    askCache(buffers, 0, 4, cache, radius, 1 / 64);
    referenceAsk(expected, 0, 4, cache, radius, 1 / 64);
    expect(Array.from(buffers.planeSources)).toEqual(Array.from(expected.planeSources));
    expect(Array.from(buffers.positions)).toEqual(Array.from(expected.positions));
    expect(Array.from(buffers.planeSources)).toEqual([PLANE_CACHE, PLANE_RAY, PLANE_CACHE, PLANE_CONTACT]);
    expect(buffers.positions[4 + 1]).toBe(0.375);
    expect(buffers.positions[8 + 1]).toBe(0.375);
    // Exactly at the radius is not behind the plane: falling on, not stopped.
    expect(buffers.velocities[1]).toBe(-1);
  });
});

describe('the WebAssembly cache phase (SimdParticleKernel.ask)', () => {
  const bytes = (b: ParticleBuffers): number[] =>
    [b.positions, b.velocities, b.planes, b.planeSources].flatMap((a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)));

  /** askCache and the kernel from the same particles and cache entries: the same bits and counters. */
  async function expectTwins(
    buffers: ParticleBuffers,
    cache: PlaneCache,
    ranges: readonly (readonly [number, number])[],
    radius: number,
    dt: number,
  ): Promise<void> {
    const kernel = (await loadSimdParticles())!;
    const residentCache = new PlaneCache(cache.maxSize, cache.cellSide, cache.cellHeight);
    residentCache.loadState(cache.saveState());
    const resident = kernel.createResident(buffers.capacity, [residentCache]);
    expect(kernel.holdsCache(resident, residentCache)).toBe(true);
    resident.copyFrom(buffers);
    resident.askers.set(buffers.askers);
    for (const [from, to] of ranges) {
      askCache(buffers, from, to, cache, radius, dt);
      expect(kernel.ask(resident, from, to, residentCache, radius, dt)).toBe(true);
    }
    expect(bytes(resident)).toEqual(bytes(buffers));
    for (const counter of ['lookups', 'hits', 'misses'] as const) expect(residentCache.counters[counter]).toBe(cache.counters[counter]);
  }

  for (const seed of [54, 55, 56]) {
    it(`gives the same bits as askCache on random askers (seed ${seed})`, async () => {
      const { buffers, cache, askers } = randomSetup(seed, 3000);
      await expectTwins(
        buffers,
        cache,
        [
          [0, 700],
          [700, askers],
        ],
        0.08,
        1 / 60,
      );
      expect(cache.counters.hits).toBeGreaterThan(200);
    });
  }

  it('gives the same bits on exact ties, cells beyond ±32,768 (keys that wrap) and NaN positions', async () => {
    const { buffers, cache } = randomSetup(57, 64);
    const far = 40_000 * SIDE;
    cache.storeCell(40_000, 0, -40_000, SURFACE_CODE, 0, 1, 0, 0.5);
    cache.storeCell(40_000 - 65_536, 0, -40_000 + 65_536, SURFACE_CODE, 0, 1, 0, 0.75);
    cache.storeCell(0, 0, 0, SURFACE_CODE, 0, 1, 0, 0.25);
    const places: [number, number, number][] = [
      [far + 0.1, 0.6, -far + 0.1],
      [far - 65_536 * SIDE + 0.1, 0.6, -far + 65_536 * SIDE + 0.1],
      [0.25, 0.25 + 0.08, 0.25],
      [NaN, 0.5, 0.2],
      [0.1, NaN, 0.1],
    ];
    places.forEach((place, i) => {
      buffers.positions.set(place, 4 * i);
      buffers.codes[i] = SURFACE_CODE;
      buffers.planeSources[i] = PLANE_CONTACT;
    });
    for (let i = 0; i < 64; i++) buffers.askers[i] = i;
    await expectTwins(buffers, cache, [[0, 64]], 0.08, 1 / 60);
    // The two far cells share a key's packed words but not a plane.
    expect(buffers.planes[3]).toBe(0.5);
    expect(buffers.planes[4 + 3]).toBe(0.75);
  });

  it('declines buffers or a cache that are not in its memory', async () => {
    const kernel = (await loadSimdParticles())!;
    const { buffers, cache } = randomSetup(58, 16);
    const resident = kernel.createResident(16, []);
    expect(kernel.ask(buffers, 0, 4, cache, 0.08, 1 / 60)).toBe(false);
    expect(kernel.ask(resident, 0, 4, cache, 0.08, 1 / 60)).toBe(false);
    expect(kernel.holdsCache(resident, cache)).toBe(false);
    expect(cache.counters.lookups).toBe(0);
  });
});
