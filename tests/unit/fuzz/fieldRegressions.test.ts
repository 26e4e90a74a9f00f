import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileField } from '../../../src/field/compile';
import { FieldBytecodeError, FieldSemanticError } from '../../../src/field/errors';
import { createProgram, MAX_INSTRUCTIONS } from '../../../src/field/program';
import { validateBytecode } from '../../../src/field/validate';

const updraft = readFileSync(new URL('../../../scenes/fields/updraft.vf', import.meta.url), 'utf8');

/** Minimal cases the field-program fuzzer found. */
describe('field program fuzz regressions', () => {
  it('refuses a program past MAX_INSTRUCTIONS at the statement that crosses it (200,000 negations overflowed the JIT)', () => {
    // `saturate(1 - - - … - x)`: every minus one more instruction.
    const text = updraft.replace('saturate(1 -', `saturate(1 ${'-'.repeat(2 * MAX_INSTRUCTIONS)}`);
    expect(text).not.toBe(updraft);
    let error: unknown;
    try {
      compileField(text, { file: 'updraft.vf' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FieldSemanticError);
    expect((error as FieldSemanticError).message).toMatch(/^updraft\.vf:\d+:\d+: the program reaches \d+ instructions here, more than the 4096/);
  });

  it('refuses hand-made bytecode past MAX_INSTRUCTIONS before any back end sees it', () => {
    // A valid program's bytecode repeated past the limit: valid instruction by instruction, too long as a whole.
    const small = compileField(updraft, { file: 'updraft.vf' });
    const words = [...small.words];
    const body: number[] = [];
    while (body.length / words.length <= MAX_INSTRUCTIONS / small.instructionCount) body.push(...words);
    const count = small.instructionCount * (body.length / words.length);
    const big = createProgram(small.name, body, small.registerCount, count, [], []);
    expect(() => validateBytecode(big)).toThrow(FieldBytecodeError);
    expect(() => validateBytecode(big)).toThrow(/more than 4096/);
  });

  it('refuses an unknown name a million characters long (the did-you-mean hint skips names of very different length)', () => {
    const text = updraft.replace('saturate(1 -', `saturate(${'x'.repeat(1_000_000)} -`);
    expect(() => compileField(text, { file: 'updraft.vf' })).toThrow(/updraft\.vf:\d+:\d+: /);
  });
});
