import { OP_ADD, OP_CROSS, OP_DIV, OP_DOT, OP_EQ, OP_GE, OP_GT, OP_LE, OP_LT, OP_MAX, OP_MIN, OP_MUL, OP_NE, OP_SUB } from './opcodes';

/**
 * The interpreter's two-argument kernels: one instruction over a chunk of points. Registers are
 * offsets into one Float64Array of scratch (4 values per point); `count4` is 4 × points. Loops step a
 * point at a time with the four components spelt out: V8 runs that about twice as fast as a flat
 * component loop over offset indices. Each formula
 * is spelt exactly as in semantics.ts, in the same order, so results are bit-identical to it. Where a
 * result may alias an argument (`r2 = cross r2 r3`), a point's arguments are all read before it is written.
 */

export function binaryRegisterRegister(op: number, s: Float64Array, d: number, a: number, b: number, count4: number): void {
  switch (op) {
    case OP_ADD: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! + s[b + i]!; s[d + i + 1] = s[a + i + 1]! + s[b + i + 1]!; s[d + i + 2] = s[a + i + 2]! + s[b + i + 2]!; s[d + i + 3] = s[a + i + 3]! + s[b + i + 3]!; } return;
    case OP_SUB: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! - s[b + i]!; s[d + i + 1] = s[a + i + 1]! - s[b + i + 1]!; s[d + i + 2] = s[a + i + 2]! - s[b + i + 2]!; s[d + i + 3] = s[a + i + 3]! - s[b + i + 3]!; } return;
    case OP_MUL: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! * s[b + i]!; s[d + i + 1] = s[a + i + 1]! * s[b + i + 1]!; s[d + i + 2] = s[a + i + 2]! * s[b + i + 2]!; s[d + i + 3] = s[a + i + 3]! * s[b + i + 3]!; } return;
    case OP_DIV: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! / s[b + i]!; s[d + i + 1] = s[a + i + 1]! / s[b + i + 1]!; s[d + i + 2] = s[a + i + 2]! / s[b + i + 2]!; s[d + i + 3] = s[a + i + 3]! / s[b + i + 3]!; } return;
    case OP_MIN: for (let i = 0; i < count4; i += 4) { s[d + i] = Math.min(s[a + i]!, s[b + i]!); s[d + i + 1] = Math.min(s[a + i + 1]!, s[b + i + 1]!); s[d + i + 2] = Math.min(s[a + i + 2]!, s[b + i + 2]!); s[d + i + 3] = Math.min(s[a + i + 3]!, s[b + i + 3]!); } return;
    case OP_MAX: for (let i = 0; i < count4; i += 4) { s[d + i] = Math.max(s[a + i]!, s[b + i]!); s[d + i + 1] = Math.max(s[a + i + 1]!, s[b + i + 1]!); s[d + i + 2] = Math.max(s[a + i + 2]!, s[b + i + 2]!); s[d + i + 3] = Math.max(s[a + i + 3]!, s[b + i + 3]!); } return;
    case OP_LT: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! < s[b + i]! ? 1 : 0; s[d + i + 1] = s[a + i + 1]! < s[b + i + 1]! ? 1 : 0; s[d + i + 2] = s[a + i + 2]! < s[b + i + 2]! ? 1 : 0; s[d + i + 3] = s[a + i + 3]! < s[b + i + 3]! ? 1 : 0; } return;
    case OP_LE: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! <= s[b + i]! ? 1 : 0; s[d + i + 1] = s[a + i + 1]! <= s[b + i + 1]! ? 1 : 0; s[d + i + 2] = s[a + i + 2]! <= s[b + i + 2]! ? 1 : 0; s[d + i + 3] = s[a + i + 3]! <= s[b + i + 3]! ? 1 : 0; } return;
    case OP_GT: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! > s[b + i]! ? 1 : 0; s[d + i + 1] = s[a + i + 1]! > s[b + i + 1]! ? 1 : 0; s[d + i + 2] = s[a + i + 2]! > s[b + i + 2]! ? 1 : 0; s[d + i + 3] = s[a + i + 3]! > s[b + i + 3]! ? 1 : 0; } return;
    case OP_GE: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! >= s[b + i]! ? 1 : 0; s[d + i + 1] = s[a + i + 1]! >= s[b + i + 1]! ? 1 : 0; s[d + i + 2] = s[a + i + 2]! >= s[b + i + 2]! ? 1 : 0; s[d + i + 3] = s[a + i + 3]! >= s[b + i + 3]! ? 1 : 0; } return;
    case OP_EQ: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! === s[b + i]! ? 1 : 0; s[d + i + 1] = s[a + i + 1]! === s[b + i + 1]! ? 1 : 0; s[d + i + 2] = s[a + i + 2]! === s[b + i + 2]! ? 1 : 0; s[d + i + 3] = s[a + i + 3]! === s[b + i + 3]! ? 1 : 0; } return;
    case OP_NE: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! !== s[b + i]! ? 1 : 0; s[d + i + 1] = s[a + i + 1]! !== s[b + i + 1]! ? 1 : 0; s[d + i + 2] = s[a + i + 2]! !== s[b + i + 2]! ? 1 : 0; s[d + i + 3] = s[a + i + 3]! !== s[b + i + 3]! ? 1 : 0; } return;
    case OP_DOT:
      for (let i = 0; i < count4; i += 4) {
        const dot = s[a + i]! * s[b + i]! + s[a + i + 1]! * s[b + i + 1]! + s[a + i + 2]! * s[b + i + 2]! + s[a + i + 3]! * s[b + i + 3]!;
        s[d + i] = dot;
        s[d + i + 1] = dot;
        s[d + i + 2] = dot;
        s[d + i + 3] = dot;
      }
      return;
    case OP_CROSS:
      for (let i = 0; i < count4; i += 4) {
        const ax = s[a + i]!, ay = s[a + i + 1]!, az = s[a + i + 2]!;
        const bx = s[b + i]!, by = s[b + i + 1]!, bz = s[b + i + 2]!;
        s[d + i] = ay * bz - az * by;
        s[d + i + 1] = az * bx - ax * bz;
        s[d + i + 2] = ax * by - ay * bx;
        s[d + i + 3] = 0;
      }
      return;
  }
  throw new Error(`binary kernel for opcode ${op} missing`);
}

/** `r = op(register, constant)`. Also serves (constant, register) for symmetric ops and mirrored comparisons. */
export function binaryRegisterConstant(op: number, s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  switch (op) {
    case OP_ADD: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! + c0; s[d + i + 1] = s[a + i + 1]! + c1; s[d + i + 2] = s[a + i + 2]! + c2; s[d + i + 3] = s[a + i + 3]! + c3; } return;
    case OP_SUB: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! - c0; s[d + i + 1] = s[a + i + 1]! - c1; s[d + i + 2] = s[a + i + 2]! - c2; s[d + i + 3] = s[a + i + 3]! - c3; } return;
    case OP_MUL: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! * c0; s[d + i + 1] = s[a + i + 1]! * c1; s[d + i + 2] = s[a + i + 2]! * c2; s[d + i + 3] = s[a + i + 3]! * c3; } return;
    case OP_DIV: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! / c0; s[d + i + 1] = s[a + i + 1]! / c1; s[d + i + 2] = s[a + i + 2]! / c2; s[d + i + 3] = s[a + i + 3]! / c3; } return;
    case OP_MIN: for (let i = 0; i < count4; i += 4) { s[d + i] = Math.min(s[a + i]!, c0); s[d + i + 1] = Math.min(s[a + i + 1]!, c1); s[d + i + 2] = Math.min(s[a + i + 2]!, c2); s[d + i + 3] = Math.min(s[a + i + 3]!, c3); } return;
    case OP_MAX: for (let i = 0; i < count4; i += 4) { s[d + i] = Math.max(s[a + i]!, c0); s[d + i + 1] = Math.max(s[a + i + 1]!, c1); s[d + i + 2] = Math.max(s[a + i + 2]!, c2); s[d + i + 3] = Math.max(s[a + i + 3]!, c3); } return;
    case OP_LT: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! < c0 ? 1 : 0; s[d + i + 1] = s[a + i + 1]! < c1 ? 1 : 0; s[d + i + 2] = s[a + i + 2]! < c2 ? 1 : 0; s[d + i + 3] = s[a + i + 3]! < c3 ? 1 : 0; } return;
    case OP_LE: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! <= c0 ? 1 : 0; s[d + i + 1] = s[a + i + 1]! <= c1 ? 1 : 0; s[d + i + 2] = s[a + i + 2]! <= c2 ? 1 : 0; s[d + i + 3] = s[a + i + 3]! <= c3 ? 1 : 0; } return;
    case OP_GT: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! > c0 ? 1 : 0; s[d + i + 1] = s[a + i + 1]! > c1 ? 1 : 0; s[d + i + 2] = s[a + i + 2]! > c2 ? 1 : 0; s[d + i + 3] = s[a + i + 3]! > c3 ? 1 : 0; } return;
    case OP_GE: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! >= c0 ? 1 : 0; s[d + i + 1] = s[a + i + 1]! >= c1 ? 1 : 0; s[d + i + 2] = s[a + i + 2]! >= c2 ? 1 : 0; s[d + i + 3] = s[a + i + 3]! >= c3 ? 1 : 0; } return;
    case OP_EQ: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! === c0 ? 1 : 0; s[d + i + 1] = s[a + i + 1]! === c1 ? 1 : 0; s[d + i + 2] = s[a + i + 2]! === c2 ? 1 : 0; s[d + i + 3] = s[a + i + 3]! === c3 ? 1 : 0; } return;
    case OP_NE: for (let i = 0; i < count4; i += 4) { s[d + i] = s[a + i]! !== c0 ? 1 : 0; s[d + i + 1] = s[a + i + 1]! !== c1 ? 1 : 0; s[d + i + 2] = s[a + i + 2]! !== c2 ? 1 : 0; s[d + i + 3] = s[a + i + 3]! !== c3 ? 1 : 0; } return;
    case OP_DOT:
      for (let i = 0; i < count4; i += 4) {
        const dot = s[a + i]! * c0 + s[a + i + 1]! * c1 + s[a + i + 2]! * c2 + s[a + i + 3]! * c3;
        s[d + i] = dot;
        s[d + i + 1] = dot;
        s[d + i + 2] = dot;
        s[d + i + 3] = dot;
      }
      return;
    case OP_CROSS:
      for (let i = 0; i < count4; i += 4) {
        const ax = s[a + i]!, ay = s[a + i + 1]!, az = s[a + i + 2]!;
        s[d + i] = ay * c2 - az * c1;
        s[d + i + 1] = az * c0 - ax * c2;
        s[d + i + 2] = ax * c1 - ay * c0;
        s[d + i + 3] = 0;
      }
      return;
  }
  throw new Error(`binary kernel for opcode ${op} missing`);
}

/** What `op(constant, register)` equals as `op'(register, constant)`, or -1 when no such rewrite is exact. */
const MIRRORED: ReadonlyMap<number, number> = new Map([
  [OP_ADD, OP_ADD], [OP_MUL, OP_MUL], [OP_MIN, OP_MIN], [OP_MAX, OP_MAX], [OP_EQ, OP_EQ], [OP_NE, OP_NE], [OP_DOT, OP_DOT],
  [OP_LT, OP_GT], [OP_GT, OP_LT], [OP_LE, OP_GE], [OP_GE, OP_LE],
]);

/** `r = op(constant, register)`. Symmetric ops and comparisons reuse the (register, constant) kernels. */
export function binaryConstantRegister(op: number, s: Float64Array, d: number, c0: number, c1: number, c2: number, c3: number, b: number, count4: number): void {
  const mirrored = MIRRORED.get(op);
  if (mirrored !== undefined) {
    binaryRegisterConstant(mirrored, s, d, b, c0, c1, c2, c3, count4);
    return;
  }
  switch (op) {
    case OP_SUB: for (let i = 0; i < count4; i += 4) { s[d + i] = c0 - s[b + i]!; s[d + i + 1] = c1 - s[b + i + 1]!; s[d + i + 2] = c2 - s[b + i + 2]!; s[d + i + 3] = c3 - s[b + i + 3]!; } return;
    case OP_DIV: for (let i = 0; i < count4; i += 4) { s[d + i] = c0 / s[b + i]!; s[d + i + 1] = c1 / s[b + i + 1]!; s[d + i + 2] = c2 / s[b + i + 2]!; s[d + i + 3] = c3 / s[b + i + 3]!; } return;
    case OP_CROSS:
      for (let i = 0; i < count4; i += 4) {
        const bx = s[b + i]!, by = s[b + i + 1]!, bz = s[b + i + 2]!;
        s[d + i] = c1 * bz - c2 * by;
        s[d + i + 1] = c2 * bx - c0 * bz;
        s[d + i + 2] = c0 * by - c1 * bx;
        s[d + i + 3] = 0;
      }
      return;
  }
  throw new Error(`binary kernel for opcode ${op} missing`);
}
