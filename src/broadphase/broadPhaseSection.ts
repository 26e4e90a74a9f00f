import { MASK_ALL } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import { BROAD_PHASE_NAMES, type BroadPhaseName } from './createBroadPhase';
import { child, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from '../scene/validate';

export const BROAD_PHASE_SCENES = ['orbits', 'ground'] as const;
export type BroadPhaseSceneName = (typeof BROAD_PHASE_SCENES)[number];

/** The broad-phase's section of a scene file (`systems.broadphase`); fields left out take the defaults. */
export interface SceneBroadPhase {
  scene?: BroadPhaseSceneName;
  strategy?: BroadPhaseName;
  count?: number;
  movingPercent?: number;
  speed?: number;
  /**
   * Collision categories: with n > 1, box i has category bit i mod n and the filter filters[i mod n]
   * (MASK_ALL where left out), and a pair is reported only when each box's category passes the other's
   * filter. 1 (the default): every box in every category, every pair reported.
   */
  categories?: number;
  filters?: number[];
}

export const MAX_CATEGORIES = 32;

const BROAD_PHASE_FIELDS = ['scene', 'strategy', 'count', 'movingPercent', 'speed', 'categories', 'filters'] as const;

/** Validates the broad-phase's section: every field typed and in range, unknown fields are errors. */
export function parseBroadPhase(value: unknown, where: Where): SceneBroadPhase {
  const input = expectObject(value, where);
  expectKnownKeys(input, BROAD_PHASE_FIELDS, where);
  const result: SceneBroadPhase = {};
  if (input.scene !== undefined) result.scene = expectOneOf(input.scene, BROAD_PHASE_SCENES, child(where, 'scene'));
  if (input.strategy !== undefined) result.strategy = expectOneOf(input.strategy, BROAD_PHASE_NAMES, child(where, 'strategy'));
  if (input.count !== undefined) result.count = expectNumber(input.count, child(where, 'count'), 1, 262_144, true);
  if (input.movingPercent !== undefined) result.movingPercent = expectNumber(input.movingPercent, child(where, 'movingPercent'), 0, 100);
  if (input.speed !== undefined) result.speed = expectNumber(input.speed, child(where, 'speed'), 0, 10);
  if (input.categories !== undefined) result.categories = expectNumber(input.categories, child(where, 'categories'), 1, MAX_CATEGORIES, true);
  if (input.filters !== undefined) {
    const at = child(where, 'filters');
    if (!Array.isArray(input.filters) || input.filters.length > MAX_CATEGORIES)
      throw new InvalidParameterError(at.field, `an array of at most ${MAX_CATEGORIES} 32-bit filters`, input.filters, at.file);
    result.filters = input.filters.map((filter: unknown, i) => expectNumber(filter, child(at, i), 0, MASK_ALL, true));
  }
  return result;
}
