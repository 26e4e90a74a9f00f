import { describe, expect, it } from 'vitest';
import {
  PARTICLE_EFFECT_KINDS,
  generateTerrain,
  particleEffectPreset,
  showcaseEffects,
  validateEffectParams,
  type ParticleEffectParams,
} from '../../../src/core';
import { fitEffectToTerrain } from '../../../src/particles/terrainFit';
import { PLANE_CACHE, PLANE_NONE } from '../../../src/particles/particleBuffers';
import { ParticleEffect } from '../../../src/particles/particleEffect';
import { PlaneRaycaster, partitionPlaneless } from '../../../src/particles/raycastPlanes';
import { Random } from '../../../src/math/random';

const G = 9.81;
const preset = (kind: (typeof PARTICLE_EFFECT_KINDS)[number]): ParticleEffectParams => particleEffectPreset(kind, [0, 0, 0]);

describe('fitEffectToTerrain: the look-ahead follows the terrain cell', () => {
  it('keeps the presets on the 1 m cells they were tuned on (512 m, 512 cells)', () => {
    for (const kind of PARTICLE_EFFECT_KINDS) {
      const fitted = fitEffectToTerrain(preset(kind), { worldSize: 512, cells: 512 }, G);
      expect(fitted.lookahead).toBeCloseTo(0.5, 3);
      expect(fitted.cellSide).toBe(0.25);
      expect(fitted.cellHeight).toBe(2);
    }
  });

  it('shortens it on fine cells, lengthens it on coarse ones, within [4 frames, 1 s]', () => {
    const fine = fitEffectToTerrain(preset('sparks'), { worldSize: 128, cells: 1024 }, G);
    expect(fine.lookahead).toBeCloseTo(Math.sqrt((8 * 0.3066 * 0.125) / G), 6);
    expect(fine.lookahead).toBeLessThan(0.2);
    expect(fitEffectToTerrain(preset('sparks'), { worldSize: 4096, cells: 128 }, G).lookahead).toBe(1);
    expect(fitEffectToTerrain(preset('sparks'), { worldSize: 16, cells: 2048 }, 1000).lookahead).toBeCloseTo(4 / 60, 9);
  });

  it('grows monotonically with the terrain cell and stays valid', () => {
    let last = fitEffectToTerrain(preset('debris'), { worldSize: 16, cells: 256 }, G);
    for (const worldSize of [64, 128, 512, 2048, 8192, 100_000]) {
      const next = fitEffectToTerrain(preset('debris'), { worldSize, cells: 256 }, G);
      expect(next.lookahead).toBeGreaterThanOrEqual(last.lookahead);
      validateEffectParams(next);
      last = next;
    }
  });

  it('keeps the effect’s look-ahead without gravity, and changes no other field', () => {
    const params = preset('fountain');
    expect(fitEffectToTerrain(params, { worldSize: 64, cells: 16 }, 0)).toEqual(params);
    const fitted = fitEffectToTerrain(params, { worldSize: 64, cells: 16 }, G);
    expect({ ...fitted, lookahead: 0 }).toEqual({ ...params, lookahead: 0 });
    expect(params.lookahead).toBe(0.5); // the input is not modified
  });

  it('is what the showcase uses', () => {
    const terrain = generateTerrain({ cells: 16, worldSize: 256, heightScale: 20 });
    for (const effect of showcaseEffects(terrain, { particles: 1000, budget: 10 })) expect(effect.lookahead).toBe(1);
  });
});

describe('needy picks: the planeless before the look-ahead’s', () => {
  it('partitionPlaneless puts exactly the planeless first, keeping the set (random lists)', () => {
    const random = new Random(7);
    for (let round = 0; round < 50; round++) {
      const n = random.int(40);
      const sources = new Uint8Array(64).map(() => random.int(5));
      const list = Int32Array.from({ length: n + 6 }, () => random.int(64));
      const from = 3;
      const to = 3 + n;
      const before = [...list];
      const end = partitionPlaneless(list, from, to, sources);
      const inside = [...list.slice(from, to)];
      expect(inside.slice().sort()).toEqual(before.slice(from, to).sort());
      expect(inside.slice(0, end - from).every((i) => sources[i] === PLANE_NONE)).toBe(true);
      expect(inside.slice(end - from).every((i) => sources[i] !== PLANE_NONE)).toBe(true);
      expect([...list.slice(0, from), ...list.slice(to)]).toEqual([...before.slice(0, from), ...before.slice(to)]);
    }
  });

  it('a budget smaller than the needy goes to the urgent, then the planeless, then the rest', () => {
    const params = { ...preset('sparks'), rate: 10, lifetime: 1, budget: 3 };
    const effect = new ParticleEffect(params, 0);
    effect.alive = 10;
    const live = Int32Array.from({ length: 10 }, (_, i) => i);
    // Urgent: 0. Later, from the back: 9, 8 (guessed planes) and 7, 6 (planeless).
    const needy = Int32Array.from([0, -1, -1, -1, -1, -1, 6, 7, 8, 9]);
    const sources = new Uint8Array(10).fill(PLANE_CACHE);
    sources[6] = sources[7] = PLANE_NONE;
    const raycaster = new PlaneRaycaster();
    const count = raycaster.pick([effect], false, 'needy', live, needy, Int32Array.of(1), Int32Array.of(6), sources, new Random(1));
    expect(count).toBe(3);
    expect([...raycaster.particle.slice(0, 3)].sort()).toEqual([0, 6, 7]);
  });
});
