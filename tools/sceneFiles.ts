import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ColliderscopeError, loadMesh, parseSceneText, type LoadedMesh, type SceneDefinition } from '../src/core';
import { meshoptGltfOptions } from '../src/adapters/three/meshoptDecoder';
import { nodeDracoGltfOptions } from './dracoFiles';

/** The project's scenes folder: presets, their index and the field programs. */
export const SCENES_DIR = fileURLToPath(new URL('../scenes/', import.meta.url));

/** A field program of the library by name, as the page's bundle holds it (`scenes/fields/NAME.vf`). */
export function readField(name: string): string {
  const path = `${SCENES_DIR}fields/${name}.vf`;
  if (!/^[A-Za-z0-9_-]+$/.test(name) || !existsSync(path)) {
    throw new ColliderscopeError(`no field program called ${JSON.stringify(name)} in scenes/fields/`, { field: 'program' });
  }
  return readFileSync(path, 'utf8');
}

/** Reads and validates a scene file; errors name the file, the field and what was expected. */
export function loadSceneFile(path: string): SceneDefinition {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ColliderscopeError(`cannot read the scene file: ${(error as Error).message}`, { file: path });
  }
  return parseSceneText(text, path);
}

/** The presets in the order of `scenes/index.json`. */
export function presetNames(): string[] {
  return JSON.parse(readFileSync(`${SCENES_DIR}index.json`, 'utf8')) as string[];
}

/** The meshopt and Draco decoders three ships, ready before any file is read (compressed glTF files decode). */
const decoders = { ...(await meshoptGltfOptions()), ...(await nodeDracoGltfOptions()) };

/**
 * Reads a mesh file (.obj, .stl, .gltf, .glb) into flat positions and indices; a .gltf's external buffers
 * are read from beside it. Errors name the file and the line, byte offset or JSON path.
 */
export function loadMeshFile(path: string): LoadedMesh {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ColliderscopeError(`cannot read the mesh file: ${(error as Error).message}`, { file: path });
  }
  const directory = dirname(path);
  return loadMesh(path, bytes, { ...decoders, loadUri: (uri) => readFileSync(resolve(directory, uri)) });
}
