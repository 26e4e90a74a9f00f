import { ColliderscopeError } from '../errors';
import type { TerrainEdit } from '../terrain/edits';
import { MAX_CELLS, MIN_CELLS, resolveTerrainParams, type TerrainParams } from '../terrain/params';
import { parseTerrainEdits } from './terrainEditsSection';
import {
  child,
  expectBoolean,
  expectKnownKeys,
  expectNumber,
  expectObject,
  expectOneOf,
  expectString,
  expectVec3,
  parseJsonText,
  type Where,
} from './validate';

/**
 * A sandbox state as stored in scenes/*.json. Every field is optional in the file and filled with
 * defaults here; every field present is checked, and unknown fields are errors.
 */
export interface SceneCamera {
  position: [number, number, number];
  target: [number, number, number];
  /** Vertical field of view in degrees. */
  fov: number;
}

/** How the page colours the terrain (the view reads these names; 'material' shows the collision materials). */
export const TERRAIN_COLOURINGS = ['height+slope', 'height', 'slope', 'plain', 'material'] as const;
export type TerrainColouring = (typeof TERRAIN_COLOURINGS)[number];

/** Which of the BVH's node boxes the page draws. */
export const BVH_BOX_SELECTIONS = ['at depth', 'up to depth', 'leaves'] as const;
export type BvhBoxSelection = (typeof BVH_BOX_SELECTIONS)[number];

/** The BVH overlays a scene shows; each field left out is off (or its default). */
export interface SceneBvhView {
  /** Draw node boxes (coloured by depth). */
  boxes?: boolean;
  depth?: number;
  which?: BvhBoxSelection;
  /** The heat map of nodes visited per camera ray. */
  heatMap?: boolean;
}

/**
 * What the page should show with the scene. The colouring left out leaves the page's own setting; the
 * overlays are the scene's own: left out, they are off, so a slide shows the same on every pass.
 */
export interface SceneView {
  colouring?: TerrainColouring;
  bvh?: SceneBvhView;
}

/** A mesh file as the world's ground (the file's `terrain.mesh`) instead of the generated heightfield. */
export interface SceneTerrainMesh {
  /** The file, relative to the scene file's folder: .obj, .stl, .gltf or .glb. */
  file: string;
  /** Multiplies every coordinate of the mesh. */
  scale: number;
}

/** The file endings a scene's `terrain.mesh` may name. */
export const SCENE_MESH_ENDINGS = ['.obj', '.stl', '.gltf', '.glb'] as const;

export interface SceneDefinition {
  name: string;
  /** What a talk's slide and the page call the scene (the name when the file gives none). */
  title: string;
  /** One line under the title. */
  description: string;
  /** Seeds everything random in the run (not the terrain, which has its own seed). */
  seed: number;
  terrain: TerrainParams;
  /**
   * The mesh the world's ground is read from, when the file names one (`terrain.mesh`); then `terrain`
   * holds only the height grid's cells (the rest is measured from the mesh once it is read).
   */
  terrainMesh?: SceneTerrainMesh;
  /** Craters and sculpt strokes on the terrain, by frame (the file's `terrain.edits`); empty for none. */
  terrainEdits: TerrainEdit[];
  camera: SceneCamera;
  /**
   * The systems the scene runs beside its terrain, by catalog name, each section validated by its
   * system (see src/systems.ts). A scene states every system's state: one left out is off, so a scene
   * looks the same whatever ran before it.
   */
  systems: SceneSections;
  /** Page-only hints (the headless runner ignores them); absent when the file gave none. */
  view?: SceneView;
}

/** Validated system sections by system name; what is inside a section belongs to its system. */
export type SceneSections = Readonly<Record<string, object>>;

/** Validates one system's section of a scene file: typed, in range, unknown fields are errors. */
export type SectionParser = (value: unknown, where: Where) => object;

export const SCENE_FIELDS = ['name', 'title', 'description', 'seed', 'terrain', 'camera', 'systems', 'view'] as const;
const CAMERA_FIELDS = ['position', 'target', 'fov'] as const;
const TERRAIN_MESH_FIELDS = ['mesh', 'scale', 'cells'] as const;
const VIEW_FIELDS = ['colouring', 'bvh'] as const;
const BVH_VIEW_FIELDS = ['boxes', 'depth', 'which', 'heatMap'] as const;

export function defaultCamera(terrain: TerrainParams): SceneCamera {
  const size = terrain.worldSize;
  return { position: [size * 0.55, terrain.heightScale + size * 0.35, size * 0.55], target: [0, terrain.heightScale * 0.3, 0], fov: 50 };
}

/**
 * Validates a parsed scene object. `file` names the source in every error message; `sections` are the
 * systems' own parsers by name (the catalog's), and a section no parser knows is an error.
 */
export function parseScene(value: unknown, file = 'scene', sections: ReadonlyMap<string, SectionParser> = new Map()): SceneDefinition {
  const top: Where = { file, field: '' };
  const object = expectObject(value, top);
  expectKnownKeys(object, SCENE_FIELDS, top);

  const { edits: editsInput, ...terrainInput } = object.terrain === undefined ? {} : expectObject(object.terrain, child(top, 'terrain'));
  let terrainMesh: SceneTerrainMesh | undefined;
  let terrain: TerrainParams;
  let terrainEdits: TerrainEdit[] = [];
  if (terrainInput.mesh !== undefined) {
    const where = child(top, 'terrain');
    if (editsInput !== undefined) {
      throw new ColliderscopeError(
        'edits (craters, sculpting) move the cells of a generated heightfield; a mesh terrain has none',
        child(where, 'edits'),
      );
    }
    ({ terrainMesh, terrain } = parseTerrainMesh(terrainInput, where));
  } else {
    terrain = resolveTerrainParams(terrainInput, file, 'terrain.');
    terrainEdits = editsInput === undefined ? [] : parseTerrainEdits(editsInput, child(child(top, 'terrain'), 'edits'), terrain);
  }

  const camera = defaultCamera(terrain);
  if (object.camera !== undefined) {
    const where = child(top, 'camera');
    const input = expectObject(object.camera, where);
    expectKnownKeys(input, CAMERA_FIELDS, where);
    if (input.position !== undefined) camera.position = expectVec3(input.position, child(where, 'position'));
    if (input.target !== undefined) camera.target = expectVec3(input.target, child(where, 'target'));
    if (input.fov !== undefined) camera.fov = expectNumber(input.fov, child(where, 'fov'), 10, 120);
    if (camera.position.every((c, i) => c === camera.target[i])) {
      throw new ColliderscopeError('camera position and target must differ', { file, field: 'camera' });
    }
  }

  let view: SceneView | undefined;
  if (object.view !== undefined) {
    const where = child(top, 'view');
    const input = expectObject(object.view, where);
    expectKnownKeys(input, VIEW_FIELDS, where);
    view = {};
    if (input.colouring !== undefined) view.colouring = expectOneOf(input.colouring, TERRAIN_COLOURINGS, child(where, 'colouring'));
    if (input.bvh !== undefined) view.bvh = parseBvhView(input.bvh, child(where, 'bvh'));
  }

  const name = object.name === undefined ? file.replace(/^.*\//, '').replace(/\.json$/, '') : expectString(object.name, child(top, 'name'), 120);
  return {
    name,
    title: object.title === undefined ? name : expectString(object.title, child(top, 'title'), 120),
    description: object.description === undefined ? '' : expectString(object.description, child(top, 'description')),
    seed: object.seed === undefined ? 1 : expectNumber(object.seed, child(top, 'seed'), 0, 4294967295, true),
    terrain,
    ...(terrainMesh !== undefined ? { terrainMesh } : {}),
    terrainEdits,
    camera,
    systems: object.systems === undefined ? {} : parseSections(object.systems, child(top, 'systems'), sections),
    ...(view !== undefined ? { view } : {}),
  };
}

/**
 * `"terrain": {"mesh": "level.glb", "scale": 1, "cells": 128}`: the file relative to the scene's folder
 * (no absolute path, no `..`), a scale in (0, 10000], the height grid's cells (16…2048, 128 by default).
 */
function parseTerrainMesh(input: Record<string, unknown>, where: Where): { terrainMesh: SceneTerrainMesh; terrain: TerrainParams } {
  expectKnownKeys(input, TERRAIN_MESH_FIELDS, where);
  const file = expectString(input.mesh, child(where, 'mesh'), 500);
  const ending = /\.[^./]*$/.exec(file)?.[0].toLowerCase() ?? '';
  if (!(SCENE_MESH_ENDINGS as readonly string[]).includes(ending)) {
    throw new ColliderscopeError(`expected a file ending in ${SCENE_MESH_ENDINGS.join(', ')}, got ${JSON.stringify(file)}`, child(where, 'mesh'));
  }
  if (file.startsWith('/') || file.includes('\\') || file.includes(':') || file.split('/').includes('..')) {
    throw new ColliderscopeError(
      `expected a path relative to the scene file's folder, without "..", got ${JSON.stringify(file)}`,
      child(where, 'mesh'),
    );
  }
  const scale = input.scale === undefined ? 1 : expectNumber(input.scale, child(where, 'scale'), 1e-6, 10000);
  const cells = input.cells === undefined ? 128 : expectNumber(input.cells, child(where, 'cells'), MIN_CELLS, MAX_CELLS, true);
  return { terrainMesh: { file, scale }, terrain: resolveTerrainParams({ cells }) };
}

function parseBvhView(value: unknown, where: Where): SceneBvhView {
  const input = expectObject(value, where);
  expectKnownKeys(input, BVH_VIEW_FIELDS, where);
  const bvh: SceneBvhView = {};
  if (input.boxes !== undefined) bvh.boxes = expectBoolean(input.boxes, child(where, 'boxes'));
  if (input.depth !== undefined) bvh.depth = expectNumber(input.depth, child(where, 'depth'), 1, 32, true);
  if (input.which !== undefined) bvh.which = expectOneOf(input.which, BVH_BOX_SELECTIONS, child(where, 'which'));
  if (input.heatMap !== undefined) bvh.heatMap = expectBoolean(input.heatMap, child(where, 'heatMap'));
  return bvh;
}

function parseSections(value: unknown, where: Where, parsers: ReadonlyMap<string, SectionParser>): SceneSections {
  const object = expectObject(value, where);
  expectKnownKeys(object, [...parsers.keys()], where);
  const sections: Record<string, object> = {};
  for (const [name, parse] of parsers) if (object[name] !== undefined) sections[name] = parse(object[name], child(where, name));
  return sections;
}

/** Parses scene JSON text: syntax errors come back with line and column. */
export function parseSceneText(text: string, file = 'scene', sections: ReadonlyMap<string, SectionParser> = new Map()): SceneDefinition {
  return parseScene(parseJsonText(text, file), file, sections);
}

/** The plain JSON form of a scene, the inverse of parseScene. */
export function sceneToJson(scene: SceneDefinition): Record<string, unknown> {
  return {
    name: scene.name,
    ...(scene.title !== scene.name ? { title: scene.title } : {}),
    description: scene.description,
    seed: scene.seed,
    terrain:
      scene.terrainMesh !== undefined
        ? { mesh: scene.terrainMesh.file, scale: scene.terrainMesh.scale, cells: scene.terrain.cells }
        : {
            ...scene.terrain,
            ...(scene.terrainEdits.length > 0 ? { edits: scene.terrainEdits.map((edit) => ({ ...edit, at: [...edit.at] })) } : {}),
          },
    camera: { position: [...scene.camera.position], target: [...scene.camera.target], fov: scene.camera.fov },
    ...(Object.keys(scene.systems).length > 0 ? { systems: JSON.parse(JSON.stringify(scene.systems)) as Record<string, unknown> } : {}),
    ...(scene.view !== undefined ? { view: JSON.parse(JSON.stringify(scene.view)) as Record<string, unknown> } : {}),
  };
}
