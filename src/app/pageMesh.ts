import { loadMesh, type GltfOptions, type LoadedMesh } from '../core';

/** The most triangles a mesh file may have on the page (the core allows more; a tab's memory does not). */
export const PAGE_MAX_MESH_TRIANGLES = 4_000_000;

/**
 * Reads a mesh file the page was given (dropped, chosen or fetched) as the core's loadMesh does, with the
 * page's two extra limits: at most `maxTriangles` triangles, and no glTF buffer in a file beside it (the
 * page has only the one file). Throws a message naming the file.
 */
export function readPageMesh(
  name: string,
  bytes: Uint8Array,
  maxTriangles = PAGE_MAX_MESH_TRIANGLES,
  decoders: Pick<GltfOptions, 'meshopt' | 'draco'> = {},
): LoadedMesh {
  const mesh = loadMesh(name, bytes, { ...decoders, loadUri: refuseSeparateBuffer });
  if (mesh.triangleCount > maxTriangles) {
    throw new Error(
      `${name}: ${mesh.triangleCount.toLocaleString('en')} triangles; the page takes at most ${maxTriangles.toLocaleString('en')} (npm run scene runs bigger meshes headless)`,
    );
  }
  return mesh;
}

function refuseSeparateBuffer(): never {
  throw new Error('the page reads only the file it was given; export the model as .glb (or with its buffers as data: URIs)');
}
