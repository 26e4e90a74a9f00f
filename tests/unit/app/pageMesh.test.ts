import { describe, expect, it } from 'vitest';
import { PAGE_MAX_MESH_TRIANGLES, readPageMesh } from '../../../src/app/pageMesh';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const QUAD = 'v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 4 3 2\n';

describe('mesh files read on the page', () => {
  it('reads a good file as the core does', () => {
    const mesh = readPageMesh('quad.obj', encode(QUAD));
    expect(mesh.triangleCount).toBe(2);
    expect(PAGE_MAX_MESH_TRIANGLES).toBe(4_000_000);
  });

  it("refuses more triangles than the page's limit, naming the file and both counts", () => {
    expect(() => readPageMesh('quad.obj', encode(QUAD), 1)).toThrow('quad.obj: 2 triangles; the page takes at most 1');
  });

  it('refuses a glTF whose buffer is a file beside it: the page has only the one file', () => {
    const gltf = {
      asset: { version: '2.0' },
      buffers: [{ uri: 'level.bin', byteLength: 36 }],
      bufferViews: [{ buffer: 0, byteLength: 36 }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      nodes: [{ mesh: 0 }],
      scenes: [{ nodes: [0] }],
    };
    expect(() => readPageMesh('level.gltf', encode(JSON.stringify(gltf)))).toThrow(/level\.bin.*export the model as \.glb/);
  });

  it("passes on the parsers' refusals (nothing parsable, no triangle, a NaN, an index out of range)", () => {
    expect(() => readPageMesh('empty.obj', encode('v 0 0 0\n'))).toThrow(/empty\.obj/);
    expect(() => readPageMesh('nan.obj', encode('v 0 0 0\nv 1 0 nan\nv 0 0 1\nf 1 2 3\n'))).toThrow(/nan\.obj/);
    expect(() => readPageMesh('range.obj', encode('v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n'))).toThrow(/range\.obj/);
    expect(() => readPageMesh('short.stl', new Uint8Array(40))).toThrow(/short\.stl/);
  });
});
