import { beforeAll, describe, expect, it } from 'vitest';
import {
  RayEmitterSystem,
  FIRST_PAIRS,
  RECENT_TRACES,
  WARMUP_TRACES,
  buildBVH,
  castRays,
  createHeadlessSandbox,
  materialFilter,
  MASK_ALL,
  TERRAIN_MATERIAL,
  createSystem,
  emitRays,
  loadSimdRays,
  parseScene,
  sampleTerrainHeight,
  Sandbox,
  installSceneSystems,
  type SceneRayEmitters,
} from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';

/** A small world (32 cells) with its BVH and only the ray emitters, from a scene as a file would give it. */
function world(rayEmitters: SceneRayEmitters, history = 0): Sandbox {
  const scene = parseScene(
    { name: 'emitters', seed: 7, terrain: { seed: 3, cells: 32, worldSize: 64, heightScale: 12 }, systems: { rayEmitters } },
    'emitters.json',
  );
  if (history === 0) return createHeadlessSandbox(scene, { readField });
  // As the page keeps it: a history of states to step back through.
  const sandbox = new Sandbox(scene, undefined, 120, history);
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  installSceneSystems(sandbox, scene, { world: sandbox, readField });
  return sandbox;
}

function emitters(sandbox: Sandbox): RayEmitterSystem {
  const system = sandbox.system('rayEmitters');
  if (!(system instanceof RayEmitterSystem)) throw new Error('no ray emitters running');
  return system;
}

const FOUR_WAY = { tree: '4-way', layout: 'quantized', sorting: 'precomputed', triangleTest: 'watertight' } as const;

beforeAll(async () => {
  expect(await loadSimdRays()).not.toBeNull();
});

describe('the ray emitter system', () => {
  it('traces its fan on the first step with the same hits as a direct castRays call', () => {
    const sandbox = world({ rays: 2000, x: 5, z: -3, height: 20, yaw: 30, pitch: -30, spread: 70, seed: 3 });
    sandbox.step(1 / 60);
    const system = emitters(sandbox);
    expect(system.rays.count).toBe(2000);
    expect(system.resultA!.hits).toBeGreaterThan(500);
    // Strategy A by default: the binary tree, which the SIMD kernel cannot walk, so TypeScript ran and says why.
    expect(system.resultA!.kernel).toBe('typescript');
    expect(system.metrics().kernelA).toMatch(/^TypeScript \(SIMD walks the 4-way quantized tree only\)$/);

    const bvh = sandbox.bvh!;
    const rays = emitRays({
      kind: 'fan',
      x: 5,
      y: sampleTerrainHeight(sandbox.terrain, 5, -3) + 20,
      z: -3,
      yaw: 30,
      pitch: -30,
      spread: 70,
      count: 2000,
      length: Infinity,
      seed: 3,
    });
    const hits = { t: new Float32Array(2000), triangle: new Int32Array(2000) };
    castRays(bvh, rays, hits, { tree: 'binary', layout: 'quantized', sorting: 'precomputed', batchSize: 0, triangles: 'packed' });
    expect(system.hitsA.t.subarray(0, 2000)).toEqual(hits.t);
    expect(system.hitsA.triangle.subarray(0, 2000)).toEqual(hits.triangle);
  });

  it('traces again only when asked (everyFrame, sweep, retrace), and A/B finds the same hits', () => {
    const sandbox = world({ rays: 3000, emitter: 'spray', spread: 80, ab: true });
    sandbox.step(1 / 60);
    const system = emitters(sandbox);
    expect(system.traces).toBeGreaterThan(0);
    const traces = system.traces;
    sandbox.step(1 / 60);
    expect(system.traces).toBe(traces);
    system.retrace();
    sandbox.step(1 / 60);
    expect(system.traces).toBe(traces + 1);
    expect(system.resultB).not.toBeNull();
    expect(system.differing).toBe(0);
    expect(system.metrics().differing).toBe(0);
    expect(system.resultB!.hits).toBe(system.resultA!.hits);
    expect(system.hitsB.triangle.subarray(0, 3000)).toEqual(system.hitsA.triangle.subarray(0, 3000));
  });

  it('warms both A/B contenders up, untimed, before the first timed trace, once per BVH', () => {
    const sandbox = world({ rays: 500, emitter: 'spray', spread: 80, ab: true, everyFrame: true });
    sandbox.step(1 / 60);
    const system = emitters(sandbox);
    expect(system.warmupTraces).toBe(2 * WARMUP_TRACES);
    // The first result: the median of several timed pairs, then of the recent traces.
    expect(system.resultA!.samples).toBe(FIRST_PAIRS);
    expect(system.resultB!.samples).toBe(FIRST_PAIRS);
    sandbox.step(1 / 60);
    sandbox.step(1 / 60);
    expect(system.warmupTraces).toBe(2 * WARMUP_TRACES);
    expect(system.resultA!.samples).toBe(Math.min(FIRST_PAIRS + 2, RECENT_TRACES));
    expect(system.resultA!.lastMs).toBe(sandbox.timings.latest('rayEmitters.A'));
    // A new tree: both warm up again.
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
    sandbox.step(1 / 60);
    expect(system.warmupTraces).toBe(4 * WARMUP_TRACES);
    expect(system.differing).toBe(0);
  });

  it('sweeps the fan with simulated time, tracing each step', () => {
    const sandbox = world({ rays: 500, yaw: 170, sweep: true });
    const system = emitters(sandbox);
    for (let i = 0; i < 60; i++) sandbox.step(1 / 60);
    // 20° per second from 170° wraps to −170°.
    expect(system.settings.yaw).toBeCloseTo(-170, 6);
    expect(system.section().yaw).toBeCloseTo(-170, 6);
    expect(system.traces).toBeGreaterThanOrEqual(60);
  });

  it('gives the same hits and the same hash with the SIMD kernel and with TypeScript, one at a time and batched', () => {
    for (const batching of [false, true]) {
      const run = (kernel: 'typescript' | 'wasm-simd'): { sandbox: Sandbox; system: RayEmitterSystem } => {
        const sandbox = world({ rays: 4000, emitter: 'spray', spread: 120, sweep: true, a: { ...FOUR_WAY, batching, batchSize: 64, kernel } });
        for (let i = 0; i < 3; i++) sandbox.step(1 / 60);
        return { sandbox, system: emitters(sandbox) };
      };
      const simd = run('wasm-simd');
      const typescript = run('typescript');
      expect(simd.system.resultA!.kernel).toBe('wasm-simd');
      expect(simd.system.metrics().kernelA).toBe(batching ? 'WebAssembly SIMD batched walk, batch 64' : 'WebAssembly SIMD one ray at a time');
      expect(typescript.system.resultA!.kernel).toBe('typescript');
      expect(simd.system.hitsA.t.subarray(0, 4000)).toEqual(typescript.system.hitsA.t.subarray(0, 4000));
      expect(simd.system.hitsA.triangle.subarray(0, 4000)).toEqual(typescript.system.hitsA.triangle.subarray(0, 4000));
      expect(simd.sandbox.hash()).toBe(typescript.sandbox.hash());
    }
  });

  it('hashes its hits: another seed gives another hash; stepping back traces the same rays again', () => {
    const hashOf = (seed: number): string => {
      const sandbox = world({ rays: 1000, emitter: 'rain', seed });
      sandbox.step(1 / 60);
      return sandbox.hash();
    };
    expect(hashOf(1)).toBe(hashOf(1));
    expect(hashOf(1)).not.toBe(hashOf(2));

    const sandbox = world({ rays: 1000, sweep: true, a: FOUR_WAY }, 10);
    sandbox.step(1 / 60);
    sandbox.step(1 / 60);
    const after2 = sandbox.hash();
    sandbox.step(1 / 60);
    expect(sandbox.hash()).not.toBe(after2);
    expect(sandbox.stepBack()).toBe(true);
    expect(sandbox.hash()).toBe(after2);
    expect(sandbox.restart()).toBe(true);
    expect(emitters(sandbox).rays.count).toBe(0);
  });

  it('writes its settings as its section, which makes the same system again', () => {
    const sandbox = world({ rays: 123, emitter: 'rain', ab: true, b: { tree: 'binary', batching: true, batchSize: 'all' } });
    const section = emitters(sandbox).section();
    expect(section.b).toMatchObject({ tree: 'binary', sorting: 'precomputed', batching: true, batchSize: 'all' });
    expect(section.a.kernel).toBe('wasm-simd');
    const again = createSystem('rayEmitters', JSON.parse(JSON.stringify(section)), { world: sandbox, readField });
    expect((again as RayEmitterSystem).section()).toEqual(section);
  });

  it('reports a strategy the BVH cannot serve and keeps running', () => {
    const sandbox = world({ rays: 100, a: { tree: '4-way', layout: 'float', kernel: 'typescript' } });
    // A BVH built with the quantized layout only.
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices, { layouts: ['quantized'] }));
    sandbox.step(1 / 60);
    const system = emitters(sandbox);
    expect(system.metrics().error).toMatch(/layout/);
    expect(system.rays.count).toBe(0);
    sandbox.step(1 / 60);
    expect(sandbox.frame).toBe(2);
  });

  it.each([
    [{ emitter: 'laser' }, /systems\.rayEmitters\.emitter/],
    [{ rays: 0 }, /systems\.rayEmitters\.rays/],
    [{ rays: 2.5 }, /systems\.rayEmitters\.rays/],
    [{ pitch: 90 }, /systems\.rayEmitters\.pitch/],
    [{ sweep: 'yes' }, /systems\.rayEmitters\.sweep/],
    [{ colour: 'red' }, /systems\.rayEmitters\.colour/],
    [{ a: { kernel: 'WebAssembly SIMD' } }, /systems\.rayEmitters\.a\.kernel/],
    [{ a: { sorting: 'tmax' } }, /systems\.rayEmitters\.a\.sorting/],
    [{ b: { tree: 'binary', sorting: 'tmax' } }, /systems\.rayEmitters\.b\.sorting/],
    [{ b: { batchSize: 0 } }, /systems\.rayEmitters\.b\.batchSize/],
    [{ b: { triangles: 'sorted' } }, /systems\.rayEmitters\.b\.triangles/],
    [{ filter: -1 }, /systems\.rayEmitters\.filter.*32-bit/],
    [{ filter: 2 ** 32 }, /systems\.rayEmitters\.filter.*32-bit/],
    [{ filter: 'water' }, /systems\.rayEmitters\.filter/],
  ])('rejects %j naming the field', (section, field) => {
    expect(() => world(section as SceneRayEmitters)).toThrow(field);
  });

  it('takes a collision filter: the hits of castRays with that filter, no water among them, saved in its section', () => {
    // Water below a third of the height: the fan meets some.
    const scene = parseScene(
      {
        name: 'masks',
        terrain: { seed: 3, cells: 32, worldSize: 64, heightScale: 12, waterLevel: 0.35 },
        systems: { rayEmitters: { rays: 3000, emitter: 'rain', spread: 30, filter: materialFilter(['grass', 'rock', 'snow']) } },
      },
      'masks.json',
    );
    const sandbox = createHeadlessSandbox(scene, { readField });
    sandbox.step(1 / 60);
    const system = emitters(sandbox);
    const bvh = sandbox.bvh!;
    const count = system.rays.count;
    const hits = { t: new Float32Array(count), triangle: new Int32Array(count) };
    castRays(bvh, system.rays, hits, { filter: MASK_ALL });
    const water = (triangle: number): boolean => bvh.masks.materialIds[triangle] === TERRAIN_MATERIAL.water;
    const unfilteredWater = Array.from(hits.triangle.subarray(0, count)).filter((t) => t >= 0 && water(t)).length;
    expect(unfilteredWater).toBeGreaterThan(0);
    castRays(bvh, system.rays, hits, { filter: 7 });
    expect(Array.from(system.hitsA.triangle.subarray(0, count))).toEqual(Array.from(hits.triangle.subarray(0, count)));
    expect(Array.from(system.hitsA.triangle.subarray(0, count)).some((t) => t >= 0 && water(t))).toBe(false);
    expect(system.resultA!.counters.trianglesMasked + system.resultA!.counters.subtreesMasked).toBeGreaterThan(0);
    expect(system.section().filter).toBe(7);
  });
});
