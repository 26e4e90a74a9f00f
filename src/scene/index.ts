export {
  parseScene as parseOuterScene,
  sceneToJson,
  defaultCamera,
  describesSystems,
  SCENE_FIELDS,
  TERRAIN_COLOURINGS,
  type TerrainColouring,
  type SceneView,
  type SceneDefinition,
  type SceneCamera,
  type SceneSections,
  type SectionParser,
} from './scene';
export { parseJsonText } from './validate';
