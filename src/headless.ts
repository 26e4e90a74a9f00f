import { buildBVH } from './bvh/buildBVH';
import { TERRAIN_BUILDER } from './bvh/options';
import { ColliderscopeError } from './errors';
import type { LoadedMesh } from './meshes/meshBuilder';
import { meshTerrain } from './meshes/meshTerrain';
import type { SceneDefinition } from './scene/scene';
import { Sandbox } from './sim/sandbox';
import { terrainMaterialInput } from './terrain/materials';
import { installSceneSystems } from './systems';
import type { SystemContext } from './world/simSystem';

export interface HeadlessOptions {
  /** Field programs by name (the runner reads `scenes/fields/NAME.vf`). */
  readField: SystemContext['readField'];
  /** Frames of timings kept (the report's window). */
  timingWindow?: number;
  /**
   * Reads the mesh a scene's `terrain.mesh` names (the runner reads it relative to the scene file);
   * needed only by scenes whose terrain is a mesh. Throws a ColliderscopeError for a bad file.
   */
  readMesh?: (file: string) => LoadedMesh;
}

/**
 * A scene's world without a page: its terrain generated, its BVH built and its systems installed from
 * their sections, ready to step. The BVH comes from TERRAIN_BUILDER, as in the page's terrain worker
 * (another builder gives the same hits, but a ray meeting two triangles at exactly the same t may name
 * the other one). The runner, the golden-hash tests and the benchmarks start here; the
 * page builds the same world, the terrain and BVH in a worker.
 */
export function createHeadlessSandbox(scene: SceneDefinition, options: HeadlessOptions): Sandbox {
  if (scene.terrainMesh !== undefined) return createMeshSandbox(scene, options);
  const sandbox = new Sandbox(scene, undefined, options.timingWindow ?? 120);
  // setBvh records the build's time as the one-off event 'bvh.build'.
  const build = (): void =>
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices, { builder: TERRAIN_BUILDER }, terrainMaterialInput(sandbox.terrain)));
  build();
  // The page rebuilds a tree that edits degraded in its worker and swaps it in later; here it is rebuilt
  // at once. Only a ray meeting two triangles at exactly the same t could tell the two apart.
  sandbox.onBvhDegraded = build;
  installSceneSystems(sandbox, scene, { world: sandbox, readField: options.readField });
  return sandbox;
}

/** A scene whose ground is a mesh file: read, placed, its BVH built once (nothing edits it), its systems installed. */
function createMeshSandbox(scene: SceneDefinition, options: HeadlessOptions): Sandbox {
  const source = scene.terrainMesh!;
  if (options.readMesh === undefined) {
    throw new ColliderscopeError(`the terrain is the mesh ${JSON.stringify(source.file)}, and no mesh reader was given`, {
      file: scene.name,
      field: 'terrain.mesh',
    });
  }
  const mesh = options.readMesh(source.file);
  const { terrain, bvh } = meshTerrain(mesh, { scale: source.scale, cells: scene.terrain.cells, builder: 'wasm' });
  // Named as the scene names it, wherever the reader found it.
  terrain.source = source.file;
  const sandbox = new Sandbox(scene, terrain, options.timingWindow ?? 120);
  sandbox.setBvh(bvh);
  installSceneSystems(sandbox, scene, { world: sandbox, readField: options.readField });
  return sandbox;
}

/** Steps `frames` fixed steps of `dt` seconds and returns the determinism hash after them. */
export function runFixedSteps(sandbox: Sandbox, frames: number, dt = 1 / 60): string {
  for (let frame = 0; frame < frames; frame++) sandbox.step(dt);
  return sandbox.hash();
}
