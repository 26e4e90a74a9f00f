import { beforeAll, describe, expect, it } from 'vitest';
import { ParticleBuffers, particleEffectPreset, type ParticleEffectParams } from '../../../src/core';
import { Random } from '../../../src/math/random';
import { moveEffect, type MoveLists, type MoveStep } from '../../../src/particles/moveParticles';
import { PLANE_CACHE, PLANE_CONTACT, PLANE_FAR, PLANE_NONE, PLANE_RAY } from '../../../src/particles/particleBuffers';
import { loadSimdParticles, type SimdParticleKernel } from '../../../src/particles/particleKernel';

let kernel: SimdParticleKernel;
beforeAll(async () => {
  // Node 20+ has WebAssembly SIMD; null means the module was not built (npm run build:wasm).
  const loaded = await loadSimdParticles();
  expect(loaded).not.toBeNull();
  kernel = loaded!;
});

const SOURCES = [PLANE_NONE, PLANE_RAY, PLANE_CACHE, PLANE_CONTACT, PLANE_FAR];
const HALF = 20;
const FLOOR = -30;

/**
 * Random particles built to cross every decision of the move: dead and dying slots, slots leaving the
 * world, planes behind, at and in front of them (sloped, vertical, upside down), approach speeds around
 * the rest speed, every plane source and cache code, cell stamps that do and do not match.
 */
function randomParticles(b: ParticleBuffers, random: Random): void {
  for (let i = 0; i < b.capacity; i++) {
    const i4 = 4 * i;
    const kind = random.next();
    b.lifetimes[i] = kind < 0.1 ? 0 : random.range(0.5, 3);
    b.ages[i] = kind < 0.15 ? b.lifetimes[i]! - random.range(0, 0.02) : random.range(0, 0.4);
    const edge = random.next() < 0.05;
    b.positions.set(
      [edge ? HALF - random.range(0, 0.3) : random.range(-HALF, HALF), random.range(FLOOR + 0.1, 10), random.range(-HALF, HALF), random.range(-1, 1)],
      i4,
    );
    const speed = random.next() < 0.2 ? random.range(0, 0.6) : random.range(0, 25);
    const [dx, dy, dz] = unit(random);
    b.velocities.set([dx * speed, dy * speed, dz * speed, random.range(-1, 1)], i4);
    const style = random.next();
    const [nx, ny, nz] = style < 0.5 ? unit(random) : style < 0.8 ? [0, 1, 0] : style < 0.9 ? [1, 0, 0] : [0, -1, 0];
    // The plane through a point near the particle: some behind, some just touching, some deep inside.
    const offset = random.range(-0.4, 0.4);
    const px = b.positions[i4]!,
      py = b.positions[i4 + 1]!,
      pz = b.positions[i4 + 2]!;
    b.planes.set([nx, ny, nz, nx * px + ny * py + nz * pz - offset], i4);
    b.planeSources[i] = SOURCES[random.int(SOURCES.length)]!;
    b.touching[i] = random.int(2);
    b.codes[i] = random.int(7);
    b.cellStamps[i] = random.next() < 0.5 ? 0 : random.int(1 << 30);
    b.colours.set([1, 2, 3, 255], i4);
    b.wind.set([random.range(-5, 5), random.range(-1, 1), random.range(-5, 5), 0], i4);
  }
}

function unit(random: Random): [number, number, number] {
  const y = random.range(-1, 1);
  const angle = random.range(0, 2 * Math.PI);
  const r = Math.sqrt(1 - y * y);
  return [r * Math.cos(angle), y, r * Math.sin(angle)];
}

function emptyLists(): MoveLists {
  return { askCount: 0, urgentEnd: 0, laterStart: 0, bounces: 0, alive: 0 };
}

interface Effect {
  start: number;
  end: number;
  params: ParticleEffectParams;
}

/** Moves every effect once with either kernel; the lists' counts per effect, as the system keeps them. */
function moveAll(b: ParticleBuffers, effects: readonly Effect[], step: MoveStep, simd: boolean): number[] {
  const lists = emptyLists();
  const counts: number[] = [];
  for (const e of effects) {
    if (simd) expect(kernel.move(b, e.start, e.end, e.params, step, lists)).toBe(true);
    else moveEffect(b, e.start, e.end, e.params, step, lists);
    counts.push(lists.askCount, lists.urgentEnd, lists.laterStart, lists.alive);
  }
  counts.push(lists.bounces, lists.alive);
  return counts;
}

const ARRAYS = [
  'positions',
  'velocities',
  'planes',
  'ages',
  'lifetimes',
  'cellStamps',
  'colours',
  'planeSources',
  'touching',
  'codes',
  'wind',
] as const;

/** Runs both kernels from the same particles for a few steps and requires the same bits everywhere. */
function expectTwins(
  capacity: number,
  effects: readonly Effect[],
  step: MoveStep,
  seed: number,
  prepare: (b: ParticleBuffers, random: Random) => void = randomParticles,
): void {
  const typescript = new ParticleBuffers(capacity);
  prepare(typescript, new Random(seed));
  const simd = kernel.createResident(capacity, []);
  simd.copyFrom(typescript);
  simd.wind.set(typescript.wind);
  for (let round = 0; round < 4; round++) {
    const expected = moveAll(typescript, effects, step, false);
    const actual = moveAll(simd, effects, step, true);
    expect(actual).toEqual(expected);
    for (const name of ARRAYS) {
      const a = new Uint8Array(typescript[name].buffer, typescript[name].byteOffset, typescript[name].byteLength);
      const c = new Uint8Array(simd[name].buffer, simd[name].byteOffset, simd[name].byteLength);
      if (!a.every((value, i) => value === c[i])) expect.fail(`${name} differs in round ${round} (seed ${seed})`);
    }
    // Each list is compared where it holds entries (past its end either kernel may leave anything).
    let k = 0;
    let aliveBefore = 0;
    for (let e = 0; e < effects.length; e++) {
      const [askEnd, urgentEnd, laterStart, aliveAfter] = expected.slice(4 * e, 4 * e + 4) as [number, number, number, number];
      expect(Array.from(simd.askers.subarray(k, askEnd))).toEqual(Array.from(typescript.askers.subarray(k, askEnd)));
      k = askEnd;
      const { start, end } = effects[e]!;
      const liveEnd = start + aliveAfter - aliveBefore;
      aliveBefore = aliveAfter;
      expect(Array.from(simd.live.subarray(start, liveEnd))).toEqual(Array.from(typescript.live.subarray(start, liveEnd)));
      expect(Array.from(simd.needy.subarray(start, urgentEnd))).toEqual(Array.from(typescript.needy.subarray(start, urgentEnd)));
      expect(Array.from(simd.needy.subarray(laterStart, end))).toEqual(Array.from(typescript.needy.subarray(laterStart, end)));
    }
  }
}

const baseStep = (overrides: Partial<MoveStep> = {}): MoveStep => ({
  dt: 1 / 60,
  gravity: 9.81,
  withWind: false,
  cellLookups: true,
  surfaceKeys: true,
  half: HALF,
  floor: FLOOR,
  ...overrides,
});

function effectsFor(capacity: number, kinds: readonly ('sparks' | 'fountain' | 'debris' | 'casing')[]): Effect[] {
  const size = Math.floor(capacity / kinds.length);
  return kinds.map((kind, k) => ({
    start: k * size,
    end: k === kinds.length - 1 ? capacity : (k + 1) * size,
    params: particleEffectPreset(kind, [0, 0, 0]),
  }));
}

describe('the WebAssembly SIMD particle move', () => {
  it('writes the same bits as moveEffect on random particles, every option (seeds 1–16)', () => {
    let seed = 0;
    for (const surfaceKeys of [true, false]) {
      for (const withWind of [false, true]) {
        for (const cellLookups of [true, false]) {
          for (const capacity of [1, 2, 7, 1001]) {
            seed++;
            expectTwins(
              capacity,
              effectsFor(capacity, capacity > 3 ? ['sparks', 'fountain', 'debris'] : ['debris']),
              baseStep({ surfaceKeys, withWind, cellLookups }),
              seed,
            );
          }
        }
      }
    }
  });

  it('agrees on exact ties: approach speed = rest speed, contact at exactly the radius, the world edge and floor, dying this frame', () => {
    // Powers of two and no drag keep every operation exact, so the ties are exact in float64 and float32.
    const step = baseStep({ dt: 0.25, gravity: 8, half: 20, floor: -30 });
    const params: ParticleEffectParams = {
      ...particleEffectPreset('debris', [0, 0, 0]),
      drag: 0,
      radius: 0.5,
      lookahead: 0.5,
      restitution: 0.5,
      friction: 0.25,
      cellSide: 0.5,
      cellHeight: 2,
    };
    const count = 3 * 3 * 3 * 4;
    let touchedTies = 0;
    expectTwins(count, [{ start: 0, end: count, params }], step, 0, (b) => {
      for (let i = 0; i < count; i++) {
        const i4 = 4 * i;
        // After gravity (2 per step) vy is −4 (= −rest speed), −3.75 or −4.25.
        const vy = [-2, -1.75, -2.25][i % 3]!;
        const vx = [0, 1, -1][Math.floor(i / 3) % 3]!;
        const place = Math.floor(i / 27);
        // 0: in the open; 1: reaches x = ±20 exactly; 2: reaches the floor exactly; 3: dies exactly now.
        const x = place === 1 ? 19.75 * Math.sign(vx || 1) : 0;
        const y = place === 2 ? -29 : 5;
        b.lifetimes[i] = 2;
        b.ages[i] = place === 3 ? 1.75 : 0.5;
        b.positions.set([x, y, 0, 0], i4);
        b.velocities.set([vx, vy, 0, 0], i4);
        const landing = y + (vy - 2) * 0.25;
        // The plane at exactly the radius below the landing point, or a sixteenth either side.
        const offset = [-0.0625, 0, 0.0625][Math.floor(i / 9) % 3]!;
        b.planes.set([0, 1, 0, landing - 0.5 + offset], i4);
        touchedTies += offset >= 0 && vy === -2 ? 1 : 0;
        b.planeSources[i] = SOURCES[i % SOURCES.length]!;
        b.touching[i] = (i >> 1) & 1;
        b.codes[i] = i % 7;
      }
    });
    expect(touchedTies).toBeGreaterThan(4);
  });

  it('declines buffers outside its memory', () => {
    const plain = new ParticleBuffers(8);
    const params = particleEffectPreset('sparks', [0, 0, 0]);
    expect(kernel.holds(plain)).toBe(false);
    expect(kernel.move(plain, 0, 8, params, baseStep(), emptyLists())).toBe(false);
    const resident = kernel.createResident(8, []);
    expect(kernel.holds(resident)).toBe(true);
    expect(kernel.move(resident, 0, 8, params, baseStep(), emptyLists())).toBe(true);
  });

  it('gives every set of buffers a memory of its own, so one never moves another', () => {
    const a = kernel.createResident(100_000, []);
    const b = kernel.createResident(3, []);
    expect(a.positions.buffer).not.toBe(b.positions.buffer);
    a.positions.fill(1);
    expect(Array.from(b.positions)).toEqual(new Array(12).fill(0));
  });
});
