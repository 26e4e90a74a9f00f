import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, type BVH } from '../../../src/bvh/index';
import { Random } from '../../../src/math/random';
import { CapsuleCharacter, CapsuleCrowd, segmentTriangleClosest } from '../../../src/query/capsule/index';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../../src/terrain/index';
import { heightAt, heightfield, type Heightfield } from './heightfields';

let terrain: TerrainMesh;
let bvh: BVH;
beforeAll(() => {
  terrain = generateTerrain({ cells: 64, worldSize: 128, heightScale: 30, seed: 77 });
  bvh = buildBVH(terrain.positions, terrain.indices);
});

const closest = new Float64Array(7);

/** Distance from a vertical axis (centre ± halfHeight) to the terrain triangles of the nearby cells. */
function terrainDistance(x: number, y: number, z: number, halfHeight: number, reach: number): number {
  const { cells, worldSize } = terrain.params;
  const spacing = worldSize / cells;
  const col0 = Math.max(0, Math.floor((x - reach + worldSize / 2) / spacing)),
    col1 = Math.min(cells - 1, Math.floor((x + reach + worldSize / 2) / spacing));
  const row0 = Math.max(0, Math.floor((z - reach + worldSize / 2) / spacing)),
    row1 = Math.min(cells - 1, Math.floor((z + reach + worldSize / 2) / spacing));
  const p = terrain.positions,
    ix = terrain.indices;
  let best = Infinity;
  for (let row = row0; row <= row1; row++) {
    for (let col = col0; col <= col1; col++) {
      for (let half = 0; half < 2; half++) {
        const t = 2 * (row * cells + col) + half;
        const a = 3 * ix[3 * t]!,
          b = 3 * ix[3 * t + 1]!,
          c = 3 * ix[3 * t + 2]!;
        best = Math.min(
          best,
          segmentTriangleClosest(
            x,
            y - halfHeight,
            z,
            x,
            y + halfHeight,
            z,
            p[a]!,
            p[a + 1]!,
            p[a + 2]!,
            p[b]!,
            p[b + 1]!,
            p[b + 2]!,
            p[c]!,
            p[c + 1]!,
            p[c + 2]!,
            closest,
          ),
        );
      }
    }
  }
  return best;
}

describe('the capsule character', () => {
  it('walks and jumps over a terrain for 4000 steps without ever touching into it or falling through (seed 700)', () => {
    const character = new CapsuleCharacter();
    const { radius, halfHeight } = character.settings;
    character.place(0, sampleTerrainHeight(terrain, 0, 0) + halfHeight + radius + 1, 0);
    const random = new Random(700);
    let wishX = 0,
      wishZ = 0,
      grounded = 0,
      travelled = 0;
    for (let step = 0; step < 4000; step++) {
      if (step % 90 === 0) {
        const heading = random.range(0, 2 * Math.PI);
        wishX = Math.cos(heading);
        wishZ = Math.sin(heading);
      }
      // Turn back towards the centre near the border.
      if (Math.abs(character.position[0]!) > 50 || Math.abs(character.position[2]!) > 50) {
        wishX = -Math.sign(character.position[0]!) * 0.7;
        wishZ = -Math.sign(character.position[2]!) * 0.7;
      }
      const before = [character.position[0]!, character.position[2]!];
      character.step(bvh, wishX, wishZ, random.next() < 0.01, 1 / 60);
      travelled += Math.hypot(character.position[0]! - before[0]!, character.position[2]! - before[1]!);
      if (character.grounded) grounded++;
      const [x, y, z] = character.position;
      expect(y! - halfHeight).toBeGreaterThan(sampleTerrainHeight(terrain, x!, z!));
      expect(terrainDistance(x!, y!, z!, halfHeight, 4)).toBeGreaterThan(radius - 1e-4);
    }
    expect(grounded).toBeGreaterThan(2000);
    expect(travelled).toBeGreaterThan(200);
  });

  /** A floor at 0 with a block rising to `height` for x ≥ 2, behind a near-vertical face. */
  function ledge(height: number): Heightfield {
    const xs = [-10, -6, -2, 0, 1.99, 2, 4, 8, 10];
    const zs = [-10, -5, 0, 5, 10];
    return heightfield(`ledge ${height}`, xs, zs, (_i, _j, x) => (x >= 2 ? height : 0));
  }

  function walkInto(field: Heightfield, seconds: number): CapsuleCharacter {
    const fieldBvh = buildBVH(field.positions, field.indices);
    const character = new CapsuleCharacter();
    character.place(-4, character.settings.halfHeight + character.settings.radius + 0.05, 0.3);
    for (let step = 0; step < 60 * seconds; step++) character.step(fieldBvh, 1, 0, false, 1 / 60);
    return character;
  }

  it('climbs a ledge lower than its step height and is stopped by a higher one', () => {
    const low = walkInto(ledge(0.4), 0.9);
    expect(low.position[0]).toBeGreaterThan(3);
    expect(low.footY).toBeCloseTo(0.4, 1);
    const high = walkInto(ledge(1.5), 0.9);
    expect(high.position[0]).toBeLessThan(2);
    expect(high.footY).toBeCloseTo(0, 1);
  });

  function slope(degrees: number): Heightfield {
    const rise = Math.tan((degrees * Math.PI) / 180);
    const xs = Array.from({ length: 21 }, (_, k) => -10 + k);
    return heightfield(`slope ${degrees}`, xs, xs, (_i, _j, x) => Math.max(0, x) * rise);
  }

  it('walks up a gentle slope, cannot walk up a steep one and slides down it', () => {
    const gentle = walkInto(slope(30), 1.2);
    expect(gentle.position[0]).toBeGreaterThan(4);
    const steep = walkInto(slope(65), 2);
    expect(steep.position[0]).toBeLessThan(1);
    // Dropped onto the steep face, it ends at its foot.
    const field = slope(65);
    const fieldBvh = buildBVH(field.positions, field.indices);
    const character = new CapsuleCharacter();
    character.place(4, heightAt(field, 4, 0) + 3, 0);
    for (let step = 0; step < 240; step++) character.step(fieldBvh, 0, 0, false, 1 / 60);
    expect(character.position[0]).toBeLessThan(1.5);
  });
});

describe('the capsule crowd', () => {
  it('throws 300 capsules around for 300 steps: none touches into the terrain or falls through (seed 710)', () => {
    const crowd = new CapsuleCrowd((x, z) => sampleTerrainHeight(terrain, x, z), 60, 710);
    crowd.resize(300);
    const { radius, halfHeight } = crowd.settings;
    let bounces = 0;
    for (let step = 0; step < 300; step++) {
      crowd.step(bvh, 1 / 60);
      bounces += crowd.lastCounters!.hits;
      if (step % 4 !== 0) continue;
      for (let i = 0; i < crowd.count; i += 2) {
        const i3 = 3 * i;
        const [x, y, z] = [crowd.centres[i3]!, crowd.centres[i3 + 1]!, crowd.centres[i3 + 2]!];
        const ax = crowd.axes[i3]! * halfHeight,
          ay = crowd.axes[i3 + 1]! * halfHeight,
          az = crowd.axes[i3 + 2]! * halfHeight;
        expect(
          Math.min(y + ay - sampleTerrainHeight(terrain, x + ax, z + az), y - ay - sampleTerrainHeight(terrain, x - ax, z - az)),
        ).toBeGreaterThan(0);
        // The nearest triangle is farther than the radius (checked on the axis ends' cells).
        const reach = halfHeight + radius + 2;
        let distance = Infinity;
        const p = terrain.positions,
          ix = terrain.indices;
        const spacing = terrain.params.worldSize / terrain.params.cells,
          half = terrain.params.worldSize / 2,
          cells = terrain.params.cells;
        for (
          let row = Math.max(0, Math.floor((z - reach + half) / spacing));
          row <= Math.min(cells - 1, Math.floor((z + reach + half) / spacing));
          row++
        ) {
          for (
            let col = Math.max(0, Math.floor((x - reach + half) / spacing));
            col <= Math.min(cells - 1, Math.floor((x + reach + half) / spacing));
            col++
          ) {
            for (let h = 0; h < 2; h++) {
              const t = 2 * (row * cells + col) + h;
              const a = 3 * ix[3 * t]!,
                b = 3 * ix[3 * t + 1]!,
                c = 3 * ix[3 * t + 2]!;
              distance = Math.min(
                distance,
                segmentTriangleClosest(
                  x - ax,
                  y - ay,
                  z - az,
                  x + ax,
                  y + ay,
                  z + az,
                  p[a]!,
                  p[a + 1]!,
                  p[a + 2]!,
                  p[b]!,
                  p[b + 1]!,
                  p[b + 2]!,
                  p[c]!,
                  p[c + 1]!,
                  p[c + 2]!,
                  closest,
                ),
              );
            }
          }
        }
        expect(distance).toBeGreaterThan(radius - 1e-4);
      }
    }
    expect(bounces).toBeGreaterThan(1000);
  });
});
