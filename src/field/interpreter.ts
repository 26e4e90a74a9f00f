import { InvalidParameterError } from '../errors';
import { binaryConstantRegister, binaryRegisterConstant, binaryRegisterRegister } from './kernels-binary';
import { fill, swizzle, ternary, unaryRegister } from './kernels-unary';
import { OPERATION_OF_OPCODE, instructionWords } from './opcodes';
import type { FieldProgram } from './program';
import { scratchBytesPerPoint, type FieldScratch } from './scratch';
import { applyOperation } from './semantics';

const KIND_BINARY = 0;
const KIND_UNARY = 1;
const KIND_SWIZZLE = 2;
const KIND_TERNARY = 3;
const KIND_CODES = { binary: KIND_BINARY, unary: KIND_UNARY, swizzle: KIND_SWIZZLE, ternary: KIND_TERNARY } as const;
/** Per opcode: operation kind, the operation's base opcode, the variant and the instruction's length. */
const KIND_OF = Uint8Array.from(OPERATION_OF_OPCODE, (operation) => KIND_CODES[operation.kind]);
const BASE_OF = Uint8Array.from(OPERATION_OF_OPCODE, (operation) => operation.base);
const LENGTH_OF = Uint8Array.from(OPERATION_OF_OPCODE, (_, opcode) => instructionWords(opcode));

const constantA = new Float64Array(4);
const constantB = new Float64Array(4);
const folded = new Float64Array(4);

/**
 * The bytecode interpreter: decodes each instruction once per chunk and runs it over every point of
 * the chunk before the next, so decoding is amortised over hundreds of points. Registers live in the
 * caller's scratch (register r at offset r × chunk × 4); r0 and r1 are copied in from the position and
 * wind arrays per chunk and r1 copied back. Returns the scratch bytes used. Expects validated bytecode.
 */
export function interpretField(program: FieldProgram, positions: Float32Array, wind: Float32Array, count: number, scratch: FieldScratch): number {
  const registerCount = program.registerCount;
  const s = scratch.values;
  const fit = Math.floor(s.length / (registerCount * 4));
  if (fit < 1) {
    throw new InvalidParameterError('scratch', `at least ${scratchBytesPerPoint(registerCount)} bytes (${registerCount} registers × 32 bytes for one point)`, scratch.bytes);
  }
  const chunk = Math.min(fit, Math.max(count, 1));
  const stride = chunk * 4;
  const words = program.words;
  const floats = program.floats;
  const end = words.length;

  for (let start = 0; start < count; start += chunk) {
    const points = Math.min(chunk, count - start);
    const count4 = points * 4;
    const base = start * 4;
    for (let i = 0; i < count4; i++) {
      s[i] = positions[base + i]!;
      s[stride + i] = wind[base + i]!;
    }
    let pc = 0;
    while (pc < end) {
      const opcode = words[pc]!;
      const operationBase = BASE_OF[opcode]!;
      const d = words[pc + 1]! * stride;
      switch (KIND_OF[opcode]) {
        case KIND_BINARY: {
          const variant = opcode - operationBase;
          if (variant === 0) {
            binaryRegisterRegister(operationBase, s, d, words[pc + 2]! * stride, words[pc + 3]! * stride, count4);
          } else if (variant === 1) {
            binaryRegisterConstant(operationBase, s, d, words[pc + 2]! * stride, floats[pc + 3]!, floats[pc + 4]!, floats[pc + 5]!, floats[pc + 6]!, count4);
          } else if (variant === 2) {
            binaryConstantRegister(operationBase, s, d, floats[pc + 2]!, floats[pc + 3]!, floats[pc + 4]!, floats[pc + 5]!, words[pc + 6]! * stride, count4);
          } else {
            // Two patchable constants: the same value for every point, so compute it once.
            for (let k = 0; k < 4; k++) {
              constantA[k] = floats[pc + 2 + k]!;
              constantB[k] = floats[pc + 6 + k]!;
            }
            applyOperation(OPERATION_OF_OPCODE[opcode]!.name, constantA, constantB, undefined, 0, folded);
            fill(s, d, folded[0]!, folded[1]!, folded[2]!, folded[3]!, count4);
          }
          break;
        }
        case KIND_UNARY:
          if (opcode === operationBase) {
            unaryRegister(operationBase, s, d, words[pc + 2]! * stride, count4);
          } else {
            for (let k = 0; k < 4; k++) constantA[k] = floats[pc + 2 + k]!;
            applyOperation(OPERATION_OF_OPCODE[opcode]!.name, constantA, undefined, undefined, 0, folded);
            fill(s, d, folded[0]!, folded[1]!, folded[2]!, folded[3]!, count4);
          }
          break;
        case KIND_SWIZZLE:
          swizzle(s, d, words[pc + 2]! * stride, words[pc + 3]!, count4);
          break;
        default:
          ternary(operationBase, s, d, words[pc + 2]! * stride, words[pc + 3]! * stride, words[pc + 4]! * stride, count4);
      }
      pc += LENGTH_OF[opcode]!;
    }
    for (let i = 0; i < count4; i++) wind[base + i] = s[stride + i]!;
  }
  return chunk * scratchBytesPerPoint(registerCount);
}
