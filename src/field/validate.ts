import { FieldBytecodeError } from './errors';
import { ARGUMENTS_OF_OPCODE, OPCODE_COUNT, instructionWords } from './opcodes';
import { MAX_INSTRUCTIONS, MAX_REGISTERS, POSITION_REGISTER, type FieldProgram } from './program';

const validated = new WeakSet<FieldProgram>();

/**
 * Checks bytecode before anything runs it: every opcode known, every instruction inside the buffer,
 * every register below the program's register count, no write to the position register, every patch
 * pointing at an inline constant. The JIT only ever sees bytecode that passed. Remembered per program
 * object: its words change only through setConstant, which cannot break any of these rules.
 */
export function validateBytecode(program: FieldProgram): void {
  if (validated.has(program)) return;
  const { words, registerCount, patches } = program;
  if (!Number.isInteger(registerCount) || registerCount < 2 || registerCount > MAX_REGISTERS) {
    throw new FieldBytecodeError(`register count ${registerCount} is outside [2, ${MAX_REGISTERS}]`, 0);
  }
  const constantOffsets = new Set<number>();
  let pc = 0;
  let instructions = 0;
  while (pc < words.length) {
    const opcode = words[pc]!;
    if (opcode >= OPCODE_COUNT) throw new FieldBytecodeError(`unknown opcode ${opcode}`, pc);
    if (pc + instructionWords(opcode) > words.length) throw new FieldBytecodeError('instruction runs past the end of the bytecode', pc);
    const result = words[pc + 1]!;
    if (result >= registerCount) throw new FieldBytecodeError(`result register r${result} is not below ${registerCount}`, pc + 1);
    if (result === POSITION_REGISTER) throw new FieldBytecodeError('writes r0, the read-only position channel', pc + 1);
    let at = pc + 2;
    for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
      if (kind === 'r') {
        if (words[at]! >= registerCount) throw new FieldBytecodeError(`argument register r${words[at]} is not below ${registerCount}`, at);
        at += 1;
      } else if (kind === 'c') {
        constantOffsets.add(at);
        at += 4;
      } else {
        if (words[at]! > 255) throw new FieldBytecodeError(`swizzle pattern ${words[at]} is not a byte`, at);
        at += 1;
      }
    }
    pc = at;
    instructions++;
  }
  if (instructions > MAX_INSTRUCTIONS) throw new FieldBytecodeError(`holds ${instructions} instructions, more than ${MAX_INSTRUCTIONS}`, 0);
  if (instructions !== program.instructionCount)
    throw new FieldBytecodeError(`holds ${instructions} instructions, the program says ${program.instructionCount}`, 0);
  if (patches.length % 2 !== 0) throw new FieldBytecodeError('the patch list has an odd length', 0);
  for (let i = 1; i < patches.length; i += 2) {
    if (!constantOffsets.has(patches[i]!)) throw new FieldBytecodeError('a patch entry does not point at an inline constant', patches[i]!);
  }
  validated.add(program);
}
