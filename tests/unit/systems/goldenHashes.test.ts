import { beforeAll, describe, expect, it } from 'vitest';
import { createHeadlessSandbox, currentScene, parseScene, runFixedSteps, sceneToJson, type SceneDefinition, loadAllKernels } from '../../../src/core';
import { loadSceneFile, presetNames, readField, SCENES_DIR } from '../../../tools/sceneFiles';

/** Fixed 1/60 s steps each preset runs before its state is hashed. */
const FRAMES = 12;

/**
 * The state of every preset after FRAMES fixed steps, as `npm run scene -- scenes/NAME.json --frames 12
 * --hash` prints it. A change here means the simulation computes something else: if that is meant (a
 * new integrator, a fix), update the hash in the same commit and say why.
 */
const GOLDEN: Record<string, string> = {
  default: 'b8064a725b6c5104',
  'rolling-hills': '9b9ee82e4cde4f41',
  'alpine-512': '1930872fdf95a724',
  'mesa-1024': '08bb3f41797f47b4',
  'particle-storm': '67039077ef452434',
  'box-crowd': 'ccb217597679277a',
  gusts: '7cc1a017ee9c93b0',
  'capsule-sweeps': 'f73f13ef21e07541',
  'box-probe': '8b6b1f0f48a24cc7',
  'ray-lab': '302c102e0b67d181',
  masks: '903639542fcac29d',
  'bvh-heatmap': 'b8064a725b6c5104',
  'crack-explorer': '99e1c54099e999df',
  'sorting-batching': 'a5e2341b20a244e0',
  'simd-vs-typescript': 'a5e2341b20a244e0',
  'ours-vs-three-mesh-bvh': 'c863378a386fb113',
  'broad-phases': '71474cf038bfb172',
  'wind-vm': 'b375f465e79de103',
  actors: '35d5ffeffc437829',
  craters: '30ac6bac004d9357',
};

beforeAll(async () => {
  // As the runner and the page: the WebAssembly SIMD kernels where they load.
  await loadAllKernels();
});

describe('golden determinism hashes', () => {
  it('has a golden hash for every preset, and every preset names a system or is a terrain-only slide', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual(presetNames().sort());
  });

  // The heaviest presets trace hundreds of thousands of rays: a ceiling that a busy machine never reaches.
  it.each(presetNames())(
    '%s reaches its golden hash after 12 fixed steps',
    (name) => {
      const scene = loadSceneFile(`${SCENES_DIR}${name}.json`);
      const hash = runFixedSteps(createHeadlessSandbox(scene, { readField }), FRAMES);
      expect({ name, hash }).toEqual({ name, hash: GOLDEN[name] });
    },
    300_000,
  );
});

/**
 * The 12-step hashes end before any pile lands: this one pins the actors' contacts and solver, after
 * the pile of scenes/actors.json has landed and tumbled (240 steps). Same rule: a change here means the
 * simulation computes something else.
 */
const ACTORS_LANDED_FRAMES = 240;
const ACTORS_LANDED_GOLDEN = '85c782b0968e2db8';

describe('golden determinism hash of a landed pile', () => {
  it(`actors reaches its golden hash after ${ACTORS_LANDED_FRAMES} fixed steps`, () => {
    const sandbox = createHeadlessSandbox(loadSceneFile(`${SCENES_DIR}actors.json`), { readField });
    expect(runFixedSteps(sandbox, ACTORS_LANDED_FRAMES)).toBe(ACTORS_LANDED_GOLDEN);
  });
});

describe('determinism', () => {
  const gusts = (): SceneDefinition => loadSceneFile(`${SCENES_DIR}gusts.json`);

  it.each(['gusts', 'box-crowd'])('%s saved as a scene file (currentScene) and loaded again runs the same frames', (name) => {
    const original = createHeadlessSandbox(loadSceneFile(`${SCENES_DIR}${name}.json`), { readField });
    const saved = JSON.parse(JSON.stringify(currentScene(original, original.scene.camera))) as unknown;
    const reloaded = createHeadlessSandbox(parseScene(saved, `${name}-saved.json`), { readField });
    expect(reloaded.systems.map((s) => s.name)).toEqual(original.systems.map((s) => s.name));
    expect(runFixedSteps(reloaded, 6)).toBe(runFixedSteps(original, 6));
  });

  it('the same scene twice gives the same hash; one step more or another seed does not', () => {
    const first = runFixedSteps(createHeadlessSandbox(gusts(), { readField }), 6);
    expect(runFixedSteps(createHeadlessSandbox(gusts(), { readField }), 6)).toBe(first);
    expect(runFixedSteps(createHeadlessSandbox(gusts(), { readField }), 7)).not.toBe(first);
    const reseeded = parseScene({ ...sceneToJson(gusts()), seed: 4243 }, 'gusts.json');
    expect(runFixedSteps(createHeadlessSandbox(reseeded, { readField }), 6)).not.toBe(first);
  });
});
