import type { FunctionBuilder, ModuleBuilder } from './wasmEmitter';
import { SimdOp, ValueType } from './wasmOpcodes';

/**
 * Sine and cosine of four float32 lanes, emitted as one WebAssembly function `trig(x, quadrant)`:
 * sin(x) = trig(x, 0), cos(x) = trig(x, 1). WebAssembly has no sin or cos, so this is the classic
 * float32 recipe: take the nearest multiple j of π/2, reduce r = x − j·π/2 in four steps
 * (Cody–Waite: π/2 split into float32 parts of few bits, so each j·part is exact for |j| < 2^16), then a
 * minimax polynomial for sin or cos on [−π/4, π/4] picked by j's low bits, negated by its second bit.
 *
 * Accuracy against Math.sin / Math.cos: a few float32 ulps of absolute error (< 3e-7) for
 * |x| ≤ 65536; beyond that float32 cannot hold the phase to better than its own spacing, the
 * reduction loses digits and the result, clamped to the polynomials' interval, is only a bounded
 * number in about [−1, 1]. ±Infinity and NaN give NaN, as Math.sin does.
 *
 * TRIG_CONSTANTS spells the recipe's numbers so a TypeScript twin can do the same float32 steps.
 */
export const TRIG_CONSTANTS = {
  twoOverPi: 0.6366197723675814,
  /** π/2 as a sum of float32 parts, the first three of 8 significant bits (so j·part is exact for |j| < 2^16). */
  piOverTwoParts: [1.5703125, 0.000484466552734375, -6.407499313354492e-7, 9.92093629470503e-10],
  /** j may be one off where x·(2/π) rounds across a half, so |r| reaches π/4 + 0.006 for |x| ≤ 65536; the clamp only bounds huge inputs. */
  reducedLimit: 0.8,
  sin1: -1.6666654611e-1,
  sin2: 8.3321608736e-3,
  sin3: -1.9515295891e-4,
  cos1: 4.166664568298827e-2,
  cos2: -1.388731625493765e-3,
  cos3: 2.443315711809948e-5,
} as const;

function splat(f: FunctionBuilder, value: number): FunctionBuilder {
  return f.f32x4Const(value, value, value, value);
}

/** Adds `trig(x: v128, quadrant: i32) → v128` to the module and returns its function index. */
export function emitTrigFunction(module: ModuleBuilder): number {
  const T = TRIG_CONSTANTS;
  const f = module.function([ValueType.v128, ValueType.i32], [ValueType.v128]);
  const x = 0;
  const quadrantOffset = 1;
  const j = f.local(ValueType.v128);
  const r = f.local(ValueType.v128);
  const z = f.local(ValueType.v128);
  const q = f.local(ValueType.v128);
  const sine = f.local(ValueType.v128);
  const cosine = f.local(ValueType.v128);

  f.localGet(x);
  splat(f, T.twoOverPi).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Nearest).localSet(j);
  f.localGet(x);
  for (const part of T.piOverTwoParts) {
    f.localGet(j);
    splat(f, part).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Sub);
  }
  // min / max (not pmin / pmax) so a NaN from ±Infinity survives the clamp.
  splat(f, -T.reducedLimit).simd(SimdOp.f32x4Max);
  splat(f, T.reducedLimit).simd(SimdOp.f32x4Min).localSet(r);
  f.localGet(j).simd(SimdOp.i32x4TruncSatF32x4S).localGet(quadrantOffset).simd(SimdOp.i32x4Splat).simd(SimdOp.i32x4Add).localSet(q);
  f.localGet(r).localGet(r).simd(SimdOp.f32x4Mul).localSet(z);

  // sine = r + r·(z·(s1 + z·(s2 + z·s3)))
  f.localGet(r).localGet(r).localGet(z);
  splat(f, T.sin1).localGet(z);
  splat(f, T.sin2).localGet(z);
  splat(f, T.sin3).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Add).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Add).simd(SimdOp.f32x4Mul);
  f.simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Add).localSet(sine);

  // cosine = (1 − z·0.5) + (z·z)·(c1 + z·(c2 + z·c3))
  splat(f, 1).localGet(z);
  splat(f, 0.5).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Sub);
  f.localGet(z).localGet(z).simd(SimdOp.f32x4Mul);
  splat(f, T.cos1).localGet(z);
  splat(f, T.cos2).localGet(z);
  splat(f, T.cos3).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Add).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Add).simd(SimdOp.f32x4Mul);
  f.simd(SimdOp.f32x4Add).localSet(cosine);

  // Odd quadrants take the cosine polynomial; quadrants 2 and 3 flip the sign bit.
  f.localGet(cosine).localGet(sine);
  f.localGet(q).i32x4Const(1, 1, 1, 1).simd(SimdOp.v128And);
  f.i32x4Const(0, 0, 0, 0).simd(SimdOp.i32x4Ne).simd(SimdOp.v128Bitselect);
  f.localGet(q).i32x4Const(2, 2, 2, 2).simd(SimdOp.v128And).i32Const(30).simd(SimdOp.i32x4Shl).simd(SimdOp.v128Xor);
  return f.index;
}
