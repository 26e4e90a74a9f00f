import { beforeAll, describe, expect, it } from 'vitest';
import { createHeadlessSandbox, loadSimdRays, loadWasmBuilder, meshTerrain, parseObj, runFixedSteps } from '../../../src/core';
import { droppedMeshScene, DROPPED_MESH_CELLS, meshSceneCamera } from '../../../src/app/meshScenes';
import { parseSceneText } from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';

beforeAll(async () => {
  await Promise.all([loadSimdRays(), loadWasmBuilder()]);
});

/** A floor `side` wide with a box in its middle `side / 4` across and `side / 8` tall. */
function floorWithBox(side: number): string {
  const h = side / 2;
  const b = side / 8;
  const t = side / 8;
  return [
    `v ${-h} 0 ${-h}`,
    `v ${h} 0 ${-h}`,
    `v ${h} 0 ${h}`,
    `v ${-h} 0 ${h}`,
    `v ${-b} 0 ${-b}`,
    `v ${b} 0 ${-b}`,
    `v ${b} 0 ${b}`,
    `v ${-b} 0 ${b}`,
    `v ${-b} ${t} ${-b}`,
    `v ${b} ${t} ${-b}`,
    `v ${b} ${t} ${b}`,
    `v ${-b} ${t} ${b}`,
    'f 1 4 3 2',
    'f 9 12 11 10',
    'f 5 9 10 6',
    'f 8 7 11 12',
    'f 5 8 12 9',
    'f 6 10 11 7',
  ].join('\n');
}

describe('the scene a dropped mesh file opens as', () => {
  // A 2 cm part, a 96 m level, a 3 km landscape: every size gets a valid scene with systems that run.
  for (const side of [0.02, 96, 3000]) {
    it(`places and sizes its systems from the bounds of a mesh ${side} across, valid and running`, () => {
      const mesh = parseObj(floorWithBox(side), 'part.obj');
      const { terrain } = meshTerrain(mesh, { scale: 1, cells: DROPPED_MESH_CELLS, builder: 'wasm' });
      const scene = droppedMeshScene('models/part.obj', terrain);
      expect(scene.name).toBe('part');
      expect(scene.terrainMesh).toEqual({ file: 'models/part.obj', scale: 1 });
      expect(Object.keys(scene.systems).sort()).toEqual(['actors', 'boxProbe', 'capsules', 'rayEmitters']);
      // The camera frames the mesh: it looks at its middle from outside its bounds.
      const [x, y, z] = scene.camera.position;
      expect(Math.hypot(x, z)).toBeGreaterThan(side / 2);
      expect(y).toBeGreaterThan(terrain.maxHeight);
      expect(meshSceneCamera(scene, terrain)).toEqual(scene.camera);
      const sandbox = createHeadlessSandbox(scene, { readField, readMesh: () => mesh });
      runFixedSteps(sandbox, 3);
      const metrics = sandbox.report().metrics;
      expect(Number(metrics.rayEmitters!.hitsA)).toBeGreaterThan(0);
      expect(Number(metrics.capsules!.crowd)).toBe(100);
    });
  }

  it("frames the mesh when the scene names no camera, and keeps the scene's own when it does", () => {
    const mesh = parseObj(floorWithBox(40), 'part.obj');
    const { terrain } = meshTerrain(mesh, { scale: 1, cells: 32 });
    const unnamed = parseSceneText('{ "terrain": { "mesh": "part.obj" } }', 'a.json');
    const fitted = meshSceneCamera(unnamed, terrain);
    expect(fitted.position[0]).toBeCloseTo(40 * 0.55, 5);
    expect(fitted.target).toEqual([0, terrain.maxHeight * 0.3, 0]);
    const named = parseSceneText('{ "terrain": { "mesh": "part.obj" }, "camera": { "position": [1, 2, 3], "target": [0, 0, 0] } }', 'b.json');
    expect(meshSceneCamera(named, terrain).position).toEqual([1, 2, 3]);
  });
});
