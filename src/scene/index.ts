export {
  parseScene as parseOuterScene,
  sceneToJson,
  defaultCamera,
  describesSystems,
  SCENE_FIELDS,
  type SceneDefinition,
  type SceneCamera,
  type SceneSections,
  type SectionParser,
} from './scene';
export { parseJsonText } from './validate';
