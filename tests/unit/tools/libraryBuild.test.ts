import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const bin = (name: string): string => join(ROOT, 'node_modules/.bin', name);

/**
 * The package as `npm pack` makes it (npm run build:lib, without its build:wasm, which the test run has
 * done): the core and the three.js adapter bundle, with their types, and load and answer from the bundle.
 */
describe('the library package (npm run build:lib, npm pack)', () => {
  it('builds, packs its entry points, types and kernels, and the bundles cast rays with and without three', async () => {
    execFileSync(bin('vite'), ['build', '--config', 'vite.lib.config.ts', '--logLevel', 'error'], { cwd: ROOT, encoding: 'utf8' });
    execFileSync(bin('tsc'), ['-p', 'tsconfig.lib.json'], { cwd: ROOT, encoding: 'utf8' });
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as {
      files: { path: string }[];
    }[];
    const files = packed!.files.map((file) => file.path);
    for (const needed of ['dist/lib/core.js', 'dist/lib/three.js', 'dist/types/core.d.ts', 'dist/types/adapters/three/index.d.ts'])
      expect(files).toContain(needed);
    expect(files.some((file) => file.startsWith('src/') || file.startsWith('tests/'))).toBe(false);

    const core = (await import(pathToFileURL(join(ROOT, 'dist/lib/core.js')).href)) as typeof import('../../../src/core');
    const terrain = core.generateTerrain({ cells: 16, seed: 3 });
    const bvh = core.buildBVH(terrain.positions, terrain.indices);
    const hits = { t: new Float32Array(1), triangle: new Int32Array(1) };
    const rays = { count: 1, origins: new Float32Array([1, 500, 2]), directions: new Float32Array([0, -1, 0]), tMax: new Float32Array([Infinity]) };
    core.castRays(bvh, rays, hits);
    expect(hits.triangle[0]).toBeGreaterThanOrEqual(0);
    // The kernels are inlined in the bundle: the SIMD walk loads from it and answers alike.
    expect(await core.loadSimdRays()).not.toBeNull();
    const simdHits = { t: new Float32Array(1), triangle: new Int32Array(1) };
    expect(core.castRays(bvh, rays, simdHits, { kernel: 'wasm-simd' }).kernel).toBe('wasm-simd');
    expect(simdHits.triangle[0]).toBe(hits.triangle[0]);

    const three = (await import(pathToFileURL(join(ROOT, 'dist/lib/three.js')).href)) as typeof import('../../../src/adapters/three/index');
    const { BufferAttribute, BufferGeometry, Mesh, Raycaster, Vector3 } = await import('three');
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(terrain.positions, 3));
    geometry.setIndex(new BufferAttribute(terrain.indices, 1));
    three.computeBoundsTree.call(geometry);
    const mesh = new Mesh(geometry);
    mesh.raycast = three.acceleratedRaycast;
    const raycaster = new Raycaster(new Vector3(1, 500, 2), new Vector3(0, -1, 0));
    const [hit] = raycaster.intersectObject(mesh);
    expect(hit?.faceIndex).toBe(hits.triangle[0]);
    expect((await three.meshoptGltfOptions()).meshopt).toBeDefined();
  });
});
