import { beforeAll, describe, expect, it } from 'vitest';
import {
  createHeadlessSandbox,
  loadSimdBoxTriangles,
  loadSimdCapsules,
  loadSimdParticles,
  loadSimdRays,
  parseScene,
  runFixedSteps,
  sceneToJson,
  type SceneDefinition,
} from '../../../src/core';
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
  'particle-storm': '91edc2bfb2adf5d9',
  'box-crowd': 'f69f321340b2bda5',
  gusts: '53011ab8b7b56bef',
  'ray-lab': '302c102e0b67d181',
};

beforeAll(async () => {
  // As the runner and the page: the WebAssembly SIMD kernels where they load.
  await Promise.all([loadSimdRays(), loadSimdParticles(), loadSimdCapsules(), loadSimdBoxTriangles()]);
});

describe('golden determinism hashes', () => {
  it('has a golden hash for every preset, and every preset names a system or is a terrain-only slide', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual(presetNames().sort());
  });

  it.each(presetNames())('%s reaches its golden hash after 12 fixed steps', (name) => {
    const scene = loadSceneFile(`${SCENES_DIR}${name}.json`);
    const hash = runFixedSteps(createHeadlessSandbox(scene, { readField }), FRAMES);
    expect({ name, hash }).toEqual({ name, hash: GOLDEN[name] });
  });
});

describe('determinism', () => {
  const gusts = (): SceneDefinition => loadSceneFile(`${SCENES_DIR}gusts.json`);

  it('the same scene twice gives the same hash; one step more or another seed does not', () => {
    const first = runFixedSteps(createHeadlessSandbox(gusts(), { readField }), 6);
    expect(runFixedSteps(createHeadlessSandbox(gusts(), { readField }), 6)).toBe(first);
    expect(runFixedSteps(createHeadlessSandbox(gusts(), { readField }), 7)).not.toBe(first);
    const reseeded = parseScene({ ...sceneToJson(gusts()), seed: 4243 }, 'gusts.json');
    expect(runFixedSteps(createHeadlessSandbox(reseeded, { readField }), 6)).not.toBe(first);
  });
});
