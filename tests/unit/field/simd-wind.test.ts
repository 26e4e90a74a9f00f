import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIELD_BACKENDS, FieldCompileError, isWasmSimdSupported } from '../../../src/field/index';
import { Random } from '../../../src/math/random';
import { WindField } from '../../../src/wind/windField';

const fields = fileURLToPath(new URL('../../../scenes/fields/', import.meta.url));
const source = (name: string): string => readFileSync(`${fields}${name}.vf`, 'utf8');

describe.runIf(isWasmSimdSupported())('the wind switches kernels live', () => {
  const SEED = 12;
  it(`every back end in turn on the same field (seed ${SEED}): the same wind to float32 rounding, effects and constants kept`, () => {
    const field = new WindField();
    field.add('whirl', source('whirl'), [0, 10, 0], 60);
    const explosion = field.add('explosion', source('explosion'), [5, 3, 0], 30);
    field.add('turbulence', source('turbulence'), [0, 0, 0], Infinity);
    field.setTime(3.5);
    const random = new Random(SEED);
    const count = 1001;
    const positions = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) positions.set([random.range(-30, 30), random.range(0, 30), random.range(-30, 30), 0], i * 4);
    const worstDifference = (a: Float32Array, b: Float32Array): number => {
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / (1 + Math.abs(b[i]!)));
      return worst;
    };
    const wind = (): Float32Array => {
      const out = new Float32Array(count * 4);
      field.sample(positions, out);
      return out;
    };
    field.backend = 'interpreter';
    const reference = wind();
    for (const backend of [...FIELD_BACKENDS, 'simd-jit', 'interpreter', 'simd-interpreter'] as const) {
      field.backend = backend;
      expect(worstDifference(wind(), reference), backend).toBeLessThanOrEqual(1e-5);
      expect(field.ran.backend).toBe(backend === 'auto' ? 'jit' : backend);
    }
    // A constant tuned while on a SIMD back end reaches it without recompiling anything by hand.
    field.backend = 'simd-jit';
    field.setConstant(explosion, 'strength', [0, 0, 0, 0]);
    const calm = wind();
    field.backend = 'jit';
    const calmTypeScript = wind();
    expect(worstDifference(calm, calmTypeScript)).toBeLessThanOrEqual(1e-5);
    expect(worstDifference(calm, reference)).toBeGreaterThan(1e-3);
  });

  it('a program with a syntax error keeps the last good one running, on every back end', () => {
    const field = new WindField();
    const whirl = field.add('whirl', source('whirl'), [0, 10, 0], 60);
    const positions = Float32Array.of(3, 4, 5, 0, -2, 9, 1, 0, 7, 7, 7, 0);
    for (const backend of FIELD_BACKENDS) {
      field.backend = backend;
      const before = new Float32Array(12);
      field.sample(positions, before);
      expect(() => field.recompile(whirl, source('whirl').replace('dot(r,r)', 'dot(r,'))).toThrow(FieldCompileError);
      const after = new Float32Array(12);
      field.sample(positions, after);
      expect([...after]).toEqual([...before]);
      expect(before.some((value) => value !== 0)).toBe(true);
    }
  });
});

describe.runIf(isWasmSimdSupported())('where synchronous compilation is refused (a browser main thread)', () => {
  it('the runtime compiles in the background, the TypeScript back end answers meanwhile, then SIMD takes over', async () => {
    const { SimdFieldRuntime } = await import('../../../src/field/simd-runtime');
    const { compileField: compile } = await import('../../../src/field/index');
    const program = compile(source('turbulence'));
    const runtime = new SimdFieldRuntime();
    const OriginalModule = WebAssembly.Module;
    // Chrome refuses `new WebAssembly.Module` on the main thread above a size limit with a RangeError.
    const refusing = function (bytes: BufferSource) {
      if (bytes.byteLength > 4096) throw new RangeError('WebAssembly.Module is disallowed on the main thread, if the buffer size is larger than 4KB');
      return new OriginalModule(bytes);
    } as unknown as typeof WebAssembly.Module;
    WebAssembly.Module = refusing;
    try {
      const positions = Float32Array.of(1, 2, 3, 0, 4, 5, 6, 0);
      const wind = new Float32Array(8);
      expect(runtime.evaluate(program, positions, wind, 2, 'interpreter')).toBeUndefined();
      expect([...wind]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      let used: number | undefined;
      for (let wait = 0; wait < 100 && used === undefined; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        used = runtime.evaluate(program, positions, wind, 2, 'interpreter');
      }
      expect(used).toBeGreaterThan(0);
      expect(wind.some((value) => value !== 0)).toBe(true);
    } finally {
      WebAssembly.Module = OriginalModule;
    }
  });
});

describe.runIf(isWasmSimdSupported())('tracers in the SIMD memory', () => {
  it('the same tracer paths on TypeScript and SIMD back ends to float32 rounding; views survive growth; resizing reuses memory', async () => {
    const { Sandbox } = await import('../../../src/sim/sandbox');
    const { WindTracers } = await import('../../../src/wind/windTracers');
    const { parseScene } = await import('../../../src/scene/scene');
    const { simdFieldPointBuffers } = await import('../../../src/field/index');
    const run = (backend: 'jit' | 'simd-jit'): Float32Array => {
      const sandbox = new Sandbox(parseScene({ seed: 3, terrain: { cells: 32, worldSize: 200 } }));
      const field = new WindField();
      field.backend = backend;
      field.add('constant-wind', source('constant-wind'), [0, 0, 0], Infinity);
      field.add('whirl', source('whirl'), [0, 20, 0], 80);
      const tracers = new WindTracers(field, 1000, 3);
      sandbox.addSystem(tracers);
      for (let i = 0; i < 30; i++) sandbox.step(1 / 60);
      const before = tracers.positions.slice();
      const views = tracers.positions;
      simdFieldPointBuffers(1 << 18)!.dispose(); // grows the memory: every earlier view detaches
      if (backend === 'simd-jit') expect(views.length).toBe(0);
      expect(tracers.positions.every((value, i) => value === before[i])).toBe(true);
      tracers.resize(500, sandbox);
      expect(tracers.positions.length).toBe(1500); // three planes of 500
      return before;
    };
    const typescript = run('jit');
    const simd = run('simd-jit');
    let worst = 0;
    for (let i = 0; i < simd.length; i++) worst = Math.max(worst, Math.abs(simd[i]! - typescript[i]!));
    expect(worst).toBeLessThan(1e-3);
  });
});
