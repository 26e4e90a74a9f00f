export { loadMesh, MESH_EXTENSIONS } from './loadMesh';
export { parseObj } from './obj';
export { parseStl } from './stl';
export { parseGltf, type GltfOptions, type GltfUriLoader } from './gltf';
export { MAX_MESH_TRIANGLES, type LoadedMesh, type MeshFormat } from './meshBuilder';
export { meshTerrain, type MeshTerrainOptions } from './meshTerrain';
