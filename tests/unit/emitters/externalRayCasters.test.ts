import { afterEach, describe, expect, it } from 'vitest';
import {
  EXTERNAL_RAY_CASTERS,
  RayEmitterSystem,
  buildBVH,
  castRays,
  createExternalRayCaster,
  createHeadlessSandbox,
  parseScene,
  registerExternalRayCaster,
  registeredExternalRayCasters,
  type BVH,
  type ExternalRayCaster,
  type RayBatch,
  type RayHits,
  type SceneRayEmitters,
} from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';

const scene = (rayEmitters: unknown): ReturnType<typeof parseScene> =>
  parseScene(
    { name: 'external', seed: 7, terrain: { seed: 3, cells: 32, worldSize: 64, heightScale: 12 }, systems: { rayEmitters } },
    'external.json',
  );

const RACE: SceneRayEmitters = { rays: 1500, x: 5, z: -3, height: 20, yaw: 30, pitch: -30, spread: 70, ab: true, b: { external: 'three-mesh-bvh' } };

/** A stand-in caster: castRays over a BVH of the triangles it is given (or a deliberate error in one ray). */
class StandIn implements ExternalRayCaster {
  readonly name = 'three-mesh-bvh';
  readonly description = 'stand-in';
  prepared = 0;
  private bvh: BVH | null = null;
  constructor(
    private readonly build: (positions: Float32Array, indices: Uint32Array) => BVH,
    private readonly wrongRay = -1,
  ) {}
  prepare(positions: Float32Array, indices: Uint32Array): void {
    this.bvh = this.build(positions, indices);
    this.prepared++;
  }
  cast(rays: RayBatch, hits: RayHits): void {
    castRays(this.bvh!, rays, hits);
    if (this.wrongRay >= 0) hits.t[this.wrongRay] = hits.t[this.wrongRay]! + 1;
  }
}

function emitters(rayEmitters: SceneRayEmitters): { system: RayEmitterSystem; hash: () => string; events: () => string[] } {
  const sandbox = createHeadlessSandbox(scene(rayEmitters), { readField });
  sandbox.step(1 / 60);
  const system = sandbox.system('rayEmitters') as RayEmitterSystem;
  return { system, hash: () => sandbox.hash(), events: () => sandbox.timings.phases.filter((p) => p.startsWith('ab.')) };
}

let unregister: (() => void) | null = null;
afterEach(() => {
  unregister?.();
  unregister = null;
});

describe('external ray casters (strategy B from outside the core)', () => {
  it('registers by name, and withdraws', () => {
    expect(EXTERNAL_RAY_CASTERS).toContain('three-mesh-bvh');
    expect(registeredExternalRayCasters()).toEqual([]);
    expect(createExternalRayCaster('three-mesh-bvh')).toBeNull();
    unregister = registerExternalRayCaster('three-mesh-bvh', () => new StandIn((positions, indices) => buildBVH(positions, indices)));
    expect(registeredExternalRayCasters()).toEqual(['three-mesh-bvh']);
    expect(createExternalRayCaster('three-mesh-bvh')).toBeInstanceOf(StandIn);
    unregister();
    expect(registeredExternalRayCasters()).toEqual([]);
  });

  it('rejects an unknown name, naming the field and the names there are, and an external A', () => {
    expect(() => scene({ ab: true, b: { external: 'embree' } })).toThrow(/systems\.rayEmitters\.b\.external[\s\S]*"three-mesh-bvh"[\s\S]*embree/);
    expect(() => scene({ a: { external: 'three-mesh-bvh' } })).toThrow(/systems\.rayEmitters\.a\.external[\s\S]*only strategy B/);
  });

  it('skips B with a message when the name is not registered here, and hashes as when it is', () => {
    const { system, hash } = emitters(RACE);
    expect(system.resultA!.hits).toBeGreaterThan(300);
    expect(system.resultB).toBeNull();
    expect(system.metrics().kernelB).toBe('three-mesh-bvh is not registered in this process (registered: none); B skipped');
    const withoutIt = hash();

    let caster: StandIn | null = null;
    unregister = registerExternalRayCaster('three-mesh-bvh', () => (caster = new StandIn((positions, indices) => buildBVH(positions, indices))));
    const raced = emitters(RACE);
    expect(raced.system.resultB!.external).toBe('three-mesh-bvh');
    expect(raced.system.resultB!.hits).toBe(raced.system.resultA!.hits);
    expect(raced.system.differing).toBe(0);
    expect(raced.system.metrics()).toMatchObject({ kernelB: 'stand-in', differing: 0 });
    expect(raced.system.metrics().nodesPerRayB).toBeUndefined();
    expect(caster!.prepared).toBe(1);
    expect(raced.events()).toEqual(['ab.three-mesh-bvh.build']);
    expect(raced.hash()).toBe(withoutIt);
  });

  it('counts the rays whose hits differ', () => {
    unregister = registerExternalRayCaster('three-mesh-bvh', () => new StandIn((positions, indices) => buildBVH(positions, indices), 7));
    const { system } = emitters(RACE);
    expect(system.differing).toBe(1);
  });
});
