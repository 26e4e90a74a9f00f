// AssemblyScript twin of src/query/rayTriangle/exactSign.ts: a·b − c·d with an exact sign, the same
// float64 operations in the same order, so every lane of the watertight test agrees bit for bit with
// the TypeScript one (that agreement is what keeps the two paths crack-free in the same way).

const EPSILON: f64 = 1.1102230246251565e-16; // 2^-53
const DIFFERENCE_ERROR_BOUND: f64 = (3.0 + 16.0 * EPSILON) * EPSILON;
const SPLITTER: f64 = 134217729.0; // 2^27 + 1

/** Sign-exact a·b − c·d: the float difference, or the leading term of the exact one when in doubt. */
export function differenceOfProducts(a: f64, b: f64, c: f64, d: f64): f64 {
  const left = a * b;
  const right = c * d;
  const difference = left - right;
  const bound = DIFFERENCE_ERROR_BOUND * (Math.abs(left) + Math.abs(right));
  if (difference > bound || -difference > bound) return difference;
  if (left == 0 || right == 0) return difference;
  return exactDifferenceOfProducts(a, b, c, d, left, right);
}

/** The slow path, taken only when the float difference is too close to zero to trust its sign. */
export function exactDifferenceOfProducts(a: f64, b: f64, c: f64, d: f64, left: f64, right: f64): f64 {
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

  let sum = leftTail - rightTail;
  let virtualB = leftTail - sum;
  let virtualA = sum + virtualB;
  const x0 = leftTail - virtualA + (virtualB - rightTail);
  const i = sum;
  const j = left + i;
  virtualB = j - left;
  virtualA = j - virtualB;
  const k = left - virtualA + (i - virtualB);
  sum = k - right;
  virtualB = k - sum;
  virtualA = sum + virtualB;
  const x1 = k - virtualA + (virtualB - right);
  const x3 = j + sum;
  virtualB = x3 - j;
  virtualA = x3 - virtualB;
  const x2 = j - virtualA + (sum - virtualB);
  if (x3 != 0) return x3;
  if (x2 != 0) return x2;
  if (x1 != 0) return x1;
  return x0;
}
