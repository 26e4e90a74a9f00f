import { describe, expect, it } from 'vitest';
import { buildBVH, generateTerrain, sampleTerrainHeight } from '../../../src/core';
import { ActorSweep } from '../../../src/actors/actorSweep';
import { ActorWorld, type ActorBroadPhaseName } from '../../../src/actors/actorWorld';
import { spawnPile } from '../../../src/actors/spawnPile';
import { Random } from '../../../src/math/random';

/** Brute force: every pair of present boxes whose closed intervals overlap on all three axes. */
function bruteForcePairs(boxes: Float64Array, present: boolean[]): number[] {
  const keys: number[] = [];
  for (let a = 0; a < present.length; a++) {
    for (let b = a + 1; b < present.length; b++) {
      if (!present[a] || !present[b]) continue;
      let overlap = true;
      for (let k = 0; k < 3; k++) if (boxes[6 * a + k]! > boxes[6 * b + 3 + k]! || boxes[6 * b + k]! > boxes[6 * a + 3 + k]!) overlap = false;
      if (overlap) keys.push(a * 16777216 + b);
    }
  }
  return keys.sort((x, y) => x - y);
}

describe('ActorSweep', () => {
  it('finds exactly the brute-force pairs on random, moving, touching and removed boxes', () => {
    const random = new Random(5);
    for (const [count, spread] of [
      [1, 10],
      [40, 10],
      [200, 30],
      [120, 2],
    ] as const) {
      const sweep = new ActorSweep();
      const boxes = new Float64Array(6 * count);
      const present: boolean[] = [];
      for (let frame = 0; frame < 8; frame++) {
        for (let i = 0; i < count; i++) {
          if (frame > 0 && random.next() < 0.3) continue;
          if (frame > 0 && random.next() < 0.05) {
            present[i] = false;
            sweep.remove(i);
            continue;
          }
          // Snapped to a coarse grid so boxes often touch exactly (closed intervals) and share min x.
          const snap = (v: number): number => Math.round(v * 4) / 4;
          for (let k = 0; k < 3; k++) {
            const lo = snap(random.range(-spread, spread));
            boxes[6 * i + k] = lo;
            boxes[6 * i + 3 + k] = lo + snap(random.range(0, 2));
          }
          present[i] = true;
          sweep.set(i, boxes[6 * i]!, boxes[6 * i + 1]!, boxes[6 * i + 2]!, boxes[6 * i + 3]!, boxes[6 * i + 4]!, boxes[6 * i + 5]!);
        }
        const n = sweep.findPairs();
        expect(Array.from(sweep.keys.subarray(0, n))).toEqual(bruteForcePairs(boxes, present));
      }
      sweep.reset();
      expect(sweep.findPairs()).toBe(0);
    }
  });

  it('steps a pile to the same state as the general broad-phases', () => {
    const terrain = generateTerrain({ cells: 32, worldSize: 48, heightScale: 5, kind: 'fbm', seed: 3 });
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const run = (broadPhase: ActorBroadPhaseName): string => {
      const world = new ActorWorld({ broadPhase });
      world.setTerrain(bvh);
      spawnPile(world, { count: 40, center: [0, 0], seed: 9 }, (x, z) => sampleTerrainHeight(terrain, x, z));
      for (let frame = 0; frame < 150; frame++) world.step(1 / 60);
      const a = world.actors;
      return JSON.stringify([Array.from(a.position.subarray(0, 3 * a.count)), Array.from(a.velocity.subarray(0, 3 * a.count)), world.census()]);
    };
    const sweep = run('sweep');
    expect(run('dynamic-tree')).toBe(sweep);
    expect(run('brute-force')).toBe(sweep);
  });
});
