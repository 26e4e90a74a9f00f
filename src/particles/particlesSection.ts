import { CACHE_KEYINGS, type CacheKeying } from './cacheKey';
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
}

const PARTICLE_FIELDS = ['particles', 'budget', 'mode', 'keying', 'pick', 'gravity', 'cellLookups', 'footprints', 'kernel', 'wind'] as const;

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
  return result;
}
