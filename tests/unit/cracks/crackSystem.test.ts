import { describe, expect, it } from 'vitest';
import {
  CRACK_RAY_T_MAX,
  CrackSystem,
  DEFAULT_CRACKS,
  RAY_TRIANGLE_KERNEL_NAMES,
  buildBVH,
  castRays,
  createHeadlessSandbox,
  exploreCracks,
  generateCrackRays,
  getRayTriangleKernel,
  parseScene,
  Sandbox,
  installSceneSystems,
  type SceneCracks,
} from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';

function world(cracks: SceneCracks, history = 0): Sandbox {
  const scene = parseScene(
    { name: 'cracks', seed: 7, terrain: { seed: 3, cells: 32, worldSize: 64, heightScale: 12 }, systems: { cracks } },
    'cracks.json',
  );
  if (history === 0) return createHeadlessSandbox(scene, { readField });
  // As the page keeps it: a history of states to step back through.
  const sandbox = new Sandbox(scene, undefined, 120, history);
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  installSceneSystems(sandbox, scene, { world: sandbox, readField });
  return sandbox;
}

function cracks(sandbox: Sandbox): CrackSystem {
  const system = sandbox.system('cracks');
  if (!(system instanceof CrackSystem)) throw new Error('no crack explorer running');
  return system;
}

describe('the crack explorer system', () => {
  it('runs its batch once at the first step, per test the same misses as exploreCracks and castRays', () => {
    const sandbox = world({ rays: 20_000, seed: 5 });
    const system = cracks(sandbox);
    expect(system.waiting).toBe(true);
    sandbox.step(1 / 60);
    expect(system.waiting).toBe(false);
    expect([...system.results.keys()]).toEqual([...RAY_TRIANGLE_KERNEL_NAMES]);

    const rays = generateCrackRays(sandbox.terrain, 20_000, { seed: 5, vertexFraction: 0.5, rayPrecision: 'float32' });
    const batch = {
      count: 20_000,
      origins: Float32Array.from(rays.origins),
      directions: Float32Array.from(rays.directions),
      tMax: new Float32Array(20_000).fill(CRACK_RAY_T_MAX),
    };
    const hits = { t: new Float32Array(20_000), triangle: new Int32Array(20_000) };
    for (const name of RAY_TRIANGLE_KERNEL_NAMES) {
      const result = system.results.get(name)!;
      expect(result.report.misses).toBe(exploreCracks(sandbox.terrain, rays, getRayTriangleKernel(name)).misses);
      castRays(sandbox.bvh!, batch, hits, { triangleTest: name });
      expect(result.bvhMisses).toBe(hits.triangle.reduce((n, triangle) => n + (triangle < 0 ? 1 : 0), 0));
    }
    expect(system.results.get('watertight')!.report.misses).toBe(0);
    expect(system.results.get('watertight')!.bvhMisses).toBe(0);
    expect(system.metrics()['misses.watertight']).toBe(0);

    const runs = system.runs;
    sandbox.step(1 / 60);
    expect(system.runs).toBe(runs);
    system.fire();
    sandbox.step(1 / 60);
    expect(system.runs).toBe(runs + 1);
  });

  it('draws by default the misses of a test that has some', () => {
    const sandbox = world({ precision: 'float64' });
    sandbox.step(1 / 60);
    const system = cracks(sandbox);
    expect(system.settings.showMissesOf).toBe(DEFAULT_CRACKS.showMissesOf);
    const shown = system.results.get(system.settings.showMissesOf)!;
    expect(shown.report.misses).toBeGreaterThan(0);
    expect(shown.report.missedRaysKept).toBeGreaterThan(0);
    // Float64 rays are not cast through the float32 BVH.
    expect(shown.bvhMisses).toBe(-1);
  });

  it('hashes the miss counts: the same settings alike, another seed or precision not', () => {
    const hashOf = (section: SceneCracks): string => {
      const sandbox = world(section);
      sandbox.step(1 / 60);
      return sandbox.hash();
    };
    expect(hashOf({ rays: 5000 })).toBe(hashOf({ rays: 5000 }));
    expect(hashOf({ rays: 5000 })).not.toBe(hashOf({ rays: 5000, seed: 2 }));
    expect(hashOf({ rays: 5000 })).not.toBe(hashOf({ rays: 5000, precision: 'float64' }));
  });

  it('can be rewound: before the batch ran, and after', () => {
    const sandbox = world({ rays: 2000 }, 4);
    const before = sandbox.hash();
    sandbox.step(1 / 60);
    const after = sandbox.hash();
    sandbox.step(1 / 60);
    expect(sandbox.stepBack()).toBe(true);
    expect(sandbox.hash()).toBe(after);
    expect(sandbox.restart()).toBe(true);
    expect(sandbox.hash()).toBe(before);
    sandbox.step(1 / 60);
    expect(sandbox.hash()).toBe(after);
  });

  it('writes its settings as its section', () => {
    expect(cracks(world({ rays: 3000, doubleSided: true })).section()).toEqual({ ...DEFAULT_CRACKS, rays: 3000, doubleSided: true });
  });

  it.each([
    [{ rays: 0 }, /systems\.cracks\.rays/],
    [{ vertexShare: 1.5 }, /systems\.cracks\.vertexShare/],
    [{ precision: 'float16' }, /systems\.cracks\.precision/],
    [{ doubleSided: 1 }, /systems\.cracks\.doubleSided/],
    [{ showMissesOf: 'moller' }, /systems\.cracks\.showMissesOf/],
    [{ fire: true }, /systems\.cracks\.fire/],
  ])('rejects %j naming the field', (section, field) => {
    expect(() => world(section as SceneCracks)).toThrow(field);
  });
});
