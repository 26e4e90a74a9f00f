import { InvalidParameterError } from '../errors';
import { KERNELS, type Kernel } from '../platform/kernels';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, expectOneOf, expectString, type Where } from '../scene/validate';

export const FIELD_COMPILERS = ['jit', 'interpreter'] as const;
export type FieldCompiler = (typeof FIELD_COMPILERS)[number];

/** One wind effect of a scene: a field program placed on the terrain. */
export interface SceneWindEffect {
  /** A program of the library (`scenes/fields/NAME.vf`), or the label of an inline `source`. */
  program: string;
  /** The program's text, when it is not the library's (edited in the page, or written in the scene). */
  source?: string;
  /** World x and z of the effect's origin. */
  at: [number, number];
  /** Height of the origin above the ground there. */
  above: number;
  /** How far the effect reaches from its origin; left out (or null) for a global effect. */
  reach?: number | null;
  enabled: boolean;
  /** Tunable constants of the program, float4 each. */
  constants?: Record<string, [number, number, number, number]>;
}

/** The wind's section of a scene file (`systems.wind`); fields left out take the defaults. */
export interface SceneWind {
  /** Effects in the field; left out: the default set (a whirl, an updraft, a breeze, turbulence, an explosion). */
  effects?: SceneWindEffect[];
  /** Tracer particles the wind carries (dust and leaves on screen). */
  tracers?: number;
  kernel?: Kernel;
  compiler?: FieldCompiler;
}

const WIND_FIELDS = ['effects', 'tracers', 'kernel', 'compiler'] as const;
const EFFECT_FIELDS = ['program', 'source', 'at', 'above', 'reach', 'enabled', 'constants'] as const;
export const MAX_TRACERS = 200_000;

/** Validates the wind's section: every field typed and in range, unknown fields are errors. */
export function parseWind(value: unknown, where: Where): SceneWind {
  const input = expectObject(value, where);
  expectKnownKeys(input, WIND_FIELDS, where);
  const result: SceneWind = {};
  if (input.tracers !== undefined) result.tracers = expectNumber(input.tracers, child(where, 'tracers'), 0, MAX_TRACERS, true);
  if (input.kernel !== undefined) result.kernel = expectOneOf(input.kernel, KERNELS, child(where, 'kernel'));
  if (input.compiler !== undefined) result.compiler = expectOneOf(input.compiler, FIELD_COMPILERS, child(where, 'compiler'));
  if (input.effects !== undefined) {
    const at = child(where, 'effects');
    if (!Array.isArray(input.effects) || input.effects.length > 64)
      throw new InvalidParameterError(at.field, 'an array of at most 64 effects', input.effects, at.file);
    result.effects = input.effects.map((effect: unknown, i) => parseEffect(effect, child(at, i)));
  }
  return result;
}

function parseEffect(value: unknown, where: Where): SceneWindEffect {
  const input = expectObject(value, where);
  expectKnownKeys(input, EFFECT_FIELDS, where);
  if (input.program === undefined) throw new InvalidParameterError(child(where, 'program').field, 'a program name', undefined, where.file);
  const program = expectString(input.program, child(where, 'program'), 64);
  if (!/^[A-Za-z0-9_-]+$/.test(program))
    throw new InvalidParameterError(child(where, 'program').field, 'a name of letters, digits, - and _', program, where.file);
  const effect: SceneWindEffect = { program, at: [0, 0], above: 0, enabled: true };
  if (input.source !== undefined) effect.source = expectString(input.source, child(where, 'source'), 100_000);
  if (input.at !== undefined) {
    const at = child(where, 'at');
    if (!Array.isArray(input.at) || input.at.length !== 2)
      throw new InvalidParameterError(at.field, 'an array of 2 finite numbers [x, z]', input.at, at.file);
    effect.at = [expectNumber(input.at[0], child(at, 0)), expectNumber(input.at[1], child(at, 1))];
  }
  if (input.above !== undefined) effect.above = expectNumber(input.above, child(where, 'above'), -1000, 10_000);
  if (input.reach !== undefined && input.reach !== null) effect.reach = expectNumber(input.reach, child(where, 'reach'), 0.01, 1e6);
  if (input.enabled !== undefined) effect.enabled = expectBoolean(input.enabled, child(where, 'enabled'));
  if (input.constants !== undefined) {
    const at = child(where, 'constants');
    const constants = expectObject(input.constants, at);
    effect.constants = {};
    for (const [name, raw] of Object.entries(constants)) {
      const field = child(at, name);
      if (!Array.isArray(raw) || raw.length < 1 || raw.length > 4)
        throw new InvalidParameterError(field.field, 'an array of 1 to 4 finite numbers', raw, field.file);
      const values = raw.map((v: unknown, k) => expectNumber(v, child(field, k)));
      // A scalar (or a shorter vector) fills the float4 by repeating its last component.
      effect.constants[name] = [0, 1, 2, 3].map((k) => values[Math.min(k, values.length - 1)]!) as [number, number, number, number];
    }
  }
  return effect;
}
