import type { OperationName } from './opcodes';
import { fieldNoise } from './noise3';

/**
 * What each operation means, on one point's float4 values. This is the definition the other back ends
 * must match (the interpreter's kernels and the JIT's generated code spell out the same formulas in the
 * same order, so results agree bit for bit); the compiler folds literals with it and the tests use it
 * as the brute-force reference.
 *
 * Conventions: comparisons give 1 or 0 per component; dot, length and noise give a scalar in all four
 * components; cross uses xyz and gives w = 0; normalize of a zero vector is zero (not NaN), so an
 * explosion is defined at its own centre; select(m, a, b) takes a where m ≠ 0.
 */
export function applyOperation(
  operation: OperationName,
  a: ArrayLike<number>,
  b: ArrayLike<number> | undefined,
  c: ArrayLike<number> | undefined,
  immediate: number,
  out: Float64Array,
): void {
  const a0 = a[0]!,
    a1 = a[1]!,
    a2 = a[2]!,
    a3 = a[3]!;
  switch (operation) {
    case 'dot':
      out.fill(a0 * b![0]! + a1 * b![1]! + a2 * b![2]! + a3 * b![3]!);
      return;
    case 'cross':
      out[0] = a1 * b![2]! - a2 * b![1]!;
      out[1] = a2 * b![0]! - a0 * b![2]!;
      out[2] = a0 * b![1]! - a1 * b![0]!;
      out[3] = 0;
      return;
    case 'length':
      out.fill(Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3));
      return;
    case 'normalize': {
      const squared = a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3;
      const inverse = squared > 0 ? 1 / Math.sqrt(squared) : 0;
      out[0] = a0 * inverse;
      out[1] = a1 * inverse;
      out[2] = a2 * inverse;
      out[3] = a3 * inverse;
      return;
    }
    case 'noise':
      out.fill(fieldNoise(a0, a1, a2));
      return;
    case 'swizzle':
      out[0] = a[immediate & 3]!;
      out[1] = a[(immediate >> 2) & 3]!;
      out[2] = a[(immediate >> 4) & 3]!;
      out[3] = a[(immediate >> 6) & 3]!;
      return;
    default:
      for (let k = 0; k < 4; k++) out[k] = componentwise(operation, a[k]!, b === undefined ? 0 : b[k]!, c === undefined ? 0 : c[k]!);
  }
}

function componentwise(operation: OperationName, x: number, y: number, z: number): number {
  switch (operation) {
    case 'add':
      return x + y;
    case 'sub':
      return x - y;
    case 'mul':
      return x * y;
    case 'div':
      return x / y;
    case 'min':
      return Math.min(x, y);
    case 'max':
      return Math.max(x, y);
    case 'lt':
      return x < y ? 1 : 0;
    case 'le':
      return x <= y ? 1 : 0;
    case 'gt':
      return x > y ? 1 : 0;
    case 'ge':
      return x >= y ? 1 : 0;
    case 'eq':
      return x === y ? 1 : 0;
    case 'ne':
      return x !== y ? 1 : 0;
    case 'mov':
      return x;
    case 'neg':
      return -x;
    case 'abs':
      return Math.abs(x);
    case 'floor':
      return Math.floor(x);
    case 'frac':
      return x - Math.floor(x);
    case 'sqrt':
      return Math.sqrt(x);
    case 'sin':
      return Math.sin(x);
    case 'cos':
      return Math.cos(x);
    case 'saturate':
      return Math.min(Math.max(x, 0), 1);
    case 'lerp':
      return x + (y - x) * z;
    case 'clamp':
      return Math.min(Math.max(x, y), z);
    case 'select':
      return x !== 0 ? y : z;
    default:
      throw new Error(`no component-wise meaning for ${operation}`);
  }
}
