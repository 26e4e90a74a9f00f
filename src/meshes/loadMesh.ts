import { meshError, type LoadedMesh } from './meshBuilder';
import { parseGltf, type GltfOptions } from './gltf';
import { isGlb } from './glb';
import { parseObj } from './obj';
import { parseStl } from './stl';

/** The file endings loadMesh reads. */
export const MESH_EXTENSIONS = ['.obj', '.stl', '.gltf', '.glb'] as const;

/**
 * Reads a mesh file by its name's ending (.obj, .stl, .gltf, .glb); a GLB is recognised by its magic
 * whatever its name. Throws a ColliderscopeError naming the file and where in it; never returns a mesh
 * with a non-finite vertex, an index out of range or no triangle.
 */
export function loadMesh(file: string, data: Uint8Array, options: GltfOptions = {}): LoadedMesh {
  const ending = /\.[^./\\]*$/.exec(file)?.[0].toLowerCase() ?? '';
  if (isGlb(data) || ending === '.glb' || ending === '.gltf') return parseGltf(data, file, options);
  if (ending === '.stl') return parseStl(data, file);
  if (ending === '.obj') return parseObj(new TextDecoder().decode(data), file);
  throw meshError(file, `unknown mesh file type ${JSON.stringify(ending)}; expected one of ${MESH_EXTENSIONS.join(', ')}`);
}
