import type { FunctionBuilder, ModuleBuilder } from '../platform/wasmEmitter';
import { Op, SimdOp, ValueType } from '../platform/wasmOpcodes';

/**
 * The `noise` built-in for four points at once, emitted as a WebAssembly function
 * `noise(x, y, z: v128) → v128`: the same gradient noise as noise3.ts, step for step in float32 (a
 * float32 twin of fieldNoise that rounds after every operation gives the same bits). The permutation
 * table is read from the module memory at `permutationAt` (512 bytes, see PERMUTATION); WebAssembly
 * SIMD has no gather, so each of the fourteen lattice lookups is four byte loads into lanes.
 *
 * Cell indices are taken modulo 256 in float arithmetic (c − 256·⌊c/256⌋, exact for integers), not by
 * converting to int32 first: float32 coordinates beyond 2^31 would saturate the conversion, while
 * fieldNoise's `& 255` sees them as multiples of 256.
 */
/** fieldNoise answers NaN outside |coordinate| < 1e15; in float32 that is |c| ≤ fround(1e15). */
const NOISE_LIMIT = Math.fround(1e15);

export function emitNoiseFunction(module: ModuleBuilder, permutationAt: number): number {
  const f = module.function([ValueType.v128, ValueType.v128, ValueType.v128], [ValueType.v128]);
  const v128 = (): number => f.local(ValueType.v128);
  const splat = (value: number): FunctionBuilder => f.f32x4Const(value, value, value, value);
  const point = [0, 1, 2];

  const valid = v128();
  point.forEach((axis, k) => {
    f.localGet(axis).simd(SimdOp.f32x4Abs);
    splat(NOISE_LIMIT).simd(SimdOp.f32x4Le);
    if (k > 0) f.simd(SimdOp.v128And);
  });
  f.localSet(valid);

  const cell: number[] = [];
  const fraction: number[] = [];
  const faded: number[] = [];
  for (const axis of point) {
    const floored = v128();
    f.localGet(axis).simd(SimdOp.f32x4Floor).localSet(floored);
    const index = v128();
    f.localGet(floored).localGet(floored);
    splat(1 / 256)
      .simd(SimdOp.f32x4Mul)
      .simd(SimdOp.f32x4Floor);
    splat(256).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Sub).simd(SimdOp.i32x4TruncSatF32x4S);
    f.i32x4Const(255, 255, 255, 255).simd(SimdOp.v128And).localSet(index);
    cell.push(index);
    const t = v128();
    f.localGet(axis).localGet(floored).simd(SimdOp.f32x4Sub).localSet(t);
    fraction.push(t);
    // fade(t) = t·t·t·(t·(t·6 − 15) + 10)
    const fade = v128();
    f.localGet(t).localGet(t).simd(SimdOp.f32x4Mul).localGet(t).simd(SimdOp.f32x4Mul);
    f.localGet(t).localGet(t);
    splat(6).simd(SimdOp.f32x4Mul);
    splat(15).simd(SimdOp.f32x4Sub).simd(SimdOp.f32x4Mul);
    splat(10).simd(SimdOp.f32x4Add).simd(SimdOp.f32x4Mul).localSet(fade);
    faded.push(fade);
  }
  const [cx, cy, cz] = cell as [number, number, number];
  const [fx, fy, fz] = fraction as [number, number, number];
  const [u, v, w] = faded as [number, number, number];

  /** perm[index + extra] per lane, plus `add` (an i32x4 local) when given. */
  const lookup = (index: number, extra: number, add?: number): number => {
    const result = v128();
    f.localGet(index).localSet(result);
    for (let lane = 0; lane < 4; lane++) {
      f.localGet(result).localGet(index).simdLane(SimdOp.i32x4ExtractLane, lane);
      f.memory(Op.i32Load8U, 0, permutationAt + extra)
        .simdLane(SimdOp.i32x4ReplaceLane, lane)
        .localSet(result);
    }
    if (add !== undefined) f.localGet(result).localGet(add).simd(SimdOp.i32x4Add).localSet(result);
    return result;
  };
  const a = lookup(cx, 0, cy);
  const aa = lookup(a, 0, cz);
  const ab = lookup(a, 1, cz);
  const b = lookup(cx, 1, cy);
  const ba = lookup(b, 0, cz);
  const bb = lookup(b, 1, cz);

  const minusOne = (t: number): number => {
    const result = v128();
    f.localGet(t);
    splat(1).simd(SimdOp.f32x4Sub).localSet(result);
    return result;
  };
  const fx1 = minusOne(fx);
  const fy1 = minusOne(fy);
  const fz1 = minusOne(fz);

  /** The gradient a hash picks (one of twelve cube edge midpoints), dotted with (x, y, z). */
  const gradientDot = (hash: number, x: number, y: number, z: number): number => {
    const h = v128();
    f.localGet(hash).i32x4Const(15, 15, 15, 15).simd(SimdOp.v128And).localSet(h);
    const isValue = (value: number): void => {
      f.localGet(h).i32x4Const(value, value, value, value).simd(SimdOp.i32x4Eq);
    };
    const lessThan = (value: number): void => {
      f.localGet(h).i32x4Const(value, value, value, value).simd(SimdOp.i32x4LtS);
    };
    const result = v128();
    // u = h < 8 ? x : y, its sign flipped by bit 0
    f.localGet(x).localGet(y);
    lessThan(8);
    f.simd(SimdOp.v128Bitselect);
    f.localGet(h).i32x4Const(1, 1, 1, 1).simd(SimdOp.v128And).i32Const(31).simd(SimdOp.i32x4Shl).simd(SimdOp.v128Xor);
    // v = h < 4 ? y : h is 12 or 14 ? x : z, its sign flipped by bit 1
    f.localGet(y).localGet(x).localGet(z);
    isValue(12);
    isValue(14);
    f.simd(SimdOp.v128Or).simd(SimdOp.v128Bitselect);
    lessThan(4);
    f.simd(SimdOp.v128Bitselect);
    f.localGet(h).i32x4Const(2, 2, 2, 2).simd(SimdOp.v128And).i32Const(30).simd(SimdOp.i32x4Shl).simd(SimdOp.v128Xor);
    f.simd(SimdOp.f32x4Add).localSet(result);
    return result;
  };

  /** lerp(t, p, q) = p + t·(q − p) */
  const lerp = (t: number, p: number, q: number): number => {
    const result = v128();
    f.localGet(p).localGet(t).localGet(q).localGet(p).simd(SimdOp.f32x4Sub).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Add).localSet(result);
    return result;
  };

  const x00 = lerp(u, gradientDot(lookup(aa, 0), fx, fy, fz), gradientDot(lookup(ba, 0), fx1, fy, fz));
  const x10 = lerp(u, gradientDot(lookup(ab, 0), fx, fy1, fz), gradientDot(lookup(bb, 0), fx1, fy1, fz));
  const x01 = lerp(u, gradientDot(lookup(aa, 1), fx, fy, fz1), gradientDot(lookup(ba, 1), fx1, fy, fz1));
  const x11 = lerp(u, gradientDot(lookup(ab, 1), fx, fy1, fz1), gradientDot(lookup(bb, 1), fx1, fy1, fz1));
  const noise = lerp(w, lerp(v, x00, x10), lerp(v, x01, x11));
  f.localGet(noise);
  splat(Number.NaN).localGet(valid).simd(SimdOp.v128Bitselect);
  return f.index;
}
