import { beforeAll, describe, expect, it } from 'vitest';
import { buildBVH, loadWasmRefit, refitBVH, type BVH } from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { generateTerrain } from '../../../src/terrain/index';
import { flatGrid, triangleSoup, withDegenerates, type TestMesh } from './meshes';

beforeAll(async () => {
  // Node 20+ has WebAssembly SIMD; a null here means the module was not built (npm run build:wasm).
  expect(await loadWasmRefit()).not.toBeNull();
});

const copyOf = (mesh: { positions: Float32Array; indices: Uint32Array }): TestMesh => ({
  name: 'copy',
  positions: mesh.positions.slice(),
  indices: mesh.indices.slice(),
});

/** Everything a query reads from the packed tree. */
const packed = (bvh: BVH): number[][] => [
  Array.from(bvh.quantized!.u16),
  Array.from(bvh.quantized!.rootFrame),
  Array.from(bvh.quantized!.sharedFrames),
  Array.from(bvh.quantized!.ownsFrame),
  Array.from(bvh.float!.f32),
];

/** The same mesh twice, the same edits to both, full refits with each kernel: the same trees bit for bit. */
function expectKernelsAgree(source: { positions: Float32Array; indices: Uint32Array }, edit: (positions: Float32Array, round: number) => void): void {
  const a = copyOf(source);
  const b = copyOf(source);
  const onTypeScript = buildBVH(a.positions, a.indices);
  const onWasm = buildBVH(b.positions, b.indices);
  for (let round = 0; round < 3; round++) {
    edit(a.positions, round);
    b.positions.set(a.positions);
    const typescript = refitBVH(onTypeScript, null, undefined, { kernel: 'typescript' });
    const wasm = refitBVH(onWasm, null, undefined, { kernel: 'wasm-simd' });
    expect(typescript.kernel).toBe('typescript');
    expect(wasm.kernel).toBe('wasm-simd');
    expect(wasm.kernelFallback).toBe('');
    expect(Object.is(wasm.sahCost, typescript.sahCost)).toBe(true);
    expect(packed(onWasm)).toEqual(packed(onTypeScript));
  }
}

describe('the WebAssembly SIMD refit kernel', () => {
  it('gives the TypeScript full refit bit for bit: terrain, soups, degenerates, a grid with signed zeros', () => {
    const random = new Random(301);
    const jitter = (positions: Float32Array): void => {
      for (let i = 0; i < positions.length; i++) if (random.next() < 0.3) positions[i]! += random.range(-2, 2);
    };
    expectKernelsAgree(generateTerrain({ cells: 24, seed: 9, worldSize: 96 }), jitter);
    expectKernelsAgree(triangleSoup(302, 400), jitter);
    expectKernelsAgree(withDegenerates(303), jitter);
    // y = 0 everywhere, then some coordinates −0: min/max must pick the same zero as the TypeScript loop.
    expectKernelsAgree(flatGrid(12), (positions, round) => {
      for (let i = 1; i < positions.length; i += 3 + round) positions[i] = round % 2 === 0 ? -0 : 0;
    });
  });

  it('a partial refit runs in TypeScript and says so; a non-finite coordinate is an error with the tree untouched', () => {
    const mesh = copyOf(generateTerrain({ cells: 16, seed: 4 }));
    const bvh = buildBVH(mesh.positions, mesh.indices);
    expect(refitBVH(bvh, null, undefined, { kernel: 'wasm-simd' }).kernel).toBe('wasm-simd');
    const partial = refitBVH(bvh, new Uint32Array([0, 1, 2]), undefined, { kernel: 'wasm-simd' });
    expect(partial.kernel).toBe('typescript');
    expect(partial.kernelFallback).not.toBe('');
    const before = packed(bvh);
    mesh.positions[7] = NaN;
    expect(() => refitBVH(bvh, null, undefined, { kernel: 'wasm-simd' })).toThrow(InvalidParameterError);
    expect(() => refitBVH(bvh, null, undefined, { kernel: 'wasm-simd' })).toThrow('positions[7]');
    expect(packed(bvh)).toEqual(before);
    mesh.positions[7] = 0;
    expect(refitBVH(bvh, null, undefined, { kernel: 'wasm-simd' }).full).toBe(true);
  });
});
