import { BROAD_PHASE_NAMES, type BroadPhaseName } from '../broadphase/createBroadPhase';
import { CACHE_KEYINGS, type CacheKeying } from '../particles/cacheKey';
import { PARTICLE_MODES, type ParticleMode } from '../particles/particleSystem';
import { RAY_PICKS, type RayPick } from '../particles/raycastPlanes';
import { BROAD_PHASE_SCENES, type BroadPhaseSceneName } from '../sim/broadPhaseSystem';
import { InvalidParameterError } from '../errors';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from './validate';

/**
 * The systems a scene runs beside its terrain, as written in the file's `systems` section. Each one is
 * present only when the file asks for it; fields left out take the system's defaults.
 */
export interface SceneSystems {
  broadphase?: SceneBroadPhase;
  particles?: SceneParticles;
  actors?: SceneActors;
}

export interface SceneBroadPhase {
  scene?: BroadPhaseSceneName;
  strategy?: BroadPhaseName;
  count?: number;
  movingPercent?: number;
  speed?: number;
}

export interface SceneParticles {
  /** Showcase size: particles alive for all effects together, and raycasts per frame shared by them. */
  particles?: number;
  budget?: number;
  mode?: ParticleMode;
  keying?: CacheKeying;
  pick?: RayPick;
  gravity?: number;
  cellLookups?: boolean;
  footprints?: boolean;
}

export interface SceneActors {
  count?: number;
  /** Centre of the pile's footprint, x and z. */
  center?: [number, number];
  size?: number;
  density?: number;
  mix?: { sphere: number; box: number; capsule: number };
}

export const SCENE_SYSTEM_NAMES = ['broadphase', 'particles', 'actors'] as const;

/**
 * Whether a scene describes its systems: one that names any system describes them all (the others are
 * off); one that names none leaves whatever is running as it is.
 */
export function describesSystems(systems: SceneSystems): boolean {
  return systems.broadphase !== undefined || systems.particles !== undefined || systems.actors !== undefined;
}
const BROAD_PHASE_FIELDS = ['scene', 'strategy', 'count', 'movingPercent', 'speed'] as const;
const PARTICLE_FIELDS = ['particles', 'budget', 'mode', 'keying', 'pick', 'gravity', 'cellLookups', 'footprints'] as const;
const ACTOR_FIELDS = ['count', 'center', 'size', 'density', 'mix'] as const;
const MIX_FIELDS = ['sphere', 'box', 'capsule'] as const;

/** Validates a scene's `systems` section: every field typed and in range, unknown fields are errors. */
export function parseSceneSystems(value: unknown, where: Where): SceneSystems {
  const object = expectObject(value, where);
  expectKnownKeys(object, SCENE_SYSTEM_NAMES, where);
  const systems: SceneSystems = {};
  if (object.broadphase !== undefined) systems.broadphase = parseBroadPhase(object.broadphase, child(where, 'broadphase'));
  if (object.particles !== undefined) systems.particles = parseParticles(object.particles, child(where, 'particles'));
  if (object.actors !== undefined) systems.actors = parseActors(object.actors, child(where, 'actors'));
  return systems;
}

function parseBroadPhase(value: unknown, where: Where): SceneBroadPhase {
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

function parseParticles(value: unknown, where: Where): SceneParticles {
  const input = expectObject(value, where);
  expectKnownKeys(input, PARTICLE_FIELDS, where);
  const result: SceneParticles = {};
  if (input.particles !== undefined) result.particles = expectNumber(input.particles, child(where, 'particles'), 1, 1_000_000, true);
  if (input.budget !== undefined) result.budget = expectNumber(input.budget, child(where, 'budget'), 0, 100_000);
  if (input.mode !== undefined) result.mode = expectOneOf(input.mode, PARTICLE_MODES, child(where, 'mode'));
  if (input.keying !== undefined) result.keying = expectOneOf(input.keying, CACHE_KEYINGS, child(where, 'keying'));
  if (input.pick !== undefined) result.pick = expectOneOf(input.pick, RAY_PICKS, child(where, 'pick'));
  if (input.gravity !== undefined) result.gravity = expectNumber(input.gravity, child(where, 'gravity'), 0, 1000);
  if (input.cellLookups !== undefined) result.cellLookups = expectBoolean(input.cellLookups, child(where, 'cellLookups'));
  if (input.footprints !== undefined) result.footprints = expectBoolean(input.footprints, child(where, 'footprints'));
  return result;
}

function parseActors(value: unknown, where: Where): SceneActors {
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
  return result;
}
