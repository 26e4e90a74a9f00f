import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TERRAIN_PARAMS,
  InvalidParameterError,
  TERRAIN_KINDS,
  generateTerrain,
  sampleTerrainHeight,
  type TerrainParams,
} from '../../../src/core';
import { hashArrays } from './hash';

describe('generateTerrain', () => {
  it('is bit-identical for the same parameters (seed 1337, every kind)', () => {
    for (const kind of TERRAIN_KINDS) {
      const a = generateTerrain({ kind, cells: 64, seed: 1337 });
      const b = generateTerrain({ kind, cells: 64, seed: 1337 });
      expect(hashArrays(a.positions, a.indices, a.normals)).toBe(hashArrays(b.positions, b.indices, b.normals));
    }
  });

  it('matches the golden hash of the default parameters at 64 cells (seed 1337)', () => {
    // A change here means every saved scene looks different: update it only on purpose.
    const mesh = generateTerrain({ cells: 64 });
    expect(hashArrays(mesh.positions, mesh.indices, mesh.normals)).toBe(GOLDEN_64);
  });

  it('changes with the seed (seeds 1 and 2)', () => {
    const a = generateTerrain({ cells: 32, seed: 1 });
    const b = generateTerrain({ cells: 32, seed: 2 });
    expect(hashArrays(a.positions)).not.toBe(hashArrays(b.positions));
  });

  it.each([16, 17, 100, 256])('has (n+1)² vertices and 2n² triangles within the world bounds at %i cells', (cells) => {
    const params: Partial<TerrainParams> = { cells, worldSize: 300, heightScale: 25 };
    const mesh = generateTerrain(params);
    expect(mesh.vertexCount).toBe((cells + 1) ** 2);
    expect(mesh.triangleCount).toBe(2 * cells * cells);
    expect(mesh.positions.length).toBe(3 * mesh.vertexCount);
    expect(mesh.indices.length).toBe(3 * mesh.triangleCount);
    let minY = Infinity;
    let maxY = -Infinity;
    let outside = 0;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const y = mesh.positions[3 * v + 1]!;
      if (Math.abs(mesh.positions[3 * v]!) > 150 || Math.abs(mesh.positions[3 * v + 2]!) > 150) outside++;
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    expect(outside).toBe(0);
    expect(minY).toBe(0);
    expect(maxY).toBeCloseTo(25, 4);
    expect(mesh.indices.reduce((a, b) => Math.max(a, b), 0)).toBe(mesh.vertexCount - 1);
  });

  it('winds every triangle counter-clockwise seen from above, so face normals point up', () => {
    const mesh = generateTerrain({ cells: 32 });
    const p = mesh.positions;
    let clockwise = 0;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const [a, b, c] = [mesh.indices[3 * t]!, mesh.indices[3 * t + 1]!, mesh.indices[3 * t + 2]!];
      const e1x = p[3 * b]! - p[3 * a]!;
      const e1z = p[3 * b + 2]! - p[3 * a + 2]!;
      const e2x = p[3 * c]! - p[3 * a]!;
      const e2z = p[3 * c + 2]! - p[3 * a + 2]!;
      // y component of (b - a) × (c - a)
      if (!(e1z * e2x - e1x * e2z > 0)) clockwise++;
    }
    expect(clockwise).toBe(0);
  });

  it('has unit vertex normals that point up', () => {
    for (const kind of TERRAIN_KINDS) {
      const mesh = generateTerrain({ kind, cells: 48, heightScale: 200 });
      let worst = 0;
      let lowestY = Infinity;
      for (let v = 0; v < mesh.vertexCount; v++) {
        const [x, y, z] = [mesh.normals[3 * v]!, mesh.normals[3 * v + 1]!, mesh.normals[3 * v + 2]!];
        worst = Math.max(worst, Math.abs(Math.hypot(x, y, z) - 1));
        lowestY = Math.min(lowestY, y);
      }
      expect(worst).toBeLessThan(1e-6);
      expect(lowestY).toBeGreaterThan(0);
    }
  });

  it('is flat when the height scale is 0', () => {
    const mesh = generateTerrain({ cells: 16, heightScale: 0 });
    for (let v = 0; v < mesh.vertexCount; v++) expect(mesh.positions[3 * v + 1]).toBe(0);
  });

  it('samples heights that agree with the vertices', () => {
    const mesh = generateTerrain({ cells: 32, worldSize: 64 });
    let worst = 0;
    for (let v = 0; v < mesh.vertexCount; v++) {
      worst = Math.max(worst, Math.abs(sampleTerrainHeight(mesh, mesh.positions[3 * v]!, mesh.positions[3 * v + 2]!) - mesh.positions[3 * v + 1]!));
    }
    expect(worst).toBeLessThan(1e-4);
  });

  it('reports progress from 0 to 1', () => {
    const seen: number[] = [];
    generateTerrain({ cells: 64 }, (fraction) => seen.push(fraction));
    expect(seen.length).toBeGreaterThan(5);
    expect(seen[seen.length - 1]).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
  });
});

describe('terrain parameter validation', () => {
  const invalid: [string, Partial<TerrainParams> | Record<string, unknown>, RegExp][] = [
    ['NaN octaves', { octaves: NaN }, /octaves: expected a number in \[1, 16\], got NaN/],
    ['negative octaves', { octaves: -2 }, /octaves/],
    ['0 cells', { cells: 0 }, /cells: expected an integer in \[16, 2048\], got 0/],
    ['too many cells', { cells: 4096 }, /cells/],
    ['fractional cells', { cells: 100.5 }, /cells/],
    ['infinite height', { heightScale: Infinity }, /heightScale/],
    ['lacunarity 1', { lacunarity: 1 }, /lacunarity: expected a number in \(1, 4\]/],
    ['zero world', { worldSize: 0 }, /worldSize/],
    ['negative seed', { seed: -1 }, /seed/],
    ['unknown kind', { kind: 'perlin' as never }, /kind: expected one of "fbm", "hybrid", "ridged", "hetero"/],
    ['string octaves', { octaves: '8' as never }, /octaves/],
    ['unknown field', { octaves: 4, roughness: 2 }, /roughness: expected one of the terrain parameters/],
  ];
  it.each(invalid)('rejects %s with a clear error', (_, params, message) => {
    expect(() => generateTerrain(params as Partial<TerrainParams>)).toThrow(InvalidParameterError);
    expect(() => generateTerrain(params as Partial<TerrainParams>)).toThrow(message);
  });

  it('accepts the limits of every domain', () => {
    expect(() => generateTerrain({ cells: 16, octaves: 1, H: 0, gain: 0, offset: 0, heightScale: 0 })).not.toThrow();
    expect(() => generateTerrain({ cells: 16, octaves: 16, lacunarity: 4, H: 2, gain: 10, offset: 3, seed: 4294967295 })).not.toThrow();
    expect(() => generateTerrain({ cells: 16, octaves: 3.5 })).not.toThrow();
  });

  it('documents defaults that are themselves valid', () => {
    expect(generateTerrain({ ...DEFAULT_TERRAIN_PARAMS, cells: 16 }).params.kind).toBe(DEFAULT_TERRAIN_PARAMS.kind);
  });
});

const GOLDEN_64 = '7f1bf93d';
