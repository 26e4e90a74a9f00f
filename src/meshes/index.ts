export { loadMesh, MESH_EXTENSIONS } from './loadMesh';
export { parseObj } from './obj';
export { parseStl } from './stl';
export { parseGltf, type GltfOptions, type GltfUriLoader } from './gltf';
export type { DracoGltfDecoder, MeshoptGltfDecoder } from './gltfAccessor';
export { MAX_MESH_TRIANGLES, NO_MATERIAL, type LoadedMesh, type MeshFormat } from './meshBuilder';
export { fileMaterialClass, meshTerrain, type MeshTerrainOptions } from './meshTerrain';
