import { fieldNoise } from './noise3';
import {
  OP_ABS,
  OP_CLAMP,
  OP_COS,
  OP_FLOOR,
  OP_FRAC,
  OP_LENGTH,
  OP_LERP,
  OP_MOV,
  OP_NEG,
  OP_NOISE,
  OP_NORMALIZE,
  OP_SATURATE,
  OP_SELECT,
  OP_SIN,
  OP_SQRT,
} from './opcodes';

/**
 * The interpreter's one- and three-argument kernels and the swizzle, same conventions as
 * kernels-binary.ts: one small function per operation, scratch offsets, `count4` = 4 × points,
 * formulas spelt as in semantics.ts.
 */
export type UnaryKernel = (s: Float64Array, d: number, a: number, count4: number) => void;
export type TernaryKernel = (s: Float64Array, d: number, a: number, b: number, c: number, count4: number) => void;

function move(s: Float64Array, d: number, a: number, count4: number): void {
  if (d !== a) s.copyWithin(d, a, a + count4);
}

function negate(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = -s[a + i]!;
    s[d + i + 1] = -s[a + i + 1]!;
    s[d + i + 2] = -s[a + i + 2]!;
    s[d + i + 3] = -s[a + i + 3]!;
  }
}

function absolute(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.abs(s[a + i]!);
    s[d + i + 1] = Math.abs(s[a + i + 1]!);
    s[d + i + 2] = Math.abs(s[a + i + 2]!);
    s[d + i + 3] = Math.abs(s[a + i + 3]!);
  }
}

function floor(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.floor(s[a + i]!);
    s[d + i + 1] = Math.floor(s[a + i + 1]!);
    s[d + i + 2] = Math.floor(s[a + i + 2]!);
    s[d + i + 3] = Math.floor(s[a + i + 3]!);
  }
}

function squareRoot(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.sqrt(s[a + i]!);
    s[d + i + 1] = Math.sqrt(s[a + i + 1]!);
    s[d + i + 2] = Math.sqrt(s[a + i + 2]!);
    s[d + i + 3] = Math.sqrt(s[a + i + 3]!);
  }
}

function sine(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.sin(s[a + i]!);
    s[d + i + 1] = Math.sin(s[a + i + 1]!);
    s[d + i + 2] = Math.sin(s[a + i + 2]!);
    s[d + i + 3] = Math.sin(s[a + i + 3]!);
  }
}

function cosine(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.cos(s[a + i]!);
    s[d + i + 1] = Math.cos(s[a + i + 1]!);
    s[d + i + 2] = Math.cos(s[a + i + 2]!);
    s[d + i + 3] = Math.cos(s[a + i + 3]!);
  }
}

function saturate(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.min(Math.max(s[a + i]!, 0), 1);
    s[d + i + 1] = Math.min(Math.max(s[a + i + 1]!, 0), 1);
    s[d + i + 2] = Math.min(Math.max(s[a + i + 2]!, 0), 1);
    s[d + i + 3] = Math.min(Math.max(s[a + i + 3]!, 0), 1);
  }
}

function fraction(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const x0 = s[a + i]!;
    s[d + i] = x0 - Math.floor(x0);
    const x1 = s[a + i + 1]!;
    s[d + i + 1] = x1 - Math.floor(x1);
    const x2 = s[a + i + 2]!;
    s[d + i + 2] = x2 - Math.floor(x2);
    const x3 = s[a + i + 3]!;
    s[d + i + 3] = x3 - Math.floor(x3);
  }
}

function length(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const x = s[a + i]!,
      y = s[a + i + 1]!,
      z = s[a + i + 2]!,
      w = s[a + i + 3]!;
    const length = Math.sqrt(x * x + y * y + z * z + w * w);
    s[d + i] = length;
    s[d + i + 1] = length;
    s[d + i + 2] = length;
    s[d + i + 3] = length;
  }
}

function normalize(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const x = s[a + i]!,
      y = s[a + i + 1]!,
      z = s[a + i + 2]!,
      w = s[a + i + 3]!;
    const squared = x * x + y * y + z * z + w * w;
    const inverse = squared > 0 ? 1 / Math.sqrt(squared) : 0;
    s[d + i] = x * inverse;
    s[d + i + 1] = y * inverse;
    s[d + i + 2] = z * inverse;
    s[d + i + 3] = w * inverse;
  }
}

function noise(s: Float64Array, d: number, a: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const n = fieldNoise(s[a + i]!, s[a + i + 1]!, s[a + i + 2]!);
    s[d + i] = n;
    s[d + i + 1] = n;
    s[d + i + 2] = n;
    s[d + i + 3] = n;
  }
}

function lerp(s: Float64Array, d: number, a: number, b: number, c: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const x0 = s[a + i]!;
    s[d + i] = x0 + (s[b + i]! - x0) * s[c + i]!;
    const x1 = s[a + i + 1]!;
    s[d + i + 1] = x1 + (s[b + i + 1]! - x1) * s[c + i + 1]!;
    const x2 = s[a + i + 2]!;
    s[d + i + 2] = x2 + (s[b + i + 2]! - x2) * s[c + i + 2]!;
    const x3 = s[a + i + 3]!;
    s[d + i + 3] = x3 + (s[b + i + 3]! - x3) * s[c + i + 3]!;
  }
}

function clamp(s: Float64Array, d: number, a: number, b: number, c: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.min(Math.max(s[a + i]!, s[b + i]!), s[c + i]!);
    s[d + i + 1] = Math.min(Math.max(s[a + i + 1]!, s[b + i + 1]!), s[c + i + 1]!);
    s[d + i + 2] = Math.min(Math.max(s[a + i + 2]!, s[b + i + 2]!), s[c + i + 2]!);
    s[d + i + 3] = Math.min(Math.max(s[a + i + 3]!, s[b + i + 3]!), s[c + i + 3]!);
  }
}

function select(s: Float64Array, d: number, a: number, b: number, c: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! !== 0 ? s[b + i]! : s[c + i]!;
    s[d + i + 1] = s[a + i + 1]! !== 0 ? s[b + i + 1]! : s[c + i + 1]!;
    s[d + i + 2] = s[a + i + 2]! !== 0 ? s[b + i + 2]! : s[c + i + 2]!;
    s[d + i + 3] = s[a + i + 3]! !== 0 ? s[b + i + 3]! : s[c + i + 3]!;
  }
}

/** Every component of the result from the component of `a` the 2-bit fields of `pattern` name. */
export function swizzle(s: Float64Array, d: number, a: number, pattern: number, count4: number): void {
  const sx = pattern & 3,
    sy = (pattern >> 2) & 3,
    sz = (pattern >> 4) & 3,
    sw = (pattern >> 6) & 3;
  for (let i = 0; i < count4; i += 4) {
    const x = s[a + i + sx]!,
      y = s[a + i + sy]!,
      z = s[a + i + sz]!,
      w = s[a + i + sw]!;
    s[d + i] = x;
    s[d + i + 1] = y;
    s[d + i + 2] = z;
    s[d + i + 3] = w;
  }
}

/** Fills a register with one float4 (a constant-only instruction, computed once per chunk). */
export function fill(s: Float64Array, d: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = c0;
    s[d + i + 1] = c1;
    s[d + i + 2] = c2;
    s[d + i + 3] = c3;
  }
}

/** Kernels by the operation's base opcode. */
export const UNARY: UnaryKernel[] = [];
UNARY[OP_MOV] = move;
UNARY[OP_NEG] = negate;
UNARY[OP_ABS] = absolute;
UNARY[OP_FLOOR] = floor;
UNARY[OP_FRAC] = fraction;
UNARY[OP_SQRT] = squareRoot;
UNARY[OP_SIN] = sine;
UNARY[OP_COS] = cosine;
UNARY[OP_LENGTH] = length;
UNARY[OP_NORMALIZE] = normalize;
UNARY[OP_SATURATE] = saturate;
UNARY[OP_NOISE] = noise;

export const TERNARY: TernaryKernel[] = [];
TERNARY[OP_LERP] = lerp;
TERNARY[OP_CLAMP] = clamp;
TERNARY[OP_SELECT] = select;
