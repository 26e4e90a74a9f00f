/**
 * Sine and cosine that give the same bits in every JavaScript engine. `Math.sin` and `Math.cos` are
 * free to differ in the last bit between engines and between versions of one engine (Node's V8 and a
 * current Chromium's do), so a simulation that spawns or moves things with them reaches another state
 * in the page than in the headless runner. These use only +, −, × and the exactly rounded conversions,
 * which IEEE 754 fixes: a Cody–Waite reduction by π/2 and the classic fdlibm kernel polynomials on
 * [−π/4, π/4]; within about one ulp of the true value for |x| < 2^20·π/2, and still deterministic
 * (if less accurate) beyond.
 */

const TWO_OVER_PI = 6.36619772367581382433e-1;
/** π/2 split in two: the head has 33 significant bits, so n·head is exact for |n| < 2^20. */
const PIO2_HEAD = 1.57079632673412561417;
const PIO2_TAIL = 6.07710050650619224932e-11;

const S1 = -1.66666666666666324348e-1;
const S2 = 8.33333333332248946124e-3;
const S3 = -1.98412698298579493134e-4;
const S4 = 2.75573137070700676789e-6;
const S5 = -2.50507602534068634195e-8;
const S6 = 1.58969099521155010221e-10;

const C1 = 4.16666666666666019037e-2;
const C2 = -1.38888888888741095749e-3;
const C3 = 2.48015872894767294178e-5;
const C4 = -2.75573143513906633035e-7;
const C5 = 2.0875723212981748279e-9;
const C6 = -1.13596475577881948265e-11;

/** sin on [−π/4, π/4]. */
function kernelSin(x: number): number {
  const z = x * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x + z * x * (S1 + z * r);
}

/** cos on [−π/4, π/4]. */
function kernelCos(x: number): number {
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  const half = 0.5 * z;
  const w = 1 - half;
  return w + (1 - w - half + z * r);
}

/** The quadrant (0…3) of x and its remainder in [−π/4, π/4], through one scratch slot to avoid a tuple. */
let reduced = 0;
function reduce(x: number): number {
  const n = Math.round(x * TWO_OVER_PI);
  reduced = x - n * PIO2_HEAD - n * PIO2_TAIL;
  return n & 3;
}

export function sin(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  if (Math.abs(x) <= 0.7853981633974483) return x === 0 ? x : kernelSin(x);
  const quadrant = reduce(x);
  const y = reduced;
  return quadrant === 0 ? kernelSin(y) : quadrant === 1 ? kernelCos(y) : quadrant === 2 ? -kernelSin(y) : -kernelCos(y);
}

export function cos(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  if (Math.abs(x) <= 0.7853981633974483) return kernelCos(x);
  const quadrant = reduce(x);
  const y = reduced;
  return quadrant === 0 ? kernelCos(y) : quadrant === 1 ? -kernelSin(y) : quadrant === 2 ? -kernelCos(y) : kernelSin(y);
}

/**
 * sin x into out[0] and cos x into out[1], the same bits as sin(x) and cos(x): for hot loops, where a
 * float returned from a call the engine does not inline is allocated (thousands of spawns a frame).
 */
export function sinCos(x: number, out: Float64Array): void {
  if (!Number.isFinite(x)) {
    out[0] = out[1] = NaN;
    return;
  }
  if (Math.abs(x) <= 0.7853981633974483) {
    out[0] = x === 0 ? x : kernelSin(x);
    out[1] = kernelCos(x);
    return;
  }
  // reduce(), written out: its remainder stays a local.
  const n = Math.round(x * TWO_OVER_PI);
  const y = x - n * PIO2_HEAD - n * PIO2_TAIL;
  const quadrant = n & 3;
  const s = kernelSin(y),
    c = kernelCos(y);
  out[0] = quadrant === 0 ? s : quadrant === 1 ? c : quadrant === 2 ? -s : -c;
  out[1] = quadrant === 0 ? c : quadrant === 1 ? -s : quadrant === 2 ? -c : s;
}
