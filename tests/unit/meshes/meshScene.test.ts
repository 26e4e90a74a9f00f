import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createHeadlessSandbox,
  currentScene,
  enableSystem,
  loadSimdBoxTriangles,
  loadSimdCapsules,
  loadSimdRays,
  loadWasmBuilder,
  parseScene,
  runFixedSteps,
  sampleTerrainHeight,
  sceneToJson,
} from '../../../src/core';
import { parseObj } from '../../../src/meshes/index';
import { loadMeshFile, loadSceneFile, readField, SCENES_DIR } from '../../../tools/sceneFiles';

const LEVEL = `${SCENES_DIR}meshes/stairs-and-ramps.json`;
const FIXTURES = fileURLToPath(new URL('../../fixtures/meshes/', import.meta.url));
const readerFor = (sceneFile: string) => (file: string) => loadMeshFile(resolve(dirname(sceneFile), file));

/** The example level's state after 12 fixed steps (`npm run scene -- scenes/meshes/stairs-and-ramps.json --frames 12 --hash`). */
const LEVEL_GOLDEN_HASH = '569255fcabad167b';

const CITY = `${SCENES_DIR}meshes/city-block.json`;
/** The generated city's state after 12 fixed steps (`npm run scene -- scenes/meshes/city-block.json --frames 12 --hash`). */
const CITY_GOLDEN_HASH = 'e0e22c85e6d8d2cf';

beforeAll(async () => {
  await Promise.all([loadSimdRays(), loadSimdCapsules(), loadSimdBoxTriangles(), loadWasmBuilder()]);
});

describe('scenes with a mesh terrain: parsing', () => {
  const parse = (terrain: unknown, systems: unknown = {}) => parseScene({ terrain, systems }, 'mesh-scene.json');

  it('reads terrain.mesh, scale and cells, and writes them back', () => {
    const scene = parse({ mesh: 'meshes/level.glb', scale: 0.01, cells: 64 });
    expect(scene.terrainMesh).toEqual({ file: 'meshes/level.glb', scale: 0.01 });
    expect(scene.terrain.cells).toBe(64);
    expect(sceneToJson(scene).terrain).toEqual({ mesh: 'meshes/level.glb', scale: 0.01, cells: 64 });
    expect(parse({ mesh: 'a.STL' }).terrainMesh).toEqual({ file: 'a.STL', scale: 1 });
  });

  const refusals: [string, unknown, unknown, string][] = [
    [
      'an unknown ending',
      { mesh: 'level.fbx' },
      {},
      'mesh-scene.json: terrain.mesh: expected a file ending in .obj, .stl, .gltf, .glb, got "level.fbx"',
    ],
    [
      'a path leaving the folder',
      { mesh: 'a/../../x.obj' },
      {},
      'terrain.mesh: expected a path relative to the scene file\'s folder, without "..", got "a/../../x.obj"',
    ],
    ['an absolute path', { mesh: '/etc/x.obj' }, {}, 'terrain.mesh: expected a path relative'],
    [
      'a heightfield parameter beside it',
      { mesh: 'x.obj', octaves: 3 },
      {},
      'terrain.octaves: unknown field "octaves"; expected one of mesh, scale, cells',
    ],
    [
      'edits',
      { mesh: 'x.obj', edits: [] },
      {},
      'terrain.edits: edits (craters, sculpting) move the cells of a generated heightfield; a mesh terrain has none',
    ],
    ['a zero scale', { mesh: 'x.obj', scale: 0 }, {}, 'terrain.scale: expected a number in [0.000001, 10000], got 0'],
    ['particles', { mesh: 'x.obj' }, { particles: {} }, 'systems.particles: the particles system needs a generated heightfield terrain'],
    ['the crack explorer', { mesh: 'x.obj' }, { cracks: {} }, 'systems.cracks: the crack explorer system needs a generated heightfield terrain'],
  ];
  for (const [what, terrain, systems, message] of refusals) {
    it(`refuses ${what} with a located message`, () => {
      expect(() => parse(terrain, systems)).toThrow(message);
    });
  }
});

describe('scenes with a mesh terrain: the headless runner', () => {
  it('runs the example level: every system it names on the mesh, the same hash twice, its golden hash', () => {
    const scene = loadSceneFile(LEVEL);
    const sandbox = createHeadlessSandbox(scene, { readField, readMesh: readerFor(LEVEL) });
    expect(sandbox.terrain.source).toBe('stairs-and-ramps.obj');
    expect(sandbox.bvh?.triangleCount).toBe(5124);
    expect(sandbox.systems.map((s) => s.name)).toEqual(['actors', 'capsules', 'boxProbe', 'rayEmitters']);
    const hash = runFixedSteps(sandbox, 12);
    expect(runFixedSteps(createHeadlessSandbox(scene, { readField, readMesh: readerFor(LEVEL) }), 12)).toBe(hash);
    expect(hash).toBe(LEVEL_GOLDEN_HASH);
    const report = sandbox.report().metrics;
    expect(report.terrain!.mesh).toBe('stairs-and-ramps.obj');
    expect(report.rayEmitters!.hitsA).toBeGreaterThan(0);
    expect(report.capsules!.probeContact).toMatch(/^toi /);
    expect(report.boxProbe!.overlaps).toBeGreaterThan(0);
    // Dropped from just above the ground at the stairs' foot, the character lands on the mesh.
    runFixedSteps(sandbox, 48);
    expect(sandbox.report().metrics.capsules!.character).toBe('on the ground');
  });

  it('runs the generated city: every system it names on the mesh, its golden hash, the street under the footbridge', () => {
    const scene = loadSceneFile(CITY);
    const sandbox = createHeadlessSandbox(scene, { readField, readMesh: readerFor(CITY) });
    expect(sandbox.terrain.source).toBe('city-block.obj');
    expect(sandbox.bvh?.triangleCount).toBe(3792);
    expect(sandbox.systems.map((s) => s.name)).toEqual(['actors', 'capsules', 'boxProbe', 'rayEmitters']);
    const hash = runFixedSteps(sandbox, 12);
    expect(runFixedSteps(createHeadlessSandbox(scene, { readField, readMesh: readerFor(CITY) }), 12)).toBe(hash);
    expect(hash).toBe(CITY_GOLDEN_HASH);
    const report = sandbox.report().metrics;
    expect(report.rayEmitters!.hitsA).toBeGreaterThan(0);
    expect(report.capsules!.probeContact).toMatch(/^toi /);
    expect(report.boxProbe!.overlaps).toBeGreaterThan(0);
    // The top surface over the street under the deck is the deck (4.5 m), the plaza's fountain is 1.6 m.
    expect(sampleTerrainHeight(sandbox.terrain, -14, 0)).toBeCloseTo(4.5, 3);
    expect(sampleTerrainHeight(sandbox.terrain, 0, 0)).toBeCloseTo(1.6, 3);
    runFixedSteps(sandbox, 48);
    expect(sandbox.report().metrics.capsules!.character).toBe('on the ground');
  });

  it('places things on the top surface: heights are the landing, a ramp and the ground', () => {
    const sandbox = createHeadlessSandbox(loadSceneFile(LEVEL), { readField, readMesh: readerFor(LEVEL) });
    const terrain = sandbox.terrain;
    expect(terrain.params.worldSize).toBe(96);
    expect(terrain.maxHeight).toBe(6);
    expect(sampleTerrainHeight(terrain, 40, 40)).toBeCloseTo(0, 5);
    // The landing is 3 m up over x in [−25.2, −21.2], z in [−34, −28]; the level is centred as generated.
    expect(sampleTerrainHeight(terrain, -23, -31)).toBeCloseTo(3, 3);
  });

  it('saves the running scene with its mesh terrain (currentScene) and runs it again the same', () => {
    const original = createHeadlessSandbox(loadSceneFile(LEVEL), { readField, readMesh: readerFor(LEVEL) });
    const saved = JSON.parse(JSON.stringify(currentScene(original, original.scene.camera))) as { terrain: unknown };
    expect(saved.terrain).toEqual({ mesh: 'stairs-and-ramps.obj', scale: 1, cells: 96 });
    const reloaded = createHeadlessSandbox(parseScene(saved, 'saved.json'), { readField, readMesh: readerFor(LEVEL) });
    expect(runFixedSteps(reloaded, 4)).toBe(runFixedSteps(original, 4));
  });

  it('refuses edits and heightfield systems at run time, the world unchanged', () => {
    const sandbox = createHeadlessSandbox(loadSceneFile(LEVEL), { readField, readMesh: readerFor(LEVEL) });
    const before = sandbox.systems.length;
    expect(() => sandbox.deformTerrain({ kind: 'crater', at: [0, 0], radius: 4, depth: 1 } as never)).toThrow(
      'terrain.edits: terrain edits (craters, sculpting) need a generated heightfield terrain; this one is the mesh "stairs-and-ramps.obj"',
    );
    expect(() => enableSystem(sandbox, 'particles', {}, { world: sandbox, readField })).toThrow(/systems\.particles: the particles system needs/);
    expect(sandbox.systems.length).toBe(before);
    expect(sandbox.terrainEdits.edits.length).toBe(0);
  });

  it('keeps the character on the floor under a roof higher than its sinking depth (the top surface is not the ground)', () => {
    // A floor 100 m wide at y = 0, a roof over its middle at y = 150.
    const obj = [
      'v -50 0 -50',
      'v 50 0 -50',
      'v 50 0 50',
      'v -50 0 50',
      'v -10 150 -10',
      'v 10 150 -10',
      'v 10 150 10',
      'v -10 150 10',
      'f 1 4 3 2',
      'f 5 8 7 6',
    ].join('\n');
    const scene = parseScene({ terrain: { mesh: 'hall.obj', cells: 32 }, systems: { capsules: { character: { start: [30, 0] } } } }, 'hall.json');
    const sandbox = createHeadlessSandbox(scene, { readField, readMesh: (file) => parseObj(obj, file) });
    expect(sampleTerrainHeight(sandbox.terrain, 0, 0)).toBeCloseTo(150, 3);
    runFixedSteps(sandbox, 30);
    // Walked (here: put) under the roof, it stays there rather than being sent back to its start.
    const character = (
      sandbox.system('capsules') as unknown as { character: { position: Float64Array; place(x: number, y: number, z: number): void } }
    ).character;
    character.place(0, 3, 0);
    runFixedSteps(sandbox, 60);
    expect(Math.abs(character.position[0]!)).toBeLessThan(5);
    expect(character.position[1]).toBeLessThan(10);
    expect(sandbox.report().metrics.capsules!.character).toBe('on the ground');
  });

  it('refuses a scale that makes the mesh wider than a world may be', () => {
    const scene = parseScene({ terrain: { mesh: 'stairs-and-ramps.obj', scale: 5000 } }, 'huge.json');
    expect(() => createHeadlessSandbox(scene, { readField, readMesh: readerFor(LEVEL) })).toThrow(
      /stairs-and-ramps\.obj: the mesh's footprint is 480000 units across once scaled by 5000; it must be in \(0, 100000\] \(see terrain\.scale\)/,
    );
  });

  it('reports a bad mesh file with the parser’s located message, and a scene without a reader', () => {
    const scene = loadSceneFile(`${FIXTURES}scene-nan-mesh.json`);
    expect(() => createHeadlessSandbox(scene, { readField, readMesh: readerFor(`${FIXTURES}scene-nan-mesh.json`) })).toThrow(
      /nan-vertex\.obj:3: vertex 3 \(0 nan 1\) is not three finite numbers/,
    );
    expect(() => createHeadlessSandbox(scene, { readField })).toThrow(
      'terrain.mesh: the terrain is the mesh "nan-vertex.obj", and no mesh reader was given',
    );
  });
});
