/**
 * Exact triangle-box overlap on BigInt, for the tests: all inputs are scaled by one power of two to
 * integers (see the ray-triangle reference), so every projection and comparison below is exact.
 *
 * Separating axis theorem for a closed box and a closed triangle: they are apart iff one of 13 axes
 * separates them — the box's three axes, the triangle's normal and the nine edge × axis products. It
 * holds for degenerate triangles too: a zero axis separates nothing, and for a segment or a point the
 * remaining axes still include every face normal of the Minkowski difference (box axes, and the
 * segment's direction × box axes).
 */
import { toScaledIntegers } from '../rayTriangle/exactReference';

export interface ExactBoxTriangle {
  overlap: boolean;
  /** All three vertices in the closed box. */
  contained: boolean;
  /** separates[i]: axis i separates, in mollerV1's order: x, y, z, normal, e0×x, e0×y, e0×z, e1×x, …, e2×z. */
  separates: boolean[];
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** box = [cx, cy, cz, hx, hy, hz], triangle = nine coordinates; all finite, h ≥ 0. */
export function exactBoxTriangle(box: ArrayLike<number>, triangle: ArrayLike<number>): ExactBoxTriangle {
  const { integers } = toScaledIntegers([...Array.from(box), ...Array.from(triangle)]);
  const c = integers.slice(0, 3);
  const h = integers.slice(3, 6);
  const v = [0, 1, 2].map((i) => [0, 1, 2].map((axis) => integers[6 + 3 * i + axis]! - c[axis]!));
  const separates: boolean[] = [];
  const apartAlong = (axis: bigint[]): boolean => {
    const projections = v.map((p) => axis[0]! * p[0]! + axis[1]! * p[1]! + axis[2]! * p[2]!);
    const radius = abs(axis[0]!) * h[0]! + abs(axis[1]!) * h[1]! + abs(axis[2]!) * h[2]!;
    let min = projections[0]!,
      max = projections[0]!;
    for (const p of projections) {
      if (p < min) min = p;
      if (p > max) max = p;
    }
    return min > radius || max < -radius;
  };
  const unit = [
    [1n, 0n, 0n],
    [0n, 1n, 0n],
    [0n, 0n, 1n],
  ];
  for (const axis of unit) separates.push(apartAlong(axis));
  const edge = (from: number, to: number): bigint[] => [0, 1, 2].map((k) => v[to]![k]! - v[from]![k]!);
  const cross = (a: bigint[], b: bigint[]): bigint[] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  const e0 = edge(0, 1),
    e1 = edge(1, 2),
    e2 = edge(2, 0);
  separates.push(apartAlong(cross(e0, e1)));
  for (const e of [e0, e1, e2]) for (const axis of unit) separates.push(apartAlong(cross(e, axis)));
  const contained = v.every((p) => p.every((value, axis) => abs(value) <= h[axis]!));
  return { overlap: !separates.some(Boolean), contained, separates };
}
