export { generateTerrain, sampleTerrainHeight, type TerrainMesh, type ProgressCallback } from './heightfield';
export { DEFAULT_TERRAIN_PARAMS, MIN_CELLS, MAX_CELLS, TERRAIN_NUMBER_RULES, resolveTerrainParams, type TerrainParams } from './params';
export { TERRAIN_KINDS, type TerrainKind } from './multifractal';
export { createGradientNoise, gradientNoise2D, type GradientNoise2D } from './noise';
export {
  TERRAIN_MATERIAL,
  TERRAIN_MATERIAL_MASKS,
  TERRAIN_MATERIAL_NAMES,
  classifyTerrainMaterials,
  materialFilter,
  terrainMaterialInput,
  type TerrainMaterialName,
} from './materials';
export {
  CRATER_RIM_REACH,
  TERRAIN_EDIT_KINDS,
  applyTerrainEdit,
  editReach,
  undoTerrainEdit,
  validateTerrainEdit,
  type AppliedTerrainEdit,
  type TerrainEdit,
  type TerrainEditKind,
} from './edits';
export { writeHeightfieldNormals } from './normals';
export { loadWasmHeights, wasmHeightsUnavailableReason } from './wasmHeights';
