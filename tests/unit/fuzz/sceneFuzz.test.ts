import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ColliderscopeError } from '../../../src/errors';
import { jsonErrorOffset } from '../../../src/scene/validate';
import { parseSceneText } from '../../../src/systems';
import {
  checkFieldText,
  checkSceneText,
  describeFieldCase,
  describeSceneCase,
  fieldCaseArbitrary,
  fieldSources,
  presetSources,
  runFieldCase,
  runSceneCase,
  sceneCaseArbitrary,
} from '../../fuzz/sceneMutations';

const SCENE_SEED = 2105;
const JSON_SEED = 2107;
const FIELD_SEED = 2106;
const scenes = presetSources();
const fields = fieldSources();

describe('scene files and field programs fuzzed', () => {
  it('every preset and every program is accepted as it is', () => {
    for (const { file, text } of scenes) expect(checkSceneText(text, file), file).toBe('accepted');
    for (const { file, text } of fields) expect(checkFieldText(text, file), file).toBe('accepted');
  });

  it(`mutated presets are refused with a located error or accepted and run (seed ${SCENE_SEED})`, () => {
    fc.assert(
      fc.property(sceneCaseArbitrary, (test) => {
        try {
          runSceneCase(scenes, test);
        } catch (error) {
          throw new Error(`${describeSceneCase(scenes, test)}\n${String(error)}`, { cause: error });
        }
      }),
      { seed: SCENE_SEED, numRuns: 80 },
    );
  });

  it(`programs with random token edits are refused at a line and column or compile and run (seed ${FIELD_SEED})`, () => {
    fc.assert(
      fc.property(fieldCaseArbitrary, (test) => {
        try {
          runFieldCase(fields, test);
        } catch (error) {
          throw new Error(`${describeFieldCase(fields, test)}\n${String(error)}`, { cause: error });
        }
      }),
      { seed: FIELD_SEED, numRuns: 200 },
    );
  });

  it('refuses an empty or truncated scene at its end, with a line and column (found by the fuzzer)', () => {
    for (const [text, line, column] of [
      ['', 1, 1],
      ['{\n "seed": ', 2, 10],
      ['{ "terrain": { "cells": 32 }', 1, 29],
      ['{ "seed": x }', 1, 11],
    ] as const) {
      let error: unknown;
      try {
        parseSceneText(text, 'cut.json');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ColliderscopeError);
      expect((error as ColliderscopeError).location).toEqual({ file: 'cut.json', line, column });
    }
  });

  it(`the JSON error scanner agrees with JSON.parse on validity and on every position V8 reports (seed ${JSON_SEED})`, () => {
    const jsonish = fc.string({ unit: fc.constantFrom(...'{}[],:"0123456789.-+eE truefalsn\\u\n'.split('')), maxLength: 24 });
    fc.assert(
      fc.property(
        fc.oneof(
          jsonish,
          fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1))),
        ),
        (text) => {
          let reported: number | null = null;
          let valid = true;
          try {
            JSON.parse(text);
          } catch (error) {
            valid = false;
            const position = /position (\d+)/.exec((error as Error).message);
            if (position !== null) reported = Number(position[1]);
          }
          const offset = jsonErrorOffset(text);
          expect(offset === -1).toBe(valid);
          if (reported !== null) expect(offset).toBe(reported);
        },
      ),
      { seed: JSON_SEED, numRuns: 500 },
    );
  });
});
