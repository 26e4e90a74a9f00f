import { describe, expect, it } from 'vitest';
import { buildBVH, generateTerrain, sampleTerrainHeight } from '../../../src/core';
import { ActorWorld } from '../../../src/actors/actorWorld';
import { ContactBuffer, CONTACT_STRIDE } from '../../../src/actors/contactBuffer';
import { spawnPile } from '../../../src/actors/spawnPile';
import { findTerrainContacts } from '../../../src/actors/terrainContacts';
import { TerrainNeighbours } from '../../../src/actors/terrainNeighbours';
import { TriangleBoxQuery } from '../../../src/actors/triangleBoxQuery';
import { refitBVH } from '../../../src/bvh/refit';
import { applyTerrainEdit } from '../../../src/terrain/edits';

const counters = (): { triangleQueries: number; trianglesNear: number; sphereTriangleTests: number; boxTriangleTests: number } => ({
  triangleQueries: 0,
  trianglesNear: 0,
  sphereTriangleTests: 0,
  boxTriangleTests: 0,
});

/** Normal, point, depth, rolling radius, bodies and features of every contact. */
function contactRows(contacts: ContactBuffer): number[][] {
  const rows: number[][] = [];
  for (let c = 0; c < contacts.count; c++) {
    const o = CONTACT_STRIDE * c;
    rows.push([
      ...contacts.data.subarray(o, o + 7),
      contacts.data[o + 28]!,
      contacts.bodies[2 * c]!,
      contacts.bodies[2 * c + 1]!,
      contacts.features[2 * c]!,
      contacts.features[2 * c + 1]!,
    ]);
  }
  return rows;
}

describe('TerrainNeighbours', () => {
  it.each([false, true])(
    'kept triangle lists give exactly the contacts of a fresh BVH walk per actor, all through a falling pile (spatial splits: %s)',
    (spatialSplits) => {
      const terrain = generateTerrain({ cells: 32, worldSize: 40, heightScale: 10, kind: 'ridged', seed: 9 });
      const bvh = buildBVH(terrain.positions, terrain.indices, { spatialSplits });
      const world = new ActorWorld();
      world.setTerrain(bvh);
      spawnPile(world, { count: 60, center: [0, 0], seed: 4 }, (x, z) => sampleTerrainHeight(terrain, x, z));
      const neighbours = new TerrainNeighbours();
      const query = new TriangleBoxQuery(bvh);
      const kept = new ContactBuffer();
      const fresh = new ContactBuffer();
      let compared = 0;
      for (let frame = 0; frame < 120; frame++) {
        world.step(1 / 60);
        kept.clear();
        fresh.clear();
        findTerrainContacts(world.actors, query, bvh.positions, bvh.indices, kept, 1 / 60, 0.05, counters(), neighbours);
        findTerrainContacts(world.actors, query, bvh.positions, bvh.indices, fresh, 1 / 60, 0.05, counters());
        expect(contactRows(kept)).toEqual(contactRows(fresh));
        compared += fresh.count;
      }
      expect(compared).toBeGreaterThan(1000);
      // Most lists were reused, not walked again.
      expect(neighbours.reused).toBeGreaterThan(neighbours.walks);
    },
  );

  it('forgets its lists when told the terrain moved', () => {
    const terrain = generateTerrain({ cells: 16, worldSize: 16, heightScale: 0, kind: 'fbm', seed: 1 });
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const world = new ActorWorld();
    world.setTerrain(bvh);
    world.addActor({ kind: 'sphere', radius: 0.5 }, [0.3, 0.49, 0.2]);
    world.step(1 / 60);
    world.step(1 / 60);
    expect(world.counters.terrain.walks).toBe(0);
    world.terrainEdited();
    world.step(1 / 60);
    expect(world.counters.terrain.walks).toBe(1);
  });

  it('after a crater, forgetting only the lists that reach the changed area steps the pile exactly as forgetting all', () => {
    const terrain = generateTerrain({ cells: 48, worldSize: 48, heightScale: 8, kind: 'fbm', seed: 12 });
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const pile = (): ActorWorld => {
      const world = new ActorWorld();
      world.setTerrain(bvh);
      spawnPile(world, { count: 80, center: [-4, 2], seed: 6 }, (x, z) => sampleTerrainHeight(terrain, x, z));
      return world;
    };
    const forgetAll = pile();
    const forgetArea = pile();
    let walksAll = 0;
    let walksArea = 0;
    for (let frame = 0; frame < 150; frame++) {
      // Craters under the pile, beside it and far from it (one reaching no list at all).
      const at = frame === 40 ? [-4, 2] : frame === 80 ? [3, -1] : frame === 110 ? [18, 18] : null;
      if (at !== null) {
        const applied = applyTerrainEdit(terrain, { frame, kind: 'crater', at: [at[0]!, at[1]!], radius: 3, amount: 1.5 })!;
        refitBVH(bvh, applied.triangles);
        forgetAll.terrainEdited();
        forgetArea.terrainEdited(applied.area);
      }
      forgetAll.step(1 / 60);
      forgetArea.step(1 / 60);
      walksAll += forgetAll.counters.terrain.walks;
      walksArea += forgetArea.counters.terrain.walks;
      expect(forgetArea.actors.position).toEqual(forgetAll.actors.position);
      expect(forgetArea.actors.velocity).toEqual(forgetAll.actors.velocity);
      expect(forgetArea.actors.angularVelocity).toEqual(forgetAll.actors.angularVelocity);
    }
    expect(walksArea).toBeLessThan(walksAll);
  });
});
