import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import { cos, sin, sinCos } from '../../../src/math/trig';

/** Distance in units in the last place between two doubles of the same sign (through their bits). */
function ulps(a: number, b: number): number {
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, a);
  view.setFloat64(8, b);
  return Number(view.getBigInt64(0) - view.getBigInt64(8));
}

describe('portable sin and cos', () => {
  it('stay within 2 ulps of the engine’s on random angles (seed 17), away from zeros', () => {
    const random = new Random(17);
    let worst = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = random.range(-1, 1) * (i % 4 === 0 ? 1e5 : i % 4 === 1 ? 100 : i % 4 === 2 ? 10 : 1);
      for (const [ours, theirs] of [
        [sin(x), Math.sin(x)],
        [cos(x), Math.cos(x)],
      ] as const) {
        // Near a zero of the function the relative error of any reduction grows; compare absolutely there.
        if (Math.abs(theirs) < 1e-3) expect(Math.abs(ours - theirs)).toBeLessThan(1e-15 * Math.max(1, Math.abs(x)));
        else worst = Math.max(worst, Math.abs(ulps(ours, theirs)));
      }
    }
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('keep the special values: ±0, NaN and infinities, and the quadrant boundaries', () => {
    expect(Object.is(sin(0), 0)).toBe(true);
    expect(Object.is(sin(-0), -0)).toBe(true);
    expect(cos(0)).toBe(1);
    for (const bad of [NaN, Infinity, -Infinity]) {
      expect(sin(bad)).toBeNaN();
      expect(cos(bad)).toBeNaN();
    }
    expect(sin(Math.PI / 2)).toBe(1);
    expect(cos(Math.PI)).toBe(-1);
    expect(Math.abs(sin(Math.PI))).toBeLessThan(1e-15);
    expect(sin(-Math.PI / 2)).toBe(-1);
    for (let k = -8; k <= 8; k++) {
      const x = (k * Math.PI) / 4;
      expect(Math.abs(sin(x) - Math.sin(x))).toBeLessThan(1e-15);
      expect(Math.abs(cos(x) - Math.cos(x))).toBeLessThan(1e-15);
    }
  });

  it('sinCos gives sin and cos to the bit: random angles of every size, quadrant boundaries, ±0, NaN, infinities', () => {
    const random = new Random(29);
    const angles = [0, -0, NaN, Infinity, -Infinity, 0.7853981633974483, -0.7853981633974483, 1e300];
    for (let k = -8; k <= 8; k++) angles.push((k * Math.PI) / 4, (k * Math.PI) / 4 + 1e-12);
    for (let i = 0; i < 5_000; i++) angles.push(random.range(-1, 1) * 10 ** (i % 7));
    const out = new Float64Array(2);
    for (const x of angles) {
      sinCos(x, out);
      expect([Object.is(out[0], sin(x)), Object.is(out[1], cos(x)), x]).toEqual([true, true, x]);
    }
  });
});
