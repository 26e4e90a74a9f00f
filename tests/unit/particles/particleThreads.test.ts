import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParticlePool, ParticleSystem, createHeadlessSandbox, loadAllKernels, runFixedSteps, type Sandbox } from '../../../src/core';
import { loadSceneFile, readField, SCENES_DIR } from '../../../tools/sceneFiles';

let pool: ParticlePool;
beforeAll(async () => {
  await loadAllKernels();
  // A worker descheduled for seconds on a busy machine is not dead: this pool waits for it.
  pool = await ParticlePool.create({ workers: 1, stragglerWaitMs: 60_000 });
});
afterAll(async () => {
  await pool?.close();
});

function particles(sandbox: Sandbox): ParticleSystem {
  const system = sandbox.system('particles');
  if (!(system instanceof ParticleSystem)) throw new Error('no particles running');
  return system;
}

describe('the particle system on the particle pool', () => {
  // The particle preset's golden hash (tests/unit/systems/goldenHashes.test.ts) does not move with the
  // thread count (particlePool.test.ts compares 0, 1 and 2 workers with one thread step by step).
  it('particle-storm reaches its golden hash with the particles on a pool of 2 workers', async () => {
    await pool.setWorkers(2);
    const sandbox = createHeadlessSandbox(loadSceneFile(`${SCENES_DIR}particle-storm.json`), { readField });
    const system = particles(sandbox);
    system.usePool(pool);
    const hash = runFixedSteps(sandbox, 12);
    expect(system.simdInUse()).toMatchObject({ move: true, cache: true });
    expect(pool.holds(system.buffers)).toBe(true);
    expect(hash).toBe('67039077ef452434');
  }, 300_000);
});
