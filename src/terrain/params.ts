import { InvalidParameterError } from '../errors';
import { TERRAIN_KINDS, type TerrainKind } from './multifractal';

/** Everything that shapes the terrain. Same parameters, bit-identical mesh. */
export interface TerrainParams {
  /** 32-bit unsigned seed of the gradient noise. */
  seed: number;
  /** Which multifractal: 'fbm', 'hybrid', 'ridged' or 'hetero'. */
  kind: TerrainKind;
  /** Number of noise octaves, 1 to 16; a fraction blends in the last one. */
  octaves: number;
  /** Frequency ratio between octaves, (1, 4]. */
  lacunarity: number;
  /** Fractal increment: each octave's amplitude is lacunarity^(-H·i); 0 to 2. */
  H: number;
  /** Ridged: how strongly one octave's ridges feed the next; 0 to 10. */
  gain: number;
  /** Hybrid, ridged, hetero: shifts the noise before the multiplicative cascade; 0 to 3. */
  offset: number;
  /** Noise cycles across the world at the first octave, (0, 64]. */
  baseFrequency: number;
  /** Height of the highest point above the lowest, world units, [0, 10000]. */
  heightScale: number;
  /** Side of the square terrain in world units, (0, 100000]. */
  worldSize: number;
  /** Grid cells per side, an integer from 16 to 2048; the mesh has 2·cells² triangles. */
  cells: number;
  /** Triangles whose centre lies below this share of heightScale are water, [0, 1]. */
  waterLevel: number;
  /** Triangles steeper than this many degrees are rock (unless water), [0, 90]. */
  rockSlope: number;
  /** Triangles whose centre lies above this share of heightScale are snow (unless rock), [0, 1]. */
  snowLevel: number;
}

export const DEFAULT_TERRAIN_PARAMS: Readonly<TerrainParams> = Object.freeze({
  seed: 1337,
  kind: 'ridged',
  octaves: 8,
  lacunarity: 2,
  H: 0.9,
  gain: 2,
  offset: 1,
  baseFrequency: 3,
  heightScale: 60,
  worldSize: 512,
  cells: 256,
  waterLevel: 0.08,
  rockSlope: 38,
  snowLevel: 0.78,
});

export const MIN_CELLS = 16;
export const MAX_CELLS = 2048;

interface NumberRule {
  min: number;
  max: number;
  /** Whether min itself is allowed. */
  minInclusive: boolean;
  integer: boolean;
}

/** The domain of every numeric parameter; the GUI reads its slider ranges from here too. */
export const TERRAIN_NUMBER_RULES: Readonly<Record<Exclude<keyof TerrainParams, 'kind'>, NumberRule>> = {
  seed: { min: 0, max: 4294967295, minInclusive: true, integer: true },
  octaves: { min: 1, max: 16, minInclusive: true, integer: false },
  lacunarity: { min: 1, max: 4, minInclusive: false, integer: false },
  H: { min: 0, max: 2, minInclusive: true, integer: false },
  gain: { min: 0, max: 10, minInclusive: true, integer: false },
  offset: { min: 0, max: 3, minInclusive: true, integer: false },
  baseFrequency: { min: 0, max: 64, minInclusive: false, integer: false },
  heightScale: { min: 0, max: 10000, minInclusive: true, integer: false },
  worldSize: { min: 0, max: 100000, minInclusive: false, integer: false },
  cells: { min: MIN_CELLS, max: MAX_CELLS, minInclusive: true, integer: true },
  waterLevel: { min: 0, max: 1, minInclusive: true, integer: false },
  rockSlope: { min: 0, max: 90, minInclusive: true, integer: false },
  snowLevel: { min: 0, max: 1, minInclusive: true, integer: false },
};

export function describeRule(rule: NumberRule): string {
  const kind = rule.integer ? 'an integer' : 'a number';
  return `${kind} in ${rule.minInclusive ? '[' : '('}${rule.min}, ${rule.max}]`;
}

/**
 * Fills defaults and checks every field. Throws InvalidParameterError naming the field, the expected
 * domain and the value received; unknown fields are errors too, since a typo would otherwise be ignored.
 */
export function resolveTerrainParams(input: Partial<TerrainParams> = {}, file?: string, fieldPrefix = ''): TerrainParams {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidParameterError(fieldPrefix.replace(/\.$/, '') || 'terrain', 'an object of terrain parameters', input, file);
  }
  for (const key of Object.keys(input)) {
    if (!(key in DEFAULT_TERRAIN_PARAMS)) {
      throw new InvalidParameterError(
        fieldPrefix + key,
        `one of the terrain parameters (${Object.keys(DEFAULT_TERRAIN_PARAMS).join(', ')})`,
        key,
        file,
      );
    }
  }
  const params: TerrainParams = { ...DEFAULT_TERRAIN_PARAMS, ...input };
  if (!TERRAIN_KINDS.includes(params.kind)) {
    throw new InvalidParameterError(fieldPrefix + 'kind', `one of ${TERRAIN_KINDS.map((k) => `"${k}"`).join(', ')}`, params.kind, file);
  }
  for (const [key, rule] of Object.entries(TERRAIN_NUMBER_RULES) as [keyof typeof TERRAIN_NUMBER_RULES, NumberRule][]) {
    const value: unknown = params[key];
    const valid =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (rule.minInclusive ? value >= rule.min : value > rule.min) &&
      value <= rule.max &&
      (!rule.integer || Number.isInteger(value));
    if (!valid) throw new InvalidParameterError(fieldPrefix + key, describeRule(rule), value, file);
  }
  return params;
}
