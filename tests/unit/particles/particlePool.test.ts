import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBVH } from '../../../src/bvh/index';
import { StateHasher } from '../../../src/math/hash';
import { loadSimdParticles } from '../../../src/particles/particleKernel';
import { ParticlePool } from '../../../src/particles/particlePool';
import { ParticleSystem } from '../../../src/particles/particleSystem';
import { showcaseEffects } from '../../../src/particles/showcase';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { parseScene } from '../../../src/scene/scene';
import { Sandbox } from '../../../src/sim/sandbox';

const DT = 1 / 60;

/** A sandbox on a small terrain with the showcase effects: a few thousand particles, a few dozen rays a frame. */
function world(): { sandbox: Sandbox; system: ParticleSystem } {
  const scene = parseScene({ name: 'particle-pool', seed: 4242, terrain: { cells: 48, worldSize: 96, heightScale: 18 } });
  const sandbox = new Sandbox(scene, undefined, 8);
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  const system = new ParticleSystem(
    showcaseEffects(sandbox.terrain, { particles: 6000, budget: 60 }),
    { seed: scene.seed, checkFallThrough: false },
    false,
  );
  sandbox.addSystem(system);
  return { sandbox, system };
}

const hashOf = (system: ParticleSystem): string => {
  const hasher = new StateHasher();
  system.hash(hasher);
  return hasher.digest();
};

/** Steps both worlds `steps` times, comparing their particle states every `every` steps; returns the steps where they differed. */
function stepTogether(a: Sandbox, b: Sandbox, systems: [ParticleSystem, ParticleSystem], steps: number, every = 10): number[] {
  const differed: number[] = [];
  for (let i = 1; i <= steps; i++) {
    a.step(DT);
    b.step(DT);
    if (i % every === 0 && hashOf(systems[0]) !== hashOf(systems[1])) differed.push(i);
  }
  return differed;
}

let pool: ParticlePool;
beforeAll(async () => {
  expect(await loadSimdParticles()).not.toBeNull();
  await loadSimdRays();
  // A worker descheduled for seconds on a busy machine is not dead: this pool waits for it.
  pool = await ParticlePool.create({ workers: 1, stragglerWaitMs: 60_000 });
});
afterAll(async () => {
  await pool?.close();
});

describe('ParticlePool', () => {
  it('steps the showcase on 0, 1 and 2 workers with the single-thread kernel’s particles bit for bit', async () => {
    const single = world();
    const pooled = world();
    pooled.system.usePool(pool);
    const systems: [ParticleSystem, ParticleSystem] = [single.system, pooled.system];
    for (const workers of [1, 2, 0]) {
      await pool.setWorkers(workers);
      expect(stepTogether(single.sandbox, pooled.sandbox, systems, 60)).toEqual([]);
      expect(pooled.system.simdInUse()).toMatchObject({ move: true, cache: true });
      expect(pool.holds(pooled.system.buffers)).toBe(true);
      // The last step's work (the system starts counting afresh each step): three jobs (move, lookups,
      // net), each cut into chunks, and a busy time for each thread that took part.
      expect(pool.work.jobs).toBe(3);
      expect(pool.work.busyMs.length).toBeGreaterThanOrEqual(1);
      expect(pool.work.chunks).toBeGreaterThan(pool.work.jobs);
      if (workers === 0) expect(pool.work.chunksOnCaller).toBe(pool.work.chunks);
    }
    expect(single.system.frame.alive).toBeGreaterThan(1000);
    expect(single.system.frame.cacheLookups).toBeGreaterThan(0);
  });

  it('a new cache moves the particles into new pool memory beside the old, and off the pool again, flying on unchanged', async () => {
    await pool.setWorkers(1);
    const single = world();
    const pooled = world();
    pooled.system.usePool(pool);
    const systems: [ParticleSystem, ParticleSystem] = [single.system, pooled.system];
    expect(stepTogether(single.sandbox, pooled.sandbox, systems, 40)).toEqual([]);
    const before = pooled.system.buffers;
    // A new cache size gives the effect a new (empty) cache: the next step moves everything into the pool again.
    for (const system of systems) system.updateEffect(0, { cacheSize: 2048 });
    expect(stepTogether(single.sandbox, pooled.sandbox, systems, 40)).toEqual([]);
    expect(pooled.system.buffers).not.toBe(before);
    expect(pool.holds(pooled.system.buffers)).toBe(true);
    pooled.system.usePool(null);
    expect(stepTogether(single.sandbox, pooled.sandbox, systems, 30)).toEqual([]);
    expect(pool.holds(pooled.system.buffers)).toBe(false);
    expect(pooled.system.simdInUse().move).toBe(true);
  });

  it('a worker that throws on its claim: the steps complete on the others, the same particles, a notice', async () => {
    await pool.setWorkers(2);
    const single = world();
    const pooled = world();
    pooled.system.usePool(pool);
    const systems: [ParticleSystem, ParticleSystem] = [single.system, pooled.system];
    expect(stepTogether(single.sandbox, pooled.sandbox, systems, 20)).toEqual([]);
    pool.simulateFault(2, 'throw');
    expect(stepTogether(single.sandbox, pooled.sandbox, systems, 20, 1)).toEqual([]);
    await expect.poll(() => pool.workers, { timeout: 60_000 }).toBe(1);
    expect(pool.notices.some((notice) => /worker 2 failed: simulated fault/.test(notice))).toBe(true);
    expect(stepTogether(single.sandbox, pooled.sandbox, systems, 20)).toEqual([]);
  });

  it('a memory that cannot grow: the particles stay on this thread in TypeScript, say why, and fly on unchanged', async () => {
    const small = await ParticlePool.create({ workers: 0, maximumMemoryBytes: 4 * 65536 });
    try {
      const single = world();
      const pooled = world();
      const systems: [ParticleSystem, ParticleSystem] = [single.system, pooled.system];
      expect(stepTogether(single.sandbox, pooled.sandbox, systems, 10)).toEqual([]);
      pooled.system.usePool(small);
      expect(stepTogether(single.sandbox, pooled.sandbox, systems, 20)).toEqual([]);
      expect(pooled.system.simdRefusal()).toMatch(/no WebAssembly memory for [\d,]+ particles .*shared memory/);
      expect(pooled.system.simdInUse().move).toBe(false);
    } finally {
      await small.close();
    }
  });
});
