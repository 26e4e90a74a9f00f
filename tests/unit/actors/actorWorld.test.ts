import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { InvalidParameterError, WindField, buildBVH, generateTerrain, sampleTerrainHeight, type BVH, type TerrainMesh } from '../../../src/core';
import { ActorWorld, type ActorWorldOptions } from '../../../src/actors/actorWorld';
import { spawnPile } from '../../../src/actors/spawnPile';
import { TriangleBoxQuery } from '../../../src/actors/triangleBoxQuery';
import { closestPointOnTriangle } from '../../../src/actors/closestPointOnTriangle';
import { SHAPE_BOX } from '../../../src/actors/shapes';

const source = (name: string): string => readFileSync(new URL(`../../../scenes/fields/${name}.vf`, import.meta.url), 'utf8');

interface Ground {
  terrain: TerrainMesh;
  bvh: BVH;
}
const grounds = new Map<string, Ground>();
function ground(kind: 'flat' | 'bumpy'): Ground {
  let g = grounds.get(kind);
  if (g === undefined) {
    const terrain = generateTerrain({ cells: 48, worldSize: 64, heightScale: kind === 'flat' ? 0 : 6, kind: 'fbm', seed: 7 });
    g = { terrain, bvh: buildBVH(terrain.positions, terrain.indices) };
    grounds.set(kind, g);
  }
  return g;
}

function pileWorld(kind: 'flat' | 'bumpy', count: number, seed: number, options: Partial<ActorWorldOptions> = {}): ActorWorld {
  const { terrain, bvh } = ground(kind);
  const world = new ActorWorld(options);
  world.setTerrain(bvh);
  spawnPile(world, { count, center: [0, 0], seed }, (x, z) => sampleTerrainHeight(terrain, x, z));
  return world;
}

/** Deepest overlap of any contact sphere or box corner with the terrain surface (negative: all clear). */
function deepestPenetration(world: ActorWorld, g: Ground, query: TriangleBoxQuery): number {
  const a = world.actors;
  const p = g.terrain.positions;
  const ix = g.terrain.indices;
  const closest = new Float64Array(3);
  let worst = -Infinity;
  for (let s = 0; s < a.sphereTotal; s++) {
    const x = a.sphereWorld[3 * s]!,
      y = a.sphereWorld[3 * s + 1]!,
      z = a.sphereWorld[3 * s + 2]!,
      r = a.sphereLocal[4 * s + 3]!;
    const n = query.run(x - r - 1, y - r - 3, z - r - 1, x + r + 1, y + r, z + r + 1);
    let distance = Infinity;
    for (let k = 0; k < n; k++) {
      const t = 3 * query.triangles[k]!;
      const A = 3 * ix[t]!,
        B = 3 * ix[t + 1]!,
        C = 3 * ix[t + 2]!;
      closestPointOnTriangle(x, y, z, p[A]!, p[A + 1]!, p[A + 2]!, p[B]!, p[B + 1]!, p[B + 2]!, p[C]!, p[C + 1]!, p[C + 2]!, closest);
      distance = Math.min(distance, Math.hypot(x - closest[0]!, y - closest[1]!, z - closest[2]!));
    }
    const below = y < sampleTerrainHeight(g.terrain, x, z);
    const depth = below ? r + distance : r - distance;
    if (depth > worst) worst = depth;
  }
  // A box's own corners (its terrain contacts are exact): how far below the surface, straight down
  // (at least the distance to the surface, so the stricter measure).
  for (let i = 0; i < a.count; i++) {
    if (a.kind[i] !== SHAPE_BOX) continue;
    const R = 9 * i;
    for (let corner = 0; corner < 8; corner++) {
      const lx = corner & 1 ? a.size[3 * i]! : -a.size[3 * i]!,
        ly = corner & 2 ? a.size[3 * i + 1]! : -a.size[3 * i + 1]!,
        lz = corner & 4 ? a.size[3 * i + 2]! : -a.size[3 * i + 2]!;
      const r = a.rotation;
      const x = a.position[3 * i]! + r[R]! * lx + r[R + 1]! * ly + r[R + 2]! * lz;
      const y = a.position[3 * i + 1]! + r[R + 3]! * lx + r[R + 4]! * ly + r[R + 5]! * lz;
      const z = a.position[3 * i + 2]! + r[R + 6]! * lx + r[R + 7]! * ly + r[R + 8]! * lz;
      worst = Math.max(worst, sampleTerrainHeight(g.terrain, x, z) - y);
    }
  }
  return worst;
}

function stateHash(world: ActorWorld): string {
  const a = world.actors;
  const bytes = new Uint8Array(
    new Float64Array([...a.position.subarray(0, 3 * a.count), ...a.orientation.subarray(0, 4 * a.count), ...a.velocity.subarray(0, 3 * a.count)])
      .buffer,
  );
  let h = 2166136261;
  for (const b of bytes) h = Math.imul(h ^ b, 16777619);
  return (h >>> 0).toString(16) + ':' + Array.from(a.awake.subarray(0, a.count)).join('');
}

describe('ActorWorld on the terrain', () => {
  for (const kind of ['flat', 'bumpy'] as const) {
    it(`a pile comes to rest on ${kind} terrain without sinking or exploding, and sleeps (seed 5, 600 frames)`, () => {
      const g = ground(kind);
      const world = pileWorld(kind, 60, 5);
      const query = new TriangleBoxQuery(g.bvh);
      const a = world.actors;
      let worst = -Infinity;
      let fastest = 0;
      for (let frame = 0; frame < 600; frame++) {
        world.step(1 / 60);
        if (frame % 5 === 0 || frame > 590) worst = Math.max(worst, deepestPenetration(world, g, query));
        for (let i = 0; i < a.count; i++) fastest = Math.max(fastest, Math.hypot(a.velocity[3 * i]!, a.velocity[3 * i + 1]!, a.velocity[3 * i + 2]!));
      }
      // Never below the surface by more than 5 cm (the contact spheres are 15–70 cm, the boxes 0.3–1.4 m).
      expect(worst).toBeLessThan(0.05);
      // Dropped from at most ~8 m: nothing may ever move faster than free fall from there (no explosions).
      expect(fastest).toBeLessThan(Math.sqrt(2 * 9.81 * 12));
      const census = world.census();
      expect(census.lost).toBe(0);
      expect(census.sleeping).toBeGreaterThanOrEqual(kind === 'flat' ? 60 : 50);
      for (let i = 0; i < a.count; i++) {
        if (a.awake[i] !== 0) continue;
        expect(a.velocity[3 * i]).toBe(0);
        // A sleeper rests on something: its lowest point is within a few centimetres of the ground or of another actor's top.
        expect(a.box[6 * i + 1]!).toBeLessThan(sampleTerrainHeight(g.terrain, a.position[3 * i]!, a.position[3 * i + 2]!) + 6);
      }
    });
  }

  it('replays bit for bit from the same seed, and from a saved state', () => {
    const first = pileWorld('bumpy', 30, 11);
    const second = pileWorld('bumpy', 30, 11);
    for (let frame = 0; frame < 120; frame++) {
      first.step(1 / 60);
      second.step(1 / 60);
    }
    expect(stateHash(first)).toBe(stateHash(second));
    const saved = first.saveState();
    for (let frame = 0; frame < 60; frame++) first.step(1 / 60);
    const later = stateHash(first);
    // Back in time: the broad-phase is rebuilt, the pair order is sorted, so the same steps replay exactly.
    first.loadState(saved);
    for (let frame = 0; frame < 60; frame++) first.step(1 / 60);
    expect(stateHash(first)).toBe(later);
    // The snapshot is a deep copy: stepping did not change it.
    second.loadState(saved);
    for (let frame = 0; frame < 60; frame++) second.step(1 / 60);
    expect(stateHash(second)).toBe(later);
    // Another seed, another pile.
    expect(stateHash(pileWorld('bumpy', 30, 12))).not.toBe(stateHash(pileWorld('bumpy', 30, 11)));
  });

  it('wakes sleepers inside a box only, and an awake actor landing on a sleeper wakes it without passing through', () => {
    const g = ground('flat');
    const world = new ActorWorld();
    world.setTerrain(g.bvh);
    const boxId = world.addActor({ kind: 'box', halfExtents: [1, 0.5, 1] }, [0, 0.6, 0]);
    const farId = world.addActor({ kind: 'sphere', radius: 0.5 }, [10, 0.6, 10]);
    for (let frame = 0; frame < 120; frame++) world.step(1 / 60);
    expect(world.census().sleeping).toBe(2);
    const top = world.actors.box[6 * boxId + 4]!;
    expect(top).toBeGreaterThan(0.95);
    expect(top).toBeLessThan(1.05);

    expect(world.wakeActors([5, -1, 5, 15, 5, 15])).toBe(1);
    expect(world.actors.awake[farId]).toBe(1);
    expect(world.actors.awake[boxId]).toBe(0);
    for (let frame = 0; frame < 60; frame++) world.step(1 / 60);
    expect(world.actors.awake[farId]).toBe(0);

    const ball = world.addActor({ kind: 'sphere', radius: 0.4 }, [0.3, 4, 0.2]);
    let woken = 0;
    let lowest = Infinity;
    for (let frame = 0; frame < 120; frame++) {
      world.step(1 / 60);
      woken += world.counters.actor.woken;
      lowest = Math.min(lowest, world.actors.position[3 * ball + 1]!);
    }
    expect(woken).toBeGreaterThanOrEqual(1);
    // The ball meets the box itself (sphere–box contacts), not a lattice of contact spheres with dips
    // between them: it never sinks into the top face by more than the solver's slop and a centimetre.
    expect(lowest).toBeGreaterThan(top + 0.4 - 0.01);
    expect(world.actors.position[3 * ball + 1]!).toBeGreaterThan(top + 0.4 - 0.01);
  });
});

describe('wind on actors', () => {
  it('drag on a sphere in a constant wind matches F = ½ρ|v|vCA, and acts above the centre', () => {
    const field = new WindField();
    field.add('constant-wind', source('constant-wind'), [0, 0, 0], Infinity); // velocity (4, 0, 1)
    const world = new ActorWorld({ gravity: 0, linearDamping: 0, angularDamping: 0, airDensity: 1.2 });
    const r = 0.5;
    const density = 25;
    const id = world.addActor({ kind: 'sphere', radius: r }, [0, 5, 0], [0, 0, 0, 1], density);
    const dt = 1 / 60;
    expect(world.applyWind(field, undefined, dt)).toBe(1);
    const speed = Math.hypot(4, 1);
    const magnitude = 0.5 * 1.2 * speed * 0.47 * Math.PI * r * r;
    const a = world.actors;
    expect(a.windForce[0]).toBeCloseTo(magnitude * 4, 5);
    expect(a.windForce[1]).toBeCloseTo(0, 6);
    expect(a.windForce[2]).toBeCloseTo(magnitude * 1, 5);
    world.step(dt);
    const mass = density * (4 / 3) * Math.PI * r ** 3;
    expect(a.velocity[3 * id]).toBeCloseTo((magnitude * 4 * dt) / mass, 10);
    expect(a.velocity[3 * id + 2]).toBeCloseTo((magnitude * dt) / mass, 10);
    // Torque of F at (0, 0.3·r, 0): (h·Fz, 0, −h·Fx) through the sphere's inertia 2/5·m·r².
    const h = 0.3 * r;
    const inertia = 0.4 * mass * r * r;
    expect(a.angularVelocity[0]).toBeCloseTo((h * magnitude * dt) / inertia, 10);
    expect(a.angularVelocity[2]).toBeCloseTo((-h * magnitude * 4 * dt) / inertia, 10);
    // Over time the sphere catches up with the air as d|u|/dt = −k|u|², u the relative velocity and
    // k = ρCA/2m: |u(t)| = |u0| / (1 + k|u0|t), never overshooting the wind.
    const k = (1.2 * 0.47 * Math.PI * r * r) / (2 * mass);
    let fastest = 0;
    for (let frame = 1; frame < 1200; frame++) {
      world.applyWind(field, undefined, dt);
      world.step(dt);
      fastest = Math.max(fastest, a.velocity[0]!);
    }
    const expected = 4 * (1 - 1 / (1 + k * speed * 20));
    expect(a.velocity[0]! / expected).toBeCloseTo(1, 1);
    expect(a.velocity[2]! / (expected / 4)).toBeCloseTo(1, 1);
    expect(fastest).toBeLessThan(4);
  });

  it('uses the projected area of boxes and capsules across the flow, and skips sleepers and filtered actors', () => {
    const field = new WindField();
    const effect = field.add('constant-wind', source('constant-wind'), [0, 0, 0], Infinity);
    field.setConstant(effect, 'velocity', [10, 0, 0, 0]);
    const world = new ActorWorld({ gravity: 0, airDensity: 1 });
    world.addActor({ kind: 'box', halfExtents: [1, 2, 3] }, [0, 0, 0]);
    world.addActor({ kind: 'capsule', radius: 0.5, halfLength: 2 }, [5, 0, 0]); // axis y, across the wind
    world.addActor({ kind: 'capsule', radius: 0.5, halfLength: 2 }, [10, 0, 0], [0, 0, Math.SQRT1_2, Math.SQRT1_2]); // axis along x
    world.addActor({ kind: 'sphere', radius: 1 }, [15, 0, 0], [0, 0, 0, 1], 1, 2); // group 2
    world.applyWind(field, 1, 1e-9);
    const f = world.actors.windForce;
    // The cap at dt = 1e-9 is far away; F = ½·1·10·10·C·A.
    expect(f[0]).toBeCloseTo(50 * 1.05 * (4 * 2 * 3), 4);
    expect(f[3]).toBeCloseTo(50 * 0.82 * (Math.PI * 0.25 + 4 * 0.5 * 2), 4);
    expect(f[6]).toBeCloseTo(50 * 0.82 * Math.PI * 0.25, 4);
    expect(f[9]).toBe(0);
    expect(world.counters.windSamples).toBe(3);
    world.actors.awake[0] = 0;
    expect(world.applyWind(field, 1)).toBe(2);
    expect(world.actors.windForce[0]).toBe(0);
  });
});

describe('ActorWorld input checks', () => {
  it('rejects bad shapes, positions, densities, options and boxes with a clear error', () => {
    const world = new ActorWorld();
    expect(() => world.addActor({ kind: 'sphere', radius: 0 }, [0, 0, 0])).toThrow(InvalidParameterError);
    expect(() => world.addActor({ kind: 'sphere', radius: NaN }, [0, 0, 0])).toThrow(/shape.radius/);
    expect(() => world.addActor({ kind: 'box', halfExtents: [1, -1, 1] }, [0, 0, 0])).toThrow(/halfExtents\[1\]/);
    expect(() => world.addActor({ kind: 'capsule', radius: 1, halfLength: -1 }, [0, 0, 0])).toThrow(/halfLength/);
    expect(() => world.addActor({ kind: 'cone', radius: 1 } as never, [0, 0, 0])).toThrow(/shape.kind/);
    expect(() => world.addActor({ kind: 'sphere', radius: 1 }, [0, NaN, 0])).toThrow(/position\[1\]/);
    expect(() => world.addActor({ kind: 'sphere', radius: 1 }, [0, 0, 0], [0, 0, 0, 0])).toThrow(/orientation/);
    expect(() => world.addActor({ kind: 'sphere', radius: 1 }, [0, 0, 0], undefined, -3)).toThrow(/density/);
    expect(world.count).toBe(0);
    expect(() => new ActorWorld({ substep: 0 })).toThrow(/actors.substep/);
    expect(() => new ActorWorld({ velocityIterations: 2.5 })).toThrow(/velocityIterations/);
    expect(() => new ActorWorld({ broadPhase: 'nope' as never })).toThrow(InvalidParameterError);
    expect(() => world.wakeActors([0, 0, NaN, 1, 1, 1])).toThrow(/box\[2\]/);
    expect(() => world.step(-1)).toThrow(RangeError);
    expect(() => world.step(Infinity)).toThrow(RangeError);
    // An actor with nothing under it falls; past the floor of the terrain it is frozen as lost.
    world.setTerrain(ground('flat').bvh);
    world.addActor({ kind: 'sphere', radius: 0.5 }, [100, 5, 100]);
    for (let frame = 0; frame < 300; frame++) world.step(1 / 60);
    expect(world.census().lost).toBe(1);
    expect(world.wakeActors([-1e9, -1e9, -1e9, 1e9, 1e9, 1e9])).toBe(0);
  });
});
