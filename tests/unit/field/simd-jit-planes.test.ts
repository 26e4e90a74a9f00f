import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import {
  compileField,
  concatenatePrograms,
  evaluateField,
  evaluateFieldPlanes,
  FieldSuperposition,
  fieldPointPlanes,
  isWasmSimdSupported,
  setConstant,
  type FieldBackend,
  type FieldProgram,
} from '../../../src/field/index';
import { ARGUMENTS_OF_OPCODE, OPCODE_COUNT, OPERATION_OF_OPCODE } from '../../../src/field/opcodes';
import { createProgram } from '../../../src/field/program';
import { buildJitModule } from '../../../src/field/simd-jit';
import { referenceEvaluateFloat32 } from './float32-twin';
import { firstMismatch, randomProgram } from './reference';

/**
 * The SIMD JIT on component planes (structure of arrays, simd-jit.ts 'planes' layout) against the
 * float32 twin, bit for bit (NaN for NaN): every opcode, random programs, the redo list in every lane
 * pattern, the branch per group, ragged counts (the rest goes through the tail slots), more points
 * than one kernel call takes, special values. Planes hold x, y, z: the twin runs with w = 0 in the
 * positions and the incoming wind, and its x, y, z must come out. Points past `count` are never
 * written. The back ends without a planes kernel go through float4 rows and give what they give on rows.
 */
const SPECIALS = [Number.NaN, Infinity, -Infinity, 0, -0, 3e38, -3e38, 1e-40, -1e-40, 1e-20, 1, -1, 0.5, 10, 65536.5, 1e15];
/** What the slots past `count` hold; any write there shows. */
const UNTOUCHED = -7.25;

function randomValues(random: Random, count: number, spread: number, specials: number): Float32Array {
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const roll = random.next();
    values[i] = roll < specials ? SPECIALS[random.int(SPECIALS.length)]! : roll < specials + 0.1 ? random.int(7) - 3 : random.range(-spread, spread);
  }
  return values;
}

/** Float4 rows with w = 0 (what planes hold). */
function withoutW(rows: Float32Array): Float32Array {
  return rows.map((value, i) => (i % 4 === 3 ? 0 : value));
}

/** Runs on planes of `capacity` ≥ count points filled from float4 rows; returns the wind as rows, w = 0. */
function viaPlanes(
  program: FieldProgram,
  positions: Float32Array,
  wind: Float32Array,
  backend: FieldBackend,
  capacity = positions.length / 4,
): Float32Array {
  const count = positions.length / 4;
  const points = fieldPointPlanes(capacity);
  const { stride } = points;
  points.positions.fill(UNTOUCHED);
  points.wind.fill(UNTOUCHED);
  for (let i = 0; i < count; i++)
    for (let k = 0; k < 3; k++) {
      points.positions[k * stride + i] = positions[4 * i + k]!;
      points.wind[k * stride + i] = wind[4 * i + k]!;
    }
  const ran = { backend: 'auto' as FieldBackend };
  evaluateFieldPlanes(program, points, { backend, count, ran });
  expect(ran.backend).toBe(backend);
  const out = new Float32Array(count * 4);
  const planes = points.wind;
  for (let k = 0; k < 3; k++) {
    for (let i = 0; i < count; i++) out[4 * i + k] = planes[k * stride + i]!;
    for (let i = count; i < stride; i++)
      if (!Object.is(planes[k * stride + i], UNTOUCHED)) throw new Error(`wind of point ${i} past count ${count} written`);
  }
  points.dispose();
  return out;
}

function expectTwinBits(program: FieldProgram, positions: Float32Array, wind: Float32Array, what: string, capacity?: number): void {
  const expected = withoutW(wind);
  referenceEvaluateFloat32(program, withoutW(positions), expected, positions.length / 4);
  const actual = viaPlanes(program, positions, wind, 'simd-jit', capacity);
  const at = firstMismatch(withoutW(expected), actual);
  if (at >= 0) throw new Error(`${what}: float ${at} is ${actual[at]}, the float32 twin says ${expected[at]}`);
}

const HEADER = `
struct vf_in
{
    float4 position : CHANNEL0;
    float4 wind : CHANNEL1;
};

struct vf_out
{
    float4 wind : CHANNEL1;
};
`;

function field(body: string): FieldProgram {
  return compileField(`${HEADER}\nvoid f(in vf_in in, out vf_out out)\n{\n${body}\n}\n`);
}

/** Every pair of special values as (x, y) with z from the list too; w 0 or special. */
function specialPoints(): Float32Array {
  const values: number[] = [];
  SPECIALS.forEach((a, i) => SPECIALS.forEach((b, j) => values.push(a, b, SPECIALS[(i + j) % SPECIALS.length]!, j % 3 === 0 ? a : 0)));
  return Float32Array.from(values);
}

describe.runIf(isWasmSimdSupported())('the SIMD JIT on component planes', () => {
  it('the planes module validates and holds no shuffle (no transposes)', () => {
    const program = compileField(readFileSync(fileURLToPath(new URL('../../../scenes/fields/whirl.vf', import.meta.url)), 'utf8'));
    const bytes = buildJitModule(program, 'planes');
    expect(WebAssembly.validate(bytes)).toBe(true);
    // i8x16.shuffle is 0xFD 0x0D followed by 16 lane bytes; the rows module has 24 per iteration.
    const shuffles = (module: Uint8Array): number => module.reduce((found, byte, i) => found + (byte === 0xfd && module[i + 1] === 0x0d ? 1 : 0), 0);
    expect(shuffles(buildJitModule(program, 'rows'))).toBeGreaterThanOrEqual(24);
    expect(shuffles(bytes)).toBe(0);
  });

  const OPCODE_SEED = 31338;
  it(`every opcode, every argument shape, random and adversarial values (seed ${OPCODE_SEED}): same bits as the float32 twin`, () => {
    const random = new Random(OPCODE_SEED);
    for (let opcode = 0; opcode < OPCODE_COUNT; opcode++) {
      for (let trial = 0; trial < 2; trial++) {
        const words: number[] = [opcode, 1];
        for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
          if (kind === 'r') words.push(random.int(2));
          else if (kind === 'i') words.push(random.int(256));
          else words.push(...new Uint32Array(randomValues(random, 4, 10, 0.3).buffer));
        }
        const program = createProgram(`opcode ${opcode}`, words, 2, 1, [], []);
        const spread = OPERATION_OF_OPCODE[opcode]!.name === 'noise' ? 300 : 10;
        const count = trial === 0 ? 203 : 6;
        expectTwinBits(
          program,
          randomValues(random, count * 4, spread, 0.25),
          randomValues(random, count * 4, spread, 0.25),
          `opcode ${opcode} (${OPERATION_OF_OPCODE[opcode]!.name}) trial ${trial}`,
          count + trial * 5,
        );
      }
    }
  });

  const PROGRAM_SEED = 9002;
  it(`random programs (seed ${PROGRAM_SEED}) at random and adversarial points, ragged counts: same bits as the twin; patched constants seen`, () => {
    const random = new Random(PROGRAM_SEED);
    for (let trial = 0; trial < 60; trial++) {
      const generated = randomProgram(random);
      const program = compileField(generated.source);
      const count = random.int(trial % 10 === 0 ? 1500 : 90);
      const positions = randomValues(random, count * 4, 6, trial % 3 === 0 ? 0.2 : 0);
      const wind = randomValues(random, count * 4, 2, trial % 3 === 0 ? 0.2 : 0);
      expectTwinBits(program, positions, wind, `trial ${trial}\n${generated.source}`, count + random.int(9));
      if (generated.globals.size > 0) {
        for (const name of generated.globals.keys())
          setConstant(program, name, [random.range(-3, 3), random.range(-3, 3), random.range(-3, 3), random.range(-3, 3)]);
        expectTwinBits(program, positions, wind, `after setConstant, trial ${trial}`);
      }
    }
  });

  const explosion = field(`
    float4 offset = in.position - float4(2, 4, 0, 0);
    out.wind = in.wind + select(dot(offset, offset) < 25, normalize(offset) * float4(50, 50, 50, 0), 0);`);
  const nested = field(`
    float4 d = in.position - float4(1, 2, 0, 0);
    float4 a = select(dot(d, d) < 30, normalize(d) * 7, 0);
    float4 b = select(in.wind > 0.5, select(in.position < 0, sqrt(abs(in.position)), in.wind * 3), in.wind);
    out.wind = in.wind + a + b;`);

  it('points flagged for the redo loop (lanes gathered from the planes): every lane pattern, none, all, ragged counts, same bits', () => {
    const random = new Random(8090);
    for (const program of [explosion, nested]) {
      for (const count of [64, 63, 62, 61, 5, 1, 0]) {
        const positions = new Float32Array(count * 4);
        for (let i = 0; i < count; i++) {
          const inside = ((i >> 2) >> (i & 3)) & 1;
          positions.set(
            inside
              ? [2 + random.range(-3, 3), 4 + random.range(-3, 3), random.range(-2, 2), 0]
              : [random.range(20, 30), random.range(-30, -20), random.range(-9, 9), 0],
            i * 4,
          );
        }
        const wind = new Float32Array(count * 4).map(() => (random.next() < 0.2 ? SPECIALS[random.int(SPECIALS.length)]! : random.range(-1, 1)));
        expectTwinBits(program, positions, wind, `${program.name}, ${count} points in every lane pattern`, count + 3);
      }
      const everywhere = new Float32Array(401 * 4).map((_, i) => (i % 4 === 3 ? 0 : random.range(-1, 1) + (i % 4 === 0 ? 2 : i % 4 === 1 ? 4 : 0)));
      expectTwinBits(program, everywhere, everywhere.slice().reverse(), `${program.name}, every point flagged`);
      expectTwinBits(
        program,
        everywhere.map((value) => value + 100),
        everywhere.slice(),
        `${program.name}, no point flagged`,
      );
      expectTwinBits(program, specialPoints(), specialPoints().reverse(), `${program.name}, special values`);
    }
  });

  it('most points flagged, then few: the branch per group and the redo list in turn, same bits every call', () => {
    const random = new Random(8091);
    const count = 207;
    for (const program of [explosion, nested]) {
      for (let call = 0; call < 40; call++) {
        const spread = call < 10 ? 2 : 60;
        const positions = new Float32Array(count * 4).map((_, i) =>
          i % 4 === 3 ? 0 : (i % 4 === 0 ? 2 : i % 4 === 1 ? 4 : 0) + random.range(-spread, spread),
        );
        const wind = new Float32Array(count * 4).map(() => random.range(-1, 1));
        expectTwinBits(program, positions, wind, `${program.name}, call ${call}`);
      }
    }
  });

  it('a whirl whose patchable axis has ±0 components (the loop that assumes them, then the other): same bits on special values', () => {
    const whirl = compileField(`const float4 center = float4(0, 10, 0, 0);
const float4 up = float4(0, 0, 1, 0);
const float4 speed = float4(10, 10, 10, 10);
${HEADER}
void f(in vf_in in, out vf_out out)
{
    float4 r = in.position - center;
    out.wind = in.wind + speed * cross(up, r) / dot(r, r);
}`);
    const points = specialPoints();
    for (const axis of [
      [0, 0, 1, 0],
      [-0, 0, 1, -0],
      [0.25, 0, 1, 0.5],
    ]) {
      setConstant(whirl, 'up', axis);
      expectTwinBits(whirl, points, points.slice().reverse(), `whirl, up = ${axis.join(',')}`, points.length / 4 + 2);
    }
  });

  const fieldsFolder = fileURLToPath(new URL('../../../scenes/fields/', import.meta.url));
  it('every example program under scenes/fields superposed; more points than one kernel call takes: same bits as the twin', () => {
    const examples = readdirSync(fieldsFolder)
      .filter((name) => name.endsWith('.vf'))
      .map((name) => compileField(readFileSync(fieldsFolder + name, 'utf8'), { file: name }));
    const random = new Random(8092);
    const points = (count: number): Float32Array => new Float32Array(count * 4).map((_, i) => (i % 4 === 3 ? 0 : random.range(-40, 40)));
    const some = points(2003);
    expectTwinBits(concatenatePrograms(examples), some, some.slice().reverse(), 'examples superposed, 2,003 points');
    const many = points(65_539);
    expectTwinBits(explosion, many, many.slice().reverse(), 'explosion, 65,539 points', 65_551);
  });

  it('the other back ends run on planes through float4 rows: the same wind as on rows', () => {
    const random = new Random(8093);
    const count = 37;
    const positions = randomValues(random, count * 4, 8, 0.1);
    const wind = randomValues(random, count * 4, 2, 0.1);
    for (const backend of ['interpreter', 'jit', 'simd-interpreter'] as const) {
      const onRows = withoutW(wind);
      evaluateField(nested, withoutW(positions), onRows, { backend });
      expect(firstMismatch(withoutW(onRows), viaPlanes(nested, positions, wind, backend, count + 2)), backend).toBe(-1);
    }
  });

  it('a superposition on planes selects the effects the rows would and adds the same wind (simd-jit, bit for bit)', () => {
    const whirl = compileField(readFileSync(fieldsFolder + 'whirl.vf', 'utf8'), { file: 'whirl.vf' });
    const breeze = compileField(readFileSync(fieldsFolder + 'constant-wind.vf', 'utf8'), { file: 'constant-wind.vf' });
    const superposition = new FieldSuperposition([
      { program: whirl, bounds: [-10, -10, -10, 10, 10, 10] },
      { program: breeze, bounds: [100, 100, 100, 200, 200, 200] },
    ]);
    const random = new Random(8094);
    for (const [low, high, count] of [
      [-5, 5, 41],
      [120, 180, 13],
      [-5, 150, 22],
      [300, 400, 9],
    ] as const) {
      const rows = new Float32Array(count * 4).map((_, i) => (i % 4 === 3 ? 0 : random.range(low, high)));
      const points = fieldPointPlanes(count + 1);
      for (let i = 0; i < count; i++) for (let k = 0; k < 3; k++) points.positions[k * points.stride + i] = rows[4 * i + k]!;
      const selected = superposition.select(rows, count);
      expect(superposition.selectPlanes(points, count)).toBe(selected);
      const expected = new Float32Array(count * 4);
      superposition.evaluate(rows, expected, { backend: 'simd-jit', count });
      superposition.evaluatePlanes(points, { backend: 'simd-jit', count });
      const actual = new Float32Array(count * 4);
      for (let i = 0; i < count; i++) for (let k = 0; k < 3; k++) actual[4 * i + k] = points.wind[k * points.stride + i]!;
      expect(firstMismatch(withoutW(expected), actual), `points in [${low}, ${high}]`).toBe(-1);
      points.dispose();
    }
  });

  it('bad arguments: a clear error, nothing written', () => {
    const points = fieldPointPlanes(10);
    points.wind.fill(1);
    expect(() => evaluateFieldPlanes(explosion, points, { count: 11 })).toThrow(/count/);
    expect(() => evaluateFieldPlanes(explosion, points, { count: -1 })).toThrow(/count/);
    expect(() => evaluateFieldPlanes(explosion, {} as never)).toThrow(/points/);
    expect(points.wind.every((value) => value === 1)).toBe(true);
    points.dispose();
    expect(() => evaluateFieldPlanes(explosion, points, { count: 1 })).toThrow(/points/);
  });
});
