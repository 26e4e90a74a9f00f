import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import { InvalidParameterError } from '../../../src/errors';
import {
  FieldBytecodeError,
  compileField,
  createFieldScratch,
  evaluateField,
  scratchBytesPerPoint,
  setConstant,
  type FieldBackend,
  type FieldProgram,
} from '../../../src/field/index';
import { createProgram } from '../../../src/field/program';
import { firstMismatch, randomProgram, referenceEvaluate } from './reference';

function randomPoints(random: Random, count: number, spread: number): { positions: Float32Array; wind: Float32Array } {
  const positions = new Float32Array(count * 4);
  const wind = new Float32Array(count * 4);
  for (let i = 0; i < count * 4; i++) {
    // Mostly generic values, with exact small integers and zeros mixed in to hit ties and edges.
    const roll = random.next();
    positions[i] = roll < 0.1 ? 0 : roll < 0.25 ? random.int(7) - 3 : random.range(-spread, spread);
    wind[i] = random.next() < 0.2 ? 0 : random.range(-2, 2);
  }
  return { positions, wind };
}

function run(program: FieldProgram, positions: Float32Array, wind: Float32Array, backend: FieldBackend, scratchBytes?: number): Float32Array {
  const out = wind.slice();
  evaluateField(program, positions, out, scratchBytes === undefined ? { backend } : { backend, scratch: createFieldScratch(scratchBytes) });
  return out;
}

describe('back ends agree with the brute-force references', () => {
  const SEED = 9001;
  it(`random programs (seed ${SEED}): source meaning = per-point bytecode walk = interpreter = JIT, bit for bit`, () => {
    const random = new Random(SEED);
    let compared = 0;
    let finite = 0;
    for (let trial = 0; trial < 250; trial++) {
      const generated = randomProgram(random);
      const program = compileField(generated.source);
      const count = 1 + random.int(90);
      const { positions, wind } = randomPoints(random, count, 6);

      // The program's meaning straight from its expression trees, no compiler involved.
      const expected = wind.slice();
      for (let point = 0; point < count; point++) {
        const result = generated.evaluate(
          Float64Array.from(positions.subarray(point * 4, point * 4 + 4)),
          Float64Array.from(wind.subarray(point * 4, point * 4 + 4)),
          generated.globals,
        );
        for (let k = 0; k < 4; k++) expected[point * 4 + k] = result[k]!;
      }
      const walked = wind.slice();
      referenceEvaluate(program, positions, walked, count);
      const interpreted = run(program, positions, wind, 'interpreter');
      // A budget for a few points only, so the interpreter works through many chunks and a ragged last one.
      const chunked = run(program, positions, wind, 'interpreter', scratchBytesPerPoint(program.registerCount) * (1 + random.int(7)));
      const compiled = run(program, positions, wind, 'jit');
      for (const [name, actual] of [
        ['bytecode walk', walked],
        ['interpreter', interpreted],
        ['chunked interpreter', chunked],
        ['JIT', compiled],
      ] as const) {
        const at = firstMismatch(expected, actual);
        if (at >= 0) throw new Error(`trial ${trial}: ${name} gives ${actual[at]} at float ${at}, expected ${expected[at]}\n${generated.source}`);
      }
      compared += count * 4;
      finite += expected.filter(Number.isFinite).length;
    }
    // The generator must produce mostly meaningful numbers, or the bitwise checks prove little.
    expect(finite / compared).toBeGreaterThan(0.6);
  });

  const PATCH_SEED = 77;
  it(`random programs after setConstant (seed ${PATCH_SEED}): both back ends see the new values without recompiling`, () => {
    const random = new Random(PATCH_SEED);
    let patched = 0;
    for (let trial = 0; trial < 120; trial++) {
      const generated = randomProgram(random);
      if (generated.globals.size === 0) continue;
      const program = compileField(generated.source);
      const { positions, wind } = randomPoints(random, 24, 4);
      run(program, positions, wind, 'jit'); // compile the kernel before the patch
      const values = new Map(generated.globals);
      for (const name of generated.globals.keys()) {
        const value = Float64Array.of(random.range(-3, 3), random.range(-3, 3), random.range(-3, 3), random.range(-3, 3)).map(Math.fround);
        setConstant(program, name, value);
        values.set(name, value);
      }
      const expected = wind.slice();
      for (let point = 0; point < 24; point++) {
        const result = generated.evaluate(
          Float64Array.from(positions.subarray(point * 4, point * 4 + 4)),
          Float64Array.from(wind.subarray(point * 4, point * 4 + 4)),
          values,
        );
        for (let k = 0; k < 4; k++) expected[point * 4 + k] = result[k]!;
      }
      expect(firstMismatch(expected, run(program, positions, wind, 'jit'))).toBe(-1);
      expect(firstMismatch(expected, run(program, positions, wind, 'interpreter'))).toBe(-1);
      patched++;
    }
    expect(patched).toBeGreaterThan(50);
  });

  it('adversarial values: NaN, ±Infinity, ±0, huge and tiny inputs give the same bits everywhere', () => {
    const specials = [Number.NaN, Infinity, -Infinity, 0, -0, 3e38, -3e38, 1e-40, 1, -1];
    const count = specials.length * specials.length;
    const positions = new Float32Array(count * 4);
    const wind = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) {
      const a = specials[i % specials.length]!;
      const b = specials[Math.floor(i / specials.length)]!;
      positions.set([a, b, a, 0], i * 4);
      wind.set([b, a, 0, b], i * 4);
    }
    const random = new Random(4242);
    for (let trial = 0; trial < 60; trial++) {
      const program = compileField(randomProgram(random).source);
      const walked = wind.slice();
      referenceEvaluate(program, positions, walked, count);
      expect(firstMismatch(walked, run(program, positions, wind, 'interpreter', 64 * 7))).toBe(-1);
      expect(firstMismatch(walked, run(program, positions, wind, 'jit'))).toBe(-1);
    }
  });
});

describe('scratch memory', () => {
  const program = compileField(`
    struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };
    struct vf_out { float4 wind : CHANNEL1; };
    void f(in vf_in in, out vf_out out) { out.wind = in.wind + sin(in.position) * cos(in.position.yzxw) + 1; }`);

  it('uses no more than its budget whatever the number of points', () => {
    const budget = 4096;
    const scratch = createFieldScratch(budget);
    for (const count of [1, 10, 1000, 20000]) {
      const positions = new Float32Array(count * 4).fill(0.5);
      const wind = new Float32Array(count * 4);
      const used = evaluateField(program, positions, wind, { backend: 'interpreter', scratch });
      expect(used).toBeLessThanOrEqual(budget);
      expect(used).toBeGreaterThan(0);
      expect(used % scratchBytesPerPoint(program.registerCount)).toBe(0);
    }
  });

  it('refuses a budget too small for one point, leaving the output alone', () => {
    const wind = Float32Array.of(1, 2, 3, 4);
    expect(() => evaluateField(program, new Float32Array(4), wind, { backend: 'interpreter', scratch: createFieldScratch(32) })).toThrow(
      InvalidParameterError,
    );
    expect([...wind]).toEqual([1, 2, 3, 4]);
  });
});

describe('bad input', () => {
  const program = compileField(`
    struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };
    struct vf_out { float4 wind : CHANNEL1; };
    void f(in vf_in in, out vf_out out) { out.wind = in.wind + in.position; }`);

  it('rejects mismatched buffers and counts', () => {
    expect(() => evaluateField(program, new Float32Array(6), new Float32Array(8))).toThrow(InvalidParameterError);
    expect(() => evaluateField(program, new Float32Array(8), new Float32Array(4))).toThrow(InvalidParameterError);
    expect(() => evaluateField(program, new Float32Array(8), new Float32Array(8), { count: 3 })).toThrow(InvalidParameterError);
    expect(() => evaluateField(program, new Float32Array(8), new Float32Array(8), { count: -1 })).toThrow(InvalidParameterError);
    expect(() => evaluateField(program, new Float32Array(8), new Float32Array(8), { backend: 'gpu' as FieldBackend })).toThrow(InvalidParameterError);
    expect(() => evaluateField(program, [1, 2, 3, 4] as unknown as Float32Array, new Float32Array(4))).toThrow(InvalidParameterError);
  });

  it('refuses corrupted bytecode before running it, in either back end', () => {
    const corruptions: ((words: Uint32Array) => void)[] = [
      (words) => (words[0] = 999), // unknown opcode
      (words) => (words[1] = 0), // writes the position
      (words) => (words[1] = 40), // result register out of range
      (words) => (words[2] = 40), // argument register out of range
    ];
    for (const corrupt of corruptions) {
      for (const backend of ['interpreter', 'jit'] as const) {
        const words = Uint32Array.from(program.words);
        corrupt(words);
        const broken = createProgram('broken', words, program.registerCount, program.instructionCount, program.patches, program.constants);
        const wind = new Float32Array(4);
        expect(() => evaluateField(broken, new Float32Array(4), wind, { backend })).toThrow(FieldBytecodeError);
      }
    }
    const truncated = createProgram('truncated', program.words.subarray(0, 3), program.registerCount, 1, [], []);
    expect(() => evaluateField(truncated, new Float32Array(4), new Float32Array(4))).toThrow(FieldBytecodeError);
    const badPatch = createProgram('bad patch', program.words, program.registerCount, program.instructionCount, [1, 1], []);
    expect(() => evaluateField(badPatch, new Float32Array(4), new Float32Array(4))).toThrow(FieldBytecodeError);
  });
});
