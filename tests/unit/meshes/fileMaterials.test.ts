import { describe, expect, it } from 'vitest';
import { ColliderscopeError } from '../../../src/errors';
import { fileMaterialClass, loadMesh, meshTerrain, NO_MATERIAL, parseObj } from '../../../src/meshes/index';
import { castRays, createAllHitsList } from '../../../src/query/rays/index';
import { TERRAIN_MATERIAL, materialFilter } from '../../../src/terrain/materials';
import { writeGlb, writeGltfParts, type PlainMesh } from './meshWriters';
import { emptyHits, RayBuilder } from '../rays/raySets';

const square: PlainMesh = { positions: [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1], indices: [0, 2, 1, 0, 3, 2] };

describe('materials named in mesh files', () => {
  it('OBJ: usemtl names the faces after it, "usemtl" alone ends it; dropped faces keep the others aligned', () => {
    const obj = [
      'v 0 0 0',
      'v 1 0 0',
      'v 1 0 1',
      'v 0 0 1',
      'v 2 0 0',
      'f 1 3 2', // before any usemtl: none
      'usemtl Pool Water  # a comment',
      'f 1 4 3',
      'f 1 2 5', // three points on a line: dropped
      'usemtl stone',
      'f 2 3 5',
      'usemtl',
      'f 1 4 3',
      'usemtl Pool Water',
      'f 4 3 1 2',
    ].join('\n');
    const mesh = parseObj(obj, 'pool.obj');
    expect(mesh.materialNames).toEqual(['Pool Water', 'stone']);
    expect(mesh.triangleCount).toBe(6);
    expect(Array.from(mesh.triangleMaterials!)).toEqual([NO_MATERIAL, 0, 1, NO_MATERIAL, 0, 0]);
    expect(parseObj('v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 3 2\n').materialNames).toBeUndefined();
  });

  it('glTF: each primitive’s material by name, or by number without one; a material that does not exist is named', () => {
    const { json, bin } = writeGltfParts(square);
    const primitives = (json.meshes as { primitives: Record<string, unknown>[] }[])[0]!.primitives;
    const plain = primitives[0]!;
    primitives.push({ ...plain, material: 0 }, { ...plain, material: 1 }, { ...plain, material: 0 });
    json.materials = [{ name: 'Water_Surface' }, {}];
    const mesh = loadMesh('pool.glb', writeGlb(json, bin));
    expect(mesh.materialNames).toEqual(['Water_Surface', 'material 1']);
    expect(Array.from(mesh.triangleMaterials!)).toEqual([NO_MATERIAL, NO_MATERIAL, 0, 0, 1, 1, 0, 0]);
    primitives[2]!.material = 7;
    let error: unknown = null;
    try {
      loadMesh('pool.glb', writeGlb(json, bin));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ColliderscopeError);
    expect(String((error as Error).message)).toMatch(/meshes\[0\]\.primitives\[2\]\.material.*names material 7, which does not exist/);
  });

  it('names that say grass, rock, snow or water give that terrain material; others none', () => {
    const cases: [string, string | null][] = [
      ['Pool_Water', 'water'],
      ['WATER', 'water'],
      ['rocky ledge', 'rock'],
      ['Snow-cap', 'snow'],
      ['grass01', 'grass'],
      ['Firewater', null],
      ['brick', null],
      ['material 3', null],
    ];
    for (const [name, expected] of cases) expect(fileMaterialClass(name), name).toBe(expected);
  });

  it('a mesh scene’s water from the file: its triangles are water, and a filter without water sees through them', () => {
    // A 2 × 2 floor at y = 0 of four quads; the quad x, z ∈ [0, 1] is a pool a little lower, named water.
    const rows: string[] = [];
    for (let z = 0; z <= 2; z++) for (let x = 0; x <= 2; x++) rows.push(`v ${x} 0 ${z}`);
    const at = (x: number, z: number): number => 1 + x + 3 * z;
    const quad = (x: number, z: number): string => `f ${at(x, z)} ${at(x, z + 1)} ${at(x + 1, z + 1)} ${at(x + 1, z)}`;
    rows.push('v 0 -0.5 0', 'v 1 -0.5 0', 'v 1 -0.5 1', 'v 0 -0.5 1');
    rows.push('usemtl grey', quad(1, 0), quad(0, 1), quad(1, 1), 'usemtl pool tiles', 'f 10 13 12 11');
    rows.push('usemtl pool surface water', quad(0, 0));
    const mesh = parseObj(rows.join('\n'), 'pond.obj');
    const { terrain, bvh } = meshTerrain(mesh, { scale: 1, cells: 16 });
    const water = Array.from(terrain.materials).filter((m) => m === TERRAIN_MATERIAL.water).length;
    expect(water).toBe(2);
    // Placed with its lowest point at y = 0 and centred: the floor at y = 0.5, the pool x, z ∈ [−1, 0].
    // Straight down into the pool: its surface first, its tiles with water filtered out.
    const rays = new RayBuilder().add([-0.3, 5, -0.7], [0, -1, 0]).add([0.5, 5, 0.5], [0, -1, 0]).build();
    const all = emptyHits(2);
    castRays(bvh, rays, all, { doubleSided: true });
    const dry = emptyHits(2);
    castRays(bvh, rays, dry, { doubleSided: true, filter: materialFilter(['grass', 'rock', 'snow']) });
    expect(Array.from(all.t)).toEqual([4.5, 4.5]);
    expect(Array.from(dry.t)).toEqual([5, 4.5]);
    const list = createAllHitsList(8);
    castRays(bvh, rays, emptyHits(2), { mode: 'all', allHits: list, doubleSided: true, filter: materialFilter(['water']) });
    expect(list.count).toBe(1);
  });
});
