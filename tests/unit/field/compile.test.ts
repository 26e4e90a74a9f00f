import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FieldSemanticError,
  FieldSyntaxError,
  compileField,
  disassemble,
  evaluateField,
  getConstant,
  hashConstantName,
  setConstant,
  type FieldProgram,
} from '../../../src/field/index';
import { InvalidParameterError } from '../../../src/errors';

const fields = new URL('../../../scenes/fields/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, fields), 'utf8');

/** Little-endian hex of each instruction, spaced as in the reference's dump. */
function hexInstructions(program: FieldProgram): string[] {
  const bytes = new Uint8Array(program.words.buffer);
  const hex = (word: number): string => Array.from(bytes.subarray(word * 4, word * 4 + 4), (b) => b.toString(16).padStart(2, '0')).join('');
  const lines: string[] = [];
  const listing = disassemble(program).split('\n');
  let word = 0;
  for (const line of listing) {
    const parts = line.split(' ').slice(3);
    const fields = [hex(word), hex(word + 1)];
    word += 2;
    for (const part of parts) {
      if (part.startsWith('(')) {
        fields.push([0, 1, 2, 3].map((k) => hex(word + k)).join(''));
        word += 4;
      } else {
        fields.push(hex(word));
        word += 1;
      }
    }
    lines.push(fields.join(' '));
  }
  return lines;
}

describe('compiler: the reference whirl', () => {
  const whirl = compileField(read('whirl.vf'));

  it('compiles to the seven instructions of the reference disassembly', () => {
    expect(disassemble(whirl)).toBe(
      [
        'r2 = sub r0 (0,10,0,0)',
        'r3 = cross (0,0,1,0) r2',
        'r4 = mul (10,10,10,10) r3',
        'r3 = dot r2 r2',
        'r5 = div r4 r3',
        'r3 = mul r5 (5,5,5,5)',
        'r1 = add r1 r3',
      ].join('\n'),
    );
    expect(whirl.instructionCount).toBe(7);
    expect(whirl.registerCount).toBe(6);
  });

  it('matches the reference raw bytes, word for word', () => {
    expect(hexInstructions(whirl)).toEqual([
      '05000000 02000000 00000000 00000000000020410000000000000000',
      '16000000 03000000 00000000000000000000803f00000000 02000000',
      '0a000000 04000000 00002041000020410000204100002041 03000000',
      '10000000 03000000 02000000 02000000',
      '0c000000 05000000 04000000 03000000',
      '09000000 03000000 05000000 0000a0400000a0400000a0400000a040',
      '00000000 01000000 01000000 03000000',
    ]);
  });

  it('lists one patch per inline copy of each global', () => {
    const pairs: [number, number][] = [];
    for (let i = 0; i < whirl.patches.length; i += 2) pairs.push([whirl.patches[i]!, whirl.patches[i + 1]!]);
    expect(pairs).toEqual([
      [hashConstantName('center'), 3],
      [hashConstantName('up'), 9],
      [hashConstantName('speed'), 16],
      [hashConstantName('radius'), 32],
    ]);
  });
});

describe('constant patching', () => {
  it('setConstant rewrites every inline copy in place and nothing else', () => {
    const program = compileField(`
      const float4 k = float4(1,2,3,4);
      struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };
      struct vf_out { float4 wind : CHANNEL1; };
      void f(in vf_in in, out vf_out out) {
        float4 a = in.position * k + float4(1,1,1,1);
        out.wind = in.wind + a - k;
      }`);
    const before = Uint32Array.from(program.words);
    setConstant(program, 'k', [5, 6, 7, 8]);
    expect(disassemble(program)).toBe(['r3 = mul r0 (5,6,7,8)', 'r2 = add r3 (1,1,1,1)', 'r3 = add r1 r2', 'r1 = sub r3 (5,6,7,8)'].join('\n'));
    const changed = [...program.words].map((word, i) => (word === before[i] ? -1 : i)).filter((i) => i >= 0);
    expect(changed.length).toBe(8);
    expect(getConstant(program, 'k')).toEqual([5, 6, 7, 8]);
    setConstant(program, 'k', 0.5);
    expect(getConstant(program, 'k')).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(program.version).toBe(2);
  });

  it('never folds patchable globals, but folds literals', () => {
    const program = compileField(`
      const float4 a = float4(2,2,2,2);
      const float4 b = 3 * 4 + 1;
      struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };
      struct vf_out { float4 wind : CHANNEL1; };
      void f(in vf_in in, out vf_out out) {
        out.wind = in.wind + a * b * (2 * 3 - float4(1,2,3,4).wzyx);
      }`);
    expect(disassemble(program)).toBe(['r2 = mul (2,2,2,2) (13,13,13,13)', 'r3 = mul r2 (2,3,4,5)', 'r1 = add r1 r3'].join('\n'));
    setConstant(program, 'b', 1);
    const positions = new Float32Array(4);
    const wind = new Float32Array(4);
    evaluateField(program, positions, wind, { backend: 'interpreter' });
    expect([...wind]).toEqual([4, 6, 8, 10]);
  });

  it('rejects unknown names and bad values with typed errors', () => {
    const program = compileField(read('whirl.vf'));
    expect(() => setConstant(program, 'radious', 1)).toThrow(InvalidParameterError);
    expect(() => setConstant(program, 'radius', Number.NaN)).toThrow(InvalidParameterError);
    expect(() => setConstant(program, 'radius', [1, 2, 3])).toThrow(InvalidParameterError);
    expect(() => setConstant(program, 'radius', 1e39)).toThrow(InvalidParameterError);
    expect(getConstant(program, 'radius')).toEqual([5, 5, 5, 5]);
  });
});

describe('register allocation', () => {
  it('recycles temporaries: a long chain needs no more registers than a short one', () => {
    const body = (terms: number): string =>
      `struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };
       struct vf_out { float4 wind : CHANNEL1; };
       void f(in vf_in in, out vf_out out) { out.wind = in.wind ${' + sin(in.position) * 2'.repeat(terms)}; }`;
    expect(compileField(body(2)).registerCount).toBe(compileField(body(40)).registerCount);
  });

  it('writes a local straight from its last instruction, and copies only plain values', () => {
    const program = compileField(`
      struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };
      struct vf_out { float4 wind : CHANNEL1; };
      void f(in vf_in in, out vf_out out) {
        float4 a = in.position;
        float4 b = 7;
        a = a.yxzw;
        out.wind += a * b;
      }`);
    expect(disassemble(program)).toBe(['r2 = mov r0', 'r3 = mov (7,7,7,7)', 'r2 = swizzle r2 .yxzw', 'r4 = mul r2 r3', 'r1 = add r1 r4'].join('\n'));
  });
});

describe('example programs', () => {
  for (const name of ['whirl', 'explosion', 'updraft', 'constant-wind', 'turbulence']) {
    it(`${name}.vf compiles and gives finite wind away from singular points`, () => {
      const program = compileField(read(`${name}.vf`), { file: `${name}.vf` });
      const positions = Float32Array.from({ length: 64 * 4 }, (_, i) => (i % 4 === 3 ? 0 : (((i * 7919) % 23) - 11.5) * 0.6));
      const wind = new Float32Array(64 * 4);
      evaluateField(program, positions, wind);
      expect(wind.every(Number.isFinite)).toBe(true);
      expect(wind.some((v) => v !== 0)).toBe(true);
    });
  }
});

interface BadProgram {
  readonly name: string;
  readonly source: string;
  readonly error: typeof FieldSyntaxError | typeof FieldSemanticError;
  readonly line: number;
  readonly column: number;
  readonly message: RegExp;
}

const HEAD = 'struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };\nstruct vf_out { float4 wind : CHANNEL1; };\n';
const wrap = (body: string): string => `${HEAD}void f(in vf_in in, out vf_out out) {\n${body}\n}`;

const BAD: readonly BadProgram[] = [
  {
    name: 'bad character',
    source: wrap('  out.wind = in.wind # 2;'),
    error: FieldSyntaxError,
    line: 4,
    column: 22,
    message: /unexpected character '#'/,
  },
  {
    name: 'missing semicolon',
    source: wrap('  float4 a = in.position\n  out.wind = a;'),
    error: FieldSyntaxError,
    line: 5,
    column: 3,
    message: /expected an operator or ';' before 'out'/,
  },
  {
    name: 'unclosed parenthesis',
    source: wrap('  out.wind = in.wind * (2 + 3;'),
    error: FieldSyntaxError,
    line: 4,
    column: 24,
    message: /never closed; add '\)'/,
  },
  {
    name: 'stray parenthesis',
    source: wrap('  out.wind = in.wind * 2);'),
    error: FieldSyntaxError,
    line: 4,
    column: 25,
    message: /no matching '\('/,
  },
  { name: 'dangling operator', source: wrap('  out.wind = in.wind + ;'), error: FieldSyntaxError, line: 4, column: 24, message: /expected a value/ },
  {
    name: 'unknown name',
    source: wrap('  out.wind = in.wind + radius;'),
    error: FieldSemanticError,
    line: 4,
    column: 24,
    message: /unknown name 'radius'/,
  },
  {
    name: 'misspelt member',
    source: wrap('  out.wind = in.postion;'),
    error: FieldSemanticError,
    line: 4,
    column: 17,
    message: /did you mean 'position'/,
  },
  {
    name: 'unknown function',
    source: wrap('  out.wind = normalise(in.wind);'),
    error: FieldSemanticError,
    line: 4,
    column: 14,
    message: /did you mean 'normalize'/,
  },
  {
    name: 'wrong argument count',
    source: wrap('  out.wind = dot(in.wind);'),
    error: FieldSemanticError,
    line: 4,
    column: 14,
    message: /dot takes 2 arguments/,
  },
  {
    name: 'chained comparison',
    source: wrap('  out.wind = in.wind < 1 < 2;'),
    error: FieldSemanticError,
    line: 4,
    column: 26,
    message: /do not chain/,
  },
  { name: 'write to input', source: wrap('  in.wind = 1;'), error: FieldSemanticError, line: 4, column: 3, message: /read-only/ },
  { name: 'read of output', source: wrap('  out.wind = out.wind + 1;'), error: FieldSemanticError, line: 4, column: 14, message: /write-only/ },
  {
    name: 'input read after its channel was written',
    source: wrap('  out.wind = 1;\n  out.wind += in.wind;'),
    error: FieldSemanticError,
    line: 5,
    column: 15,
    message: /copy it into a local/,
  },
  {
    name: 'output never written',
    source: wrap('  float4 a = 1;'),
    error: FieldSemanticError,
    line: 3,
    column: 6,
    message: /out.wind is never written/,
  },
  {
    name: 'redeclared local',
    source: wrap('  float4 a = 1;\n  float4 a = 2;\n  out.wind = a;'),
    error: FieldSemanticError,
    line: 5,
    column: 10,
    message: /already declared/,
  },
  {
    name: 'self-referencing local',
    source: wrap('  float4 a = a + 1;\n  out.wind = a;'),
    error: FieldSemanticError,
    line: 4,
    column: 14,
    message: /unknown name 'a'/,
  },
  {
    name: 'non-literal global',
    source: `const float4 a = 1;\nconst float4 b = a * 2;\n${wrap('  out.wind = b;')}`,
    error: FieldSemanticError,
    line: 2,
    column: 18,
    message: /literal numbers/,
  },
  {
    name: 'vector from values',
    source: wrap('  out.wind = float4(in.wind.x, 0, 0, 0);'),
    error: FieldSemanticError,
    line: 4,
    column: 14,
    message: /add scaled axes/,
  },
  {
    name: 'two-letter swizzle',
    source: wrap('  out.wind = in.wind.xy;'),
    error: FieldSemanticError,
    line: 4,
    column: 22,
    message: /one letter .* or four/,
  },
  {
    name: 'unbound channel',
    source: 'struct vf_in { float4 heat : CHANNEL2; };',
    error: FieldSemanticError,
    line: 1,
    column: 30,
    message: /CHANNEL2 is not bound/,
  },
  {
    name: 'writing the position',
    source: 'struct vf_out { float4 p : CHANNEL0; };',
    error: FieldSemanticError,
    line: 1,
    column: 28,
    message: /cannot write/,
  },
  { name: 'no function', source: HEAD, error: FieldSemanticError, line: 3, column: 1, message: /no function/ },
  {
    name: 'two functions',
    source: wrap('  out.wind = 1;') + '\nvoid g(in vf_in in, out vf_out out) { out.wind = 1; }',
    error: FieldSemanticError,
    line: 6,
    column: 1,
    message: /one function/,
  },
  { name: 'unclosed comment', source: '/* nothing\n\n', error: FieldSyntaxError, line: 1, column: 1, message: /never closed/ },
  { name: 'number out of range', source: wrap('  out.wind = 1e39;'), error: FieldSemanticError, line: 4, column: 14, message: /out of float range/ },
  {
    name: 'unclosed body',
    source: `${HEAD}void f(in vf_in in, out vf_out out) {\n  out.wind = 1;\n`,
    error: FieldSyntaxError,
    line: 5,
    column: 1,
    message: /never closed/,
  },
];

describe('compile errors', () => {
  for (const bad of BAD) {
    it(`${bad.name}: ${bad.error.name} at ${bad.line}:${bad.column}`, () => {
      let caught: unknown;
      try {
        compileField(bad.source, { file: 'bad.vf' });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(bad.error);
      const error = caught as FieldSyntaxError;
      expect(error.message).toMatch(bad.message);
      expect([error.line, error.column]).toEqual([bad.line, bad.column]);
      expect(error.message.startsWith(`bad.vf:${bad.line}:${bad.column}: `)).toBe(true);
    });
  }

  it('never leaves a half-compiled program behind: every prefix of a valid program either compiles or throws a compile error', () => {
    const source = read('explosion.vf');
    for (let end = 0; end < source.length; end += 3) {
      try {
        compileField(source.slice(0, end));
      } catch (error) {
        expect(error instanceof FieldSyntaxError || error instanceof FieldSemanticError).toBe(true);
      }
    }
  });
});
