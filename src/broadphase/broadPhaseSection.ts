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
}

const BROAD_PHASE_FIELDS = ['scene', 'strategy', 'count', 'movingPercent', 'speed'] as const;

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
  return result;
}
