import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import { compileField, evaluateField, isWasmSimdSupported, setConstant, simdFieldPointBuffers, type FieldProgram } from '../../../src/field/index';
import { buildJitModule } from '../../../src/field/simd-jit';
import { referenceEvaluateFloat32 } from './float32-twin';
import { firstMismatch } from './reference';

/**
 * The SIMD JIT's shortcuts against the float32 twin, bit for bit (NaN for NaN):
 * - a division of a lane known to be ±0 or NaN by a lane known to be +0 … +Infinity or NaN takes no
 *   divider (simd-lanes.ts), on every special value, zero divisors included; patchable components
 *   that are ±0 at compilation count as such in a main loop that runs only while they still are;
 * - points where a select's mask is set are left for the redo loop (simd-jit.ts): every pattern of
 *   flagged lanes, none and all flagged, ragged counts, positions and wind in the same array, more
 *   points than one kernel call takes, the branch per group the runtime asks for when most points
 *   are flagged;
 * - those flags from one comparison of a scalar with a loop-invariant float4's largest or smallest
 *   component, NaN and ±0 components included.
 */
const SPECIALS = [Number.NaN, Infinity, -Infinity, 0, -0, 3e38, -3e38, 1e-40, -1e-40, 1e-20, 1, -1, 0.5, 10];

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

function expectTwinBits(program: FieldProgram, positions: Float32Array, wind: Float32Array, what: string): void {
  const expected = wind.slice();
  referenceEvaluateFloat32(program, positions, expected, positions.length / 4);
  const actual = wind.slice();
  evaluateField(program, positions, actual, { backend: 'simd-jit' });
  const at = firstMismatch(expected, actual);
  if (at >= 0) throw new Error(`${what}: float ${at} is ${actual[at]}, the float32 twin says ${expected[at]}`);
}

/** Every pair of special values as (x, y) with z from the list too; w 0 or special. */
function specialPoints(): Float32Array {
  const values: number[] = [];
  SPECIALS.forEach((a, i) => SPECIALS.forEach((b, j) => values.push(a, b, SPECIALS[(i + j) % SPECIALS.length]!, j % 3 === 0 ? a : 0)));
  return Float32Array.from(values);
}

/** How many f32x4.div instructions (0xFD 0xE7 0x01) a module holds; its constants here hold no 0xFD byte. */
function divisions(program: FieldProgram): number {
  const bytes = buildJitModule(program);
  let found = 0;
  for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === 0xfd && bytes[i + 1] === 0xe7 && bytes[i + 2] === 0x01) found++;
  return found;
}

describe.runIf(isWasmSimdSupported())('SIMD JIT shortcuts', () => {
  const literalWhirl = field(`
    float4 r = in.position - float4(0, 10, 0, 0);
    out.wind = in.wind + float4(10, 10, 10, 10) * cross(float4(0, 0, 1, 0), r) / dot(r, r) * float4(5, 5, 5, 5);`);
  const zeroQuotients = field(`
    float4 q = (in.wind * float4(0, 1, 0, -0)) / (in.position * in.position);
    float4 s = (in.position * 0) / abs(in.wind) + cross(in.wind, in.position) / length(in.position);
    float4 t = (in.wind * 0) / sqrt(dot(in.position, in.position)) + (in.wind * 0) / in.position;
    out.wind = in.wind + q + s + t;`);

  it('a ±0-or-NaN lane over a ≥ +0-or-NaN lane: no divider, same bits on every special value and zero divisor', () => {
    // A literal axis zeroes the cross product's z and w; the dot product of r with itself is ≥ +0.
    expect(divisions(literalWhirl)).toBe(2);
    const points = specialPoints();
    const wind = points.slice().reverse();
    expectTwinBits(literalWhirl, points, wind, 'whirl with a literal axis, special values');
    // r = 0 (at the centre), r tiny (dot underflows to +0), r huge (dot overflows to +Infinity).
    const divisors = Float32Array.from([
      0,
      10,
      0,
      0,
      -0,
      10,
      -0,
      -0,
      1e-30,
      10,
      0,
      0,
      0,
      10 + 1e-6,
      1e-40,
      0,
      3e38,
      10,
      0,
      0,
      Number.NaN,
      10,
      0,
      0,
      Infinity,
      10,
      0,
      0,
      0,
      10,
      -1e-25,
      0,
    ]);
    expectTwinBits(literalWhirl, divisors, divisors.slice().fill(-0), 'whirl with a literal axis, zero and overflowing divisors, −0 wind');
    expectTwinBits(literalWhirl, divisors, divisors.slice().fill(1), 'whirl with a literal axis, zero and overflowing divisors');
    expect(divisions(zeroQuotients)).toBeLessThan(16);
    expectTwinBits(zeroQuotients, points, wind, 'zero quotients, special values');
    expectTwinBits(zeroQuotients, divisors, divisors.slice().reverse(), 'zero quotients, zero divisors');
  });

  it('patchable components that are ±0 at compilation: the loop that assumes them runs while they are, the other after setConstant', () => {
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
    const wind = points.slice().reverse();
    const random = new Random(8083);
    const ordinary = new Float32Array(203 * 4).map(() => random.range(-20, 20));
    for (const axis of [
      [0, 0, 1, 0],
      [-0, 0, 1, -0],
      [0.25, 0, 1, 0],
      [0, 0, 1, 0.5],
      [0, 0, 1, 0],
    ]) {
      setConstant(whirl, 'up', axis);
      expectTwinBits(whirl, points, wind, `whirl, up = ${axis.map((x) => (Object.is(x, -0) ? '-0' : x)).join(',')}, special values`);
      expectTwinBits(whirl, ordinary, ordinary.slice().reverse(), `whirl, up = ${axis.join(',')}`);
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

  it('points flagged for the redo loop: every lane pattern, none, all, ragged counts, same bits', () => {
    const random = new Random(8080);
    for (const program of [explosion, nested]) {
      // Groups of four whose lanes fall inside (flagged) or outside by the bits of the group index.
      for (const count of [64, 63, 61, 1, 0]) {
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
        expectTwinBits(program, positions, wind, `${program.name}, ${count} points in every lane pattern`);
      }
      const everywhere = new Float32Array(400 * 4).map((_, i) => (i % 4 === 3 ? 0 : random.range(-1, 1) + (i % 4 === 0 ? 2 : i % 4 === 1 ? 4 : 0)));
      expectTwinBits(program, everywhere, everywhere.slice().reverse(), `${program.name}, every point flagged`);
      const nowhere = everywhere.map((value) => value + 100);
      expectTwinBits(program, nowhere, everywhere.slice(), `${program.name}, no point flagged`);
      expectTwinBits(program, specialPoints(), specialPoints().reverse(), `${program.name}, special values`);
    }
  });

  it('most points flagged: after a call that redid them the runtime asks for the branch per group, then measures again; same bits every call', () => {
    const random = new Random(8084);
    const count = 203;
    for (const program of [explosion, nested]) {
      for (let call = 0; call < 40; call++) {
        // Calls 0-9 flag nearly every point, the rest nearly none: both main loops run, and the switch back.
        const spread = call < 10 ? 2 : 60;
        const positions = new Float32Array(count * 4).map((_, i) =>
          i % 4 === 3 ? 0 : (i % 4 === 0 ? 2 : i % 4 === 1 ? 4 : 0) + random.range(-spread, spread),
        );
        const wind = new Float32Array(count * 4).map(() => random.range(-1, 1));
        expectTwinBits(program, positions, wind, `${program.name}, call ${call}`);
      }
    }
  });

  it('flags from a scalar compared with a loop-invariant float4 (its largest or smallest component): every comparison, either side, NaN and ±0 bounds', () => {
    // Bounds with a NaN component (∞ − ∞), all NaN, ±0, and exact hits of dot = 4, 9, 0.
    const bounds = [
      'float4(4, 9, 1, 0)',
      'float4(4, 0, -0, 1) + ((float4(0, 1e30, 0, 0) * 1e30) - (float4(0, 1e30, 0, 0) * 1e30))',
      '(float4(1e30, 1e30, 1e30, 1e30) * 1e30) - (float4(1e30, 1e30, 1e30, 1e30) * 1e30)',
      'float4(-0, 0, -0, 0)',
    ];
    const tests = [
      'dot(in.position, in.position) < B',
      'dot(in.position, in.position) <= B',
      'length(in.position) > B',
      'length(in.position) >= B',
      'B > dot(in.position, in.position)',
      'B <= length(in.position)',
      'B < dot(in.position, in.position)',
      'B >= dot(in.position, in.position)',
    ];
    const points = Float32Array.from([2, 0, 0, 0, 0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, -0, -0, 0, 0, 1.5, 1.5, 0, 0, ...specialPoints()]);
    const wind = points.slice().reverse();
    for (const bound of bounds) {
      for (const test of tests) {
        const program = field(`
    float4 B = ${bound};
    out.wind = in.wind + select(${test}, normalize(in.position) * 3, 0);`);
        expectTwinBits(program, points, wind, `select(${test}) with B = ${bound}`);
      }
    }
  });

  it('positions and wind in the same array (points in the module memory): same bits as the twin on that array', () => {
    const count = 203;
    const buffers = simdFieldPointBuffers(count)!;
    const random = new Random(8081);
    const values = new Float32Array(count * 4).map((_, i) => (i % 4 === 3 ? 0 : random.range(-4, 8)));
    for (const program of [explosion, nested]) {
      const expected = values.slice();
      referenceEvaluateFloat32(program, expected, expected, count);
      buffers.positions.set(values);
      evaluateField(program, buffers.positions, buffers.positions, { backend: 'simd-jit' });
      expect(firstMismatch(expected, buffers.positions), program.name).toBe(-1);
    }
    buffers.dispose();
  });

  it('more points than one kernel call takes: same bits as the twin', () => {
    const count = 70_001;
    const random = new Random(8082);
    const positions = new Float32Array(count * 4).map((_, i) => (i % 4 === 3 ? 0 : random.range(-8, 12)));
    const wind = new Float32Array(count * 4).map(() => random.range(-1, 1));
    expectTwinBits(explosion, positions, wind, 'explosion, 70,001 points');
  });
});
