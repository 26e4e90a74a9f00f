import { ColliderscopeError, parseSceneText, SCENE_MESH_ENDINGS, type SceneDefinition } from '../core';

/**
 * The scene presets shipped in scenes/*.json, bundled as text and validated when loaded (a preset is
 * checked exactly like a file a user drops in).
 */
const presetTexts = import.meta.glob<string>('../../scenes/*.json', { query: '?raw', import: 'default', eager: true });

/** The scenes whose ground is a mesh file of the same folder (scenes/meshes/): presets too, listed after the others. */
const meshPresetTexts = import.meta.glob<string>('../../scenes/meshes/*.json', { query: '?raw', import: 'default', eager: true });

/** The mesh files beside them, as URLs the page fetches when a scene needs one (not bundled into the script). */
const meshFileUrls = import.meta.glob<string>('../../scenes/meshes/*.{obj,stl,gltf,glb}', { query: '?url', import: 'default', eager: true });

/** Each preset's text and its path under scenes/ (its mesh file is named relative to that path's folder). */
const PRESETS = new Map<string, { text: string; path: string }>();
for (const [path, text] of [...Object.entries(presetTexts), ...Object.entries(meshPresetTexts)]) {
  const name = path.replace(/^.*\//, '').replace(/\.json$/, '');
  if (name !== 'index' && name !== 'tour') PRESETS.set(name, { text, path: path.replace(/^\.\.\/\.\.\//, '') });
}

/** Preset names in the order scenes/index.json gives, then any others alphabetically. */
export function presetNames(): string[] {
  const indexText = presetTexts['../../scenes/index.json'];
  const ordered: string[] = indexText === undefined ? [] : (JSON.parse(indexText) as string[]).filter((n) => PRESETS.has(n));
  const rest = [...PRESETS.keys()].filter((n) => !ordered.includes(n)).sort();
  return [...ordered, ...rest];
}

/** The talk's slides: the presets scenes/tour.json names, in its order (all presets when it names none). */
export function tourNames(): string[] {
  const tourText = presetTexts['../../scenes/tour.json'];
  const tour = tourText === undefined ? [] : (JSON.parse(tourText) as string[]).filter((n) => PRESETS.has(n));
  return tour.length > 0 ? tour : presetNames();
}

export function loadPreset(name: string): SceneDefinition {
  const preset = PRESETS.get(name);
  if (preset === undefined) {
    throw new ColliderscopeError(`no scene preset named ${JSON.stringify(name)}; the presets are ${presetNames().join(', ')}`, {
      file: `scenes/${name}.json`,
    });
  }
  return parseSceneText(preset.text, preset.path);
}

/** The largest mesh file the page reads (bigger ones are refused before a byte is read). */
export const PAGE_MAX_MESH_BYTES = 512 * 1024 * 1024;

/** A scene file dropped or chosen on the page: a scene, or a mesh file to open as one (its bytes read). */
export type DroppedFile = { kind: 'scene'; scene: SceneDefinition } | { kind: 'mesh'; name: string; bytes: Uint8Array };

export async function loadSceneFile(file: File): Promise<DroppedFile> {
  if (isMeshFile(file.name)) {
    if (file.size > PAGE_MAX_MESH_BYTES) {
      throw new ColliderscopeError(`${(file.size / 2 ** 20).toFixed(0)} MB; the page reads mesh files up to ${PAGE_MAX_MESH_BYTES / 2 ** 20} MB`, {
        file: file.name,
      });
    }
    return { kind: 'mesh', name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  }
  return { kind: 'scene', scene: parseSceneText(await file.text(), file.name) };
}

/** Whether a file's name ends as a mesh file does (.obj, .stl, .gltf, .glb). */
export function isMeshFile(name: string): boolean {
  return SCENE_MESH_ENDINGS.some((ending) => name.toLowerCase().endsWith(ending));
}

/**
 * The bytes of the mesh a scene's `terrain.mesh` names, relative to the scene's folder: a preset's
 * from scenes/, fetched; a dropped scene file's only when it names one of the bundled meshes
 * (the page cannot read files beside a dropped one).
 */
export async function fetchSceneMesh(scene: SceneDefinition, sceneFile: string): Promise<Uint8Array> {
  const meshFile = scene.terrainMesh!.file;
  const folder = sceneFile.includes('/') ? sceneFile.replace(/[^/]*$/, '') : 'scenes/meshes/';
  const url = meshFileUrls[`../../${folder}${meshFile}`];
  if (url === undefined) {
    throw new ColliderscopeError(
      `the page has no mesh ${JSON.stringify(meshFile)} beside the scene; drop the mesh file itself on the page, or run the scene with npm run scene`,
      { file: sceneFile, field: 'terrain.mesh' },
    );
  }
  const response = await fetch(url);
  if (!response.ok) throw new ColliderscopeError(`could not fetch ${url}: HTTP ${response.status}`, { file: sceneFile, field: 'terrain.mesh' });
  return new Uint8Array(await response.arrayBuffer());
}

/** The path a preset was read from (scenes/NAME.json, scenes/meshes/NAME.json). */
export function presetPath(name: string): string {
  return PRESETS.get(name)?.path ?? `scenes/${name}.json`;
}

const fieldSources = import.meta.glob<string>('../../scenes/fields/*.vf', { query: '?raw', import: 'default', eager: true });

/** A field program of the library by name (`scenes/fields/NAME.vf`), bundled with the page. */
export function readField(name: string): string {
  const source = fieldSources[`../../scenes/fields/${name}.vf`];
  if (source === undefined) throw new ColliderscopeError(`no field program called ${JSON.stringify(name)} in scenes/fields/`, { field: 'program' });
  return source;
}
