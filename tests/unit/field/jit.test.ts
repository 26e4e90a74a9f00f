import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import { compileField, evaluateField, generateKernelSource } from '../../../src/field/index';
import { firstMismatch, referenceEvaluate } from './reference';

const HEAD = 'struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };\nstruct vf_out { float4 wind : CHANNEL1; };\n';

/** Select shapes (fused comparisons, shared and nested branches): each must equal the bytecode walk. */
const SELECT_BODIES: readonly string[] = [
  // Only the taken branch needs its normalisation.
  'float4 o = in.position - k; out.wind += select(dot(o, o) < 9, normalize(o) * 5, 0);',
  // The expensive side is the false branch.
  'float4 o = in.position - k; out.wind += select(length(o) >= 2, 1, sqrt(abs(o)) / o);',
  // Both branches share a subexpression, so it must be computed under either test.
  'float4 o = in.position * k; float4 s = sin(o); out.wind += select(o.x < 0, s * 2, s + cos(o));',
  // Nested selects: inner guards inside outer ones.
  'float4 o = in.position - k; out.wind += select(o.y > 0, select(o.z > 0, floor(o * 3), frac(o)), noise(o) * o);',
  // The branch values are computed in statements before the test: guards must not test later values.
  'float4 a = normalize(in.position); float4 b = in.position / k; float4 d = dot(b, b); out.wind += select(d < 4, a, b);',
  // A mask that is not a comparison: no branch, plain select.
  'float4 m = floor(frac(in.position * k) * 2); out.wind += select(m, in.position, -in.position);',
  // The same test guarding several components and reused by a later select.
  'float4 o = in.position - k; float4 near = dot(o, o) < 16; out.wind += select(near, cross(o, k), 0) + select(near, 0, o.zxyw);',
  // Per-component tests against a vector of thresholds.
  'float4 o = in.position - k; out.wind += select(abs(o) < float4(1,2,3,4), o * o, max(o, k));',
];

describe('JIT code generation', () => {
  const SEED = 606;
  it(`select shapes give the bytecode walk's bits at points on both sides of every test (seed ${SEED})`, () => {
    const random = new Random(SEED);
    for (const body of SELECT_BODIES) {
      const source = `const float4 k = float4(1.5, -2, 0.5, 0);\n${HEAD}void f(in vf_in in, out vf_out out) {\n${body}\n}`;
      const program = compileField(source);
      const count = 400;
      const positions = new Float32Array(count * 4);
      for (let i = 0; i < count * 4; i++) positions[i] = random.next() < 0.1 ? random.int(5) - 2 : random.range(-5, 5);
      const initial = Float32Array.from({ length: count * 4 }, () => random.range(-1, 1));
      const walked = initial.slice();
      referenceEvaluate(program, positions, walked, count);
      const jit = initial.slice();
      evaluateField(program, positions, jit, { backend: 'jit' });
      const at = firstMismatch(walked, jit);
      if (at >= 0) throw new Error(`${body}\nfloat ${at}: JIT ${jit[at]}, walk ${walked[at]}\n${generateKernelSource(program)}`);
    }
  });

  it('hoists constant-only work out of the loop and branches on the comparison itself', () => {
    const program = compileField(`const float4 c = float4(2,4,0,0); const float4 r = 5;\n${HEAD}
      void f(in vf_in in, out vf_out out) {
        float4 o = in.position - c;
        out.wind = in.wind + select(dot(o, o) < r * r, normalize(o) * 50, 0);
      }`);
    const source = generateKernelSource(program);
    const [beforeLoop, loop] = source.split('for (');
    expect(beforeLoop).toMatch(/= k\d+ \* k\d+;/);
    expect(loop).toMatch(/= v\d+ < v\d+ \? v\d+ : 0;/);
    expect(loop).not.toContain('? 1 : 0');
  });

  it('drops components nobody stores and shares repeated expressions', () => {
    const program = compileField(`${HEAD}
      void f(in vf_in in, out vf_out out) {
        float4 unused = sin(in.position) * 100;
        out.wind += dot(in.position, in.position) + dot(in.position, in.position) * float4(1,0,0,0);
      }`);
    const source = generateKernelSource(program);
    expect(source).not.toContain('Math.sin');
    expect(source.match(/P\[p\] \* P/g) ?? []).toHaveLength(0);
    expect((source.match(/v\d+ \* v\d+ \+ v\d+ \* v\d+ \+ v\d+ \* v\d+ \+ v\d+ \* v\d+/g) ?? []).length).toBe(1);
  });
});
