/** The vector-field language: compiler, bytecode tools and back ends. */
export { compileField, type CompileOptions } from './compile';
export { disassemble, formatFloat32, type DisassembleOptions } from './disassemble';
export { setConstant, getConstant } from './constants';
export {
  evaluateField,
  simdFieldPointBuffers,
  evaluateFieldPlanes,
  fieldPointPlanes,
  type FieldPointPlanes,
  simdFieldUnavailableReason,
  FIELD_BACKENDS,
  FIELD_BACKEND_LABELS,
  type FieldBackend,
  type EvaluateFieldOptions,
} from './evaluate';
export { isWasmSimdSupported } from '../platform/simdSupport';
export type { SimdPointBuffers } from './simd-memory';
export { createFieldScratch, scratchBytesPerPoint, DEFAULT_SCRATCH_BYTES, type FieldScratch } from './scratch';
export { concatenatePrograms, FieldSuperposition, type FieldEffect } from './superpose';
export { validateBytecode } from './validate';
export { generateKernelSource, isJitAvailable } from './jit';
export { fieldNoise } from './noise3';
export { tokenize, type Token, type TokenKind } from './lexer';
export { FieldCompileError, FieldSyntaxError, FieldSemanticError, FieldBytecodeError } from './errors';
export { hashConstantName, MAX_REGISTERS, MAX_INSTRUCTIONS, type FieldProgram, type FieldConstant } from './program';
export { OPERATIONS, OPCODE_COUNT, type Operation, type OperationName } from './opcodes';
export { handWrittenWhirlExplosion, handWrittenWhirlExplosionFloat4, type WhirlParameters, type ExplosionParameters } from './handwritten';
