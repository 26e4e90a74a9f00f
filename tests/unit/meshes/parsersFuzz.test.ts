import { describe, expect, it } from 'vitest';
import { ColliderscopeError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { loadMesh } from '../../../src/meshes/index';
import { writeAsciiStl, writeBinaryStl, writeGlb, writeGltfParts, writeObj, type PlainMesh } from './meshWriters';

const tetra: PlainMesh = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] };

/** Loads and either gets a mesh a BVH can take, or a ColliderscopeError: anything else (a crash) fails. */
function loadsOrRefuses(file: string, bytes: Uint8Array): 'loaded' | 'refused' {
  try {
    const mesh = loadMesh(file, bytes);
    expect(mesh.triangleCount).toBeGreaterThan(0);
    expect(mesh.indices.length).toBe(3 * mesh.triangleCount);
    for (const value of mesh.positions) expect(Number.isFinite(value)).toBe(true);
    for (const index of mesh.indices) expect(index).toBeLessThan(mesh.vertexCount);
    return 'loaded';
  } catch (error) {
    if (!(error instanceof ColliderscopeError)) throw error;
    expect(error.message.startsWith(file)).toBe(true);
    return 'refused';
  }
}

/** One random edit: a byte changed, a run cut out, a byte inserted, or the tail cut off. */
function mutate(bytes: Uint8Array, random: Random, alphabet: Uint8Array | null): Uint8Array {
  const at = random.int(bytes.length);
  const byte = alphabet === null ? random.int(256) : alphabet[random.int(alphabet.length)]!;
  switch (random.int(4)) {
    case 0: {
      const copy = bytes.slice();
      copy[at] = byte;
      return copy;
    }
    case 1:
      return new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(Math.min(bytes.length, at + 1 + random.int(8)))]);
    case 2:
      return new Uint8Array([...bytes.subarray(0, at), byte, ...bytes.subarray(at)]);
    default:
      return bytes.subarray(0, at);
  }
}

describe('mesh parsers: mutated files load cleanly or are refused with a located message, never crash (seeded)', () => {
  const text = new TextEncoder().encode('0123456789 -+.e/\nvfnaNIinfty#\\solidfacetvertexloopend');
  const cases: [string, Uint8Array, Uint8Array | null][] = [
    ['m.obj', new TextEncoder().encode(writeObj(tetra) + 'f -1 -2 -3 -4\n'), text],
    ['m.stl', new TextEncoder().encode(writeAsciiStl(tetra)), text],
    ['b.stl', writeBinaryStl(tetra), null],
    ['m.glb', writeGlb(...(Object.values(writeGltfParts(tetra, { indexType: 5123, stride: 16 })) as [Record<string, unknown>, Uint8Array])), null],
  ];
  for (const [file, original, alphabet] of cases) {
    it(`${file}, seed 7: 400 mutations`, () => {
      const random = new Random(7);
      const outcomes = { loaded: 0, refused: 0 };
      for (let i = 0; i < 400; i++) {
        let bytes = original;
        for (let edits = 1 + random.int(3); edits > 0; edits--) bytes = mutate(bytes, random, alphabet);
        outcomes[loadsOrRefuses(file, bytes)]++;
      }
      expect(outcomes.refused).toBeGreaterThan(0);
    });
  }

  it('glTF JSON with values swapped for wrong types and ranges, seed 11', () => {
    const random = new Random(11);
    const { json, bin } = writeGltfParts(tetra, { indexType: 5123 });
    const junk: unknown[] = [-1, 0, 1, 2, 3.5, 1e12, NaN, '0', 'x', null, true, [], {}, [0], { a: 1 }, 5126, 5121, 'VEC3', 'SCALAR'];
    const outcomes = { loaded: 0, refused: 0 };
    for (let i = 0; i < 400; i++) {
      const copy = JSON.parse(JSON.stringify(json)) as Record<string, unknown>;
      // Walk to a random value and replace it.
      let holder: Record<string, unknown> | unknown[] = copy;
      for (let depth = 0; depth < 6; depth++) {
        const keys = Object.keys(holder);
        if (keys.length === 0) break;
        const key = keys[random.int(keys.length)]!;
        const value = holder[key];
        if (depth > 0 && (typeof value !== 'object' || value === null || random.int(3) === 0)) {
          holder[key] = junk[random.int(junk.length)];
          break;
        }
        if (typeof value !== 'object' || value === null) break;
        holder = value as Record<string, unknown>;
      }
      outcomes[loadsOrRefuses('j.glb', writeGlb(copy, bin))]++;
    }
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.loaded).toBeGreaterThan(0);
  });
});
