export {
  parseScene as parseOuterScene,
  sceneToJson,
  defaultCamera,
  SCENE_FIELDS,
  TERRAIN_COLOURINGS,
  type TerrainColouring,
  type SceneView,
  type SceneBvhView,
  BVH_BOX_SELECTIONS,
  type BvhBoxSelection,
  type SceneDefinition,
  type SceneCamera,
  type SceneSections,
  type SectionParser,
  SCENE_MESH_ENDINGS,
  type SceneTerrainMesh,
} from './scene';
export { parseJsonText } from './validate';
