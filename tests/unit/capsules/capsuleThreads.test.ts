import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapsulePool, CapsuleSystem, createHeadlessSandbox, loadSimdCapsules, parseScene, runFixedSteps, type Sandbox } from '../../../src/core';
import { loadSceneFile, readField, SCENES_DIR } from '../../../tools/sceneFiles';

let pool: CapsulePool;
beforeAll(async () => {
  expect(await loadSimdCapsules()).not.toBeNull();
  // A worker descheduled for seconds on a busy machine is not dead: this pool waits for it.
  pool = await CapsulePool.create({ workers: 1, stragglerWaitMs: 60_000 });
});
afterAll(async () => {
  await pool?.close();
});

function capsules(sandbox: Sandbox): CapsuleSystem {
  const system = sandbox.system('capsules');
  if (!(system instanceof CapsuleSystem)) throw new Error('no capsules running');
  return system;
}

/** A small world with a crowd of 400 capsules. */
function crowdWorld(): Sandbox {
  const scene = parseScene(
    {
      name: 'capsule-threads',
      seed: 17,
      terrain: { seed: 5, kind: 'hybrid', octaves: 5, heightScale: 20, worldSize: 128, cells: 48 },
      systems: { capsules: { crowd: { count: 400, speed: 20, radius: 0.8, halfHeight: 1.2 } } },
    },
    'capsule-threads.json',
  );
  return createHeadlessSandbox(scene, { readField });
}

/** The hash after `steps` steps with the crowd on `workers` pool workers (null: no pool at all). */
async function hashOn(workers: number | null, make: () => Sandbox, steps: number): Promise<{ hash: string; system: CapsuleSystem }> {
  const sandbox = make();
  const system = capsules(sandbox);
  if (workers !== null) {
    await pool.setWorkers(workers);
    system.threads = pool;
  }
  return { hash: runFixedSteps(sandbox, steps), system };
}

describe('the capsule crowd on the capsule pool', () => {
  it('hash alike with no pool, 0, 1 and 2 workers; the kernel readout says how many threads swept', async () => {
    const alone = await hashOn(null, crowdWorld, 8);
    const none = await hashOn(0, crowdWorld, 8);
    const one = await hashOn(1, crowdWorld, 8);
    const two = await hashOn(2, crowdWorld, 8);
    expect(none.hash).toBe(alone.hash);
    expect(one.hash).toBe(alone.hash);
    expect(two.hash).toBe(alone.hash);
    expect(alone.system.kernelRan()).toBe('WebAssembly SIMD');
    expect(none.system.kernelRan()).toBe('WebAssembly SIMD');
    expect(one.system.kernelRan()).toBe('WebAssembly SIMD on 2 threads');
    expect(two.system.kernelRan()).toBe('WebAssembly SIMD on 3 threads');
    // The counters are the single thread's too.
    expect(two.system.crowd!.lastCounters).toEqual(alone.system.crowd!.lastCounters);
  });

  // The capsule preset's golden hash (tests/unit/systems/goldenHashes.test.ts) does not move with the thread count.
  it.each([1, 2])(
    'capsule-sweeps reaches its golden hash with the crowd on a pool of %i workers',
    async (workers) => {
      const { hash, system } = await hashOn(
        workers,
        () => createHeadlessSandbox(loadSceneFile(`${SCENES_DIR}capsule-sweeps.json`), { readField }),
        12,
      );
      expect(system.kernelRan()).toBe(`WebAssembly SIMD on ${workers + 1} threads`);
      expect(hash).toBe('f73f13ef21e07541');
    },
    300_000,
  );
});
