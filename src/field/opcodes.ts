/**
 * The instruction set. An operation (add, dot, select…) becomes one opcode per combination of register
 * and constant arguments, so an executor never tests at run time where an argument lives:
 *
 *   two-argument operations   4 opcodes each, base + variant: 0 = (reg, reg), 1 = (reg, const),
 *                             2 = (const, reg), 3 = (const, const)
 *   one-argument operations   2 opcodes each: base + 0 = (reg), base + 1 = (const)
 *   swizzle                   1 opcode: (reg, pattern)
 *   three-argument operations 1 opcode each, registers only; the compiler loads constant arguments
 *                             into temporaries with `mov` (eight variants each would buy little)
 *
 * The first six operations keep the numbers of the reference write-up, so its raw dump of the whirl
 * effect (`05000000 02000000 00000000 …` = `r2 = sub r0 (0,10,0,0)`) is byte for byte ours too.
 */

export type OperationKind = 'binary' | 'unary' | 'swizzle' | 'ternary';

export interface Operation {
  readonly name: OperationName;
  readonly kind: OperationKind;
  /** The opcode of the all-register variant; the others follow it. */
  readonly base: number;
}

const BINARY_NAMES = ['add', 'sub', 'mul', 'div', 'dot', 'cross', 'min', 'max', 'lt', 'le', 'gt', 'ge', 'eq', 'ne'] as const;
const UNARY_NAMES = ['mov', 'neg', 'abs', 'floor', 'frac', 'sqrt', 'sin', 'cos', 'length', 'normalize', 'saturate', 'noise'] as const;
const TERNARY_NAMES = ['lerp', 'clamp', 'select'] as const;

export type BinaryName = (typeof BINARY_NAMES)[number];
export type UnaryName = (typeof UNARY_NAMES)[number];
export type TernaryName = (typeof TERNARY_NAMES)[number];
export type OperationName = BinaryName | UnaryName | TernaryName | 'swizzle';

function buildOperations(): Operation[] {
  const list: Operation[] = [];
  let next = 0;
  for (const name of BINARY_NAMES) {
    list.push({ name, kind: 'binary', base: next });
    next += 4;
  }
  for (const name of UNARY_NAMES) {
    list.push({ name, kind: 'unary', base: next });
    next += 2;
  }
  list.push({ name: 'swizzle', kind: 'swizzle', base: next++ });
  for (const name of TERNARY_NAMES) list.push({ name, kind: 'ternary', base: next++ });
  return list;
}

export const OPERATIONS: readonly Operation[] = buildOperations();

const last = OPERATIONS[OPERATIONS.length - 1]!;
export const OPCODE_COUNT = last.base + 1;

const byName = new Map<OperationName, Operation>(OPERATIONS.map((operation) => [operation.name, operation]));

export function operationNamed(name: OperationName): Operation {
  return byName.get(name)!;
}

/** Which operation an opcode belongs to, indexed by opcode. */
export const OPERATION_OF_OPCODE: readonly Operation[] = (() => {
  const table: Operation[] = [];
  for (const operation of OPERATIONS) {
    const span = operation.kind === 'binary' ? 4 : operation.kind === 'unary' ? 2 : 1;
    for (let v = 0; v < span; v++) table[operation.base + v] = operation;
  }
  return table;
})();

/** Argument shapes: `r` a register (1 word), `c` an inline float4 constant (4 words), `i` an immediate word. */
export type ArgumentKind = 'r' | 'c' | 'i';

/** The argument shapes of every opcode, indexed by opcode. */
export const ARGUMENTS_OF_OPCODE: readonly (readonly ArgumentKind[])[] = (() => {
  const table: ArgumentKind[][] = [];
  for (const operation of OPERATIONS) {
    const base = operation.base;
    if (operation.kind === 'binary') {
      table[base] = ['r', 'r'];
      table[base + 1] = ['r', 'c'];
      table[base + 2] = ['c', 'r'];
      table[base + 3] = ['c', 'c'];
    } else if (operation.kind === 'unary') {
      table[base] = ['r'];
      table[base + 1] = ['c'];
    } else if (operation.kind === 'swizzle') {
      table[base] = ['r', 'i'];
    } else {
      table[base] = ['r', 'r', 'r'];
    }
  }
  return table;
})();

/** Words an instruction with this opcode occupies: opcode, result, then its arguments. */
export function instructionWords(opcode: number): number {
  let words = 2;
  for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) words += kind === 'c' ? 4 : 1;
  return words;
}

// Opcodes the executors switch on. Binary ones are the (reg, reg) variant; add 1 (reg, const), 2 (const, reg).
export const OP_ADD = 0;
export const OP_SUB = 4;
export const OP_MUL = 8;
export const OP_DIV = 12;
export const OP_DOT = 16;
export const OP_CROSS = 20;
export const OP_MIN = 24;
export const OP_MAX = 28;
export const OP_LT = 32;
export const OP_LE = 36;
export const OP_GT = 40;
export const OP_GE = 44;
export const OP_EQ = 48;
export const OP_NE = 52;
export const OP_MOV = 56;
export const OP_NEG = 58;
export const OP_ABS = 60;
export const OP_FLOOR = 62;
export const OP_FRAC = 64;
export const OP_SQRT = 66;
export const OP_SIN = 68;
export const OP_COS = 70;
export const OP_LENGTH = 72;
export const OP_NORMALIZE = 74;
export const OP_SATURATE = 76;
export const OP_NOISE = 78;
export const OP_SWIZZLE = 80;
export const OP_LERP = 81;
export const OP_CLAMP = 82;
export const OP_SELECT = 83;
