import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { loadMesh } from '../../../src/meshes/index';
import { inspectMesh } from '../../../tools/meshReport';
import { loadMeshFile } from '../../../tools/sceneFiles';

const FIXTURES = fileURLToPath(new URL('../../fixtures/meshes/', import.meta.url));

describe('npm run mesh: the BVH over a loaded mesh agrees with brute force', () => {
  beforeAll(async () => {
    await loadSimdRays();
  });

  for (const name of ['cube.obj', 'tetra-ascii.stl', 'quad.gltf']) {
    it(`${name}: every one of 300 incoherent rays (seed 3) has brute force's t`, () => {
      const mesh = loadMesh(name, new Uint8Array(readFileSync(FIXTURES + name)));
      const report = inspectMesh(mesh, { rays: 300, check: 300, seed: 3, builder: 'typescript' });
      expect(report.mismatches).toBe(0);
      expect(report.hits).toBeGreaterThan(0);
      expect(report.bvh.triangleCount).toBe(mesh.triangleCount);
    });
  }

  it('reads a .gltf whose buffer is a file beside it', () => {
    expect(() => loadMeshFile(FIXTURES + 'missing-buffer.gltf')).toThrow(/missing-buffer\.gltf: buffers\[0\]\.uri: could not read "missing\.bin"/);
  });
});
