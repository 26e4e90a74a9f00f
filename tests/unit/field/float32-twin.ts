/**
 * A float32 twin of semantics.ts for checking the WebAssembly SIMD back ends bit for bit: the same
 * formulas in the same order, every step rounded to float32 (Math.fround), sin and cos by the recipe
 * of platform/f32x4Trig.ts, noise as noise3.ts step for step. Plus a per-point bytecode walk on it.
 */
import { TRIG_CONSTANTS } from '../../../src/platform/f32x4Trig';
import { PERMUTATION } from '../../../src/field/noise3';
import { ARGUMENTS_OF_OPCODE, OPERATION_OF_OPCODE, instructionWords, type OperationName } from '../../../src/field/opcodes';
import type { FieldProgram } from '../../../src/field/program';

const fr = Math.fround;

/** f32x4.nearest: round half to even. */
function nearest(x: number): number {
  if (!Number.isFinite(x)) return x;
  let r = Math.round(x);
  if (r - x === 0.5 && r % 2 !== 0) r -= 1;
  return r === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) : r;
}

/** i32x4.trunc_sat_f32x4_s */
function truncateSaturated(x: number): number {
  if (Number.isNaN(x)) return 0;
  if (x >= 2147483647) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  return Math.trunc(x) | 0;
}

/** sin (quadrant 0) or cos (quadrant 1) as f32x4Trig.ts computes it. */
export function trigFloat32(x: number, quadrant: number): number {
  const T = TRIG_CONSTANTS;
  const j = nearest(fr(x * fr(T.twoOverPi)));
  let r = x;
  for (const part of T.piOverTwoParts) r = fr(r - fr(j * fr(part)));
  r = Math.min(Math.max(r, fr(-T.reducedLimit)), fr(T.reducedLimit));
  const q = (truncateSaturated(j) + quadrant) | 0;
  const z = fr(r * r);
  // sine = r + r·(z·(s1 + z·(s2 + z·s3)))
  const sinePolynomial = fr(z * fr(fr(T.sin1) + fr(z * fr(fr(T.sin2) + fr(z * fr(T.sin3))))));
  const sine = fr(r + fr(r * sinePolynomial));
  // cosine = (1 − z·0.5) + (z·z)·(c1 + z·(c2 + z·c3))
  const cosinePolynomial = fr(fr(T.cos1) + fr(z * fr(fr(T.cos2) + fr(z * fr(T.cos3)))));
  const cosine = fr(fr(1 - fr(z * 0.5)) + fr(fr(z * z) * cosinePolynomial));
  const value = (q & 1) !== 0 ? cosine : sine;
  return (q & 2) !== 0 ? -value : value;
}

function gradientDot(hash: number, x: number, y: number, z: number): number {
  const h = hash & 15;
  const u = h < 8 ? x : y;
  const v = h < 4 ? y : h === 12 || h === 14 ? x : z;
  return fr(((h & 1) === 0 ? u : -u) + ((h & 2) === 0 ? v : -v));
}

const fade = (t: number): number => fr(fr(fr(t * t) * t) * fr(fr(t * fr(fr(t * 6) - 15)) + 10));
const lerp = (t: number, a: number, b: number): number => fr(a + fr(t * fr(b - a)));
const cellOf = (floored: number): number => truncateSaturated(fr(floored - fr(Math.floor(fr(floored * (1 / 256))) * 256))) & 255;

export function noiseFloat32(x: number, y: number, z: number): number {
  const limit = fr(1e15);
  if (!(Math.abs(x) <= limit && Math.abs(y) <= limit && Math.abs(z) <= limit)) return Number.NaN;
  const perm = PERMUTATION;
  const floorX = Math.floor(x),
    floorY = Math.floor(y),
    floorZ = Math.floor(z);
  const cx = cellOf(floorX),
    cy = cellOf(floorY),
    cz = cellOf(floorZ);
  const fx = fr(x - floorX),
    fy = fr(y - floorY),
    fz = fr(z - floorZ);
  const u = fade(fx),
    v = fade(fy),
    w = fade(fz);
  const a = perm[cx]! + cy,
    aa = perm[a]! + cz,
    ab = perm[a + 1]! + cz;
  const b = perm[cx + 1]! + cy,
    ba = perm[b]! + cz,
    bb = perm[b + 1]! + cz;
  const fx1 = fr(fx - 1),
    fy1 = fr(fy - 1),
    fz1 = fr(fz - 1);
  const x00 = lerp(u, gradientDot(perm[aa]!, fx, fy, fz), gradientDot(perm[ba]!, fx1, fy, fz));
  const x10 = lerp(u, gradientDot(perm[ab]!, fx, fy1, fz), gradientDot(perm[bb]!, fx1, fy1, fz));
  const x01 = lerp(u, gradientDot(perm[aa + 1]!, fx, fy, fz1), gradientDot(perm[ba + 1]!, fx1, fy, fz1));
  const x11 = lerp(u, gradientDot(perm[ab + 1]!, fx, fy1, fz1), gradientDot(perm[bb + 1]!, fx1, fy1, fz1));
  return lerp(w, lerp(v, x00, x10), lerp(v, x01, x11));
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number =>
  fr(fr(fr(fr(a[0]! * b[0]!) + fr(a[1]! * b[1]!)) + fr(a[2]! * b[2]!)) + fr(a[3]! * b[3]!));

function componentwise(operation: OperationName, x: number, y: number, z: number): number {
  switch (operation) {
    case 'add':
      return fr(x + y);
    case 'sub':
      return fr(x - y);
    case 'mul':
      return fr(x * y);
    case 'div':
      return fr(x / y);
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
      return fr(x - Math.floor(x));
    case 'sqrt':
      return fr(Math.sqrt(x));
    case 'sin':
      return trigFloat32(x, 0);
    case 'cos':
      return trigFloat32(x, 1);
    case 'saturate':
      return Math.min(Math.max(x, 0), 1);
    case 'lerp':
      return fr(x + fr(fr(y - x) * z));
    case 'clamp':
      return Math.min(Math.max(x, y), z);
    case 'select':
      return x !== 0 ? y : z;
    default:
      throw new Error(`no component-wise meaning for ${operation}`);
  }
}

export function applyOperationFloat32(
  operation: OperationName,
  a: ArrayLike<number>,
  b: ArrayLike<number> | undefined,
  c: ArrayLike<number> | undefined,
  immediate: number,
  out: Float32Array,
): void {
  switch (operation) {
    case 'dot':
      out.fill(dot(a, b!));
      return;
    case 'cross':
      out[0] = fr(fr(a[1]! * b![2]!) - fr(a[2]! * b![1]!));
      out[1] = fr(fr(a[2]! * b![0]!) - fr(a[0]! * b![2]!));
      out[2] = fr(fr(a[0]! * b![1]!) - fr(a[1]! * b![0]!));
      out[3] = 0;
      return;
    case 'length':
      out.fill(fr(Math.sqrt(dot(a, a))));
      return;
    case 'normalize': {
      const squared = dot(a, a);
      const inverse = squared > 0 ? fr(1 / fr(Math.sqrt(squared))) : 0;
      for (let k = 0; k < 4; k++) out[k] = fr(a[k]! * inverse);
      return;
    }
    case 'noise':
      out.fill(noiseFloat32(a[0]!, a[1]!, a[2]!));
      return;
    case 'swizzle':
      for (let k = 0; k < 4; k++) out[k] = a[(immediate >> (2 * k)) & 3]!;
      return;
    default:
      for (let k = 0; k < 4; k++) out[k] = componentwise(operation, a[k]!, b === undefined ? 0 : b[k]!, c === undefined ? 0 : c[k]!);
  }
}

/** The per-point bytecode walk of reference.ts, on the float32 twin. */
export function referenceEvaluateFloat32(program: FieldProgram, positions: Float32Array, wind: Float32Array, count: number): void {
  const registers = Array.from({ length: program.registerCount }, () => new Float32Array(4));
  const { words, floats } = program;
  for (let point = 0; point < count; point++) {
    for (const register of registers) register.fill(0);
    registers[0]!.set(positions.subarray(point * 4, point * 4 + 4));
    registers[1]!.set(wind.subarray(point * 4, point * 4 + 4));
    let pc = 0;
    while (pc < words.length) {
      const opcode = words[pc]!;
      const args: Float32Array[] = [];
      let immediate = 0;
      let at = pc + 2;
      for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
        if (kind === 'r') args.push(registers[words[at]!]!.slice());
        else if (kind === 'c') args.push(floats.slice(at, at + 4));
        else immediate = words[at]!;
        at += kind === 'c' ? 4 : 1;
      }
      const result = new Float32Array(4);
      applyOperationFloat32(OPERATION_OF_OPCODE[opcode]!.name, args[0]!, args[1], args[2], immediate, result);
      registers[words[pc + 1]!]!.set(result);
      pc += instructionWords(opcode);
    }
    wind.set(registers[1]!, point * 4);
  }
}
