import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import { differenceOfProducts } from '../../../src/query/rayTriangle/index';
import { toScaledIntegers } from './exactReference';

function exactSign(a: number, b: number, c: number, d: number): number {
  const [x, y, z, w] = toScaledIntegers([a, b, c, d]).integers;
  const value = x! * y! - z! * w!;
  return value > 0n ? 1 : value < 0n ? -1 : 0;
}

describe('differenceOfProducts', () => {
  it('has the exact sign of a·b − c·d on nearly cancelling products (seed 11)', () => {
    const random = new Random(11);
    let fallbacks = 0;
    for (let n = 0; n < 20000; n++) {
      const a = random.range(-100, 100) * 2 ** random.range(-30, 30);
      const b = random.range(-100, 100) * 2 ** random.range(-30, 30);
      let c: number;
      let d: number;
      switch (n % 4) {
        case 0: // c·d a rounded copy of a·b, nudged by a few ulps
          c = a * random.range(0.5, 2);
          d = (a * b) / c;
          d += (random.int(7) - 3) * Number.EPSILON * Math.abs(d);
          break;
        case 1: // float32 operands whose products are exact in float64: equal or one ulp apart
          c = Math.fround(a);
          d = Math.fround(b);
          break;
        case 2: // swapped factors: exactly zero
          c = b;
          d = a;
          break;
        default:
          c = random.range(-100, 100);
          d = random.range(-100, 100);
      }
      const result = differenceOfProducts(a, b, c, d);
      const expected = exactSign(a, b, c, d);
      if (Math.sign(a * b - c * d) !== expected) fallbacks++;
      if (Math.sign(result) !== expected) throw new Error(`a=${a} b=${b} c=${c} d=${d}: got ${result}, exact sign ${expected}`);
      // Swapping the two products negates the result exactly: what keeps shared edges closed.
      expect(Object.is(differenceOfProducts(c, d, a, b), -result) || Math.sign(differenceOfProducts(c, d, a, b)) === -expected).toBe(true);
    }
    // The plain float difference gets some of these wrong, so the cases really exercise the fallback.
    expect(fallbacks).toBeGreaterThan(100);
  });

  it('returns NaN for NaN input', () => {
    expect(differenceOfProducts(NaN, 1, 1, 1)).toBeNaN();
    expect(differenceOfProducts(1, 1, 1, NaN)).toBeNaN();
  });
});
