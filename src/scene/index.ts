export { parseScene, parseSceneText, sceneToJson, defaultCamera, SCENE_FIELDS, type SceneDefinition, type SceneCamera } from './scene';
export { parseJsonText } from './validate';
