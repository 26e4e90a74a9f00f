import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RayEmitterSystem,
  RayPool,
  createHeadlessSandbox,
  loadSimdRays,
  parallelEfficiency,
  parseScene,
  runFixedSteps,
  type Sandbox,
  type SceneRayEmitters,
} from '../../../src/core';
import { loadSceneFile, readField, SCENES_DIR } from '../../../tools/sceneFiles';

let pool: RayPool;
beforeAll(async () => {
  expect(await loadSimdRays()).not.toBeNull();
  // A worker descheduled for seconds on a busy machine is not dead: this pool waits for it.
  pool = await RayPool.create({ workers: 1, stragglerWaitMs: 60_000 });
});
afterAll(async () => {
  await pool?.close();
});

function emitters(sandbox: Sandbox): RayEmitterSystem {
  const system = sandbox.system('rayEmitters');
  if (!(system instanceof RayEmitterSystem)) throw new Error('no ray emitters running');
  return system;
}

/** A small world with the emitters sweeping a spray, A on the SIMD one-ray walk (the pool's), B batched. */
function sweepingSpray(): Sandbox {
  const rayEmitters: SceneRayEmitters = {
    rays: 3000,
    emitter: 'spray',
    spread: 120,
    sweep: true,
    ab: true,
    a: { tree: '4-way', layout: 'quantized', batching: false, kernel: 'wasm-simd' },
    b: { tree: '4-way', layout: 'quantized', batching: true, batchSize: 64, kernel: 'wasm-simd' },
  };
  const scene = parseScene(
    { name: 'threads', seed: 7, terrain: { seed: 3, cells: 32, worldSize: 64, heightScale: 12 }, systems: { rayEmitters } },
    'threads.json',
  );
  return createHeadlessSandbox(scene, { readField });
}

/** The hash after `steps` steps with the emitters on `workers` pool workers (null: no pool at all). */
async function hashOn(workers: number | null, make: () => Sandbox, steps: number): Promise<{ hash: string; system: RayEmitterSystem }> {
  const sandbox = make();
  const system = emitters(sandbox);
  if (workers !== null) {
    await pool.setWorkers(workers);
    system.threads = pool;
  }
  return { hash: runFixedSteps(sandbox, steps), system };
}

describe('the ray emitters on the ray pool', () => {
  it('hash alike with no pool, 1 and 2 workers; the pooled strategy says so, the batched one stays on one thread', async () => {
    const alone = await hashOn(null, sweepingSpray, 6);
    const one = await hashOn(1, sweepingSpray, 6);
    const two = await hashOn(2, sweepingSpray, 6);
    expect(one.hash).toBe(alone.hash);
    expect(two.hash).toBe(alone.hash);
    expect(alone.system.metrics().kernelA).toBe('WebAssembly SIMD one ray at a time');
    expect(one.system.metrics().kernelA).toBe('WebAssembly SIMD one ray at a time on 2 threads');
    expect(two.system.metrics().kernelA).toBe('WebAssembly SIMD one ray at a time on 3 threads');
    expect(two.system.metrics().kernelB).toBe('WebAssembly SIMD batched walk, batch 64');
    const a = two.system.resultA!;
    expect(a.threadMs).toHaveLength(3);
    expect(two.system.resultB!.threadMs).toBeNull();
    const efficiency = parallelEfficiency(a.threadMs!, a.lastMs);
    expect(efficiency).toBeGreaterThan(0);
    expect(efficiency).toBeLessThanOrEqual(1);
    // The counters are the single thread's too.
    expect(two.system.resultA!.counters).toEqual(alone.system.resultA!.counters);
    expect(two.system.differing).toBe(0);
  });

  it('0 workers: the calling thread alone, as without a pool', async () => {
    const none = await hashOn(0, sweepingSpray, 2);
    expect(none.system.metrics().kernelA).toBe('WebAssembly SIMD one ray at a time');
    expect(none.system.resultA!.threadMs).toBeNull();
  });

  // The preset whose strategy B is the SIMD kernel one ray at a time (A is TypeScript): its golden hash
  // (tests/unit/systems/goldenHashes.test.ts) does not move with the thread count.
  it.each([1, 2])(
    'simd-vs-typescript reaches its golden hash with strategy B on a pool of %i workers',
    async (workers) => {
      const { hash, system } = await hashOn(
        workers,
        () => createHeadlessSandbox(loadSceneFile(`${SCENES_DIR}simd-vs-typescript.json`), { readField }),
        12,
      );
      expect(system.metrics().kernelB).toBe(`WebAssembly SIMD one ray at a time on ${workers + 1} threads`);
      expect(hash).toBe('a5e2341b20a244e0');
    },
    300_000,
  );
});
