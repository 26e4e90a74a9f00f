import { InvalidParameterError } from '../errors';
import { TERRAIN_EDIT_KINDS, validateTerrainEdit, type TerrainEdit } from '../terrain/edits';
import type { TerrainParams } from '../terrain/params';
import { child, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from './validate';

const EDIT_FIELDS = ['frame', 'kind', 'at', 'radius', 'amount'] as const;
/** More edits than a long sculpting session makes: a guard against a runaway file, not a design limit. */
export const MAX_TERRAIN_EDITS = 100_000;

/**
 * A scene's `terrain.edits`: craters and sculpt strokes, each `{ frame, kind, at: [x, z], radius, amount }`
 * (frame left out: 0), checked against the scene's terrain so a crater that misses it is an error
 * naming the edit.
 */
export function parseTerrainEdits(value: unknown, where: Where, terrain: TerrainParams): TerrainEdit[] {
  if (!Array.isArray(value) || value.length > MAX_TERRAIN_EDITS) {
    throw new InvalidParameterError(where.field, `an array of at most ${MAX_TERRAIN_EDITS} edits`, value, where.file);
  }
  return value.map((entry: unknown, i) => {
    const at = child(where, i);
    const input = expectObject(entry, at);
    expectKnownKeys(input, EDIT_FIELDS, at);
    const centre = input.at;
    if (!Array.isArray(centre) || centre.length !== 2) {
      throw new InvalidParameterError(child(at, 'at').field, 'an array of 2 finite numbers [x, z]', centre, where.file);
    }
    const edit: TerrainEdit = {
      frame: input.frame === undefined ? 0 : expectNumber(input.frame, child(at, 'frame'), 0, 2 ** 31, true),
      kind: expectOneOf(input.kind, TERRAIN_EDIT_KINDS, child(at, 'kind')),
      at: [expectNumber(centre[0], child(child(at, 'at'), 0)), expectNumber(centre[1], child(child(at, 'at'), 1))],
      radius: expectNumber(input.radius, child(at, 'radius')),
      amount: expectNumber(input.amount, child(at, 'amount')),
    };
    validateTerrainEdit(edit, terrain, at.field, where.file);
    return edit;
  });
}
