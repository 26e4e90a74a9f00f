import { InvalidParameterError } from '../errors';
import { hashConstantName, type FieldProgram } from './program';

/**
 * Sets a patchable global (`radius`, `center`…) by rewriting every inline copy the patch list points
 * at. No recompilation: the bytecode's shape is unchanged, so a JIT-compiled function keeps working (it
 * reads patchable constants from the bytecode on each call). A number sets all four components.
 */
export function setConstant(program: FieldProgram, name: string, value: number | ArrayLike<number>): void {
  const constant = program.constants.find((candidate) => candidate.name === name);
  if (constant === undefined) {
    const known = program.constants.map((candidate) => candidate.name);
    throw new InvalidParameterError('name', known.length === 0 ? 'a constant name, but this program has none' : `one of ${known.join(', ')}`, name);
  }
  let x: number, y: number, z: number, w: number;
  if (typeof value === 'number') {
    x = y = z = w = value;
  } else if (value !== null && typeof value === 'object' && value.length === 4) {
    x = value[0]!;
    y = value[1]!;
    z = value[2]!;
    w = value[3]!;
  } else {
    throw new InvalidParameterError(name, 'a number or four numbers [x, y, z, w]', value);
  }
  for (const component of [x, y, z, w]) {
    if (typeof component !== 'number' || !Number.isFinite(component) || !Number.isFinite(Math.fround(component))) {
      throw new InvalidParameterError(name, 'finite numbers within float range', component);
    }
  }
  const hash = hashConstantName(name);
  const { patches, floats } = program;
  for (let i = 0; i < patches.length; i += 2) {
    if (patches[i] !== hash) continue;
    const offset = patches[i + 1]!;
    floats[offset] = x;
    floats[offset + 1] = y;
    floats[offset + 2] = z;
    floats[offset + 3] = w;
  }
  constant.value[0] = x;
  constant.value[1] = y;
  constant.value[2] = z;
  constant.value[3] = w;
  program.version++;
}

/** The current value of a patchable global, as float32 components. */
export function getConstant(program: FieldProgram, name: string): [number, number, number, number] {
  const constant = program.constants.find((candidate) => candidate.name === name);
  if (constant === undefined) throw new InvalidParameterError('name', `one of ${program.constants.map((c) => c.name).join(', ') || '(none)'}`, name);
  const v = constant.value;
  return [v[0]!, v[1]!, v[2]!, v[3]!];
}
