import { compileField } from '../field/compile';
import { getConstant, setConstant } from '../field/constants';
import type { FieldProgram } from '../field/program';
import { FieldSuperposition, type FieldEffect } from '../field/superpose';
import type { EvaluateFieldOptions, FieldBackend, FieldPointPlanes } from '../field/evaluate';

/**
 * The wind of the world: effects (field programs placed at a point with a reach) superposed into one
 * field. Editing an effect's source recompiles it; a program that fails to compile throws and the
 * effect keeps running its last good program.
 */
export interface PlacedEffect {
  readonly id: number;
  /** A label for menus, e.g. "whirl 1". */
  readonly label: string;
  source: string;
  program: FieldProgram;
  /** World position of the effect's origin; patched into its `center` or `base` constant if it has one. */
  readonly position: [number, number, number];
  /** How far the effect reaches from its position; infinite for global effects. */
  reach: number;
  enabled: boolean;
  /** The box the superposition tests query points against. */
  readonly bounds: Float64Array;
}

/** The constants an effect's placement drives; every other constant is the user's to tune. */
const ORIGIN_CONSTANTS = ['center', 'base'];

export class WindField {
  readonly effects: PlacedEffect[] = [];
  backend: FieldBackend = 'auto';
  /** The back end that ran the last evaluation (a SIMD one hands over to TypeScript while it compiles). */
  readonly ran: { backend: FieldBackend } = { backend: 'auto' };
  private superposition = new FieldSuperposition();
  private nextId = 1;
  private dirty = true;
  /** Reused by samplePlanes: nothing allocated per frame. */
  private readonly planesOptions: EvaluateFieldOptions = { ran: this.ran };

  /** Compiles and places an effect. Throws FieldCompileError (with line and column) on a bad program. */
  add(label: string, source: string, position: readonly number[], reach: number): PlacedEffect {
    const program = compileField(source, { file: label });
    const effect: PlacedEffect = {
      id: this.nextId++,
      label,
      source,
      program,
      position: [position[0]!, position[1]!, position[2]!],
      reach,
      enabled: true,
      bounds: new Float64Array(6),
    };
    this.placeOrigin(effect);
    this.effects.push(effect);
    this.dirty = true;
    return effect;
  }

  remove(effect: PlacedEffect): void {
    const index = this.effects.indexOf(effect);
    if (index >= 0) this.effects.splice(index, 1);
    this.dirty = true;
  }

  /**
   * Replaces an effect's source. On a compile error the error is thrown and the effect keeps its last
   * good program. Constants the user had tuned carry over when the new program still declares them.
   */
  recompile(effect: PlacedEffect, source: string): void {
    const program = compileField(source, { file: effect.label });
    for (const constant of program.constants) {
      if (effect.program.constants.some((c) => c.name === constant.name) && !ORIGIN_CONSTANTS.includes(constant.name)) {
        setConstant(program, constant.name, getConstant(effect.program, constant.name));
      }
    }
    effect.source = source;
    effect.program = program;
    this.placeOrigin(effect);
    this.dirty = true;
  }

  /** Moves an effect (and its reach box). */
  move(effect: PlacedEffect, position: readonly number[], reach = effect.reach): void {
    effect.position[0] = position[0]!;
    effect.position[1] = position[1]!;
    effect.position[2] = position[2]!;
    effect.reach = reach;
    this.placeOrigin(effect);
    this.dirty = true;
  }

  setEnabled(effect: PlacedEffect, enabled: boolean): void {
    effect.enabled = enabled;
    this.dirty = true;
  }

  /** Sets a tunable constant; the program is patched in place, nothing recompiles. */
  setConstant(effect: PlacedEffect, name: string, value: number | ArrayLike<number>): void {
    setConstant(effect.program, name, value);
  }

  /** Patches `time` into every effect that declares it (turbulence drifts with it). */
  setTime(seconds: number): void {
    for (const effect of this.effects) {
      if (effect.program.constants.some((c) => c.name === 'time')) setConstant(effect.program, 'time', [seconds, seconds, seconds, seconds]);
    }
  }

  /**
   * Wind at `count` float4 points into `wind` (overwritten). Effects whose reach box misses every
   * point cost nothing.
   */
  sample(positions: Float32Array, wind: Float32Array, count = positions.length >> 2): void {
    if (this.dirty) this.rebuild();
    wind.fill(0, 0, count * 4);
    if (this.superposition.size === 0 || count === 0) return;
    this.superposition.evaluate(positions, wind, { count, backend: this.backend, ran: this.ran });
  }

  /**
   * Wind at the first `count` points of component planes (fieldPointPlanes) into `points.wind`
   * (overwritten): on the SIMD JIT in place, no transposes, nothing copied.
   */
  samplePlanes(points: FieldPointPlanes, count = points.capacity): void {
    if (this.dirty) this.rebuild();
    const { wind, stride } = points;
    for (let k = 0; k < 3; k++) wind.fill(0, k * stride, k * stride + count);
    if (this.superposition.size === 0 || count === 0) return;
    const options = this.planesOptions;
    options.count = count;
    options.backend = this.backend;
    this.superposition.evaluatePlanes(points, options);
  }

  private rebuild(): void {
    const effects: FieldEffect[] = [];
    for (const effect of this.effects) if (effect.enabled) effects.push({ program: effect.program, bounds: effect.bounds });
    this.superposition = new FieldSuperposition(effects);
    this.dirty = false;
  }

  private placeOrigin(effect: PlacedEffect): void {
    const [x, y, z] = effect.position;
    for (const name of ORIGIN_CONSTANTS) {
      if (effect.program.constants.some((c) => c.name === name)) setConstant(effect.program, name, [x, y, z, 0]);
    }
    const r = effect.reach;
    effect.bounds.set([x - r, y - r, z - r, x + r, y + r, z + r]);
  }
}
