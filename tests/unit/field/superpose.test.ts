import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import {
  FieldSuperposition,
  compileField,
  concatenatePrograms,
  evaluateField,
  getConstant,
  handWrittenWhirlExplosion,
  handWrittenWhirlExplosionFloat4,
  setConstant,
  type FieldEffect,
} from '../../../src/field/index';
import { firstMismatch, randomProgram, referenceEvaluate } from './reference';

const fields = new URL('../../../scenes/fields/', import.meta.url);
const load = (name: string) => compileField(readFileSync(new URL(name, fields), 'utf8'));

function scatter(random: Random, count: number, min: number, max: number): Float32Array {
  const positions = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) for (let k = 0; k < 3; k++) positions[i * 4 + k] = random.range(min, max);
  return positions;
}

describe('superposition', () => {
  const SEED = 31;
  it(`the example effects superpose: the concatenation equals the sum of their contributions (seed ${SEED})`, () => {
    const names = ['whirl.vf', 'explosion.vf', 'updraft.vf', 'constant-wind.vf', 'turbulence.vf'];
    const programs = names.map(load);
    setConstant(programs[4]!, 'time', 3.5);
    const random = new Random(SEED);
    const count = 500;
    const positions = scatter(random, count, -9, 9);
    const initial = Float32Array.from({ length: count * 4 }, () => random.range(-1, 1));
    // Each effect alone from zero wind, summed in float64: what superposition promises.
    const sum = Float64Array.from(initial);
    const magnitude = new Float64Array(count * 4).fill(1);
    for (const program of programs) {
      const alone = new Float32Array(count * 4);
      evaluateField(program, positions, alone);
      for (let i = 0; i < count * 4; i++) {
        sum[i]! += alone[i]!;
        magnitude[i]! += Math.abs(alone[i]!);
      }
    }
    for (const backend of ['interpreter', 'jit'] as const) {
      const together = initial.slice();
      evaluateField(concatenatePrograms(programs), positions, together, { backend });
      for (let i = 0; i < count * 4; i++) expect(Math.abs(together[i]! - sum[i]!)).toBeLessThanOrEqual(1e-6 * magnitude[i]!);
    }
  });

  const MECHANICS_SEED = 32;
  it(`concatenated random programs run the same in every back end (seed ${MECHANICS_SEED})`, () => {
    const random = new Random(MECHANICS_SEED);
    for (let trial = 0; trial < 40; trial++) {
      const programs = Array.from({ length: 1 + random.int(4) }, () => compileField(randomProgram(random).source));
      const combined = concatenatePrograms(programs);
      expect(combined.instructionCount).toBe(programs.reduce((total, p) => total + p.instructionCount, 0));
      expect(combined.registerCount).toBe(Math.max(...programs.map((p) => p.registerCount)));
      const positions = scatter(random, 33, -5, 5);
      const walked = new Float32Array(33 * 4).fill(0.25);
      referenceEvaluate(combined, positions, walked, 33);
      for (const backend of ['interpreter', 'jit'] as const) {
        const together = new Float32Array(33 * 4).fill(0.25);
        evaluateField(combined, positions, together, { backend });
        expect(firstMismatch(walked, together)).toBe(-1);
      }
    }
  });

  it('patches in the concatenation land in the right program', () => {
    const whirl = load('whirl.vf');
    const wind = load('constant-wind.vf');
    const combined = concatenatePrograms([whirl, wind]);
    setConstant(combined, 'velocity', [1, 2, 3, 0]);
    setConstant(wind, 'velocity', [1, 2, 3, 0]);
    const positions = Float32Array.of(3, 1, 0, 0, -2, 4, 1, 0);
    const expected = new Float32Array(8);
    referenceEvaluate(concatenatePrograms([whirl, wind]), positions, expected, 2);
    const actual = new Float32Array(8);
    evaluateField(combined, positions, actual);
    expect(firstMismatch(expected, actual)).toBe(-1);
    expect(actual[2]).toBeCloseTo(3, 5);
  });

  it('selects only the effects whose box meets the points, and rebuilds when a constant changes', () => {
    const near: FieldEffect = { program: load('constant-wind.vf'), bounds: [-10, -10, -10, 10, 10, 10] };
    const far: FieldEffect = { program: load('whirl.vf'), bounds: [100, 100, 100, 110, 110, 110] };
    const everywhere: FieldEffect = { program: load('turbulence.vf'), bounds: [-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity] };
    const field = new FieldSuperposition([near, far, everywhere]);
    const positions = scatter(new Random(5), 50, -3, 3);
    const first = field.select(positions);
    expect(first.name).toBe('constant_wind+turbulence');
    expect(field.select(positions)).toBe(first);
    setConstant(near.program, 'velocity', 2);
    const second = field.select(positions);
    expect(second).not.toBe(first);
    expect(getConstant(second, 'velocity')).toEqual([2, 2, 2, 2]);
    expect(field.select(scatter(new Random(6), 10, 101, 109)).name).toBe('whirl+turbulence');
    expect(field.select(new Float32Array(0)).name).toBe('empty');

    const wind = new Float32Array(positions.length);
    field.evaluate(positions, wind);
    const expected = new Float32Array(positions.length);
    evaluateField(concatenatePrograms([near.program, everywhere.program]), positions, expected);
    expect(firstMismatch(expected, wind)).toBe(-1);
  });

  it('rejects malformed boxes', () => {
    const program = load('constant-wind.vf');
    expect(() => new FieldSuperposition([{ program, bounds: [0, 0, 0, 1, 1] }])).toThrow();
    expect(() => new FieldSuperposition([{ program, bounds: [0, 0, 0, -1, 1, 1] }])).toThrow();
    expect(() => new FieldSuperposition([{ program, bounds: [0, Number.NaN, 0, 1, 1, 1] }])).toThrow();
  });
});

describe('hand-written whirl + explosion', () => {
  const SEED = 12;
  it(`agrees with the compiled programs: the float4 spelling bit for bit, the idiomatic one to rounding (seed ${SEED})`, () => {
    const whirl = load('whirl.vf');
    const explosion = load('explosion.vf');
    const combined = concatenatePrograms([whirl, explosion]);
    const random = new Random(SEED);
    const count = 3000;
    const positions = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) positions.set([random.range(-12, 14), random.range(-6, 20), random.range(-8, 8), 0], i * 4);
    const initial = Float32Array.from({ length: count * 4 }, () => random.range(-1, 1));

    const compiled = initial.slice();
    evaluateField(combined, positions, compiled, { backend: 'jit' });
    const float4 = initial.slice();
    const constantsOf = (program: typeof whirl, names: string[]) => Object.fromEntries(names.map((name) => [name, getConstant(program, name)]));
    handWrittenWhirlExplosionFloat4(
      positions,
      float4,
      count,
      constantsOf(whirl, ['center', 'up', 'speed', 'radius']) as never,
      constantsOf(explosion, ['center', 'strength', 'radius']) as never,
    );
    expect(firstMismatch(compiled, float4)).toBe(-1);

    const idiomatic = initial.slice();
    handWrittenWhirlExplosion(
      positions,
      idiomatic,
      count,
      { center: [0, 10, 0], axis: [0, 0, 1], speed: 10, radius: 5 },
      { center: [2, 4, 0], strength: 50, radius: 5 },
    );
    let insideBlast = 0;
    for (let i = 0; i < count * 4; i++) {
      expect(Math.abs(idiomatic[i]! - compiled[i]!)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(compiled[i]!)));
    }
    for (let i = 0; i < count; i++) {
      const dx = positions[i * 4]! - 2,
        dy = positions[i * 4 + 1]! - 4,
        dz = positions[i * 4 + 2]!;
      if (dx * dx + dy * dy + dz * dz < 25) insideBlast++;
    }
    expect(insideBlast).toBeGreaterThan(10);
  });
});
