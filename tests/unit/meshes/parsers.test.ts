import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_BVH_TRIANGLES } from '../../../src/bvh/meshInput';
import { Random } from '../../../src/math/random';
import { loadMesh, MAX_MESH_TRIANGLES, parseGltf, parseObj, parseStl, type LoadedMesh } from '../../../src/meshes/index';
import { triangleSet, writeAsciiStl, writeBinaryStl, writeGlb, writeGltf, writeGltfParts, writeObj, type PlainMesh } from './meshWriters';
import { errorOf } from './errorOf';

const FIXTURES = fileURLToPath(new URL('../../fixtures/meshes/', import.meta.url));
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(FIXTURES + name));
const load = (name: string): LoadedMesh => loadMesh(name, fixture(name));

/** Random vertices in a box and triangles over distinct vertices (random points: no triangle without area). */
function randomMesh(seed: number, vertexCount: number, triangleCount: number): PlainMesh {
  const random = new Random(seed);
  const positions: number[] = [];
  for (let i = 0; i < 3 * vertexCount; i++) positions.push(Math.fround(random.range(-50, 50)));
  const indices: number[] = [];
  while (indices.length < 3 * triangleCount) {
    const a = random.int(vertexCount);
    const b = random.int(vertexCount);
    const c = random.int(vertexCount);
    if (a !== b && b !== c && a !== c) indices.push(a, b, c);
  }
  return { positions, indices };
}

function expectValid(mesh: LoadedMesh): void {
  expect(mesh.positions.length).toBe(3 * mesh.vertexCount);
  expect(mesh.indices.length).toBe(3 * mesh.triangleCount);
  for (const value of mesh.positions) expect(Number.isFinite(value)).toBe(true);
  for (const index of mesh.indices) expect(index).toBeLessThan(mesh.vertexCount);
}

describe('mesh parsers: fixtures', () => {
  it('keeps the triangle limit equal to the BVH builder', () => {
    expect(MAX_MESH_TRIANGLES).toBe(MAX_BVH_TRIANGLES);
  });

  it('reads an OBJ cube written with every corner form, negative indices, a continued line, quads split', () => {
    const cube = load('cube.obj');
    expectValid(cube);
    expect(cube.format).toBe('obj');
    expect(cube.vertexCount).toBe(8);
    expect(cube.triangleCount).toBe(12);
    expect([...cube.bounds]).toEqual([0, 0, 0, 1, 1, 1]);
    expect(cube.degenerateTriangles).toBe(0);
    expect(cube.notes).toEqual(['split 6 polygons of more than 3 corners into triangles']);
    // Each of the 6 sides is two triangles covering the whole unit square: total area 6.
    expect(surfaceArea(cube)).toBeCloseTo(6, 6);
  });

  it('reads an ASCII STL tetrahedron, merging its 12 corners into 4 vertices', () => {
    const tetra = load('tetra-ascii.stl');
    expectValid(tetra);
    expect(tetra.format).toBe('stl-ascii');
    expect(tetra.triangleCount).toBe(4);
    expect(tetra.vertexCount).toBe(4);
    expect(tetra.mergedVertices).toBe(8);
  });

  it('reads a .gltf with a data: uri buffer, u16 indices and a translated, scaled node tree', () => {
    const quad = load('quad.gltf');
    expectValid(quad);
    expect(quad.format).toBe('gltf');
    expect(quad.triangleCount).toBe(2);
    // Scaled by 2 under a node moved by +10 in x.
    expect([...quad.bounds]).toEqual([10, 0, 0, 12, 0, 2]);
  });

  it('drops degenerate triangles (repeated vertex, corners on a line) and reports how many', () => {
    const mesh = load('degenerate.obj');
    expect(mesh.triangleCount).toBe(1);
    expect(mesh.degenerateTriangles).toBe(2);
    expect(mesh.notes).toContain('dropped 2 degenerate triangles (no area)');
  });

  const errors: [string, RegExp][] = [
    ['nan-vertex.obj', /^nan-vertex\.obj:3: vertex 3 \(0 nan 1\) is not three finite numbers/],
    ['infinite-vertex.stl', /^infinite-vertex\.stl:5: vertex \(1e999, 0, 0\) is not three finite numbers/],
    ['index-out-of-range.obj', /^index-out-of-range\.obj:5: face corner "4" names vertex 4, but only 3 vertices are defined/],
    ['index-zero.obj', /^index-zero\.obj:4: face corner "0" does not start with a vertex number/],
    ['only-degenerate.obj', /^only-degenerate\.obj: the mesh has no triangles: all 1 of its triangles are degenerate/],
    ['no-faces.obj', /^no-faces\.obj: the mesh has no triangles: 3 vertices but no "f" face/],
    ['empty.obj', /^empty\.obj: the mesh has no triangles/],
    ['truncated-ascii.stl', /^truncated-ascii\.stl:(12|11): "vertex" needs three coordinates, got 2/],
    ['draco-required.gltf', /^draco-required\.gltf: extensionsRequired: the file needs KHR_draco_mesh_compression \(Draco compression\)/],
  ];
  for (const [name, message] of errors) {
    it(`refuses ${name} with a located message`, () => {
      expect(errorOf(() => load(name)).message).toMatch(message);
    });
  }

  it('names an ASCII STL cut off inside a facet by the line its loop starts on', () => {
    const text = new TextDecoder().decode(fixture('tetra-ascii.stl')).split('\n').slice(0, 12).join('\n');
    expect(errorOf(() => parseStl(new TextEncoder().encode(text), 'cut.stl')).message).toBe(
      'cut.stl:10: the file ends inside a facet (truncated?): its loop starts here and has no "endloop"',
    );
  });

  it('refuses an unknown file ending', () => {
    expect(errorOf(() => loadMesh('level.fbx', new Uint8Array(4))).message).toMatch(/unknown mesh file type "\.fbx"; expected one of \.obj, \.stl/);
  });
});

describe('mesh parsers: random meshes written and read back (seed in the name)', () => {
  for (const seed of [1, 2, 3]) {
    const mesh = randomMesh(seed, 40, 120);
    const expected = triangleSet(mesh.positions, mesh.indices);

    it(`OBJ, seed ${seed}`, () => {
      const read = parseObj(writeObj(mesh), 'r.obj');
      expectValid(read);
      expect(triangleSet(read.positions, read.indices)).toEqual(expected);
    });

    it(`binary STL whose header starts with "solid", seed ${seed}`, () => {
      const read = parseStl(writeBinaryStl(mesh), 'r.stl');
      expect(read.format).toBe('stl-binary');
      expectValid(read);
      expect(triangleSet(read.positions, read.indices)).toEqual(expected);
      expect(read.vertexCount).toBeLessThanOrEqual(40);
    });

    it(`ASCII STL, seed ${seed}`, () => {
      const read = parseStl(new TextEncoder().encode(writeAsciiStl(mesh)), 'r.stl');
      expect(read.format).toBe('stl-ascii');
      expect(triangleSet(read.positions, read.indices)).toEqual(expected);
    });

    for (const indexType of [5121, 5123, 5125, null] as const) {
      it(`glTF and GLB, indices ${indexType ?? 'none'}, stride 20 from byte 8, seed ${seed}`, () => {
        const plain = indexType === null ? unindexed(mesh) : mesh;
        const options = { indexType, stride: 20, accessorOffset: 8 };
        const gltf = parseGltf(writeGltf(plain, options), 'r.gltf');
        expectValid(gltf);
        expect(triangleSet(gltf.positions, gltf.indices)).toEqual(expected);
        const { json, bin } = writeGltfParts(plain, options);
        const glb = loadMesh('r.glb', writeGlb(json, bin));
        expect(glb.format).toBe('glb');
        expect(triangleSet(glb.positions, glb.indices)).toEqual(expected);
      });
    }
  }

  it('welds −0 and +0 into one STL vertex', () => {
    const mesh = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, -0, -0, -0, 0, 0, 1], indices: [0, 1, 2, 3, 2, 4] };
    expect(parseStl(writeBinaryStl(mesh), 'z.stl').vertexCount).toBe(4);
  });
});

describe('mesh parsers: glTF details', () => {
  const square: PlainMesh = { positions: [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1], indices: [0, 2, 1, 0, 3, 2] };

  it('applies a node matrix and flips the winding under a mirroring one', () => {
    const mirror = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1];
    const read = parseGltf(writeGltf(square, { matrix: mirror }), 'm.gltf');
    expect([...read.bounds]).toEqual([4, 0, 0, 5, 0, 1]);
    // The square faces +y; after the mirror both triangles still do: the winding was flipped back.
    const plain = parseGltf(writeGltf(square), 'p.gltf');
    for (let t = 0; t < 2; t++) expect(triangleNormalY(plain, t)).toBeGreaterThan(0);
    for (let t = 0; t < 2; t++) expect(triangleNormalY(read, t)).toBeGreaterThan(0);
  });

  it('applies TRS: a quarter turn about y then a translation', () => {
    const { json, bin } = writeGltfParts(square);
    (json.nodes as Record<string, unknown>[])[0] = { mesh: 0, translation: [0, 3, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] };
    const read = loadMesh('trs.glb', writeGlb(json, bin));
    const b = [...read.bounds].map((x) => Math.round(x * 1e6) / 1e6 + 0);
    expect(b).toEqual([0, 3, -1, 1, 3, 0]);
  });

  it('converts triangle strips and fans with a consistent winding', () => {
    for (const [mode, order] of [
      [5, [0, 1, 3, 2]],
      [6, [0, 1, 2, 3]],
    ] as const) {
      const { json, bin } = writeGltfParts({ positions: square.positions, indices: [...order, 0, 0] }, { indexType: 5123 });
      const primitive = (json.meshes as { primitives: Record<string, unknown>[] }[])[0]!.primitives[0]!;
      primitive.mode = mode;
      (json.accessors as Record<string, unknown>[])[1]!.count = 4;
      const read = loadMesh('strip.glb', writeGlb(json, bin));
      expect(read.triangleCount).toBe(2);
      const normals = [0, 1].map((t) => Math.sign(triangleNormalY(read, t)));
      expect(normals[0]).toBe(normals[1]);
      expect(read.notes.join()).toMatch(mode === 5 ? /triangle strips/ : /triangle fans/);
    }
  });

  it('reads normalized and integer position types (KHR_mesh_quantization)', () => {
    const { json } = writeGltfParts(square);
    const bin = new Uint8Array(24);
    // u8 normalized positions (255 → 1), 4-byte stride; then u8 indices.
    bin.set([0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 2, 1, 0, 3, 2]);
    json.bufferViews = [
      { buffer: 0, byteLength: 16, byteStride: 4 },
      { buffer: 0, byteOffset: 16, byteLength: 6 },
    ];
    json.accessors = [
      { bufferView: 0, componentType: 5121, normalized: true, count: 4, type: 'VEC3' },
      { bufferView: 1, componentType: 5121, count: 6, type: 'SCALAR' },
    ];
    json.buffers = [{ byteLength: 24 }];
    json.extensionsRequired = ['KHR_mesh_quantization'];
    const read = loadMesh('q.glb', writeGlb(json, bin));
    expect(read.triangleCount).toBe(2);
    expect([...read.bounds]).toEqual([0, 0, 0, 1, 0, 1]);
  });

  it('resolves an external buffer through the caller’s loader, and says which uri is missing without one', () => {
    const { json, bin } = writeGltfParts(square);
    (json.buffers as Record<string, unknown>[])[0]!.uri = 'square%20data.bin';
    const text = JSON.stringify(json);
    const read = parseGltf(text, 'ext.gltf', { loadUri: (uri) => (uri === 'square data.bin' ? bin : new Uint8Array(0)) });
    expect(read.triangleCount).toBe(2);
    expect(errorOf(() => parseGltf(text, 'ext.gltf')).message).toBe(
      'ext.gltf: buffers[0].uri: the buffer is in another file, "square%20data.bin", and no loader for it was given',
    );
    expect(errorOf(() => parseGltf(text, 'ext.gltf', { loadUri: () => bin.subarray(0, 10) })).message).toMatch(
      /ext\.gltf: buffers\[0\]: .*truncated/,
    );
  });

  it('applies sparse substitutions', () => {
    const { json, bin } = writeGltfParts(square, { indexType: 5123 });
    const extra = new Uint8Array(16);
    new DataView(extra.buffer).setUint16(0, 3, true);
    new DataView(extra.buffer).setFloat32(4, 0, true);
    new DataView(extra.buffer).setFloat32(8, 0, true);
    new DataView(extra.buffer).setFloat32(12, 7, true);
    const joined = new Uint8Array(bin.length + 16);
    joined.set(bin);
    joined.set(extra, bin.length);
    (json.buffers as Record<string, unknown>[])[0]!.byteLength = joined.length;
    (json.bufferViews as Record<string, unknown>[]).push(
      { buffer: 0, byteOffset: bin.length, byteLength: 4 },
      { buffer: 0, byteOffset: bin.length + 4, byteLength: 12 },
    );
    (json.accessors as Record<string, unknown>[])[0]!.sparse = {
      count: 1,
      indices: { bufferView: 2, componentType: 5123 },
      values: { bufferView: 3 },
    };
    const read = loadMesh('sparse.glb', writeGlb(json, joined));
    expect(read.bounds[5]).toBe(7);
  });

  const broken: [string, (json: Record<string, unknown>) => void, RegExp][] = [
    [
      'an index out of range',
      (json) => ((json.accessors as Record<string, unknown>[])[1]!.count = 6),
      /accessors\[1\]: index 5 is 9, outside the primitive's 4 vertices/,
    ],
    [
      'a Draco primitive',
      (json) => ((json.meshes as { primitives: Record<string, unknown>[] }[])[0]!.primitives[0]!.extensions = { KHR_draco_mesh_compression: {} }),
      /meshes\[0\]\.primitives\[0\]: is compressed with KHR_draco_mesh_compression \(Draco\)/,
    ],
    [
      'a meshopt buffer view',
      (json) => ((json.bufferViews as Record<string, unknown>[])[0]!.extensions = { EXT_meshopt_compression: {} }),
      /bufferViews\[0\]: is compressed with EXT_meshopt_compression/,
    ],
    [
      'an unknown required extension',
      (json) => (json.extensionsRequired = ['EXT_mesh_gpu_instancing']),
      /extensionsRequired: the file needs the extension EXT_mesh_gpu_instancing/,
    ],
    [
      'an accessor past its buffer view',
      (json) => ((json.accessors as Record<string, unknown>[])[0]!.count = 5),
      /accessors\[0\]: 5 elements of 12 bytes every 12 from byte 0 need 60 bytes, bufferView 0 has 48/,
    ],
    ['a node cycle', (json) => (json.nodes = [{ mesh: 0, children: [1] }, { children: [0] }]), /node 0 is its own ancestor/],
    ['glTF 1.0', (json) => (json.asset = { version: '1.0' }), /asset\.version: only glTF 2\.0 is read/],
    [
      'only lines',
      (json) => ((json.meshes as { primitives: Record<string, unknown>[] }[])[0]!.primitives[0]!.mode = 1),
      /the mesh has no triangles: the scene draws no triangle primitive \(skipped 1 lines primitives\)/,
    ],
  ];
  for (const [what, breakIt, message] of broken) {
    it(`refuses ${what} with the JSON path`, () => {
      const { json, bin } = writeGltfParts({ positions: square.positions, indices: [0, 2, 1, 0, 3, 9] }, { indexType: 5123 });
      (json.accessors as Record<string, unknown>[])[1]!.count = 3;
      breakIt(json);
      expect(errorOf(() => loadMesh('broken.glb', writeGlb(json, bin))).message).toMatch(message);
    });
  }

  it('refuses a NaN vertex naming its accessor and element', () => {
    const read = (): LoadedMesh => parseGltf(writeGltf({ positions: [0, 0, 0, 1, 0, 0, NaN, 0, 1], indices: [0, 1, 2] }), 'nan.gltf');
    expect(errorOf(read).message).toBe('nan.gltf: accessors[0]: vertex 2 (NaN, 0, 1) is not finite');
  });

  it('names a truncated GLB at every cut, never crashes', () => {
    const { json, bin } = writeGltfParts(square, { indexType: 5123 });
    const whole = writeGlb(json, bin);
    for (let length = 0; length < whole.length; length++) {
      const error = errorOf(() => loadMesh('cut.glb', whole.subarray(0, length)));
      expect(error.message).toMatch(/^cut\.glb: /);
    }
  });
});

describe('mesh parsers: binary STL edge cases', () => {
  const tetra = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] };

  it('names a truncated binary STL (header starting with "solid") at every cut, never parses it as text', () => {
    const header = 'solid exported by a tool that says solid';
    const whole = writeBinaryStl(tetra, header);
    // Cut inside the header's text, what is left is a valid ASCII STL without a facet.
    expect(errorOf(() => parseStl(whole.subarray(0, header.length), 'cut.stl')).message).toBe('cut.stl: the mesh has no triangles');
    for (let length = header.length + 1; length < whole.length; length++) {
      const message = errorOf(() => parseStl(whole.subarray(0, length), 'cut.stl')).message;
      expect(message).toMatch(/^cut\.stl: byte \d+: (a binary STL needs at least 84 bytes|binary STL of the wrong length)/);
    }
  });

  it('refuses a header counting more triangles than a BVH can index before allocating', () => {
    const bytes = new Uint8Array(84 + 50);
    new DataView(bytes.buffer).setUint32(80, 20_000_000, true);
    expect(errorOf(() => parseStl(bytes, 'huge.stl')).message).toMatch(/header counts 20000000 triangles/);
    // A header that matches a (hypothetical) 20M-triangle file is refused by count, before the parse.
    const mesh = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] };
    expect(() => parseStl(writeBinaryStl(mesh), 'one.stl')).not.toThrow();
  });

  it('refuses a NaN corner naming its byte', () => {
    const bytes = writeBinaryStl(tetra);
    new DataView(bytes.buffer).setFloat32(84 + 50 + 12 + 4, NaN, true);
    expect(errorOf(() => parseStl(bytes, 'nan.stl')).message).toBe('nan.stl: byte 146: triangle 1 has a corner that is not finite (0, NaN, 0)');
  });
});

function surfaceArea(mesh: LoadedMesh): number {
  let area = 0;
  const p = mesh.positions;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const [a, b, c] = [0, 1, 2].map((k) => 3 * mesh.indices[3 * t + k]!) as [number, number, number];
    const u = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const v = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    area += Math.hypot(n[0]!, n[1]!, n[2]!) / 2;
  }
  return area;
}

function triangleNormalY(mesh: LoadedMesh, t: number): number {
  const p = mesh.positions;
  const [a, b, c] = [0, 1, 2].map((k) => 3 * mesh.indices[3 * t + k]!) as [number, number, number];
  const u = [p[b]! - p[a]!, p[b + 2]! - p[a + 2]!];
  const v = [p[c]! - p[a]!, p[c + 2]! - p[a + 2]!];
  // y of u × v with u, v in the xz plane.
  return u[1]! * v[0]! - u[0]! * v[1]!;
}

function unindexed(mesh: PlainMesh): PlainMesh {
  const positions: number[] = [];
  for (const index of mesh.indices) positions.push(mesh.positions[3 * index]!, mesh.positions[3 * index + 1]!, mesh.positions[3 * index + 2]!);
  return { positions, indices: positions.map((_, i) => i).filter((i) => i < positions.length / 3) };
}
