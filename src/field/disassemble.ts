import { ARGUMENTS_OF_OPCODE, OPCODE_COUNT, OPERATION_OF_OPCODE, instructionWords } from './opcodes';
import type { FieldProgram } from './program';

export interface DisassembleOptions {
  /** Append `; name` to instructions holding a patchable constant, naming it. */
  annotateConstants?: boolean;
}

/** Shortest decimal text that reads back as the same float32. */
export function formatFloat32(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Object.is(value, -0)) return '-0';
  for (let digits = 1; digits < 10; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) return String(Number(text));
  }
  return String(value);
}

const SWIZZLE_LETTERS = 'xyzw';

/**
 * One line per instruction, in the reference's notation: `r2 = sub r0 (0,10,0,0)`. Swizzles print their
 * pattern (`r3 = swizzle r2 .yxzw`). Throws nothing: an unknown opcode prints as `?? opcode N` and stops.
 */
export function disassemble(program: FieldProgram, options: DisassembleOptions = {}): string {
  const { words, floats } = program;
  const names = new Map<number, string>();
  if (options.annotateConstants === true) {
    const byHash = new Map(program.constants.map((constant) => [constant.hash, constant.name]));
    for (let i = 0; i < program.patches.length; i += 2) names.set(program.patches[i + 1]!, byHash.get(program.patches[i]!) ?? '?');
  }
  const lines: string[] = [];
  let pc = 0;
  while (pc < words.length) {
    const opcode = words[pc]!;
    if (opcode >= OPCODE_COUNT || pc + instructionWords(opcode) > words.length) {
      lines.push(`?? opcode ${opcode} at word ${pc}`);
      break;
    }
    const parts = [`r${words[pc + 1]!} = ${OPERATION_OF_OPCODE[opcode]!.name}`];
    const notes: string[] = [];
    let at = pc + 2;
    for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
      if (kind === 'r') {
        parts.push(`r${words[at]!}`);
        at += 1;
      } else if (kind === 'c') {
        parts.push(`(${[0, 1, 2, 3].map((k) => formatFloat32(floats[at + k]!)).join(',')})`);
        const name = names.get(at);
        if (name !== undefined) notes.push(name);
        at += 4;
      } else {
        const pattern = words[at]!;
        parts.push('.' + [0, 1, 2, 3].map((k) => SWIZZLE_LETTERS[(pattern >> (2 * k)) & 3]).join(''));
        at += 1;
      }
    }
    lines.push(parts.join(' ') + (notes.length > 0 ? `  ; ${notes.join(', ')}` : ''));
    pc = at;
  }
  return lines.join('\n');
}
