import { describe, expect, it } from 'vitest';
import {
  InvalidParameterError,
  PARTICLE_EFFECT_KINDS,
  ParticleSystem,
  Sandbox,
  buildBVH,
  parseScene,
  particleEffectPreset,
  sampleTerrainHeight,
  showcaseEffects,
  type ParticleEffectKind,
  type ParticleEffectParams,
  type ParticleSystemOptions,
} from '../../../src/core';

/** A 48 m terrain, 1 m cells like the 512 benchmark terrain; heightScale 0 is flat. */
function world(heightScale: number, seed = 5): Sandbox {
  const sandbox = new Sandbox(parseScene({ name: 'particles', seed: 1, terrain: { cells: 48, worldSize: 48, heightScale, seed } }));
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  return sandbox;
}

/** One effect at the centre, a metre above the ground, at a moderate speed. */
function effect(sandbox: Sandbox, kind: ParticleEffectKind, changes: Partial<ParticleEffectParams> = {}): ParticleEffectParams {
  const params = particleEffectPreset(kind, [0, sampleTerrainHeight(sandbox.terrain, 0, 0) + 1, 0]);
  if (kind !== 'casing') Object.assign(params, { rate: 300, speed: 8 });
  return Object.assign(params, changes);
}

function run(sandbox: Sandbox, effects: ParticleEffectParams[], options: Partial<ParticleSystemOptions>, frames: number): ParticleSystem {
  const system = new ParticleSystem(effects, options);
  sandbox.addSystem(system);
  for (let frame = 0; frame < frames; frame++) sandbox.step(1 / 60);
  return system;
}

// The planes alone (the heightfield net off): these measure the collision model, not its backstop.
const PLANES_ALONE = { heightfieldNet: false } as const;

describe('particles never fall through at moderate speed', () => {
  it('on flat terrain, every kind, on a budget of 40 rays a frame', () => {
    const sandbox = world(0);
    const effects = PARTICLE_EFFECT_KINDS.map((kind) => effect(sandbox, kind, { budget: kind === 'casing' ? 1 : 40 }));
    const system = run(sandbox, effects, PLANES_ALONE, 300);
    expect(system.totals.lives).toBeGreaterThan(2500);
    expect(system.totals.bounces).toBeGreaterThan(5000);
    expect(system.totals.fellThroughLives).toBe(0);
  });

  it('on bumpy terrain (8 m relief over 48 m) in reference mode', () => {
    const sandbox = world(8);
    const effects = PARTICLE_EFFECT_KINDS.map((kind) => effect(sandbox, kind));
    const system = run(sandbox, effects, { mode: 'reference', ...PLANES_ALONE }, 240);
    expect(system.totals.bounces).toBeGreaterThan(5000);
    expect(system.totals.fellThroughLives).toBe(0);
  });

  it('on bumpy terrain on a budget of one ray per 5 particles a frame: under the benchmark’s 0.5% of lives', () => {
    // One plane per particle is a guess between raycasts: on a budget a few particles do slip through
    // where the surface folds (the design's known trade-off); reference mode above shows none do.
    const sandbox = world(4);
    const effects = PARTICLE_EFFECT_KINDS.map((kind) => effect(sandbox, kind, { budget: kind === 'casing' ? 1 : 200 }));
    const system = run(sandbox, effects, PLANES_ALONE, 300);
    expect(system.totals.bounces).toBeGreaterThan(5000);
    expect(system.totals.fellThroughLives).toBeLessThanOrEqual(0.005 * system.totals.lives);
  });

  it('the bullet casing bounces on the true surface: its plane is always its own raycast’s', () => {
    const sandbox = world(8, 9);
    const system = run(sandbox, [effect(sandbox, 'casing', { rate: 1, lifetime: 3 })], PLANES_ALONE, 600);
    expect(system.totals.lives).toBeGreaterThanOrEqual(9);
    expect(system.totals.bounces).toBeGreaterThan(9);
    expect(system.totals.belowFrames).toBe(0);
  });
});

describe('reference mode against budget mode', () => {
  it('same emitters and seed: reference casts one ray per live particle, budget its budget; reference falls through no more', () => {
    const results = (['reference', 'budget'] as const).map((mode) => {
      const sandbox = world(8);
      const system = new ParticleSystem([effect(sandbox, 'fountain', { budget: 20 }), effect(sandbox, 'debris', { budget: 20 })], {
        mode,
        ...PLANES_ALONE,
      });
      sandbox.addSystem(system);
      let raysMatch = true;
      for (let frame = 0; frame < 240; frame++) {
        sandbox.step(1 / 60);
        const expected = mode === 'reference' ? system.frame.alive : system.effects.reduce((n, e) => n + Math.min(20, e.alive), 0);
        if (system.frame.raycasts !== expected) raysMatch = false;
      }
      expect(raysMatch).toBe(true);
      return system.totals;
    });
    const [reference, budget] = results as [ParticleSystem['totals'], ParticleSystem['totals']];
    // Spawns do not depend on the mode: the same lives in both runs.
    expect(reference.lives).toBe(budget.lives);
    expect(reference.raycasts).toBeGreaterThan(10 * budget.raycasts);
    expect(reference.fellThroughLives).toBe(0);
    expect(budget.fellThroughLives).toBeGreaterThanOrEqual(reference.fellThroughLives);
  });
});

describe('fractional budgets', () => {
  function castsPerFrame(budget: number, frames: number): number[] {
    const sandbox = world(0);
    const system = new ParticleSystem([effect(sandbox, 'debris', { budget })]);
    sandbox.addSystem(system);
    for (let frame = 0; frame < 30; frame++) sandbox.step(1 / 60); // particles first
    system.effects[0]!.budgetCarry = 0;
    const casts: number[] = [];
    for (let frame = 0; frame < frames; frame++) {
      sandbox.step(1 / 60);
      casts.push(system.frame.raycasts);
    }
    return casts;
  }

  it('0.25 casts once every fourth frame, 2.5 five times every two frames, 1/3 a hundred times in 300 frames', () => {
    expect(castsPerFrame(0.25, 12)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(castsPerFrame(2.5, 6)).toEqual([2, 3, 2, 3, 2, 3]);
    const third = castsPerFrame(1 / 3, 300);
    expect(Math.abs(third.reduce((a, b) => a + b) - 100)).toBeLessThanOrEqual(1);
    expect(Math.max(...third)).toBe(1);
    expect(castsPerFrame(0, 20).every((c) => c === 0)).toBe(true);
  });

  it('never casts more rays than there are live particles, and carries only the fraction', () => {
    const sandbox = world(0);
    const system = new ParticleSystem([effect(sandbox, 'casing', { budget: 50.5 })]);
    sandbox.addSystem(system);
    for (let frame = 0; frame < 60; frame++) {
      sandbox.step(1 / 60);
      expect(system.frame.raycasts).toBeLessThanOrEqual(system.frame.alive);
      expect(system.effects[0]!.budgetCarry).toBeLessThan(1);
    }
  });
});

describe('determinism', () => {
  const hashOf = (system: ParticleSystem): string => {
    let h = 0;
    const positions = system.buffers.positions;
    const words = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
    for (let i = 0; i < words.length; i++) h = (Math.imul(h, 31) + words[i]!) | 0;
    return `${h}:${system.totals.raycasts}:${system.totals.bounces}`;
  };

  it('the same seed gives bit-identical particles; another seed does not', () => {
    const runs = [7, 7, 8].map((seed) => {
      const sandbox = world(6);
      return hashOf(run(sandbox, showcaseEffects(sandbox.terrain, { particles: 3000, budget: 60 }), { seed }, 120));
    });
    expect(runs[0]).toBe(runs[1]);
    expect(runs[2]).not.toBe(runs[0]);
  });

  it('stepping back and replaying gives the same particles, caches and counters', () => {
    const sandbox = new Sandbox(parseScene({ name: 'replay', seed: 1, terrain: { cells: 48, worldSize: 48, heightScale: 6 } }), undefined, 120, 40);
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
    const system = new ParticleSystem(showcaseEffects(sandbox.terrain, { particles: 2000, budget: 40 }), { seed: 3 });
    sandbox.addSystem(system);
    for (let frame = 0; frame < 60; frame++) sandbox.step(1 / 60);
    const at60 = hashOf(system);
    for (let frame = 0; frame < 20; frame++) sandbox.step(1 / 60);
    const at80 = hashOf(system);
    for (let back = 0; back < 20; back++) expect(sandbox.stepBack()).toBe(true);
    expect(hashOf(system)).toBe(at60);
    for (let frame = 0; frame < 20; frame++) sandbox.step(1 / 60);
    expect(hashOf(system)).toBe(at80);
  });
});

describe('surface cache footprints', () => {
  it('a hit filling its triangle gives more particles their surface from the cache, and fewer fall through', () => {
    const outcome = (footprints: boolean): { entries: number; fell: number; hitRate: number } => {
      const sandbox = world(10, 7);
      const system = run(
        sandbox,
        [effect(sandbox, 'fountain', { rate: 3000, budget: 20, speed: 12, spread: 35 })],
        { footprints, ...PLANES_ALONE },
        300,
      );
      const cache = system.effects[0]!.cache;
      let lookups = 0,
        hits = 0;
      for (let frame = 0; frame < 60; frame++) {
        sandbox.step(1 / 60);
        lookups += cache.counters.lookups;
        hits += cache.counters.hits;
      }
      return { entries: cache.size, fell: system.totals.fellThroughLives / system.totals.lives, hitRate: hits / lookups };
    };
    const on = outcome(true);
    const off = outcome(false);
    expect(on.entries).toBeGreaterThan(2 * off.entries);
    expect(on.hitRate).toBeGreaterThan(off.hitRate);
    expect(on.fell).toBeLessThan(off.fell);
  });
});

describe('input and reporting', () => {
  it('rejects bad parameters and options with errors naming the field', () => {
    const sandbox = world(0);
    const good = effect(sandbox, 'sparks');
    expect(() => new ParticleSystem([{ ...good, rate: NaN }])).toThrow(InvalidParameterError);
    expect(() => new ParticleSystem([{ ...good, budget: -1 }])).toThrow(/effects\[0\]\.budget/);
    expect(() => new ParticleSystem([{ ...good, position: [0, NaN, 0] }])).toThrow(/position/);
    expect(() => new ParticleSystem([{ ...good, direction: [0, 0, 0] }])).toThrow(/direction/);
    expect(() => new ParticleSystem([{ ...good, kind: 'smoke' as ParticleEffectKind }])).toThrow(/kind/);
    expect(() => new ParticleSystem([{ ...good, cacheSize: 2.5 }])).toThrow(/cacheSize/);
    expect(() => new ParticleSystem([good], { mode: 'fast' as 'budget' })).toThrow(/mode/);
    expect(() => new ParticleSystem([good], { gravity: -1 })).toThrow(/gravity/);
    expect(() => new ParticleSystem([good], { footprints: 'yes' as unknown as boolean })).toThrow(/footprints/);
    expect(() => new ParticleSystem([good], { heightfieldNet: 1 as unknown as boolean })).toThrow(/heightfieldNet/);
    const system = new ParticleSystem([good]);
    expect(() => system.updateEffect(0, { restitution: 2 })).toThrow(/restitution/);
    expect(system.effects[0]!.params.restitution).toBe(good.restitution);
  });

  it('no gravity and no speed: zero-length rays are flagged by castRays and skipped, nothing breaks', () => {
    const sandbox = world(0);
    const system = run(sandbox, [effect(sandbox, 'debris', { speed: 0, budget: 10 })], { gravity: 0 }, 30);
    expect(system.totals.raycasts).toBeGreaterThan(0);
    expect(system.frame.rayHits).toBe(0);
    expect(system.totals.fellThroughLives).toBe(0);
  });

  it('updates parameters in place, rebuilds on a new slot count, and reports through the sandbox', () => {
    const sandbox = world(2);
    const system = run(sandbox, [effect(sandbox, 'sparks'), effect(sandbox, 'casing')], {}, 30);
    const alive = system.frame.alive;
    system.updateEffect(0, { restitution: 0.1, cellSide: 0.5 });
    expect(system.effects[0]!.cache.cellSide).toBe(0.5);
    sandbox.step(1 / 60);
    expect(system.frame.alive).toBeGreaterThanOrEqual(alive - 40);
    system.updateEffect(0, { rate: 600 });
    expect(system.effects[0]!.capacity).toBe(Math.ceil(600 * system.effects[0]!.params.lifetime));
    expect(system.frame.alive).toBeGreaterThan(0);
    sandbox.step(1 / 60);
    expect(system.frame.alive).toBeLessThan(40);
    const report = sandbox.report().metrics.particles!;
    for (const key of ['raycasts', 'cacheLookups', 'cacheHits', 'cacheMisses', 'cacheEvictions', 'bounces', 'fellThrough', 'moveMs', 'raysMs'])
      expect(report).toHaveProperty(key);
    expect(sandbox.timings.phases).toContain('particles.rays');
  });
});
