import { describe, expect, it } from 'vitest';
import { buildBVH } from '../../../src/bvh/index';
import { triangleSoup } from './meshes';

// Its own file: the module-wide builder is never loaded here, as in a page that has not asked for it.
describe('WebAssembly BVH builder fallback', () => {
  it('runs the TypeScript builder, and says why, while the module is not loaded', () => {
    const mesh = triangleSoup(320, 50);
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm' });
    expect(bvh.stats.builder).toBe('typescript');
    expect(bvh.stats.builderFallback).toMatch(/loadWasmBuilder/);
    expect(buildBVH(mesh.positions, mesh.indices).stats.builderFallback).toBe('');
  });
});
