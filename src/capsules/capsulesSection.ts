import { MASK_ALL } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import { KERNELS, type Kernel } from '../platform/kernels';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from '../scene/validate';

/** The probe: one capsule placed on the terrain and swept along its motion, its work traced for drawing. */
export interface CapsuleProbeSettings {
  /** Off keeps the settings but sweeps nothing. */
  enabled: boolean;
  /** World x and z of the capsule's centre at the start. */
  x: number;
  z: number;
  /** Height of the capsule's centre above the ground there. */
  lift: number;
  /** Axis orientation: heading and elevation in degrees. */
  yaw: number;
  pitch: number;
  radius: number;
  halfHeight: number;
  /** Motion: heading, elevation (negative = down) in degrees, and length. */
  motionYaw: number;
  motionPitch: number;
  distance: number;
  edgeMasks: boolean;
  quickCull: boolean;
  /** Collision filter (32-bit): the probe sweeps only against triangles whose material mask shares a bit
   *  with it (terrain materials: bit 0 grass, 1 rock, 2 snow, 3 water). Left out: every triangle. */
  filter?: number;
}

/** The character: a capsule walked by collide-and-slide sweeps (CapsuleCharacter), dropped at `start`. */
export interface CapsuleCharacterSection {
  radius: number;
  halfHeight: number;
  speed: number;
  jumpSpeed: number;
  stepHeight: number;
  maxSlopeDegrees: number;
  /** World x and z it is dropped at (just above the ground). */
  start: [number, number];
  /** Collision filter of its sweeps (see CapsuleProbeSettings.filter): without the water bit
   *  (4294967287) it wades through lakes. Left out: every triangle. */
  filter?: number;
}

/** The crowd: capsules thrown over the terrain, all swept in one batch per step (CapsuleCrowd). */
export interface CapsuleCrowdSection {
  count: number;
  /** Launch speed, world units per second. */
  speed: number;
  radius: number;
  halfHeight: number;
  /** Collision filter of the batch (see CapsuleProbeSettings.filter). Left out: every triangle. */
  filter?: number;
}

/**
 * The capsules' section of a scene file (`systems.capsules`): each part runs when its sub-section is
 * there; fields left out take the defaults below.
 */
export interface SceneCapsules {
  probe?: Partial<CapsuleProbeSettings>;
  character?: Partial<CapsuleCharacterSection>;
  crowd?: Partial<CapsuleCrowdSection>;
  /** Which code sweeps all three (the same contacts either way). */
  kernel?: Kernel;
}

export const DEFAULT_PROBE: Readonly<CapsuleProbeSettings> = Object.freeze({
  enabled: true,
  x: 0,
  z: 0,
  lift: 6,
  yaw: 30,
  pitch: 35,
  radius: 1.5,
  halfHeight: 2.5,
  motionYaw: 20,
  motionPitch: -25,
  distance: 40,
  edgeMasks: true,
  quickCull: true,
});

export const DEFAULT_CHARACTER: Readonly<CapsuleCharacterSection> = Object.freeze({
  radius: 0.6,
  halfHeight: 0.9,
  speed: 9,
  jumpSpeed: 9,
  stepHeight: 0.6,
  maxSlopeDegrees: 50,
  start: [0, 0] as [number, number],
});

export const DEFAULT_CROWD: Readonly<CapsuleCrowdSection> = Object.freeze({ count: 1000, speed: 25, radius: 1, halfHeight: 1.5 });

/** Most capsules a crowd may throw (CapsuleCrowd's own limit). */
export const MAX_CROWD = 100_000;

/** Numeric fields of each part: [min, max, integer]. The ranges keep every sweep well posed. */
const PROBE_NUMBERS: Readonly<Record<string, readonly [number, number, boolean?]>> = {
  x: [-1e6, 1e6],
  z: [-1e6, 1e6],
  lift: [-1000, 10_000],
  yaw: [-360, 360],
  pitch: [-90, 90],
  radius: [0, 100],
  halfHeight: [0, 1000],
  motionYaw: [-360, 360],
  motionPitch: [-90, 90],
  distance: [0, 10_000],
};
const PROBE_FLAGS = ['enabled', 'edgeMasks', 'quickCull'] as const;
const CHARACTER_NUMBERS: Readonly<Record<string, readonly [number, number, boolean?]>> = {
  radius: [0.01, 50],
  halfHeight: [0, 100],
  speed: [0, 1000],
  jumpSpeed: [0, 1000],
  stepHeight: [0, 100],
  // CapsuleCharacter treats ground steeper than this as a wall; 90° would make walls walkable.
  maxSlopeDegrees: [0, 89],
};
const CROWD_NUMBERS: Readonly<Record<string, readonly [number, number, boolean?]>> = {
  count: [0, MAX_CROWD, true],
  speed: [0, 1000],
  radius: [0.01, 50],
  halfHeight: [0, 100],
};
const CAPSULES_FIELDS = ['probe', 'character', 'crowd', 'kernel'] as const;

/** Validates the capsules' section: every field typed and in range, unknown fields are errors. */
export function parseCapsules(value: unknown, where: Where): SceneCapsules {
  const input = expectObject(value, where);
  expectKnownKeys(input, CAPSULES_FIELDS, where);
  const result: SceneCapsules = {};
  if (input.probe !== undefined) result.probe = parseProbe(input.probe, child(where, 'probe'));
  if (input.character !== undefined) result.character = parseCharacter(input.character, child(where, 'character'));
  if (input.crowd !== undefined) result.crowd = parseCrowd(input.crowd, child(where, 'crowd'));
  if (input.kernel !== undefined) result.kernel = expectOneOf(input.kernel, KERNELS, child(where, 'kernel'));
  return result;
}

function parseProbe(value: unknown, where: Where): Partial<CapsuleProbeSettings> {
  const input = expectObject(value, where);
  const result: Record<string, number | boolean> = parseNumbers(input, where, PROBE_NUMBERS, [...PROBE_FLAGS, 'filter']);
  for (const flag of PROBE_FLAGS) if (input[flag] !== undefined) result[flag] = expectBoolean(input[flag], child(where, flag));
  if (input.filter !== undefined) result.filter = expectFilter(input.filter, child(where, 'filter'));
  return result;
}

function parseCrowd(value: unknown, where: Where): Partial<CapsuleCrowdSection> {
  const input = expectObject(value, where);
  const result: Partial<CapsuleCrowdSection> = parseNumbers(input, where, CROWD_NUMBERS, ['filter']);
  if (input.filter !== undefined) result.filter = expectFilter(input.filter, child(where, 'filter'));
  return result;
}

/** A collision filter field: a 32-bit unsigned integer. */
function expectFilter(value: unknown, where: Where): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MASK_ALL)
    throw new InvalidParameterError(where.field, `a 32-bit collision filter: an integer in [0, ${MASK_ALL}]`, value, where.file);
  return value;
}

function parseCharacter(value: unknown, where: Where): Partial<CapsuleCharacterSection> {
  const input = expectObject(value, where);
  const result: Partial<CapsuleCharacterSection> = parseNumbers(input, where, CHARACTER_NUMBERS, ['start', 'filter']);
  if (input.filter !== undefined) result.filter = expectFilter(input.filter, child(where, 'filter'));
  if (input.start !== undefined) {
    const at = child(where, 'start');
    if (!Array.isArray(input.start) || input.start.length !== 2)
      throw new InvalidParameterError(at.field, 'an array of 2 finite numbers [x, z]', input.start, at.file);
    result.start = [expectNumber(input.start[0], child(at, 0), -1e6, 1e6), expectNumber(input.start[1], child(at, 1), -1e6, 1e6)];
  }
  return result;
}

/** The numeric fields of `numbers` that `value` has, checked; any key outside them and `others` is an error. */
function parseNumbers(
  value: unknown,
  where: Where,
  numbers: Readonly<Record<string, readonly [number, number, boolean?]>>,
  others: readonly string[] = [],
): Record<string, number> {
  const input = expectObject(value, where);
  expectKnownKeys(input, [...Object.keys(numbers), ...others], where);
  const result: Record<string, number> = {};
  for (const [name, [min, max, integer]] of Object.entries(numbers)) {
    if (input[name] !== undefined) result[name] = expectNumber(input[name], child(where, name), min, max, integer ?? false);
  }
  return result;
}
