import { defaultCamera, parseScene, type SceneCamera, type SceneDefinition, type TerrainMesh } from '../core';

/** Cells per side of the height grid sampled over a dropped mesh (where its systems place things). */
export const DROPPED_MESH_CELLS = 128;

/** The footprint the default systems' sizes were chosen for (the stairs-and-ramps level, 96 m across). */
const REFERENCE_SIDE = 96;

const clamp = (value: number, min: number, max: number): number => Math.min(Math.max(value, min), max);
const round = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * The scene a dropped mesh file opens as: the mesh as the ground, seen from a camera framing its bounds,
 * with a fan of rays across it, a capsule probe, a walking character and a small crowd, a box
 * probe and a few actors, each placed and sized from the footprint (what suits a 96 m level suits a
 * 9.6 m part at a tenth of the size). Validated by the catalog exactly like a scene file.
 */
export function droppedMeshScene(file: string, terrain: TerrainMesh): SceneDefinition {
  const side = terrain.params.worldSize;
  const unit = side / REFERENCE_SIDE;
  const name = file.replace(/^.*[/\\]/, '').replace(/\.[^.]*$/, '') || 'mesh';
  const camera = defaultCamera(terrain.params);
  const scene = {
    name,
    title: `${file} (dropped mesh)`,
    description: `The mesh file ${file} as the world's collision mesh, with rays, capsules, a character, a box probe and actors placed from its bounds.`,
    seed: 1,
    terrain: { mesh: file, scale: 1, cells: DROPPED_MESH_CELLS },
    camera: { position: camera.position, target: camera.target, fov: camera.fov },
    systems: {
      // From the corner nearest the camera, down across the mesh away from it: the fan lies over what it hits.
      rayEmitters: {
        rays: 400,
        x: round(0.3 * side),
        z: round(0.3 * side),
        height: round(Math.max(terrain.maxHeight * 0.5, unit)),
        yaw: -135,
        pitch: -20,
        spread: 30,
      },
      capsules: {
        probe: { x: round(-side / 4), z: round(-side / 4), lift: round(clamp(6 * unit, 0, 10_000)), distance: round(clamp(side / 4, 0, 10_000)) },
        character: {
          start: [round(-side / 3), round(side / 3)],
          radius: round(clamp(0.4 * unit, 0.01, 50)),
          halfHeight: round(clamp(0.5 * unit, 0, 100)),
          speed: round(clamp(6 * unit, 0, 1000)),
          stepHeight: round(clamp(0.3 * unit, 0, 100)),
        },
        crowd: {
          count: 100,
          speed: round(clamp(6 * unit, 0, 1000)),
          radius: round(clamp(0.4 * unit, 0.01, 50)),
          halfHeight: round(clamp(0.5 * unit, 0, 100)),
        },
      },
      boxProbe: {
        center: [round(side / 6), round(-side / 6)],
        lift: round(clamp(unit, 0, 1e6)),
        halfSize: [round(clamp(5 * unit, 0, 10_000)), round(clamp(2 * unit, 0, 10_000)), round(clamp(5 * unit, 0, 10_000))],
        yaw: 10,
      },
      actors: { count: 40, size: round(clamp(0.6 * unit, 0.05, 20)), center: [round(side / 6), round(side / 6)] },
    },
  };
  return parseScene(scene, file);
}

/**
 * Where the camera goes for a mesh scene once its mesh is placed: the scene's own camera when it names
 * one, else one framing the mesh's bounds. A parsed scene cannot say whether its file named a camera,
 * but one that did not carries the default camera of the placeholder terrain it was parsed with.
 */
export function meshSceneCamera(scene: SceneDefinition, terrain: TerrainMesh): SceneCamera {
  const placeholder = defaultCamera(scene.terrain);
  const named = JSON.stringify(scene.camera) !== JSON.stringify(placeholder);
  return named ? scene.camera : defaultCamera(terrain.params);
}
