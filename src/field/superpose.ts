import { InvalidParameterError } from '../errors';
import { evaluateField, evaluateFieldPlanes, type EvaluateFieldOptions, type FieldPointPlanes } from './evaluate';
import { FIRST_FREE_REGISTER, createProgram, type FieldConstant, type FieldProgram } from './program';
import { validateBytecode } from './validate';

/**
 * Superposition. Every program adds its contribution into the wind register (r1) and writes its locals
 * before reading them, so running programs one after another equals running their concatenated
 * bytecode: the field is the sum G(p) = G0(p) + G1(p) + …
 */
export function concatenatePrograms(programs: readonly FieldProgram[]): FieldProgram {
  const words: number[] = [];
  const patches: number[] = [];
  const constants = new Map<string, FieldConstant>();
  let registerCount = FIRST_FREE_REGISTER;
  let instructionCount = 0;
  for (const program of programs) {
    validateBytecode(program);
    const offset = words.length;
    for (let i = 0; i < program.words.length; i++) words.push(program.words[i]!);
    for (let i = 0; i < program.patches.length; i += 2) patches.push(program.patches[i]!, program.patches[i + 1]! + offset);
    // Same-named constants of different effects share a patch hash: patch the sources, not the sum.
    for (const constant of program.constants)
      if (!constants.has(constant.name)) constants.set(constant.name, { ...constant, value: constant.value.slice() });
    registerCount = Math.max(registerCount, program.registerCount);
    instructionCount += program.instructionCount;
  }
  return createProgram(programs.map((program) => program.name).join('+') || 'empty', words, registerCount, instructionCount, patches, [
    ...constants.values(),
  ]);
}

/** An effect placed in the world: its program and the box outside which it adds nothing. */
export interface FieldEffect {
  readonly program: FieldProgram;
  /** minX, minY, minZ, maxX, maxY, maxZ; ±Infinity for an effect that reaches everywhere. */
  readonly bounds: ArrayLike<number>;
}

/**
 * A set of effects evaluated together. For each query, the effects whose box meets the box of the
 * query points are concatenated into one program (rebuilt only when that selection, or a constant of
 * a selected effect, changes), so distant effects cost nothing.
 */
export class FieldSuperposition {
  private readonly effects: FieldEffect[] = [];
  private selected = new Int32Array(0);
  private selectedCount = 0;
  private versions = new Float64Array(0);
  private combined: FieldProgram | undefined;

  constructor(effects: readonly FieldEffect[] = []) {
    for (const effect of effects) this.add(effect);
  }

  add(effect: FieldEffect): void {
    const bounds = effect.bounds;
    if (bounds === null || typeof bounds !== 'object' || bounds.length !== 6)
      throw new InvalidParameterError('bounds', 'six numbers: min x, y, z then max x, y, z', bounds);
    for (let k = 0; k < 3; k++) {
      if (Number.isNaN(bounds[k]) || Number.isNaN(bounds[k + 3]) || !(bounds[k]! <= bounds[k + 3]!))
        throw new InvalidParameterError('bounds', 'min ≤ max on every axis', bounds);
    }
    validateBytecode(effect.program);
    this.effects.push(effect);
    this.selected = new Int32Array(this.effects.length);
    this.versions = new Float64Array(this.effects.length);
    this.combined = undefined;
  }

  remove(effect: FieldEffect): void {
    const index = this.effects.indexOf(effect);
    if (index < 0) return;
    this.effects.splice(index, 1);
    this.combined = undefined;
  }

  get size(): number {
    return this.effects.length;
  }

  /** The program for these points: the concatenation of the effects whose boxes meet theirs. */
  select(positions: Float32Array, count: number = Math.floor(positions.length / 4)): FieldProgram {
    if (!Number.isInteger(count) || count < 0 || count * 4 > positions.length) {
      throw new InvalidParameterError('count', `a whole number of points in [0, ${Math.floor(positions.length / 4)}]`, count);
    }
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity;
    let maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    for (let i = 0, end = count * 4; i < end; i += 4) {
      const x = positions[i]!,
        y = positions[i + 1]!,
        z = positions[i + 2]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
    return this.selectWithin(minX, minY, minZ, maxX, maxY, maxZ, count);
  }

  /** The program for the first `count` points of component planes (fieldPointPlanes). */
  selectPlanes(points: FieldPointPlanes, count: number = points.capacity): FieldProgram {
    if (!Number.isInteger(count) || count < 0 || count > points.capacity) {
      throw new InvalidParameterError('count', `a whole number of points in [0, ${points.capacity}]`, count);
    }
    const { positions, stride } = points;
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity;
    let maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    for (let i = 0; i < count; i++) {
      const x = positions[i]!,
        y = positions[stride + i]!,
        z = positions[2 * stride + i]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
    return this.selectWithin(minX, minY, minZ, maxX, maxY, maxZ, count);
  }

  /** Selects the effects these points can feel and adds their sum into the wind planes (evaluateFieldPlanes). */
  evaluatePlanes(points: FieldPointPlanes, options: EvaluateFieldOptions = {}): void {
    evaluateFieldPlanes(this.selectPlanes(points, options.count ?? points.capacity), points, options);
  }

  /** The program for points within this box: the concatenation of the effects whose boxes meet it. */
  private selectWithin(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, count: number): FieldProgram {
    let changed = this.combined === undefined;
    let selectedCount = 0;
    const effects = this.effects;
    for (let e = 0; e < effects.length && count > 0; e++) {
      const effect = effects[e]!;
      const b = effect.bounds;
      if (b[0]! > maxX || b[3]! < minX || b[1]! > maxY || b[4]! < minY || b[2]! > maxZ || b[5]! < minZ) continue;
      if (selectedCount >= this.selectedCount || this.selected[selectedCount] !== e || this.versions[selectedCount] !== effect.program.version)
        changed = true;
      this.selected[selectedCount] = e;
      this.versions[selectedCount] = effect.program.version;
      selectedCount++;
    }
    if (selectedCount !== this.selectedCount) changed = true;
    this.selectedCount = selectedCount;
    if (changed) {
      const programs: FieldProgram[] = [];
      for (let i = 0; i < selectedCount; i++) programs.push(effects[this.selected[i]!]!.program);
      this.combined = concatenatePrograms(programs);
    }
    return this.combined!;
  }

  /** Selects the effects these points can feel and evaluates their sum into `wind`. */
  evaluate(positions: Float32Array, wind: Float32Array, options: EvaluateFieldOptions = {}): number {
    const program = this.select(positions, options.count ?? Math.floor(positions.length / 4));
    return evaluateField(program, positions, wind, options);
  }
}
