import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ColliderscopeError,
  Random,
  Sandbox,
  WindField,
  buildBVH,
  createHeadlessSandbox,
  generateTerrain,
  parseScene,
  sampleTerrainHeight,
} from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';
import { ActorSystem } from '../../../src/actors/actorSystem';
import { ActorWorld } from '../../../src/actors/actorWorld';
import { ContactBuffer, CONTACT_STRIDE } from '../../../src/actors/contactBuffer';
import { findTerrainContacts, type TriangleSource } from '../../../src/actors/terrainContacts';
import { TriangleBoxQuery } from '../../../src/actors/triangleBoxQuery';
import { boundingRadius, contactSpheres, massProperties, projectedArea, SHAPE_BOX, SHAPE_CAPSULE, SHAPE_SPHERE } from '../../../src/actors/shapes';

const source = (name: string): string => readFileSync(new URL(`../../../scenes/fields/${name}.vf`, import.meta.url), 'utf8');

/** Every triangle of the mesh whose bounding box overlaps the query box, ascending: the reference. */
class AllTriangles implements TriangleSource {
  triangles: Uint32Array;
  private readonly bounds: Float64Array;
  constructor(positions: Float32Array, indices: Uint32Array) {
    const count = indices.length / 3;
    this.triangles = new Uint32Array(count);
    this.bounds = new Float64Array(6 * count);
    for (let t = 0; t < count; t++) {
      for (let a = 0; a < 3; a++) {
        const values = [0, 1, 2].map((k) => positions[3 * indices[3 * t + k]! + a]!);
        this.bounds[6 * t + a] = Math.min(...values);
        this.bounds[6 * t + 3 + a] = Math.max(...values);
      }
    }
  }
  run(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number {
    let n = 0;
    const b = this.bounds;
    for (let t = 0; t < b.length / 6; t++) {
      const o = 6 * t;
      if (b[o]! > maxX || b[o + 3]! < minX || b[o + 1]! > maxY || b[o + 4]! < minY || b[o + 2]! > maxZ || b[o + 5]! < minZ) continue;
      this.triangles[n++] = t;
    }
    return n;
  }
}

/** The BVH query with its answer sorted, so both sources hand triangles over in the same order. */
class SortedQuery implements TriangleSource {
  constructor(private readonly query: TriangleBoxQuery) {}
  get triangles(): Uint32Array {
    return this.query.triangles;
  }
  run(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number {
    const n = this.query.run(minX, minY, minZ, maxX, maxY, maxZ);
    this.query.triangles.subarray(0, n).sort();
    return n;
  }
}

describe('terrain contacts', () => {
  it('are the same through the BVH query as over all triangles (seed 21, random actors near a bumpy terrain)', () => {
    const terrain = generateTerrain({ cells: 24, worldSize: 32, heightScale: 8, kind: 'ridged', seed: 21 });
    // No spatial splits: then the box query is exactly the bounding-box answer (see TriangleBoxQuery).
    const bvh = buildBVH(terrain.positions, terrain.indices, { spatialSplits: false });
    const world = new ActorWorld();
    const random = new Random(21);
    for (let i = 0; i < 150; i++) {
      const x = random.range(-15, 15),
        z = random.range(-15, 15);
      const size = random.range(0.2, 1.2);
      const kind = i % 3;
      const shape =
        kind === 0
          ? { kind: 'sphere' as const, radius: size }
          : kind === 1
            ? { kind: 'box' as const, halfExtents: [size, size * 0.6, size * 0.8] as [number, number, number] }
            : { kind: 'capsule' as const, radius: size * 0.4, halfLength: size };
      // From well clear of the ground to half sunk into it, and below the surface.
      const y = sampleTerrainHeight(terrain, x, z) + random.range(-0.8, 1.5) * size;
      const angle = random.range(0, Math.PI);
      world.addActor(shape, [x, y, z], [Math.sin(angle / 2) * 0.6, Math.sin(angle / 2) * 0.8, 0, Math.cos(angle / 2)]);
      world.actors.velocity.set([random.range(-5, 5), random.range(-5, 5), random.range(-5, 5)], 3 * i);
    }
    const viaBvh = new ContactBuffer();
    const viaAll = new ContactBuffer();
    const countersBvh = { triangleQueries: 0, trianglesNear: 0, sphereTriangleTests: 0, boxTriangleTests: 0 };
    const countersAll = { triangleQueries: 0, trianglesNear: 0, sphereTriangleTests: 0, boxTriangleTests: 0 };
    findTerrainContacts(world.actors, new SortedQuery(new TriangleBoxQuery(bvh)), bvh.positions, bvh.indices, viaBvh, 1 / 60, 0.05, countersBvh);
    findTerrainContacts(world.actors, new AllTriangles(bvh.positions, bvh.indices), bvh.positions, bvh.indices, viaAll, 1 / 60, 0.05, countersAll);
    expect(viaBvh.count).toBeGreaterThan(200);
    expect(viaBvh.count).toBe(viaAll.count);
    expect(Array.from(viaBvh.bodies.subarray(0, 2 * viaBvh.count))).toEqual(Array.from(viaAll.bodies.subarray(0, 2 * viaAll.count)));
    expect(Array.from(viaBvh.data.subarray(0, CONTACT_STRIDE * viaBvh.count))).toEqual(
      Array.from(viaAll.data.subarray(0, CONTACT_STRIDE * viaAll.count)),
    );
    expect(countersBvh.trianglesNear).toBe(countersAll.trianglesNear);
    // Every contact normal is a unit vector pointing out of the ground (up-facing terrain).
    for (let c = 0; c < viaBvh.count; c++) {
      const o = CONTACT_STRIDE * c;
      expect(Math.hypot(viaBvh.data[o]!, viaBvh.data[o + 1]!, viaBvh.data[o + 2]!)).toBeCloseTo(1, 9);
    }
  });
});

describe('shapes', () => {
  it('have the mass and inertia of their solid, by Monte Carlo over the bounding box (seed 2)', () => {
    const random = new Random(2);
    const cases: [number, number, number, number, (x: number, y: number, z: number) => boolean][] = [
      [SHAPE_SPHERE, 0.7, 0.7, 0.7, (x, y, z) => x * x + y * y + z * z <= 0.49],
      [SHAPE_BOX, 0.5, 1, 0.25, () => true],
      [SHAPE_CAPSULE, 0.4, 0.9, 0.4, (x, y, z) => x * x + z * z + Math.max(0, Math.abs(y) - 0.9) ** 2 <= 0.16],
    ];
    const out = new Float64Array(4);
    for (const [kind, sx, sy, sz, inside] of cases) {
      const ex = sx,
        ey = kind === SHAPE_CAPSULE ? sy + sx : sy,
        ez = sz;
      const samples = 200000;
      let mass = 0,
        ix = 0,
        iy = 0,
        iz = 0;
      for (let s = 0; s < samples; s++) {
        const x = random.range(-ex, ex),
          y = random.range(-ey, ey),
          z = random.range(-ez, ez);
        if (!inside(x, y, z)) continue;
        mass++;
        ix += y * y + z * z;
        iy += x * x + z * z;
        iz += x * x + y * y;
      }
      const cell = (8 * ex * ey * ez) / samples;
      massProperties(kind, sx, sy, sz, 3, out);
      expect(out[0]! / (3 * mass * cell)).toBeCloseTo(1, 2);
      expect(out[1]! / (3 * ix * cell)).toBeCloseTo(1, 1);
      expect(out[2]! / (3 * iy * cell)).toBeCloseTo(1, 1);
      expect(out[3]! / (3 * iz * cell)).toBeCloseTo(1, 1);
    }
  });

  it('place contact spheres inside the shape, reaching its surface, and project the right areas', () => {
    for (const [kind, sx, sy, sz] of [
      [SHAPE_SPHERE, 1, 1, 1],
      [SHAPE_BOX, 1, 0.5, 2],
      [SHAPE_BOX, 0.3, 0.3, 0.3],
      [SHAPE_CAPSULE, 0.5, 1.5, 0.5],
      [SHAPE_CAPSULE, 0.5, 0, 0.5],
    ] as const) {
      const spheres: number[] = [];
      const n = contactSpheres(kind, sx, sy, sz, spheres);
      expect(spheres.length).toBe(4 * n);
      const reach = [0, 0, 0];
      for (let s = 0; s < n; s++) {
        const [x, y, z, r] = spheres.slice(4 * s, 4 * s + 4) as [number, number, number, number];
        expect(Math.hypot(x, y, z) + r).toBeLessThanOrEqual(boundingRadius(kind, sx, sy, sz) + 1e-12);
        reach[0] = Math.max(reach[0]!, Math.abs(x) + r);
        reach[1] = Math.max(reach[1]!, Math.abs(y) + r);
        reach[2] = Math.max(reach[2]!, Math.abs(z) + r);
        if (kind === SHAPE_BOX) {
          expect(Math.abs(x) + r).toBeLessThanOrEqual(sx + 1e-12);
          expect(Math.abs(y) + r).toBeLessThanOrEqual(sy + 1e-12);
          expect(Math.abs(z) + r).toBeLessThanOrEqual(sz + 1e-12);
        }
      }
      // The spheres reach the shape's extent on every axis.
      const extent = kind === SHAPE_CAPSULE ? [sx, sy + sx, sz] : [sx, sy, sz];
      reach.forEach((value, axis) => expect(value).toBeCloseTo(extent[axis]!, 9));
    }
    expect(contactSpheres(SHAPE_BOX, 0.5, 0.5, 0.5, [])).toBe(26);
    expect(projectedArea(SHAPE_BOX, 1, 2, 3, 0, 0, 1)).toBeCloseTo(8, 12);
    expect(projectedArea(SHAPE_BOX, 1, 2, 3, Math.SQRT1_2, Math.SQRT1_2, 0)).toBeCloseTo(4 * (6 + 3) * Math.SQRT1_2, 12);
    expect(projectedArea(SHAPE_CAPSULE, 0.5, 2, 0.5, 0, 1, 0)).toBeCloseTo(Math.PI * 0.25, 12);
    expect(projectedArea(SHAPE_CAPSULE, 0.5, 2, 0.5, 1, 0, 0)).toBeCloseTo(Math.PI * 0.25 + 4, 12);
  });
});

describe('ActorSystem in the sandbox', () => {
  function sandboxWithActors(): { sandbox: Sandbox; system: ActorSystem; field: WindField } {
    const scene = parseScene({ seed: 3, terrain: { cells: 32, worldSize: 64, heightScale: 4, kind: 'fbm' } });
    const sandbox = new Sandbox(scene, undefined, 30, 8);
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
    const field = new WindField();
    const system = new ActorSystem(field, { count: 24, center: [0, 0], seed: 3 });
    sandbox.addSystem(system);
    return { sandbox, system, field };
  }

  it('settles, sleeps through a calm, wakes when an explosion appears over the pile and is blown away', () => {
    const { sandbox, system, field } = sandboxWithActors();
    for (let frame = 0; frame < 900 && system.world.census().awake > 0; frame++) sandbox.step(1 / 60);
    expect(system.world.census().awake).toBe(0);
    sandbox.step(1 / 60); // a calm step: nobody awake, nothing sampled
    const report = sandbox.report().metrics.actors!;
    expect(report.actors).toBe(24);
    expect(report.sleeping).toBe(24);
    expect(report.windSamples).toBe(0);

    // An explosion appears over the pile: the system wakes the sleepers in its reach box first, so the
    // blast (60 m/s outwards) reaches every one of them.
    const at = [0, sampleTerrainHeight(sandbox.terrain, 0, 0) + 2, 0];
    const explosion = field.add('explosion', source('explosion'), at, 20);
    field.setConstant(explosion, 'strength', [60, 60, 60, 0]);
    field.setConstant(explosion, 'radius', [20, 20, 20, 20]);
    const before = system.world.actors.position.slice(0, 3 * 24);
    sandbox.step(1 / 60);
    expect(system.metrics().wokenByEffects).toBe(24);
    expect(system.metrics().windSamples).toBe(24);
    for (let frame = 0; frame < 30; frame++) sandbox.step(1 / 60);
    let moved = 0;
    const after = system.world.actors.position;
    for (let i = 0; i < 24; i++) if (Math.hypot(after[3 * i]! - before[3 * i]!, after[3 * i + 2]! - before[3 * i + 2]!) > 0.5) moved++;
    expect(moved).toBeGreaterThan(18);
    // Timings of every phase reach the sandbox.
    expect(sandbox.timings.phases).toEqual(expect.arrayContaining(['actors.wind', 'actors.solve', 'actors.terrainContacts', 'step.actors']));
  });

  it('without waking on new effects, sleepers sleep through the explosion', () => {
    const { sandbox, system, field } = sandboxWithActors();
    system.wakeOnNewEffects = false;
    for (let frame = 0; frame < 900 && system.world.census().awake > 0; frame++) sandbox.step(1 / 60);
    expect(system.world.census().awake).toBe(0);
    field.add('explosion', source('explosion'), [0, sampleTerrainHeight(sandbox.terrain, 0, 0) + 2, 0], 20);
    for (let frame = 0; frame < 10; frame++) sandbox.step(1 / 60);
    expect(system.world.census().awake).toBe(0);
    expect(system.metrics().windSamples).toBe(0);
  });

  it('steps back and restarts exactly', () => {
    const { sandbox, system } = sandboxWithActors();
    expect(sandbox.rewindable).toBe(true);
    const positions = (): number[] => Array.from(system.world.actors.position.subarray(0, 3 * system.world.count));
    for (let frame = 0; frame < 40; frame++) sandbox.step(1 / 60);
    const at40 = positions();
    sandbox.step(1 / 60);
    expect(positions()).not.toEqual(at40);
    expect(sandbox.stepBack()).toBe(true);
    expect(positions()).toEqual(at40);
    sandbox.step(1 / 60);
    const at41 = positions();
    expect(sandbox.restart()).toBe(true);
    for (let frame = 0; frame < 41; frame++) sandbox.step(1 / 60);
    expect(positions()).toEqual(at41);
  });

  it('a section filter reaches the terrain query: filter 0 lets the pile fall through, a bad filter is named', () => {
    const terrain = { seed: 3, cells: 32, worldSize: 64, heightScale: 4, kind: 'fbm' };
    const run = (filter?: number): ActorSystem => {
      const sandbox = createHeadlessSandbox(
        parseScene({ seed: 3, terrain, systems: { actors: { count: 12, center: [0, 0], ...(filter === undefined ? {} : { filter }) } } }),
        { readField },
      );
      for (let frame = 0; frame < 60; frame++) sandbox.step(1 / 60);
      const system = sandbox.system('actors');
      if (!(system instanceof ActorSystem)) throw new Error('no actors');
      return system;
    };
    const all = run();
    const none = run(0);
    expect(all.section().filter).toBe(0xffffffff);
    expect(none.section().filter).toBe(0);
    expect(none.world.options.terrainFilter).toBe(0);
    expect(all.metrics().terrainContacts).toBeGreaterThan(0);
    expect(none.metrics().terrainContacts).toBe(0);
    expect(none.metrics().terrainSubtreesMasked).toBeGreaterThan(0);
    expect(none.metrics().terrainNodesVisited).toBe(0);
    const lowest = (system: ActorSystem): number => Math.min(...Array.from({ length: 12 }, (_, i) => system.world.actors.position[3 * i + 1]!));
    expect(lowest(none)).toBeLessThan(lowest(all) - 1);
    expect(() => parseScene({ terrain, systems: { actors: { filter: -1 } } }, 'a.json')).toThrow(/systems\.actors\.filter/);
    expect(() => all.world.setOptions({ terrainFilter: 2 ** 32 })).toThrow(ColliderscopeError);
    expect(all.world.options.terrainFilter).toBe(0xffffffff);
  });
});
