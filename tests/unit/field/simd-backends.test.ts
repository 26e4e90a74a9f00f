import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import {
  compileField,
  concatenatePrograms,
  evaluateField,
  fieldNoise,
  isWasmSimdSupported,
  setConstant,
  simdFieldPointBuffers,
  type FieldBackend,
  type FieldProgram,
} from '../../../src/field/index';
import { ARGUMENTS_OF_OPCODE, OPCODE_COUNT, OPERATION_OF_OPCODE } from '../../../src/field/opcodes';
import { createProgram } from '../../../src/field/program';
import { buildInterpreterModule } from '../../../src/field/simd-interpreter';
import { buildJitModule } from '../../../src/field/simd-jit';
import { SimdFieldMemory } from '../../../src/field/simd-memory';
import { SimdFieldRuntime } from '../../../src/field/simd-runtime';
import { noiseFloat32, referenceEvaluateFloat32, trigFloat32 } from './float32-twin';
import { firstMismatch, randomProgram } from './reference';

/**
 * The WebAssembly SIMD back ends against their TypeScript twins.
 *
 * Tolerance policy: the SIMD back ends compute in float32, rounding every step; the TypeScript VM
 * computes in float64 and rounds once, when it stores the wind. So (1) against a float32 twin of
 * semantics.ts (every step rounded, sin / cos by the documented polynomial, the same noise) both SIMD
 * back ends must give the same bits, NaN for NaN, on every opcode, random program and example, with
 * adversarial inputs; (2) against the float64 TypeScript VM they agree to float32 rounding: on the
 * example programs at realistic points within 1e-5 × (1 + |value|), sin and cos within 3e-7 absolute
 * for |x| ≤ 65536, noise within 2e-6 absolute for |coordinates| < 1000.
 */
const BACKENDS = ['simd-interpreter', 'simd-jit'] as const;
const SPECIALS = [Number.NaN, Infinity, -Infinity, 0, -0, 3e38, -3e38, 1e-40, -1e-40, 1, -1, 0.5, -2.5, 1e15, 3e9, 65536.5, 1e-20];

function run(program: FieldProgram, positions: Float32Array, wind: Float32Array, backend: FieldBackend, count = positions.length / 4): Float32Array {
  const out = wind.slice();
  evaluateField(program, positions, out, { backend, count });
  return out;
}

function twin(program: FieldProgram, positions: Float32Array, wind: Float32Array, count = positions.length / 4): Float32Array {
  const out = wind.slice();
  referenceEvaluateFloat32(program, positions, out, count);
  return out;
}

function expectSameBits(expected: Float32Array, actual: Float32Array, what: string): void {
  const at = firstMismatch(expected, actual);
  if (at >= 0) throw new Error(`${what}: float ${at} is ${actual[at]}, the float32 twin says ${expected[at]}`);
}

function randomValues(random: Random, count: number, spread: number, specials: number): Float32Array {
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const roll = random.next();
    values[i] = roll < specials ? SPECIALS[random.int(SPECIALS.length)]! : roll < specials + 0.1 ? random.int(7) - 3 : random.range(-spread, spread);
  }
  return values;
}

describe.runIf(isWasmSimdSupported())('WebAssembly SIMD field back ends', () => {
  it('the modules validate', () => {
    expect(WebAssembly.validate(buildInterpreterModule())).toBe(true);
    const program = compileField(readFileSync(fileURLToPath(new URL('../../../scenes/fields/turbulence.vf', import.meta.url)), 'utf8'));
    expect(WebAssembly.validate(buildJitModule(program))).toBe(true);
  });

  const OPCODE_SEED = 31337;
  it(`every opcode, every argument shape, random and adversarial values (seed ${OPCODE_SEED}): same bits as the float32 twin`, () => {
    const random = new Random(OPCODE_SEED);
    const count = 203; // a ragged last group of three
    for (let opcode = 0; opcode < OPCODE_COUNT; opcode++) {
      for (let trial = 0; trial < 3; trial++) {
        // r1 = op(arguments from r0, r1 and inline constants)
        const words: number[] = [opcode, 1];
        for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
          if (kind === 'r') words.push(random.int(2));
          else if (kind === 'i') words.push(random.int(256));
          else words.push(...new Uint32Array(randomValues(random, 4, 10, 0.3).buffer));
        }
        const program = createProgram(`opcode ${opcode}`, words, 2, 1, [], []);
        const spread = OPERATION_OF_OPCODE[opcode]!.name === 'noise' ? 300 : 10;
        const positions = randomValues(random, count * 4, spread, 0.25);
        const wind = randomValues(random, count * 4, spread, 0.25);
        const expected = twin(program, positions, wind);
        for (const backend of BACKENDS)
          expectSameBits(
            expected,
            run(program, positions, wind, backend),
            `${backend}, opcode ${opcode} (${OPERATION_OF_OPCODE[opcode]!.name}) trial ${trial}`,
          );
      }
    }
  });

  const PROGRAM_SEED = 9001;
  it(`random programs (seed ${PROGRAM_SEED}) at random and adversarial points: same bits as the float32 twin; patched constants seen without recompiling`, () => {
    const random = new Random(PROGRAM_SEED);
    for (let trial = 0; trial < 100; trial++) {
      const generated = randomProgram(random);
      const program = compileField(generated.source);
      const count = 1 + random.int(trial % 10 === 0 ? 1500 : 90);
      const positions = randomValues(random, count * 4, 6, trial % 3 === 0 ? 0.2 : 0);
      const wind = randomValues(random, count * 4, 2, trial % 3 === 0 ? 0.2 : 0);
      for (const backend of BACKENDS)
        expectSameBits(twin(program, positions, wind), run(program, positions, wind, backend), `${backend}, trial ${trial}\n${generated.source}`);
      if (generated.globals.size > 0) {
        for (const name of generated.globals.keys())
          setConstant(program, name, [random.range(-3, 3), random.range(-3, 3), random.range(-3, 3), random.range(-3, 3)]);
        for (const backend of BACKENDS)
          expectSameBits(twin(program, positions, wind), run(program, positions, wind, backend), `${backend} after setConstant, trial ${trial}`);
      }
    }
  });

  const fieldsFolder = fileURLToPath(new URL('../../../scenes/fields/', import.meta.url));
  const examples = readdirSync(fieldsFolder)
    .filter((name) => name.endsWith('.vf'))
    .map((name) => compileField(readFileSync(fieldsFolder + name, 'utf8'), { file: name }));
  const EXAMPLE_SEED = 4242;
  it(`every example program under scenes/fields, alone and superposed (seed ${EXAMPLE_SEED}): same bits as the twin, within 1e-5 × (1 + |value|) of the TypeScript VM`, () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const random = new Random(EXAMPLE_SEED);
    for (const program of [...examples, concatenatePrograms(examples)]) {
      const count = 2001;
      const positions = new Float32Array(count * 4);
      for (let i = 0; i < count; i++) positions.set([random.range(-40, 40), random.range(-5, 40), random.range(-40, 40), 0], i * 4);
      const wind = randomValues(random, count * 4, 3, 0);
      const typescript = run(program, positions, wind, 'interpreter');
      expectSameBits(typescript, run(program, positions, wind, 'jit'), `TypeScript JIT vs interpreter, ${program.name}`);
      const expected = twin(program, positions, wind);
      for (const backend of BACKENDS) {
        const actual = run(program, positions, wind, backend);
        expectSameBits(expected, actual, `${backend}, ${program.name}`);
        let worst = 0;
        for (let i = 0; i < count * 4; i++) worst = Math.max(worst, Math.abs(actual[i]! - typescript[i]!) / (1 + Math.abs(typescript[i]!)));
        expect(worst, `${backend}, ${program.name}`).toBeLessThan(1e-5);
      }
      // Adversarial points: NaN, infinities, zeros, denormals, huge.
      const special = randomValues(random, 400 * 4, 10, 0.6);
      const specialWind = wind.slice(0, 1600);
      for (const backend of BACKENDS)
        expectSameBits(twin(program, special, specialWind), run(program, special, specialWind, backend), `${backend}, ${program.name}, adversarial`);
    }
  });

  it('sin and cos: within 3e-7 of Math.sin / Math.cos for |x| ≤ 65536; NaN for NaN and ±Infinity; bounded beyond', () => {
    const program = compileField(`
      struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };
      struct vf_out { float4 wind : CHANNEL1; };
      void f(in vf_in in, out vf_out out) { out.wind = sin(in.position.xxxx) * float4(1,0,0,0) + cos(in.position.xxxx) * float4(0,1,0,0); }`);
    const random = new Random(5);
    const count = 20000;
    const positions = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) positions[i * 4] = i < 10000 ? random.range(-10, 10) : random.range(-65536, 65536);
    for (const backend of BACKENDS) {
      const out = run(program, positions, new Float32Array(count * 4), backend);
      let worst = 0;
      let unlikeTwin = 0;
      for (let i = 0; i < count; i++) {
        const x = positions[i * 4]!;
        worst = Math.max(worst, Math.abs(out[i * 4]! - Math.sin(x)), Math.abs(out[i * 4 + 1]! - Math.cos(x)));
        if (out[i * 4] !== trigFloat32(x, 0) || out[i * 4 + 1] !== trigFloat32(x, 1)) unlikeTwin++;
      }
      expect(worst, backend).toBeLessThan(3e-7);
      expect(unlikeTwin, backend).toBe(0);
      const extremes = Float32Array.from([Number.NaN, Infinity, -Infinity, 3e38, -1e30, 1e10].flatMap((x) => [x, 0, 0, 0]));
      const edge = run(program, extremes, new Float32Array(extremes.length), backend);
      expect([edge[0], edge[1], edge[4], edge[5], edge[8], edge[9]].every(Number.isNaN)).toBe(true);
      for (let i = 3; i < 6; i++) expect(Math.abs(edge[i * 4]!)).toBeLessThanOrEqual(1.01);
    }
  });

  it('noise: the float32 twin is within 2e-6 of fieldNoise for |coordinates| < 1000, NaN where fieldNoise says NaN', () => {
    const random = new Random(6);
    let worst = 0;
    for (let i = 0; i < 20000; i++) {
      const x = Math.fround(random.range(-1000, 1000)),
        y = Math.fround(random.range(-1000, 1000)),
        z = Math.fround(random.range(-1000, 1000));
      worst = Math.max(worst, Math.abs(noiseFloat32(x, y, z) - fieldNoise(x, y, z)));
    }
    expect(worst).toBeLessThan(2e-6);
    for (const x of SPECIALS.map(Math.fround)) expect(Number.isNaN(noiseFloat32(x, 0.5, 0.5))).toBe(Number.isNaN(fieldNoise(x, 0.5, 0.5)));
  });

  it('point buffers in the module memory are read and written in place, and survive memory growth', () => {
    const program = concatenatePrograms(examples);
    const count = 1003;
    const buffers = simdFieldPointBuffers(count)!;
    const random = new Random(8);
    for (let i = 0; i < count * 4; i++) {
      buffers.positions[i] = random.range(-20, 20);
      buffers.wind[i] = random.range(-1, 1);
    }
    const positions = buffers.positions.slice();
    const wind = buffers.wind.slice();
    for (const backend of BACKENDS) {
      buffers.wind.set(wind);
      evaluateField(program, buffers.positions, buffers.wind, { backend });
      expectSameBits(run(program, positions, wind, backend), buffers.wind, `${backend} in place`);
    }
    const before = buffers.wind.slice();
    const stale = buffers.wind;
    simdFieldPointBuffers(1 << 20); // 32 MiB more: the memory grows
    expect(stale.length).toBe(0);
    expectSameBits(before, buffers.wind, 'after growth');
  });

  it('memory blocks: released ones are reused first-fit before the memory grows', () => {
    const memory = new SimdFieldMemory();
    const a = memory.reserve(1000);
    const b = memory.reserve(64);
    expect(a % 16).toBe(0);
    expect(b).toBeGreaterThanOrEqual(a + 1000);
    memory.release(a, 1000);
    const size = memory.memory.buffer.byteLength;
    expect(memory.reserve(500)).toBe(a);
    expect(memory.reserve(400)).toBe(a + 512);
    expect(memory.reserve(200)).toBeGreaterThan(b);
    expect(memory.memory.buffer.byteLength).toBe(size);
    const region = memory.region('test', 100);
    expect(memory.region('test', 50)).toBe(region);
    expect(memory.region('test', 10_000_000)).not.toBe(region);
    expect(memory.memory.buffer.byteLength).toBeGreaterThan(size);
  });

  it('a fresh runtime compiles each program once and reuses the module for an identical program', () => {
    const runtime = new SimdFieldRuntime();
    const [a, b] = [examples[0]!, compileField(readFileSync(fieldsFolder + readdirSync(fieldsFolder).filter((n) => n.endsWith('.vf'))[0]!, 'utf8'))];
    const positions = new Float32Array(16).fill(1);
    const wind = new Float32Array(16);
    expect(runtime.evaluate(a, positions, wind, 4, 'jit')).toBe(0);
    expect(runtime.evaluate(b, positions, wind, 4, 'jit')).toBe(0);
    expect(runtime.evaluate(a, positions, wind, 4, 'interpreter')).toBeGreaterThan(0);
  });

  it('the adversarial grid of the TypeScript back-end tests (NaN, ±Infinity, ±0, ±3e38, denormals): same bits as the twin', () => {
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
      const expected = twin(program, positions, wind);
      for (const backend of BACKENDS) expectSameBits(expected, run(program, positions, wind, backend), `${backend}, trial ${trial}`);
    }
  });
});
