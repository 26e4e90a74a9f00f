/**
 * Exact ray-triangle reference on BigInt: every finite double is m·2^e with integer m, so scaling all
 * inputs by a common power of two makes them integers and the orientation tests exact.
 */

/** Integer mantissa and exponent with value = mantissa · 2^exponent. */
function decompose(value: number): { mantissa: bigint; exponent: number } {
  if (value === 0) return { mantissa: 0n, exponent: 0 };
  let m = value;
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return { mantissa: BigInt(m), exponent: e };
}

/** The values as integers times 2^exponent, one exponent for all. */
export function toScaledIntegers(values: readonly number[]): { integers: bigint[]; exponent: number } {
  const parts = values.map(decompose);
  const exponent = Math.min(...parts.map((p) => p.exponent));
  return { integers: parts.map((p) => p.mantissa << BigInt(p.exponent - exponent)), exponent };
}

export interface ExactHit {
  /** The ray meets the closed triangle (either side) within [0, tMax]. */
  hit: boolean;
  /** The ray meets the counter-clockwise side (what single-sided kernels keep). */
  front: boolean;
  /** The distance parameter, to ~1e-15 relative (meaningful when hit). */
  t: number;
  /**
   * How far the case is from a decision boundary, relative to its scale (0 on an edge, in the plane,
   * at t = 0 or t = tMax): kernels in float64 must agree with the reference when this is not tiny.
   */
  clearance: number;
}

const sign = (x: bigint): number => (x > 0n ? 1 : x < 0n ? -1 : 0);

/** Triple product (p × q) · r on integers. */
function triple(p: readonly bigint[], q: readonly bigint[], r: readonly bigint[]): bigint {
  return (p[1]! * q[2]! - p[2]! * q[1]!) * r[0]! + (p[2]! * q[0]! - p[0]! * q[2]!) * r[1]! + (p[0]! * q[1]! - p[1]! * q[0]!) * r[2]!;
}

/** Ratio of integers as a float, correct to ~1e-15 relative for any magnitudes. */
function ratio(numerator: bigint, denominator: bigint): number {
  if (numerator === 0n) return 0;
  const negative = numerator < 0n !== denominator < 0n;
  let n = numerator < 0n ? -numerator : numerator;
  let d = denominator < 0n ? -denominator : denominator;
  let shift = n.toString(2).length - d.toString(2).length;
  if (shift > 0) d <<= BigInt(shift);
  else n <<= BigInt(-shift);
  const value = Number((n << 64n) / d) / 2 ** 64;
  shift = Math.max(-1000, Math.min(1000, shift));
  return (negative ? -value : value) * 2 ** shift;
}

export function exactRayTriangle(
  origin: readonly number[],
  direction: readonly number[],
  a: readonly number[],
  b: readonly number[],
  c: readonly number[],
  tMax: number,
): ExactHit {
  const all = [...origin, ...direction, ...a, ...b, ...c];
  const { integers: scaled, exponent } = toScaledIntegers(all);
  // A product of three scaled coordinates back in world units.
  const volume = (x: bigint): number => ratio(x, 1n) * 2 ** (3 * exponent);
  const o = scaled.slice(0, 3);
  const d = scaled.slice(3, 6);
  const rel = (k: number): bigint[] => [scaled[k]! - o[0]!, scaled[k + 1]! - o[1]!, scaled[k + 2]! - o[2]!];
  const pa = rel(6);
  const pb = rel(9);
  const pc = rel(12);
  const sideAB = triple(pa, pb, d);
  const sideBC = triple(pb, pc, d);
  const sideCA = triple(pc, pa, d);
  const approach = sideAB + sideBC + sideCA; // = ((b−a)×(c−a))·d
  const signs = [sign(sideAB), sign(sideBC), sign(sideCA)];
  const inside = approach !== 0n && (signs.every((s) => s >= 0) || signs.every((s) => s <= 0));
  // t = ((b−a)×(c−a))·(a−o) / approach, and (b−a)×(c−a)·(a−o) = (a−o)·((b−o)×(c−o)) since the origin cancels.
  const along = triple(pb, pc, pa);
  const t = approach === 0n ? NaN : ratio(along, approach);
  const hit = inside && t >= 0 && t <= tMax;

  // Clearance: smallest edge-plane volume over the scale of its terms, the approach angle, the t margins.
  const norm = (v: readonly number[]): number => Math.hypot(v[0]!, v[1]!, v[2]!);
  const relA = [a[0]! - origin[0]!, a[1]! - origin[1]!, a[2]! - origin[2]!];
  const relB = [b[0]! - origin[0]!, b[1]! - origin[1]!, b[2]! - origin[2]!];
  const relC = [c[0]! - origin[0]!, c[1]! - origin[1]!, c[2]! - origin[2]!];
  const lengthA = norm(relA);
  const lengthB = norm(relB);
  const lengthC = norm(relC);
  const lengthD = norm(direction);
  const clearanceAB = Math.abs(volume(sideAB)) / (lengthA * lengthB * lengthD);
  const clearanceBC = Math.abs(volume(sideBC)) / (lengthB * lengthC * lengthD);
  const clearanceCA = Math.abs(volume(sideCA)) / (lengthC * lengthA * lengthD);
  let clearance = Math.min(clearanceAB, clearanceBC, clearanceCA);
  const e1 = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const e2 = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
  const normal = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
  const cosine = Math.abs(volume(approach)) / (norm(normal) * lengthD);
  clearance = Math.min(clearance, cosine);
  if (Number.isFinite(t)) {
    clearance = Math.min(clearance, Math.abs(t) / (1 + Math.abs(t)));
    if (Number.isFinite(tMax)) clearance = Math.min(clearance, Math.abs(t - tMax) / (1 + Math.abs(tMax)));
  }
  if (!Number.isFinite(clearance)) clearance = 0;
  return { hit, front: hit && approach < 0n, t, clearance };
}
