/**
 * Every one of mollerV1's 13 tests evaluated with its own float64 expressions, none skipped: which of
 * them separate. Lets the tests check that an exit taken by the optimized test names an axis on which
 * mollerV1's arithmetic separates too. Returns a mask with bit e set for each separating test's exit code.
 */
import { EXIT_AXIS_X, EXIT_EDGE_FIRST, EXIT_PLANE } from '../../../src/query/boxTriangle/exits';
import { planeBoxOverlapV1 } from '../../../src/query/boxTriangle/mollerV1';

export function v1SeparatingExits(box: Float64Array, positions: Float32Array, a: number, b: number, c: number): number {
  const [cx, cy, cz, hx, hy, hz] = box as unknown as number[];
  const p = (vertex: number, axis: number): number => positions[3 * vertex + axis]!;
  const v = [a, b, c].map((vertex) => [p(vertex, 0) - cx!, p(vertex, 1) - cy!, p(vertex, 2) - cz!]);
  const h = [hx!, hy!, hz!];
  let mask = 0;
  for (let axis = 0; axis < 3; axis++) {
    const values = v.map((q) => q[axis]!);
    if (Math.min(...values) > h[axis]! || Math.max(...values) < -h[axis]!) mask |= 1 << (EXIT_AXIS_X + axis);
  }
  const [v0, v1, v2] = v as [number[], number[], number[]];
  const e0 = [v1[0]! - v0[0]!, v1[1]! - v0[1]!, v1[2]! - v0[2]!];
  const e1 = [v2[0]! - v1[0]!, v2[1]! - v1[1]!, v2[2]! - v1[2]!];
  const e2 = [v0[0]! - v2[0]!, v0[1]! - v2[1]!, v0[2]! - v2[2]!];
  const nx = e0[1]! * e1[2]! - e0[2]! * e1[1]!;
  const ny = e0[2]! * e1[0]! - e0[0]! * e1[2]!;
  const nz = e0[0]! * e1[1]! - e0[1]! * e1[0]!;
  const d = -(nx * v0[0]! + ny * v0[1]! + nz * v0[2]!);
  if (!planeBoxOverlapV1(nx, ny, nz, d, hx!, hy!, hz!)) mask |= 1 << EXIT_PLANE;
  // The vertex pairs each macro projects, in order x, y, z, per edge (X01 Y02 Z12 / X01 Y02 Z0 / X2 Y1 Z12).
  const pairs = [
    [
      [0, 2],
      [0, 2],
      [1, 2],
    ],
    [
      [0, 2],
      [0, 2],
      [0, 1],
    ],
    [
      [0, 1],
      [0, 1],
      [1, 2],
    ],
  ];
  [e0, e1, e2].forEach((e, edge) => {
    const fx = Math.abs(e[0]!),
      fy = Math.abs(e[1]!),
      fz = Math.abs(e[2]!);
    for (let axis = 0; axis < 3; axis++) {
      const project = (q: number[]): number =>
        axis === 0 ? e[2]! * q[1]! - e[1]! * q[2]! : axis === 1 ? -e[2]! * q[0]! + e[0]! * q[2]! : e[1]! * q[0]! - e[0]! * q[1]!;
      const rad = axis === 0 ? fz * hy! + fy * hz! : axis === 1 ? fz * hx! + fx * hz! : fy * hx! + fx * hy!;
      const [i, j] = pairs[edge]![axis]! as [number, number];
      const pi = project(v[i]!),
        pj = project(v[j]!);
      if (Math.min(pi, pj) > rad || Math.max(pi, pj) < -rad) mask |= 1 << (EXIT_EDGE_FIRST + 3 * edge + axis);
    }
  });
  return mask;
}
