import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../src/errors';
import { computeEdgeMasks, type EdgeMaskStats } from '../../../src/query/capsule/index';
import { generateTerrain } from '../../../src/terrain/index';
import { triangleSoup } from '../bvh/meshes';
import { flatPlane, sharpRidges } from './heightfields';

const emptyStats = (): EdgeMaskStats => ({
  borderEdges: 0,
  sharedEdges: 0,
  nonManifoldEdges: 0,
  valleyEdges: 0,
  coplanarEdges: 0,
  edgesKept: 0,
  verticesKept: 0,
});

/** Two triangles sharing edge (0, 1) along x; the second's apex at height `apexY` beyond the edge. */
function hinge(apexY: number, flip = false): { positions: Float32Array; indices: Uint32Array } {
  // Triangle 0 lies in y = 0 facing +y; the shared edge is edge 0 of both (0 → 1, then 1 → 0).
  const positions = Float32Array.from([0, 0, 0, 1, 0, 0, 0.5, 0, -1, 0.5, apexY, 1]);
  const indices = Uint32Array.from(flip ? [0, 1, 2, 0, 1, 3] : [0, 1, 2, 1, 0, 3]);
  return { positions, indices };
}

describe('edge masks', () => {
  it('keep every edge of unshared triangles', () => {
    const soup = triangleSoup(5, 100);
    const masks = computeEdgeMasks(soup.positions, soup.indices);
    expect(Array.from(masks).every((m) => m === 0b111111)).toBe(true);
  });

  it('skip a valley edge from both sides, keep a ridge or coplanar edge once, keep inconsistent windings', () => {
    for (const [apexY, expected] of [
      [0.8, 'valley'],
      [-0.8, 'ridge'],
      [0, 'coplanar'],
    ] as const) {
      const { positions, indices } = hinge(apexY);
      const stats = emptyStats();
      const masks = computeEdgeMasks(positions, indices, stats);
      const sharedBit0 = masks[0]! & 1;
      const sharedBit1 = masks[1]! & 1;
      expect(stats.sharedEdges).toBe(1);
      if (expected === 'valley') {
        expect(stats.valleyEdges).toBe(1);
        expect(sharedBit0 + sharedBit1).toBe(0);
      } else {
        expect(sharedBit0 + sharedBit1).toBe(1);
        expect(stats.coplanarEdges).toBe(expected === 'coplanar' ? 1 : 0);
      }
    }
    const { positions, indices } = hinge(0.8, true); // second triangle wound the other way
    const masks = computeEdgeMasks(positions, indices);
    expect((masks[0]! & 1) + (masks[1]! & 1)).toBe(1);
  });

  it('keep each shared edge of a flat grid exactly once and every border edge; vertices follow their edges', () => {
    const plane = flatPlane();
    const stats = emptyStats();
    const masks = computeEdgeMasks(plane.positions, plane.indices, stats);
    const cells = 24;
    const uniqueEdges = 2 * cells * (cells + 1) + cells * cells;
    expect(stats.borderEdges).toBe(4 * cells);
    expect(stats.coplanarEdges).toBe(stats.sharedEdges);
    expect(stats.edgesKept).toBe(uniqueEdges);
    for (const mask of masks) {
      const edges = mask & 7;
      const vertices = mask >> 3;
      for (let v = 0; v < 3; v++) expect(((vertices >> v) & 1) === 1).toBe(((edges >> v) & 1) === 1 || ((edges >> ((v + 2) % 3)) & 1) === 1);
    }
  });

  it('on sharp ridges, skip the valleys and keep the ridges once', () => {
    const ridges = sharpRidges();
    const stats = emptyStats();
    computeEdgeMasks(ridges.positions, ridges.indices, stats);
    expect(stats.valleyEdges).toBeGreaterThan(0.2 * stats.sharedEdges);
    expect(stats.edgesKept).toBe(stats.borderEdges + stats.sharedEdges - stats.valleyEdges);
  });

  it('cull well over half of the edge tests of a terrain', () => {
    const terrain = generateTerrain({ cells: 64, seed: 9 });
    const stats = emptyStats();
    computeEdgeMasks(terrain.positions, terrain.indices, stats);
    expect(stats.nonManifoldEdges).toBe(0);
    expect(stats.edgesKept).toBe(stats.borderEdges + stats.sharedEdges - stats.valleyEdges);
    // One test per edge instead of two (50%), and valleys on top.
    expect(1 - stats.edgesKept / (3 * terrain.triangleCount)).toBeGreaterThan(0.6);
    expect(1 - stats.verticesKept / (3 * terrain.triangleCount)).toBeGreaterThan(0.1);
  });

  it('rejects an index past the vertices', () => {
    expect(() => computeEdgeMasks(new Float32Array(9), Uint32Array.from([0, 1, 3]))).toThrow(InvalidParameterError);
  });
});
