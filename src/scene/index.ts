export { parseScene, parseSceneText, sceneToJson, defaultCamera, SCENE_FIELDS, type SceneDefinition, type SceneCamera } from './scene';
export { parseJsonText } from './validate';
export { SCENE_SYSTEM_NAMES, describesSystems, type SceneSystems, type SceneBroadPhase, type SceneParticles, type SceneActors } from './sceneSystems';
