/**
 * a·b − c·d with an exact sign, for the 2D edge functions of the watertight test.
 *
 * Why exact: on a shared edge the two triangles compute the same two products in swapped order, so the
 * float result is exactly negated and no gap opens whatever the rounding. Around a shared vertex that is
 * not enough: the signs of the several edges through the vertex must describe a configuration that can
 * exist in the plane, otherwise a ray through the vertex can be "outside" every triangle of the fan.
 * Exact signs of the projected (rounded but consistent) vertices guarantee that. Woop, Benthin and Wald
 * get exactness by redoing float32 products in float64; our inputs are already float64, so the fallback
 * is an exact expansion (Dekker's product, Shewchuk's two-two difference) taken only when the float
 * result is too close to zero to trust its sign.
 */

/** Shewchuk's error bound for a two-product difference (orient2d's ccwerrboundA, a safe overestimate). */
const EPSILON = 2 ** -53;
const DIFFERENCE_ERROR_BOUND = (3 + 16 * EPSILON) * EPSILON;
/** Veltkamp's splitter for float64: 2^27 + 1. */
const SPLITTER = 134217729;

/**
 * Returns a number whose sign (−, 0, +) is exactly the sign of a·b − c·d for finite a, b, c, d away from
 * overflow and underflow, and whose value is the float difference or, when that was in doubt, the
 * leading term of the exact difference. NaN inputs give NaN.
 */
export function differenceOfProducts(a: number, b: number, c: number, d: number): number {
  const left = a * b;
  const right = c * d;
  const difference = left - right;
  const bound = DIFFERENCE_ERROR_BOUND * (Math.abs(left) + Math.abs(right));
  if (difference > bound || -difference > bound) return difference;
  if (left === 0 || right === 0) return difference; // one exact product is zero: the float result is right
  return exactDifferenceOfProducts(a, b, c, d, left, right);
}

function exactDifferenceOfProducts(a: number, b: number, c: number, d: number, left: number, right: number): number {
  // left + leftTail = a·b and right + rightTail = c·d exactly (Dekker's two-product, no FMA in JS).
  let split = SPLITTER * a;
  const aHigh = split - (split - a);
  const aLow = a - aHigh;
  split = SPLITTER * b;
  const bHigh = split - (split - b);
  const bLow = b - bHigh;
  const leftTail = aLow * bLow - (left - aHigh * bHigh - aLow * bHigh - aHigh * bLow);
  split = SPLITTER * c;
  const cHigh = split - (split - c);
  const cLow = c - cHigh;
  split = SPLITTER * d;
  const dHigh = split - (split - d);
  const dLow = d - dHigh;
  const rightTail = cLow * dLow - (right - cHigh * dHigh - cLow * dHigh - cHigh * dLow);

  // (left + leftTail) − (right + rightTail) as a non-overlapping four-term expansion x3 > x2 > x1 > x0.
  // Two_One_Diff(left, leftTail, rightTail) → (j, k, x0)
  let sum = leftTail - rightTail;
  let virtualB = leftTail - sum;
  let virtualA = sum + virtualB;
  const x0 = leftTail - virtualA + (virtualB - rightTail);
  const i = sum;
  const j = left + i;
  virtualB = j - left;
  virtualA = j - virtualB;
  const k = left - virtualA + (i - virtualB);
  // Two_One_Diff(j, k, right) → (x3, x2, x1)
  sum = k - right;
  virtualB = k - sum;
  virtualA = sum + virtualB;
  const x1 = k - virtualA + (virtualB - right);
  const x3 = j + sum;
  virtualB = x3 - j;
  virtualA = x3 - virtualB;
  const x2 = j - virtualA + (sum - virtualB);
  // In a non-overlapping expansion the largest non-zero term outweighs all smaller ones together.
  if (x3 !== 0) return x3;
  if (x2 !== 0) return x2;
  if (x1 !== 0) return x1;
  return x0;
}
