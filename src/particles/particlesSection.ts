import { MASK_ALL } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import { CACHE_KEYINGS, type CacheKeying } from './cacheKey';
import { PARTICLE_EFFECT_KINDS, particleEffectPreset, validateEffectParams, type ParticleEffectParams } from './effectParams';
import { RAY_PICKS, type RayPick } from './raycastPlanes';
import { KERNELS, type Kernel } from '../platform/kernels';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from '../scene/validate';

export const PARTICLE_MODES = ['budget', 'reference'] as const;
export type ParticleMode = (typeof PARTICLE_MODES)[number];

/** The particles' section of a scene file (`systems.particles`); fields left out take the defaults. */
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
  kernel?: Kernel;
  /** Drift with the world's wind. */
  wind?: boolean;
  /** Collision filter of the raycasts: only triangles whose material mask shares a bit with it give planes. */
  filter?: number;
  /**
   * The effects themselves, each as complete as the panel edits it (a field left out takes its kind's
   * preset); left out: the showcase, sized by `particles` and `budget`.
   */
  effects?: ParticleEffectParams[];
}

const PARTICLE_FIELDS = [
  'particles',
  'budget',
  'mode',
  'keying',
  'pick',
  'gravity',
  'cellLookups',
  'footprints',
  'kernel',
  'wind',
  'filter',
  'effects',
] as const;
const EFFECT_FIELDS: readonly (keyof ParticleEffectParams)[] = Object.keys(
  particleEffectPreset('sparks', [0, 0, 0]),
) as (keyof ParticleEffectParams)[];
const MAX_EFFECTS = 16;

/** Validates the particles' section: every field typed and in range, unknown fields are errors. */
export function parseParticles(value: unknown, where: Where): SceneParticles {
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
  if (input.kernel !== undefined) result.kernel = expectOneOf(input.kernel, KERNELS, child(where, 'kernel'));
  if (input.wind !== undefined) result.wind = expectBoolean(input.wind, child(where, 'wind'));
  if (input.filter !== undefined) result.filter = expectNumber(input.filter, child(where, 'filter'), 0, MASK_ALL, true);
  if (input.effects !== undefined) {
    const at = child(where, 'effects');
    if (!Array.isArray(input.effects) || input.effects.length > MAX_EFFECTS)
      throw new InvalidParameterError(at.field, `an array of at most ${MAX_EFFECTS} effects`, input.effects, at.file);
    result.effects = input.effects.map((effect: unknown, i) => parseEffect(effect, child(at, i)));
  }
  return result;
}

/** One effect: its kind's preset, overridden field by field, then checked as the system checks it. */
function parseEffect(value: unknown, where: Where): ParticleEffectParams {
  const input = expectObject(value, where);
  expectKnownKeys(input, EFFECT_FIELDS, where);
  const kind = expectOneOf(input.kind, PARTICLE_EFFECT_KINDS, child(where, 'kind'));
  const effect: ParticleEffectParams = { ...particleEffectPreset(kind, [0, 0, 0]), ...input };
  try {
    validateEffectParams(effect, where.field);
  } catch (error) {
    if (error instanceof InvalidParameterError)
      throw new InvalidParameterError(error.location.field ?? where.field, error.expected, error.received, where.file);
    throw error;
  }
  return structuredClone(effect);
}
