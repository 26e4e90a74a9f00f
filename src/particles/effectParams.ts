import { InvalidParameterError } from '../errors';
import { MAX_PLANE_CACHE_SIZE } from './planeCache';

export const PARTICLE_EFFECT_KINDS = ['sparks', 'fountain', 'debris', 'casing'] as const;
export type ParticleEffectKind = (typeof PARTICLE_EFFECT_KINDS)[number];

/**
 * One particle effect: an emitter, how its particles fly and bounce, and how it finds their collision
 * planes (its own raycast budget and its own plane cache).
 */
export interface ParticleEffectParams {
  kind: ParticleEffectKind;
  /** World position of the emitter. */
  position: [number, number, number];
  /** Particles spawn anywhere within this radius of the position. */
  emitterRadius: number;
  /** Emission axis (need not be unit length). */
  direction: [number, number, number];
  /** Particles per second. */
  rate: number;
  /** Launch speed, m/s; each particle gets 60–100% of it. */
  speed: number;
  /** Half-angle of the emission cone, degrees (0 to 180). */
  spread: number;
  /** Longest life, seconds; each particle lives 80–100% of it. */
  lifetime: number;
  /** Normal speed kept by a bounce, 0 to 1. */
  restitution: number;
  /** Coulomb coefficient: tangential speed lost per unit of normal impulse, 0 to 2. */
  friction: number;
  /** 1/s: how fast velocity relaxes towards the wind (towards rest without wind). */
  drag: number;
  /** Metres: how deep below the true surface a particle may be before it counts as fallen through. */
  radius: number;
  /** Raycasts per frame, fractional allowed (0.25 = one every fourth frame). */
  budget: number;
  /** Seconds of trajectory a raycast looks ahead (the ray is the chord of that arc). */
  lookahead: number;
  /** Plane-cache cell size across (x and z), metres. */
  cellSide: number;
  /** Plane-cache cell size up (y), metres. */
  cellHeight: number;
  /**
   * Plane-cache entries at most (0 switches the cache off). The presets' 16,384 keep the lookups in a
   * table small enough to stay in the processor's cache (65,536 made them 25% slower). On the 512
   * terrain the sparks and the fountain hold 10–11k entries after 80 s; the debris, which spreads
   * widest, fills its cache after about 10 s and then evicts some 20 of its oldest entries a frame, with
   * the same fall-through (0.25% of lives, minute by minute).
   */
  cacheSize: number;
  /** RGB, 0 to 255. */
  colour: [number, number, number];
}

const PRESETS: Readonly<Record<ParticleEffectKind, Omit<ParticleEffectParams, 'position'>>> = {
  sparks: {
    kind: 'sparks',
    emitterRadius: 0.3,
    direction: [0, 1, 0],
    rate: 25_000,
    speed: 16,
    spread: 75,
    lifetime: 1.6,
    restitution: 0.45,
    friction: 0.35,
    drag: 0.6,
    radius: 0.05,
    budget: 300,
    lookahead: 0.5,
    cellSide: 0.25,
    cellHeight: 2,
    cacheSize: 16_384,
    colour: [255, 186, 72],
  },
  fountain: {
    kind: 'fountain',
    emitterRadius: 0.2,
    direction: [0, 1, 0],
    rate: 8_000,
    speed: 15,
    spread: 12,
    lifetime: 4,
    restitution: 0.3,
    friction: 0.2,
    drag: 0.1,
    radius: 0.06,
    budget: 300,
    lookahead: 0.5,
    cellSide: 0.25,
    cellHeight: 2,
    cacheSize: 16_384,
    colour: [110, 182, 255],
  },
  debris: {
    kind: 'debris',
    emitterRadius: 0.5,
    direction: [0, 1, 0],
    rate: 5_000,
    speed: 9,
    spread: 50,
    lifetime: 6,
    restitution: 0.25,
    friction: 0.6,
    drag: 0.05,
    radius: 0.1,
    budget: 399,
    lookahead: 0.5,
    cellSide: 0.25,
    cellHeight: 2,
    cacheSize: 16_384,
    colour: [168, 146, 120],
  },
  casing: {
    kind: 'casing',
    emitterRadius: 0,
    direction: [1, 1.2, 0.3],
    rate: 0.25,
    speed: 3.5,
    spread: 5,
    lifetime: 4,
    restitution: 0.55,
    friction: 0.3,
    drag: 0.02,
    radius: 0.02,
    budget: 1,
    lookahead: 0.5,
    cellSide: 0.25,
    cellHeight: 2,
    cacheSize: 1_024,
    colour: [236, 200, 64],
  },
};

/** A preset of the given kind at `position`. */
export function particleEffectPreset(kind: ParticleEffectKind, position: readonly number[]): ParticleEffectParams {
  const preset = PRESETS[kind];
  return { ...preset, position: [position[0]!, position[1]!, position[2]!], direction: [...preset.direction], colour: [...preset.colour] };
}

/** Particle slots an effect needs: everything it can have alive at once. */
export function effectCapacity(params: ParticleEffectParams): number {
  return Math.max(1, Math.ceil(params.rate * params.lifetime));
}

/** Most particle slots a single effect may ask for. */
export const MAX_EFFECT_CAPACITY = 4_000_000;

function finiteVector(value: unknown): value is [number, number, number] {
  return Array.isArray(value) && value.length === 3 && value.every((c) => typeof c === 'number' && Number.isFinite(c));
}

function inRange(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && value >= min && value <= max;
}

/** Checks every field; throws InvalidParameterError naming the effect and the field. */
export function validateEffectParams(params: ParticleEffectParams, label: string = params.kind): void {
  const fail = (field: string, expected: string, value: unknown): never => {
    throw new InvalidParameterError(`${label}.${field}`, expected, value);
  };
  if (!(PARTICLE_EFFECT_KINDS as readonly string[]).includes(params.kind)) fail('kind', PARTICLE_EFFECT_KINDS.join(', '), params.kind);
  if (!finiteVector(params.position)) fail('position', 'three finite numbers', params.position);
  if (!finiteVector(params.direction) || params.direction.every((c) => c === 0))
    fail('direction', 'three finite numbers, not all 0', params.direction);
  if (!finiteVector(params.colour) || !params.colour.every((c) => c >= 0 && c <= 255)) fail('colour', 'three numbers in [0, 255]', params.colour);
  const numbers: [keyof ParticleEffectParams, number, number][] = [
    ['emitterRadius', 0, 1e4],
    ['rate', 0, 1e7],
    ['speed', 0, 1e4],
    ['spread', 0, 180],
    ['lifetime', 1e-3, 1e4],
    ['restitution', 0, 1],
    ['friction', 0, 2],
    ['drag', 0, 1e3],
    ['radius', 0, 100],
    ['budget', 0, 1e7],
    ['lookahead', 1e-3, 100],
    ['cellSide', 1e-3, 1e6],
    ['cellHeight', 1e-3, 1e6],
    ['cacheSize', 0, MAX_PLANE_CACHE_SIZE],
  ];
  for (const [field, min, max] of numbers) if (!inRange(params[field], min, max)) fail(field, `a number in [${min}, ${max}]`, params[field]);
  if (!Number.isInteger(params.cacheSize)) fail('cacheSize', 'a whole number', params.cacheSize);
  if (effectCapacity(params) > MAX_EFFECT_CAPACITY) fail('rate', `rate × lifetime ≤ ${MAX_EFFECT_CAPACITY} particles`, params.rate);
}
