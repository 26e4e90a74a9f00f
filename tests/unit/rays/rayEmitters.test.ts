import { describe, expect, it } from 'vitest';
import { buildBVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { castRays, castRaysBruteForce, type RayHits } from '../../../src/query/rays/index';
import { emitRays, type RayEmitter } from '../../../src/query/rays/strategies';
import { generateTerrain } from '../../../src/terrain/index';

const base: RayEmitter = { kind: 'fan', x: 0, y: 60, z: 0, yaw: 30, pitch: -35, spread: 60, count: 500, length: Infinity, seed: 9 };

describe('ray emitters', () => {
  it('fan: unit directions within the field of view around the viewing direction, rows in order', () => {
    const rays = emitRays({ ...base, count: 101 });
    expect(rays.count).toBe(101);
    const yaw = (30 * Math.PI) / 180,
      pitch = (-35 * Math.PI) / 180;
    const forward = [Math.cos(pitch) * Math.cos(yaw), Math.sin(pitch), Math.cos(pitch) * Math.sin(yaw)];
    for (let i = 0; i < rays.count; i++) {
      const d = [rays.directions[3 * i]!, rays.directions[3 * i + 1]!, rays.directions[3 * i + 2]!];
      expect(Math.hypot(d[0]!, d[1]!, d[2]!)).toBeCloseTo(1, 6);
      // Within the corner of a 60° square frustum: at most atan(√2·tan 30°) ≈ 39.2° off axis.
      expect(Math.acos(d[0]! * forward[0]! + d[1]! * forward[1]! + d[2]! * forward[2]!)).toBeLessThan((39.3 * Math.PI) / 180);
      expect(Array.from(rays.origins.subarray(3 * i, 3 * i + 3))).toEqual([0, 60, 0]);
    }
  });

  it('spray: directions in the cone around straight down; rain: exactly (0, −1, 0) from a disc', () => {
    const spray = emitRays({ ...base, kind: 'spray', spread: 40, count: 2000 });
    for (let i = 0; i < spray.count; i++) expect(-spray.directions[3 * i + 1]!).toBeGreaterThanOrEqual(Math.cos((40 * Math.PI) / 180) - 1e-6);
    const rain = emitRays({ ...base, kind: 'rain', spread: 25, count: 2000, x: 10, z: -5 });
    for (let i = 0; i < rain.count; i++) {
      expect(Array.from(rain.directions.subarray(3 * i, 3 * i + 3))).toEqual([0, -1, 0]);
      expect(Math.hypot(rain.origins[3 * i]! - 10, rain.origins[3 * i + 2]! + 5)).toBeLessThanOrEqual(25 + 1e-4);
    }
    // Seeded: the same emitter gives the same rays; a batch that is big enough is reused.
    const again = emitRays({ ...base, kind: 'spray', spread: 40, count: 1000 }, spray);
    expect(again).toBe(spray);
    expect(again.count).toBe(1000);
    expect(Array.from(again.directions.subarray(0, 30))).toEqual(
      Array.from(emitRays({ ...base, kind: 'spray', spread: 40, count: 1000 }).directions.subarray(0, 30)),
    );
  });

  it('rejects bad emitters with InvalidParameterError', () => {
    for (const bad of [
      { count: 0 },
      { count: 2.5 },
      { count: 2_000_000 },
      { kind: 'laser' },
      { x: NaN },
      { length: 0 },
      { spread: Infinity },
    ] as Partial<RayEmitter>[]) {
      expect(() => emitRays({ ...base, ...bad })).toThrow(InvalidParameterError);
    }
  });

  it('every emitter through the castRays strategies gives the brute-force hits (seed 9)', () => {
    const terrain = generateTerrain({ cells: 16, seed: 9 });
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const y = terrain.maxHeight + 10;
    for (const kind of ['fan', 'spray', 'rain'] as const) {
      const rays = emitRays({ ...base, kind, y, spread: kind === 'rain' ? 100 : 70, count: 300 });
      const expected: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
      castRaysBruteForce(terrain.positions, terrain.indices, rays, expected);
      for (const strategy of [
        { tree: 'binary', batchSize: 64 },
        { tree: '4-way', sorting: 'precomputed' },
      ] as const) {
        const hits: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
        castRays(bvh, rays, hits, strategy);
        for (let i = 0; i < rays.count; i++) {
          if (hits.triangle[i] !== expected.triangle[i]) expect(Math.abs(hits.t[i]! - expected.t[i]!)).toBeLessThanOrEqual(1e-5 * expected.t[i]!);
        }
      }
    }
  });
});
