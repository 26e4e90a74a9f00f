import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FieldSyntaxError, Sandbox, WindField, WindTracers, getConstant, parseScene, sampleTerrainHeight } from '../../../src/core';

const source = (name: string): string => readFileSync(new URL(`../../../scenes/fields/${name}.vf`, import.meta.url), 'utf8');

function sampleOne(field: WindField, x: number, y: number, z: number): number[] {
  const points = new Float32Array([x, y, z, 0]);
  const wind = new Float32Array(4);
  field.sample(points, wind);
  return Array.from(wind);
}

describe('WindField', () => {
  it('superposes its effects and patches their origin into `center`', () => {
    const field = new WindField();
    const breeze = field.add('constant-wind', source('constant-wind'), [0, 0, 0], Infinity);
    const velocity = getConstant(breeze.program, 'velocity');
    expect(sampleOne(field, 3, 4, 5).slice(0, 3)).toEqual(velocity.slice(0, 3));

    const whirl = field.add('whirl', source('whirl'), [100, 20, -50], 30);
    expect(getConstant(whirl.program, 'center')).toEqual([100, 20, -50, 0]);
    field.setConstant(whirl, 'up', [0, 1, 0, 0]);
    // Beside the whirl's centre, its wind circles the y axis: perpendicular to the offset, horizontal.
    const [wx, wy, wz] = sampleOne(field, 110, 20, -50).map((v, i) => v - velocity[i]!);
    expect(wy).toBeCloseTo(0, 5);
    expect(wx).toBeCloseTo(0, 5);
    expect(Math.abs(wz!)).toBeGreaterThan(1);
    // Outside its reach box, the whirl adds nothing.
    expect(sampleOne(field, 300, 20, 300).slice(0, 3)).toEqual(velocity.slice(0, 3));
  });

  it('keeps the last good program when an edit does not compile, and carries tuned constants over', () => {
    const field = new WindField();
    const effect = field.add('whirl', source('whirl'), [0, 0, 0], Infinity);
    field.setConstant(effect, 'speed', [3, 3, 3, 3]);
    const before = effect.program;
    expect(() => field.recompile(effect, source('whirl').replace('dot(r,r)', 'dot(r,r'))).toThrow(FieldSyntaxError);
    expect(effect.program).toBe(before);
    field.recompile(effect, source('whirl').replace('* radius;', '* radius * 2;'));
    expect(effect.program).not.toBe(before);
    expect(getConstant(effect.program, 'speed')).toEqual([3, 3, 3, 3]);
  });

  it('turns an effect off and on', () => {
    const field = new WindField();
    const effect = field.add('constant-wind', source('constant-wind'), [0, 0, 0], Infinity);
    field.setEnabled(effect, false);
    expect(sampleOne(field, 0, 0, 0)).toEqual([0, 0, 0, 0]);
    field.setEnabled(effect, true);
    expect(sampleOne(field, 0, 0, 0)[0]).not.toBe(0);
  });
});

describe('WindTracers', () => {
  /** Tracer positions as x, y, z planes, `stride` apart. */
  function run(seed: number): { positions: Float32Array; stride: number } {
    const sandbox = new Sandbox(parseScene({ seed, terrain: { cells: 32, worldSize: 200 } }));
    const field = new WindField();
    field.add('constant-wind', source('constant-wind'), [0, 0, 0], Infinity);
    field.add('turbulence', source('turbulence'), [0, 0, 0], Infinity);
    const tracers = new WindTracers(field, 500, seed);
    sandbox.addSystem(tracers);
    for (let i = 0; i < 120; i++) sandbox.step(1 / 60);
    return { positions: tracers.positions, stride: tracers.stride };
  }

  it('is deterministic for a seed (seed 11) and keeps every tracer above the ground, inside the world', () => {
    const { positions: a, stride } = run(11);
    expect(Array.from(run(11).positions)).toEqual(Array.from(a));
    const sandbox = new Sandbox(parseScene({ terrain: { cells: 32, worldSize: 200 } }));
    let below = 0;
    let outside = 0;
    for (let i = 0; i < 500; i++) {
      const [x, y, z] = [a[i]!, a[stride + i]!, a[2 * stride + i]!];
      if (Math.abs(x) > 100 || Math.abs(z) > 100) outside++;
      else if (y < sampleTerrainHeight(sandbox.terrain, x, z)) below++;
    }
    expect(below).toBe(0);
    expect(outside).toBe(0);
  });

  it('drifts with the wind (seed 4)', () => {
    const sandbox = new Sandbox(parseScene({ terrain: { cells: 16, worldSize: 1000, heightScale: 0 } }));
    const field = new WindField();
    field.add(
      'breeze',
      'const float4 velocity = float4(5,0,0,0);\nstruct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };\nstruct vf_out { float4 wind : CHANNEL1; };\nvoid breeze(in vf_in in, out vf_out out) { out.wind = in.wind + velocity; }',
      [0, 0, 0],
      Infinity,
    );
    const tracers = new WindTracers(field, 100, 4);
    tracers.settling = 0;
    tracers.lifetime = 1000;
    sandbox.addSystem(tracers);
    const x0 = Array.from({ length: 100 }, (_, i) => tracers.positions[i]!);
    for (let i = 0; i < 60; i++) sandbox.step(1 / 60);
    const moved = Array.from({ length: 100 }, (_, i) => tracers.positions[i]! - x0[i]!).filter((d) => d > 0 && d < 10);
    expect(moved.length).toBeGreaterThan(90);
    expect(tracers.velocities[0]).toBeGreaterThan(3);
  });
});
