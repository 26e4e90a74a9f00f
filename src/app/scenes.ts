import { ColliderscopeError, parseSceneText, SCENE_MESH_ENDINGS, type SceneDefinition } from '../core';

/**
 * The scene presets shipped in scenes/*.json, bundled as text and validated when loaded (a preset is
 * checked exactly like a file a user drops in).
 */
const presetTexts = import.meta.glob<string>('../../scenes/*.json', { query: '?raw', import: 'default', eager: true });

const PRESETS = new Map<string, string>();
for (const [path, text] of Object.entries(presetTexts)) {
  const name = path.replace(/^.*\//, '').replace(/\.json$/, '');
  if (name !== 'index' && name !== 'tour') PRESETS.set(name, text);
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
  const text = PRESETS.get(name);
  if (text === undefined) {
    throw new ColliderscopeError(`no scene preset named ${JSON.stringify(name)}; the presets are ${presetNames().join(', ')}`, {
      file: `scenes/${name}.json`,
    });
  }
  return onPage(parseSceneText(text, `scenes/${name}.json`), `scenes/${name}.json`);
}

export async function loadSceneFile(file: File): Promise<SceneDefinition> {
  if (SCENE_MESH_ENDINGS.some((ending) => file.name.toLowerCase().endsWith(ending))) {
    throw new ColliderscopeError(
      'mesh files are not loaded on the page yet: name it in a scene\'s "terrain": {"mesh": …} and run it with npm run scene, or inspect it with npm run mesh',
      { file: file.name },
    );
  }
  const text = await file.text();
  return onPage(parseSceneText(text, file.name), file.name);
}

/** The page builds generated terrains only; a scene whose ground is a mesh file runs in the headless runner. */
function onPage(scene: SceneDefinition, file: string): SceneDefinition {
  if (scene.terrainMesh !== undefined) {
    throw new ColliderscopeError(
      `the terrain is the mesh ${JSON.stringify(scene.terrainMesh.file)}: mesh terrains run in npm run scene, not on the page yet`,
      {
        file,
        field: 'terrain.mesh',
      },
    );
  }
  return scene;
}

const fieldSources = import.meta.glob<string>('../../scenes/fields/*.vf', { query: '?raw', import: 'default', eager: true });

/** A field program of the library by name (`scenes/fields/NAME.vf`), bundled with the page. */
export function readField(name: string): string {
  const source = fieldSources[`../../scenes/fields/${name}.vf`];
  if (source === undefined) throw new ColliderscopeError(`no field program called ${JSON.stringify(name)} in scenes/fields/`, { field: 'program' });
  return source;
}
