import { OP_ADD, OP_CROSS, OP_DIV, OP_DOT, OP_EQ, OP_GE, OP_GT, OP_LE, OP_LT, OP_MAX, OP_MIN, OP_MUL, OP_NE, OP_SUB } from './opcodes';

/**
 * The interpreter's two-argument kernels: one instruction over a chunk of points. Registers are
 * offsets into one Float64Array of scratch (4 values per point); `count4` is 4 × points. Each operation
 * and argument shape has its own small function, looked up by opcode: V8 optimises a small function
 * with one loop much better than one big switch of loops (about 1.7× on this machine), and loops step
 * a point at a time with the four components spelt out, about twice as fast as a flat component loop.
 * Formulas are spelt exactly as in semantics.ts, in the same order, so results are bit-identical to
 * it. Where a result may alias an argument (`r2 = cross r2 r3`), a point's arguments are all read
 * before it is written.
 */
export type RegisterRegisterKernel = (s: Float64Array, d: number, a: number, b: number, count4: number) => void;
export type RegisterConstantKernel = (s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number) => void;
export type ConstantRegisterKernel = (s: Float64Array, d: number, c0: number, c1: number, c2: number, c3: number, b: number, count4: number) => void;

function addRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! + s[b + i]!;
    s[d + i + 1] = s[a + i + 1]! + s[b + i + 1]!;
    s[d + i + 2] = s[a + i + 2]! + s[b + i + 2]!;
    s[d + i + 3] = s[a + i + 3]! + s[b + i + 3]!;
  }
}

function addRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! + c0;
    s[d + i + 1] = s[a + i + 1]! + c1;
    s[d + i + 2] = s[a + i + 2]! + c2;
    s[d + i + 3] = s[a + i + 3]! + c3;
  }
}

function subRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! - s[b + i]!;
    s[d + i + 1] = s[a + i + 1]! - s[b + i + 1]!;
    s[d + i + 2] = s[a + i + 2]! - s[b + i + 2]!;
    s[d + i + 3] = s[a + i + 3]! - s[b + i + 3]!;
  }
}

function subRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! - c0;
    s[d + i + 1] = s[a + i + 1]! - c1;
    s[d + i + 2] = s[a + i + 2]! - c2;
    s[d + i + 3] = s[a + i + 3]! - c3;
  }
}

function mulRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! * s[b + i]!;
    s[d + i + 1] = s[a + i + 1]! * s[b + i + 1]!;
    s[d + i + 2] = s[a + i + 2]! * s[b + i + 2]!;
    s[d + i + 3] = s[a + i + 3]! * s[b + i + 3]!;
  }
}

function mulRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! * c0;
    s[d + i + 1] = s[a + i + 1]! * c1;
    s[d + i + 2] = s[a + i + 2]! * c2;
    s[d + i + 3] = s[a + i + 3]! * c3;
  }
}

function divRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! / s[b + i]!;
    s[d + i + 1] = s[a + i + 1]! / s[b + i + 1]!;
    s[d + i + 2] = s[a + i + 2]! / s[b + i + 2]!;
    s[d + i + 3] = s[a + i + 3]! / s[b + i + 3]!;
  }
}

function divRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! / c0;
    s[d + i + 1] = s[a + i + 1]! / c1;
    s[d + i + 2] = s[a + i + 2]! / c2;
    s[d + i + 3] = s[a + i + 3]! / c3;
  }
}

function minRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.min(s[a + i]!, s[b + i]!);
    s[d + i + 1] = Math.min(s[a + i + 1]!, s[b + i + 1]!);
    s[d + i + 2] = Math.min(s[a + i + 2]!, s[b + i + 2]!);
    s[d + i + 3] = Math.min(s[a + i + 3]!, s[b + i + 3]!);
  }
}

function minRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.min(s[a + i]!, c0);
    s[d + i + 1] = Math.min(s[a + i + 1]!, c1);
    s[d + i + 2] = Math.min(s[a + i + 2]!, c2);
    s[d + i + 3] = Math.min(s[a + i + 3]!, c3);
  }
}

function maxRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.max(s[a + i]!, s[b + i]!);
    s[d + i + 1] = Math.max(s[a + i + 1]!, s[b + i + 1]!);
    s[d + i + 2] = Math.max(s[a + i + 2]!, s[b + i + 2]!);
    s[d + i + 3] = Math.max(s[a + i + 3]!, s[b + i + 3]!);
  }
}

function maxRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = Math.max(s[a + i]!, c0);
    s[d + i + 1] = Math.max(s[a + i + 1]!, c1);
    s[d + i + 2] = Math.max(s[a + i + 2]!, c2);
    s[d + i + 3] = Math.max(s[a + i + 3]!, c3);
  }
}

function lessThanRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! < s[b + i]! ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! < s[b + i + 1]! ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! < s[b + i + 2]! ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! < s[b + i + 3]! ? 1 : 0;
  }
}

function lessThanRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! < c0 ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! < c1 ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! < c2 ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! < c3 ? 1 : 0;
  }
}

function lessEqualRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! <= s[b + i]! ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! <= s[b + i + 1]! ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! <= s[b + i + 2]! ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! <= s[b + i + 3]! ? 1 : 0;
  }
}

function lessEqualRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! <= c0 ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! <= c1 ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! <= c2 ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! <= c3 ? 1 : 0;
  }
}

function greaterThanRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! > s[b + i]! ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! > s[b + i + 1]! ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! > s[b + i + 2]! ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! > s[b + i + 3]! ? 1 : 0;
  }
}

function greaterThanRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! > c0 ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! > c1 ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! > c2 ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! > c3 ? 1 : 0;
  }
}

function greaterEqualRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! >= s[b + i]! ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! >= s[b + i + 1]! ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! >= s[b + i + 2]! ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! >= s[b + i + 3]! ? 1 : 0;
  }
}

function greaterEqualRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! >= c0 ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! >= c1 ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! >= c2 ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! >= c3 ? 1 : 0;
  }
}

function equalRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! === s[b + i]! ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! === s[b + i + 1]! ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! === s[b + i + 2]! ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! === s[b + i + 3]! ? 1 : 0;
  }
}

function equalRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! === c0 ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! === c1 ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! === c2 ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! === c3 ? 1 : 0;
  }
}

function notEqualRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! !== s[b + i]! ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! !== s[b + i + 1]! ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! !== s[b + i + 2]! ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! !== s[b + i + 3]! ? 1 : 0;
  }
}

function notEqualRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = s[a + i]! !== c0 ? 1 : 0;
    s[d + i + 1] = s[a + i + 1]! !== c1 ? 1 : 0;
    s[d + i + 2] = s[a + i + 2]! !== c2 ? 1 : 0;
    s[d + i + 3] = s[a + i + 3]! !== c3 ? 1 : 0;
  }
}

function subCR(s: Float64Array, d: number, c0: number, c1: number, c2: number, c3: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = c0 - s[b + i]!;
    s[d + i + 1] = c1 - s[b + i + 1]!;
    s[d + i + 2] = c2 - s[b + i + 2]!;
    s[d + i + 3] = c3 - s[b + i + 3]!;
  }
}

function divCR(s: Float64Array, d: number, c0: number, c1: number, c2: number, c3: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    s[d + i] = c0 / s[b + i]!;
    s[d + i + 1] = c1 / s[b + i + 1]!;
    s[d + i + 2] = c2 / s[b + i + 2]!;
    s[d + i + 3] = c3 / s[b + i + 3]!;
  }
}

function dotRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const dot = s[a + i]! * s[b + i]! + s[a + i + 1]! * s[b + i + 1]! + s[a + i + 2]! * s[b + i + 2]! + s[a + i + 3]! * s[b + i + 3]!;
    s[d + i] = dot;
    s[d + i + 1] = dot;
    s[d + i + 2] = dot;
    s[d + i + 3] = dot;
  }
}
function dotRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const dot = s[a + i]! * c0 + s[a + i + 1]! * c1 + s[a + i + 2]! * c2 + s[a + i + 3]! * c3;
    s[d + i] = dot;
    s[d + i + 1] = dot;
    s[d + i + 2] = dot;
    s[d + i + 3] = dot;
  }
}
function crossRR(s: Float64Array, d: number, a: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const ax = s[a + i]!,
      ay = s[a + i + 1]!,
      az = s[a + i + 2]!;
    const bx = s[b + i]!,
      by = s[b + i + 1]!,
      bz = s[b + i + 2]!;
    s[d + i] = ay * bz - az * by;
    s[d + i + 1] = az * bx - ax * bz;
    s[d + i + 2] = ax * by - ay * bx;
    s[d + i + 3] = 0;
  }
}
function crossRC(s: Float64Array, d: number, a: number, c0: number, c1: number, c2: number, _c3: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const ax = s[a + i]!,
      ay = s[a + i + 1]!,
      az = s[a + i + 2]!;
    s[d + i] = ay * c2 - az * c1;
    s[d + i + 1] = az * c0 - ax * c2;
    s[d + i + 2] = ax * c1 - ay * c0;
    s[d + i + 3] = 0;
  }
}
function crossCR(s: Float64Array, d: number, c0: number, c1: number, c2: number, _c3: number, b: number, count4: number): void {
  for (let i = 0; i < count4; i += 4) {
    const bx = s[b + i]!,
      by = s[b + i + 1]!,
      bz = s[b + i + 2]!;
    s[d + i] = c1 * bz - c2 * by;
    s[d + i + 1] = c2 * bx - c0 * bz;
    s[d + i + 2] = c0 * by - c1 * bx;
    s[d + i + 3] = 0;
  }
}

/** `op(constant, register)` as `op'(register, constant)`: exact for symmetric ops and mirrored comparisons. */
function mirrored(kernel: RegisterConstantKernel): ConstantRegisterKernel {
  return (s, d, c0, c1, c2, c3, b, count4) => kernel(s, d, b, c0, c1, c2, c3, count4);
}

/** Kernels by the operation's base opcode (the all-register variant). */
export const REGISTER_REGISTER: RegisterRegisterKernel[] = [];
export const REGISTER_CONSTANT: RegisterConstantKernel[] = [];
export const CONSTANT_REGISTER: ConstantRegisterKernel[] = [];

REGISTER_REGISTER[OP_ADD] = addRR;
REGISTER_CONSTANT[OP_ADD] = addRC;

REGISTER_REGISTER[OP_SUB] = subRR;
REGISTER_CONSTANT[OP_SUB] = subRC;

REGISTER_REGISTER[OP_MUL] = mulRR;
REGISTER_CONSTANT[OP_MUL] = mulRC;

REGISTER_REGISTER[OP_DIV] = divRR;
REGISTER_CONSTANT[OP_DIV] = divRC;

REGISTER_REGISTER[OP_MIN] = minRR;
REGISTER_CONSTANT[OP_MIN] = minRC;

REGISTER_REGISTER[OP_MAX] = maxRR;
REGISTER_CONSTANT[OP_MAX] = maxRC;

REGISTER_REGISTER[OP_LT] = lessThanRR;
REGISTER_CONSTANT[OP_LT] = lessThanRC;

REGISTER_REGISTER[OP_LE] = lessEqualRR;
REGISTER_CONSTANT[OP_LE] = lessEqualRC;

REGISTER_REGISTER[OP_GT] = greaterThanRR;
REGISTER_CONSTANT[OP_GT] = greaterThanRC;

REGISTER_REGISTER[OP_GE] = greaterEqualRR;
REGISTER_CONSTANT[OP_GE] = greaterEqualRC;

REGISTER_REGISTER[OP_EQ] = equalRR;
REGISTER_CONSTANT[OP_EQ] = equalRC;

REGISTER_REGISTER[OP_NE] = notEqualRR;
REGISTER_CONSTANT[OP_NE] = notEqualRC;

REGISTER_REGISTER[OP_DOT] = dotRR;
REGISTER_CONSTANT[OP_DOT] = dotRC;
REGISTER_REGISTER[OP_CROSS] = crossRR;
REGISTER_CONSTANT[OP_CROSS] = crossRC;

CONSTANT_REGISTER[OP_SUB] = subCR;
CONSTANT_REGISTER[OP_DIV] = divCR;
CONSTANT_REGISTER[OP_CROSS] = crossCR;
for (const op of [OP_ADD, OP_MUL, OP_MIN, OP_MAX, OP_EQ, OP_NE, OP_DOT]) CONSTANT_REGISTER[op] = mirrored(REGISTER_CONSTANT[op]!);
CONSTANT_REGISTER[OP_LT] = mirrored(greaterThanRC);
CONSTANT_REGISTER[OP_GT] = mirrored(lessThanRC);
CONSTANT_REGISTER[OP_LE] = mirrored(greaterEqualRC);
CONSTANT_REGISTER[OP_GE] = mirrored(lessEqualRC);
