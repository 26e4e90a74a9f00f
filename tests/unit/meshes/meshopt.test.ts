import { MeshoptEncoder } from 'meshoptimizer';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ColliderscopeError } from '../../../src/errors';
import { loadMesh, type LoadedMesh } from '../../../src/meshes/index';
import { generateTerrain } from '../../../src/terrain/index';
import { meshoptGlb, writeGlb, writeGltfParts, type PlainMesh } from './meshWriters';
import { errorOf } from './errorOf';

beforeAll(async () => {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
});

function terrainMesh(): PlainMesh {
  const terrain = generateTerrain({ cells: 20, seed: 5 });
  return { positions: Array.from(terrain.positions), indices: Array.from(terrain.indices) };
}

const same = (a: LoadedMesh, b: LoadedMesh): void => {
  expect(a.triangleCount).toBe(b.triangleCount);
  expect(Array.from(a.positions)).toEqual(Array.from(b.positions));
  expect(Array.from(a.indices)).toEqual(Array.from(b.indices));
};

describe('glTF with meshopt-compressed buffer views', () => {
  it('decodes with the decoder three ships into the mesh the uncompressed file gives, for both extensions and index modes', () => {
    const mesh = terrainMesh();
    const plain = writeGltfParts(mesh);
    const expected = loadMesh('plain.glb', writeGlb(plain.json, plain.bin));
    for (const extension of ['EXT_meshopt_compression', 'KHR_meshopt_compression'])
      for (const mode of ['TRIANGLES', 'INDICES'] as const) {
        const { json, bin } = meshoptGlb(mesh, mode, extension);
        const bytes = writeGlb(json, bin);
        expect(bytes.length).toBeLessThan(writeGlb(plain.json, plain.bin).length);
        same(loadMesh('packed.glb', bytes, { meshopt: MeshoptDecoder }), expected);
      }
  });

  it('without a decoder the file is refused by name; bad fields and damaged data are named, never a crash', () => {
    const { json, bin } = meshoptGlb(terrainMesh());
    expect(errorOf(() => loadMesh('packed.glb', writeGlb(json, bin))).message).toMatch(/EXT_meshopt_compression/);
    json.extensionsRequired = [];
    expect(errorOf(() => loadMesh('packed.glb', writeGlb(json, bin))).message).toMatch(/bufferViews\[0\].*no meshopt decoder was given/);
    const views = json.bufferViews as { extensions: { EXT_meshopt_compression: Record<string, unknown> } }[];
    const compression = views[0]!.extensions.EXT_meshopt_compression;
    const variants: [string, unknown, RegExp][] = [
      ['mode', 'POINTS', /mode must be ATTRIBUTES, TRIANGLES or INDICES/],
      ['filter', 'BLUR', /unknown filter "BLUR"/],
      ['byteStride', 0, /byteStride must be a whole number from 1 to 256/],
      ['count', -3, /count must be a whole number/],
      ['buffer', 7, /names buffer 7, which does not exist/],
      ['byteLength', 1e9, /lie outside buffer 0/],
    ];
    for (const [field, value, message] of variants) {
      const saved = compression[field];
      compression[field] = value;
      expect(errorOf(() => loadMesh('packed.glb', writeGlb(json, bin), { meshopt: MeshoptDecoder })).message).toMatch(message);
      compression[field] = saved;
    }
    // Damaged compressed bytes: every byte of the vertex data in turn set to 0xff, or the data cut short.
    const vertexLength = compression.byteLength as number;
    let refused = 0;
    for (let i = 0; i < vertexLength; i += Math.max(1, Math.floor(vertexLength / 40))) {
      const damaged = bin.slice();
      damaged[i] = 0xff;
      try {
        const read = loadMesh('damaged.glb', writeGlb(json, damaged), { meshopt: MeshoptDecoder });
        // Data that still decodes must still be a valid mesh.
        for (const value of read.positions) expect(Number.isFinite(value)).toBe(true);
      } catch (error) {
        expect(error).toBeInstanceOf(ColliderscopeError);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
    compression.byteLength = vertexLength - 5;
    expect(errorOf(() => loadMesh('cut.glb', writeGlb(json, bin), { meshopt: MeshoptDecoder })).message).toMatch(/meshopt data does not decode/);
  });
});
