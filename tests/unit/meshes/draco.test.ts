import { beforeAll, describe, expect, it } from 'vitest';
import type { GltfOptions } from '../../../src/meshes/gltf';
import { loadMesh } from '../../../src/meshes/index';
import { generateTerrain } from '../../../src/terrain/index';
import { nodeDracoGltfOptions } from '../../../tools/dracoFiles';
import { dracoGltfParts } from './dracoWriter';
import { triangleSet, writeGlb, writeGltfParts, type PlainMesh } from './meshWriters';
import { errorOf } from './errorOf';

let decoders: Pick<GltfOptions, 'draco'>;
beforeAll(async () => {
  decoders = await nodeDracoGltfOptions();
});

function terrainMesh(cells = 20): PlainMesh {
  const terrain = generateTerrain({ cells, seed: 8 });
  return { positions: Array.from(terrain.positions), indices: Array.from(terrain.indices) };
}

describe('glTF with Draco-compressed primitives (KHR_draco_mesh_compression)', () => {
  it('decodes with the decoder three ships into the triangles of the uncompressed file, both connectivity coders', async () => {
    const mesh = terrainMesh();
    const plain = writeGltfParts(mesh);
    const expected = loadMesh('plain.glb', writeGlb(plain.json, plain.bin));
    for (const method of ['edgebreaker', 'sequential'] as const) {
      const { json, bin } = await dracoGltfParts(mesh, { method });
      const bytes = writeGlb(json, bin);
      expect(bytes.length).toBeLessThan(writeGlb(plain.json, plain.bin).length);
      const read = loadMesh('packed.glb', bytes, decoders);
      expect(read.triangleCount).toBe(expected.triangleCount);
      // Draco orders points and triangles its own way: the same triangles, corner for corner and winding kept.
      expect(triangleSet(read.positions, read.indices)).toEqual(triangleSet(expected.positions, expected.indices));
    }
  });

  it('quantized positions land within a quantization step of the originals', async () => {
    const mesh = terrainMesh(32);
    const { json, bin } = await dracoGltfParts(mesh, { quantizationBits: 11 });
    const read = loadMesh('quantized.glb', writeGlb(json, bin), decoders);
    expect(read.triangleCount).toBe(mesh.indices.length / 3);
    let extent = 0;
    for (let axis = 0; axis < 3; axis++) {
      const values = mesh.positions.filter((_, i) => i % 3 === axis);
      extent = Math.max(extent, Math.max(...values) - Math.min(...values));
    }
    const step = extent / (2 ** 11 - 1);
    // Each decoded point is near an original one (the grid's points are 4 units apart: no ambiguity).
    const originals = new Map<string, number[]>();
    for (let v = 0; v < mesh.positions.length / 3; v++)
      originals.set(`${Math.round(mesh.positions[3 * v]!)},${Math.round(mesh.positions[3 * v + 2]!)}`, mesh.positions.slice(3 * v, 3 * v + 3));
    for (let v = 0; v < read.positions.length / 3; v++) {
      const original = originals.get(`${Math.round(read.positions[3 * v]!)},${Math.round(read.positions[3 * v + 2]!)}`)!;
      for (let axis = 0; axis < 3; axis++) expect(Math.abs(read.positions[3 * v + axis]! - original[axis]!)).toBeLessThanOrEqual(step);
    }
  });

  it('without a decoder the file is refused by name; bad fields and damaged data are named, never a crash', async () => {
    const { json, bin } = await dracoGltfParts(terrainMesh(16));
    expect(errorOf(() => loadMesh('packed.glb', writeGlb(json, bin))).message).toMatch(/KHR_draco_mesh_compression \(Draco compression\)/);
    const primitive = (json.meshes as { primitives: { extensions: { KHR_draco_mesh_compression: Record<string, unknown> } }[] }[])[0]!.primitives[0]!;
    const extension = primitive.extensions.KHR_draco_mesh_compression;
    const variants: [string, unknown, RegExp][] = [
      ['bufferView', 'zero', /bufferView must be a whole number/],
      ['bufferView', 4, /names bufferView 4, which does not exist/],
      ['attributes', { POSITION: -1 }, /attributes.POSITION must be the id/],
      ['attributes', { POSITION: 9 }, /the Draco data does not decode: it has no attribute with id 9/],
    ];
    for (const [field, value, message] of variants) {
      const saved = extension[field];
      extension[field] = value;
      expect(errorOf(() => loadMesh('packed.glb', writeGlb(json, bin), decoders)).message).toMatch(message);
      extension[field] = saved;
    }
    // Cut or scrambled bytes: a located error, the decoder still usable afterwards.
    const views = json.bufferViews as { byteLength: number }[];
    const length = views[0]!.byteLength;
    views[0]!.byteLength = 12;
    expect(errorOf(() => loadMesh('cut.glb', writeGlb(json, bin), decoders)).message).toMatch(/the Draco data does not decode/);
    views[0]!.byteLength = length;
    const scrambled = bin.slice();
    for (let i = 0; i < 8; i++) scrambled[i] = 0xff - scrambled[i]!;
    expect(errorOf(() => loadMesh('scrambled.glb', writeGlb(json, scrambled), decoders)).message).toMatch(/meshes\[0\]\.primitives\[0\].*Draco/);
    expect(loadMesh('packed.glb', writeGlb(json, bin), decoders).triangleCount).toBe(2 * 16 * 16);
  });
});
