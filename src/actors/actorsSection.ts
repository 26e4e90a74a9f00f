import { MASK_ALL } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, type Where } from '../scene/validate';

/** The actors' section of a scene file (`systems.actors`); fields left out take the defaults. */
export interface SceneActors {
  count?: number;
  /** Centre of the pile's footprint, x and z. */
  center?: [number, number];
  size?: number;
  density?: number;
  mix?: { sphere: number; box: number; capsule: number };
  restitution?: number;
  friction?: number;
  /** Whether the world's wind blows the actors. */
  wind?: boolean;
  /** Collision filter of the terrain contacts: only triangles whose material mask shares a bit with it
   *  are touched (all by default; e.g. every material but water, and the actors sink into the lakes). */
  filter?: number;
}

const ACTOR_FIELDS = ['count', 'center', 'size', 'density', 'mix', 'restitution', 'friction', 'wind', 'filter'] as const;
const MIX_FIELDS = ['sphere', 'box', 'capsule'] as const;

/** Validates the actors' section: every field typed and in range, unknown fields are errors. */
export function parseActors(value: unknown, where: Where): SceneActors {
  const input = expectObject(value, where);
  expectKnownKeys(input, ACTOR_FIELDS, where);
  const result: SceneActors = {};
  if (input.count !== undefined) result.count = expectNumber(input.count, child(where, 'count'), 0, 10_000, true);
  if (input.center !== undefined) {
    const at = child(where, 'center');
    if (!Array.isArray(input.center) || input.center.length !== 2)
      throw new InvalidParameterError(at.field, 'an array of 2 finite numbers [x, z]', input.center, at.file);
    result.center = [expectNumber(input.center[0], child(at, 0)), expectNumber(input.center[1], child(at, 1))];
  }
  if (input.size !== undefined) result.size = expectNumber(input.size, child(where, 'size'), 0.05, 20);
  if (input.density !== undefined) result.density = expectNumber(input.density, child(where, 'density'), 0.1, 20_000);
  if (input.mix !== undefined) {
    const at = child(where, 'mix');
    const mix = expectObject(input.mix, at);
    expectKnownKeys(mix, MIX_FIELDS, at);
    const weight = (key: (typeof MIX_FIELDS)[number]): number => (mix[key] === undefined ? 0 : expectNumber(mix[key], child(at, key), 0, 1000));
    result.mix = { sphere: weight('sphere'), box: weight('box'), capsule: weight('capsule') };
    if (result.mix.sphere + result.mix.box + result.mix.capsule === 0)
      throw new InvalidParameterError(at.field, 'at least one shape with a weight above 0', mix, at.file);
  }
  if (input.restitution !== undefined) result.restitution = expectNumber(input.restitution, child(where, 'restitution'), 0, 1);
  if (input.friction !== undefined) result.friction = expectNumber(input.friction, child(where, 'friction'), 0, 2);
  if (input.wind !== undefined) result.wind = expectBoolean(input.wind, child(where, 'wind'));
  if (input.filter !== undefined) result.filter = expectNumber(input.filter, child(where, 'filter'), 0, MASK_ALL, true);
  return result;
}
