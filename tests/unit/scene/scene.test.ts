import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ColliderscopeError, DEFAULT_TERRAIN_PARAMS, parseScene, parseSceneText, sceneToJson } from '../../../src/core';

const SCENES_DIR = new URL('../../../scenes/', import.meta.url);

describe('scene files', () => {
  const files = readdirSync(SCENES_DIR).filter((f) => f.endsWith('.json') && f !== 'index.json' && f !== 'tour.json');

  it.each(files)('scenes/%s is valid', (file) => {
    const scene = parseSceneText(readFileSync(new URL(file, SCENES_DIR), 'utf8'), `scenes/${file}`);
    expect(scene.name).toBe(file.replace(/\.json$/, ''));
  });

  it('scenes/tour.json names presets, each with a title and a subtitle that fits a slide', () => {
    const tour = JSON.parse(readFileSync(new URL('tour.json', SCENES_DIR), 'utf8')) as string[];
    expect(new Set(tour).size).toBe(tour.length);
    for (const name of tour) {
      expect(files).toContain(`${name}.json`);
      const scene = parseSceneText(readFileSync(new URL(`${name}.json`, SCENES_DIR), 'utf8'), `scenes/${name}.json`);
      expect(scene.title, name).not.toBe(scene.name);
      expect(scene.description.length, name).toBeGreaterThan(20);
      expect(scene.description.length, name).toBeLessThanOrEqual(140);
    }
  });

  it('scenes/index.json lists every preset once', () => {
    const index = JSON.parse(readFileSync(new URL('index.json', SCENES_DIR), 'utf8')) as string[];
    expect([...index].sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')).sort());
  });
});

describe('parseScene', () => {
  it('fills defaults for an empty scene', () => {
    const scene = parseScene({}, 'empty.json');
    expect(scene.terrain).toEqual(DEFAULT_TERRAIN_PARAMS);
    expect(scene.name).toBe('empty');
    expect(scene.camera.fov).toBe(50);
  });

  it('reads the systems a scene runs, and leaves them out when it names none', () => {
    const scene = parseScene({
      systems: {
        broadphase: { strategy: 'sap', count: 1024 },
        particles: { particles: 5000, budget: 2.5, mode: 'reference', cellLookups: false, footprints: false },
        actors: { count: 10, center: [4, -2], mix: { box: 1 } },
      },
    });
    expect(scene.systems).toEqual({
      broadphase: { strategy: 'sap', count: 1024 },
      particles: { particles: 5000, budget: 2.5, mode: 'reference', cellLookups: false, footprints: false },
      actors: { count: 10, center: [4, -2], mix: { sphere: 0, box: 1, capsule: 0 } },
    });
    expect(parseScene({}).systems).toEqual({});
    expect(parseScene(sceneToJson(scene))).toEqual(scene);
  });

  it('carries a page hint, the terrain colouring, checked and round-tripped; absent when not given', () => {
    const scene = parseScene({ view: { colouring: 'material' } }, 'masks.json');
    expect(scene.view).toEqual({ colouring: 'material' });
    expect(parseScene(sceneToJson(scene))).toEqual(scene);
    expect(parseScene({}).view).toBeUndefined();
    expect(sceneToJson(parseScene({}))).not.toHaveProperty('view');
    expect(() => parseScene({ view: { colouring: 'mauve' } }, 'masks.json')).toThrow(/view\.colouring/);
    expect(() => parseScene({ view: { fog: true } }, 'masks.json')).toThrow(/unknown field "fog"/);
  });

  it('round-trips through its JSON form', () => {
    const scene = parseScene({
      name: 'x',
      seed: 5,
      terrain: { cells: 64, kind: 'fbm' },
      camera: { position: [1, 2, 3], target: [0, 0, 0], fov: 60 },
    });
    expect(parseScene(sceneToJson(scene))).toEqual(scene);
  });

  const broken: [string, string, RegExp][] = [
    ['a syntax error', '{ "terrain": { "cells": 64, } }', /broken\.json:1:\d+: not valid JSON/],
    ['a syntax error on a later line', '{\n  "name": "x",\n  "seed": 1\n  "terrain": {}\n}', /broken\.json:4:\d+: not valid JSON/],
    [
      'an unknown top-level field',
      '{ "terain": {} }',
      /broken\.json: terain: unknown field "terain"; expected one of name, title, description, seed, terrain, camera, systems/,
    ],
    ['an unknown terrain field', '{ "terrain": { "octave": 3 } }', /terrain\.octave: expected one of the terrain parameters/],
    ['an out-of-range value', '{ "terrain": { "cells": 5 } }', /broken\.json: terrain\.cells: expected an integer in \[16, 2048\], got 5/],
    ['a wrong type', '{ "terrain": { "octaves": "many" } }', /terrain\.octaves: expected a number in \[1, 16\], got "many"/],
    ['a bad camera vector', '{ "camera": { "position": [1, 2] } }', /camera\.position: expected an array of 3 finite numbers/],
    ['a camera looking at itself', '{ "camera": { "position": [1, 2, 3], "target": [1, 2, 3] } }', /camera: camera position and target must differ/],
    ['a non-object', '[1, 2, 3]', /expected an object, got an array of 3/],
    ['a terrain that is not an object', '{ "terrain": 4 }', /terrain: expected an object/],
    ['a negative seed', '{ "seed": -4 }', /seed: expected an integer in \[0, 4294967295\]/],
    [
      'an unknown system',
      '{ "systems": { "cloth": {} } }',
      /systems\.cloth: unknown field "cloth"; expected one of wind, broadphase, actors, particles/,
    ],
    [
      'an unknown broad-phase strategy',
      '{ "systems": { "broadphase": { "strategy": "octree" } } }',
      /systems\.broadphase\.strategy: expected one of "brute-force", "sap", .*got "octree"/,
    ],
    ['too many boxes', '{ "systems": { "broadphase": { "count": 1e7 } } }', /systems\.broadphase\.count: expected an integer in \[1, 262144\]/],
    ['a misspelt particle field', '{ "systems": { "particles": { "budjet": 10 } } }', /systems\.particles\.budjet: unknown field/],
    [
      'a particle mode that does not exist',
      '{ "systems": { "particles": { "mode": "always" } } }',
      /systems\.particles\.mode: expected one of "budget", "reference"/,
    ],
    [
      'a flag that is not a boolean',
      '{ "systems": { "particles": { "cellLookups": "yes" } } }',
      /systems\.particles\.cellLookups: expected true or false/,
    ],
    [
      'a footprints flag that is not a boolean',
      '{ "systems": { "particles": { "footprints": 1 } } }',
      /systems\.particles\.footprints: expected true or false/,
    ],
    [
      'an actor pile centre of three numbers',
      '{ "systems": { "actors": { "center": [1, 2, 3] } } }',
      /systems\.actors\.center: expected an array of 2 finite numbers/,
    ],
    ['an actor mix with no shape', '{ "systems": { "actors": { "mix": { "sphere": 0 } } } }', /systems\.actors\.mix: expected at least one shape/],
  ];
  it.each(broken)('rejects %s with the file, the field and what was expected', (_, text, message) => {
    expect(() => parseSceneText(text, 'broken.json')).toThrow(ColliderscopeError);
    expect(() => parseSceneText(text, 'broken.json')).toThrow(message);
  });
});
