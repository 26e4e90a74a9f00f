import { describe, expect, it } from 'vitest';
import { ContactBuffer, CONTACT_STRIDE, C_LAMBDA_N, C_LAMBDA_T1, C_LAMBDA_T2, C_T1, C_T2 } from '../../../src/actors/contactBuffer';
import { ContactCache, IMPULSE_STRIDE } from '../../../src/actors/contactCache';
import { ActorWorld } from '../../../src/actors/actorWorld';
import { buildBVH, generateTerrain } from '../../../src/core';
import { Random } from '../../../src/math/random';

/** Contacts with random keys from a small range (so keys repeat), random normals and impulses. */
function randomContacts(random: Random, count: number): ContactBuffer {
  const contacts = new ContactBuffer();
  for (let c = 0; c < count; c++) {
    const a = random.int(6);
    const b = random.int(7) - 1;
    const o = contacts.add(a, b, 0, 1, 0, 0, 0, 0, 0.01, 0.2, random.int(4), random.int(4));
    contacts.data.set([1, 0, 0], o + C_T1);
    contacts.data.set([0, 0, 1], o + C_T2);
    contacts.data[o + C_LAMBDA_N] = random.range(0, 2);
    contacts.data[o + C_LAMBDA_T1] = random.range(-1, 1);
    contacts.data[o + C_LAMBDA_T2] = random.range(-1, 1);
  }
  return contacts;
}

/** The first contact with this key, by a linear scan: what the cache must answer. */
function linearFind(contacts: ContactBuffer, a: number, b: number, fa: number, fb: number): number {
  for (let c = 0; c < contacts.count; c++) {
    if (contacts.bodies[2 * c] === a && contacts.bodies[2 * c + 1] === b && contacts.features[2 * c] === fa && contacts.features[2 * c + 1] === fb)
      return c;
  }
  return -1;
}

describe('ContactCache', () => {
  it.each([1, 2, 3])('finds every key a linear scan finds, with its impulses, and nothing else (seed %i, repeated keys)', (seed) => {
    const random = new Random(seed);
    const cache = new ContactCache();
    for (const count of [0, 5, 300, 1500, 40]) {
      const contacts = randomContacts(random, count);
      cache.store(contacts, 1 / 60);
      for (let a = 0; a < 6; a++) {
        for (let b = -1; b < 6; b++) {
          for (let fa = 0; fa < 4; fa++) {
            for (let fb = 0; fb < 4; fb++) {
              const expected = linearFind(contacts, a, b, fa, fb);
              const entry = cache.find(a, b, fa, fb);
              expect(entry >= 0).toBe(expected >= 0);
              if (expected < 0) continue;
              const o = CONTACT_STRIDE * expected;
              const e = IMPULSE_STRIDE * entry;
              expect(cache.impulses[e]).toBe(contacts.data[o + C_LAMBDA_N]);
              // Friction as a world vector: t1 = x, t2 = z here.
              expect(cache.impulses[e + 1]).toBeCloseTo(contacts.data[o + C_LAMBDA_T1]!, 12);
              expect(cache.impulses[e + 3]).toBeCloseTo(contacts.data[o + C_LAMBDA_T2]!, 12);
            }
          }
        }
      }
      // A snapshot restored into another cache answers the same.
      const copy = new ContactCache();
      copy.restore(cache.snapshot());
      for (let k = 0; k < 50; k++) {
        const key = [random.int(6), random.int(7) - 1, random.int(4), random.int(4)] as const;
        expect(copy.find(...key)).toBe(cache.find(...key));
      }
    }
  });

  it('warm starting holds a resting box with the impulses of the last substep: the cache carries its weight', () => {
    const terrain = generateTerrain({ cells: 16, worldSize: 32, heightScale: 0, kind: 'fbm', seed: 3 });
    const world = new ActorWorld();
    world.setTerrain(buildBVH(terrain.positions, terrain.indices));
    const id = world.addActor({ kind: 'box', halfExtents: [0.6, 0.3, 0.4] }, [0.2, 0.35, -0.1]);
    const mass = 1 / world.actors.invMass[id]!;
    for (let frame = 0; frame < 20; frame++) world.step(1 / 60);
    expect(world.census().awake).toBe(1);
    // Every contact of the last substep was found again, and their normal impulses hold the weight.
    expect(world.counters.warmStarted).toBe(world.counters.terrainContacts);
    expect(world.counters.warmStarted).toBeGreaterThanOrEqual(3);
    const contacts = world.contacts;
    let normal = 0;
    for (let c = 0; c < contacts.count; c++) normal += contacts.data[CONTACT_STRIDE * c + C_LAMBDA_N]!;
    expect(normal / (mass * 9.81 * (1 / 60))).toBeCloseTo(1, 1);
  });
});
