import type { FunctionBuilder } from '../platform/wasmEmitter';
import { SimdOp, ValueType } from '../platform/wasmOpcodes';
import type { OperationName } from './opcodes';

/**
 * What each field operation means in WebAssembly SIMD, shared by the SIMD interpreter and the SIMD
 * JIT. Values are structure of arrays: a float4 register of four points is four v128 locals, one per
 * component (x of four points, y of four points…), so every operation is lane-wise and the formulas
 * are those of semantics.ts, in the same order, each step rounded to float32. No fused operations
 * (WebAssembly SIMD has no FMA), so a float32 twin of semantics.ts gets the same bits; sin and cos
 * follow platform/f32x4Trig.ts, noise simd-noise.ts.
 *
 * A comparison's 0 / 1 result remembers its all-ones mask, so a select on it uses the mask directly.
 *
 * Some locals carry a LaneFact, true of every lane whatever the inputs (a cross product's w is +0, a
 * dot product of a vector with itself is never negative). A division of a ±0-or-NaN lane by a lane
 * that is +0 … +Infinity or NaN needs no divider: IEEE gives the dividend itself where the divisor
 * is > 0, NaN elsewhere (0 / 0, anything / NaN), so the lane becomes `dividend | ~(divisor > 0)`
 * (all ones is a NaN). The whirl's w component divides that way.
 */
export interface LaneFunctions {
  /** `trig(x, quadrant)` from platform/f32x4Trig.ts. */
  readonly trig: number;
  /** `noise(x, y, z)` from simd-noise.ts. */
  readonly noise: number;
}

/** What holds in every lane of a local, whatever the inputs. */
export type LaneFact =
  /** +0, −0 or NaN. */
  | 'zeroOrNaN'
  /** +0 … +Infinity (sign bit clear), or NaN. */
  | 'nonNegativeOrNaN';

/** The v128 locals a function works in; `release` lets the interpreter reuse them between opcodes. */
export class LanePool {
  private readonly free: number[] = [];
  private readonly taken: number[] = [];
  /** Comparison result local → the mask local it came from. */
  maskOf = new Map<number, number>();
  /** Dot products already computed, by their argument locals (normalize after dot shares it). */
  dots = new Map<string, number>();
  /** Local → what holds in its lanes. A local keeps its fact until released (locals are written once). */
  readonly facts = new Map<number, LaneFact>();

  constructor(private readonly f: FunctionBuilder) {}

  take(): number {
    const local = this.free.pop() ?? this.f.local(ValueType.v128);
    this.taken.push(local);
    return local;
  }

  /** Every local taken so far becomes free again (the values in them are dead). */
  release(): void {
    this.free.push(...this.taken);
    this.taken.length = 0;
    this.maskOf.clear();
    this.dots.clear();
    this.facts.clear();
  }

  /**
   * What is known about computed values, to restore after a branch: values computed inside an `if`
   * are not there on the other path.
   */
  remember(): () => void {
    const maskOf = new Map(this.maskOf);
    const dots = new Map(this.dots);
    return () => {
      this.maskOf = maskOf;
      this.dots = dots;
    };
  }
}

type Vector = readonly number[];

const BINARY: Partial<Record<OperationName, SimdOp>> = {
  add: SimdOp.f32x4Add,
  sub: SimdOp.f32x4Sub,
  mul: SimdOp.f32x4Mul,
  div: SimdOp.f32x4Div,
  min: SimdOp.f32x4Min,
  max: SimdOp.f32x4Max,
};
const COMPARISON: Partial<Record<OperationName, SimdOp>> = {
  lt: SimdOp.f32x4Lt,
  le: SimdOp.f32x4Le,
  gt: SimdOp.f32x4Gt,
  ge: SimdOp.f32x4Ge,
  eq: SimdOp.f32x4Eq,
  ne: SimdOp.f32x4Ne,
};
/** What a lane-wise binary operation's result keeps of its arguments' facts (IEEE 754, any inputs). */
function binaryFact(operation: OperationName, a: LaneFact | undefined, b: LaneFact | undefined, square: boolean): LaneFact | undefined {
  switch (operation) {
    case 'mul':
      // ±0 × finite = ±0, ±0 × ±Infinity = NaN; x × x and (≥ +0) × (≥ +0) have the sign bit clear.
      if (a === 'zeroOrNaN' || b === 'zeroOrNaN') return 'zeroOrNaN';
      return square || (a === 'nonNegativeOrNaN' && b === 'nonNegativeOrNaN') ? 'nonNegativeOrNaN' : undefined;
    case 'add':
      return a === b ? a : undefined;
    case 'sub':
      return a === 'zeroOrNaN' && b === 'zeroOrNaN' ? 'zeroOrNaN' : undefined;
    case 'div':
      // ±0 / y is ±0 or NaN; (≥ +0) / (≥ +0) is ≥ +0 (x / +0 = +Infinity) or NaN.
      if (a === 'zeroOrNaN') return 'zeroOrNaN';
      return a === 'nonNegativeOrNaN' && b === 'nonNegativeOrNaN' ? 'nonNegativeOrNaN' : undefined;
    default:
      return undefined;
  }
}

const UNARY: Partial<Record<OperationName, SimdOp>> = {
  neg: SimdOp.f32x4Neg,
  abs: SimdOp.f32x4Abs,
  floor: SimdOp.f32x4Floor,
  sqrt: SimdOp.f32x4Sqrt,
};

/**
 * Emits one operation on the component locals of its arguments (`args[i][k]`) and returns the locals
 * holding the result's four components. Moves and swizzles only rename; nothing else reuses an
 * argument's local, so a result may alias any argument.
 */
export function emitLaneOperation(
  f: FunctionBuilder,
  pool: LanePool,
  functions: LaneFunctions,
  operation: OperationName,
  args: readonly Vector[],
  immediate: number,
): number[] {
  const a = args[0]!;
  const b = args[1] ?? a;
  const c = args[2] ?? a;
  const result = (): number => pool.take();
  const set = (local: number): number => {
    f.localSet(local);
    return local;
  };
  const splat = (value: number): FunctionBuilder => f.f32x4Const(value, value, value, value);
  const each = (emit: (k: number) => void): number[] =>
    [0, 1, 2, 3].map((k) => {
      emit(k);
      return set(result());
    });
  /** ((x0·y0 + x1·y1) + x2·y2) + x3·y3, the order of semantics.ts */
  const dot = (x: Vector, y: Vector): number => {
    const key = `${x.join(',')}|${y.join(',')}`;
    const known = pool.dots.get(key);
    if (known !== undefined) return known;
    for (let k = 0; k < 4; k++) {
      f.localGet(x[k]!).localGet(y[k]!).simd(SimdOp.f32x4Mul);
      if (k > 0) f.simd(SimdOp.f32x4Add);
    }
    // A vector's dot product with itself sums squares: never negative (or NaN).
    const value = withFact(set(result()), x.every((local, k) => local === y[k]) ? 'nonNegativeOrNaN' : undefined);
    pool.dots.set(key, value);
    return value;
  };

  const fact = (local: number): LaneFact | undefined => pool.facts.get(local);
  const withFact = (local: number, known: LaneFact | undefined): number => {
    if (known !== undefined) pool.facts.set(local, known);
    return local;
  };

  const binary = BINARY[operation];
  if (binary !== undefined) {
    return [0, 1, 2, 3].map((k) => {
      const [x, y] = [a[k]!, b[k]!];
      if (operation === 'div' && fact(x) === 'zeroOrNaN' && fact(y) === 'nonNegativeOrNaN') {
        // x where y > 0, NaN (all ones) elsewhere: the exact quotient without the divider.
        f.localGet(x).localGet(y);
        splat(0).simd(SimdOp.f32x4Gt).simd(SimdOp.v128Not).simd(SimdOp.v128Or);
      } else f.localGet(x).localGet(y).simd(binary);
      return withFact(set(result()), binaryFact(operation, fact(x), fact(y), x === y));
    });
  }
  const comparison = COMPARISON[operation];
  if (comparison !== undefined) {
    return [0, 1, 2, 3].map((k) => {
      const mask = result();
      f.localGet(a[k]!).localGet(b[k]!).simd(comparison).localTee(mask);
      splat(1).simd(SimdOp.v128And);
      const value = set(result());
      pool.maskOf.set(value, mask);
      return value;
    });
  }
  const unary = UNARY[operation];
  if (unary !== undefined) {
    return [0, 1, 2, 3].map((k) => {
      f.localGet(a[k]!).simd(unary);
      const known = fact(a[k]!);
      // −(±0) and |±0| are ±0; |x| clears the sign; √ of a lane ≥ +0 is ≥ +0 (√−0 = −0 is not).
      const kept =
        operation === 'neg'
          ? known === 'zeroOrNaN'
            ? known
            : undefined
          : operation === 'abs'
            ? (known ?? 'nonNegativeOrNaN')
            : operation === 'sqrt' && known === 'nonNegativeOrNaN'
              ? known
              : undefined;
      return withFact(set(result()), kept);
    });
  }

  switch (operation) {
    case 'mov':
      return [...a];
    case 'swizzle':
      return [0, 1, 2, 3].map((k) => a[(immediate >> (2 * k)) & 3]!);
    case 'dot': {
      const value = dot(a, b);
      return [value, value, value, value];
    }
    case 'cross': {
      const component = (p: number, q: number): number => {
        f.localGet(a[p]!).localGet(b[q]!).simd(SimdOp.f32x4Mul).localGet(a[q]!).localGet(b[p]!).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Sub);
        const zeroes = (x: number, y: number): boolean => fact(x) === 'zeroOrNaN' || fact(y) === 'zeroOrNaN';
        return withFact(set(result()), zeroes(a[p]!, b[q]!) && zeroes(a[q]!, b[p]!) ? 'zeroOrNaN' : undefined);
      };
      const x = component(1, 2);
      const y = component(2, 0);
      const z = component(0, 1);
      splat(0);
      return [x, y, z, withFact(set(result()), 'zeroOrNaN')];
    }
    case 'frac':
      return each((k) => f.localGet(a[k]!).localGet(a[k]!).simd(SimdOp.f32x4Floor).simd(SimdOp.f32x4Sub));
    case 'saturate':
      return each((k) => {
        f.localGet(a[k]!);
        splat(0).simd(SimdOp.f32x4Max);
        splat(1).simd(SimdOp.f32x4Min);
      });
    case 'sin':
    case 'cos':
      return each((k) =>
        f
          .localGet(a[k]!)
          .i32Const(operation === 'sin' ? 0 : 1)
          .call(functions.trig),
      );
    case 'length': {
      f.localGet(dot(a, a)).simd(SimdOp.f32x4Sqrt);
      const value = withFact(set(result()), 'nonNegativeOrNaN');
      return [value, value, value, value];
    }
    case 'normalize': {
      // squared > 0 ? 1 / sqrt(squared) : 0, so a zero (or NaN) vector normalises to zero
      const squared = dot(a, a);
      splat(1).localGet(squared).simd(SimdOp.f32x4Sqrt).simd(SimdOp.f32x4Div);
      splat(0).localGet(squared);
      splat(0).simd(SimdOp.f32x4Gt).simd(SimdOp.v128Bitselect);
      const inverse = set(result());
      return each((k) => f.localGet(a[k]!).localGet(inverse).simd(SimdOp.f32x4Mul));
    }
    case 'noise': {
      f.localGet(a[0]!).localGet(a[1]!).localGet(a[2]!).call(functions.noise);
      const value = set(result());
      return [value, value, value, value];
    }
    case 'lerp':
      return each((k) =>
        f.localGet(a[k]!).localGet(b[k]!).localGet(a[k]!).simd(SimdOp.f32x4Sub).localGet(c[k]!).simd(SimdOp.f32x4Mul).simd(SimdOp.f32x4Add),
      );
    case 'clamp':
      return each((k) => f.localGet(a[k]!).localGet(b[k]!).simd(SimdOp.f32x4Max).localGet(c[k]!).simd(SimdOp.f32x4Min));
    case 'select':
      return each((k) => {
        f.localGet(b[k]!).localGet(c[k]!);
        const mask = pool.maskOf.get(a[k]!);
        if (mask !== undefined) f.localGet(mask);
        else f.localGet(a[k]!).f32x4Const(0, 0, 0, 0).simd(SimdOp.f32x4Ne);
        f.simd(SimdOp.v128Bitselect);
      });
  }
  throw new Error(`no SIMD lanes for ${operation}`);
}
