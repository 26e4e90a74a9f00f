import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import {
  DEFAULT_RAY_TRIANGLE_KERNEL,
  RAY_MISS,
  RAY_TRIANGLE_KERNELS,
  RAY_TRIANGLE_KERNEL_NAMES,
  RAY_VALID,
  createRayData,
  getRayTriangleKernel,
  type RayTriangleKernelName,
} from '../../../src/query/rayTriangle/index';

const SIDES = [false, true];

/** Casts one ray at one triangle given as nine coordinates. */
function cast(
  name: RayTriangleKernelName,
  triangle: readonly number[],
  origin: readonly number[],
  direction: readonly number[],
  tMax: number,
  doubleSided: boolean,
): number {
  const kernel = RAY_TRIANGLE_KERNELS[name];
  const rayData = createRayData();
  kernel.prepareRay(origin[0]!, origin[1]!, origin[2]!, direction[0]!, direction[1]!, direction[2]!, rayData);
  return kernel.intersect(rayData, new Float32Array(triangle), 0, 1, 2, tMax, doubleSided);
}

/** Counter-clockwise seen from +y: its front face looks up. */
const FLAT = [0, 0, 0, 0, 0, 4, 4, 0, 0];

describe.each(RAY_TRIANGLE_KERNEL_NAMES)('%s kernel edge cases', (name: RayTriangleKernelName) => {
  it('culls back faces when single-sided and keeps both sides when double-sided', () => {
    expect(cast(name, FLAT, [1, 5, 1], [0, -1, 0], Infinity, false)).toBe(5);
    expect(cast(name, FLAT, [1, -5, 1], [0, 1, 0], Infinity, false)).toBe(RAY_MISS);
    expect(cast(name, FLAT, [1, -5, 1], [0, 1, 0], Infinity, true)).toBe(5);
    // Reversed winding swaps the sides.
    const reversed = [...FLAT.slice(3, 6), ...FLAT.slice(0, 3), ...FLAT.slice(6, 9)];
    expect(cast(name, reversed, [1, 5, 1], [0, -1, 0], Infinity, false)).toBe(RAY_MISS);
    expect(cast(name, reversed, [1, -5, 1], [0, 1, 0], Infinity, false)).toBe(5);
  });

  it('measures t in units of the direction and honours [0, tMax] inclusively', () => {
    expect(cast(name, FLAT, [1, 5, 1], [0, -2, 0], Infinity, false)).toBe(2.5);
    expect(cast(name, FLAT, [1, 5, 1], [0, -1, 0], 5, false)).toBe(5);
    expect(cast(name, FLAT, [1, 5, 1], [0, -1, 0], 4.999, false)).toBe(RAY_MISS);
    expect(cast(name, FLAT, [1, 0, 1], [0, -1, 0], 0, false)).toBe(0); // origin on the face
    for (const doubleSided of SIDES) {
      expect(cast(name, FLAT, [1, 5, 1], [0, 1, 0], Infinity, doubleSided)).toBe(RAY_MISS); // behind
      expect(cast(name, FLAT, [1, 5, 1], [0, -1, 0], -1, doubleSided)).toBe(RAY_MISS);
      expect(cast(name, FLAT, [1, 5, 1], [0, -1, 0], NaN, doubleSided)).toBe(RAY_MISS);
    }
  });

  it('misses a ray lying in the triangle plane, through it or beside it', () => {
    for (const doubleSided of SIDES) {
      for (const [origin, direction] of [
        [
          [-1, 0, 1],
          [1, 0, 0],
        ],
        [
          [1, 0, 1],
          [1, 0, 0.5],
        ], // starts inside the triangle
        [
          [-3, 0, -3],
          [1, 0, 1],
        ],
        [
          [2, 0, -1],
          [0, 0, 1],
        ],
      ] as const) {
        expect(cast(name, FLAT, origin, direction, Infinity, doubleSided)).toBe(RAY_MISS);
      }
    }
  });

  it('misses degenerate triangles (repeated vertices, collinear, a point) without NaN (seed 7)', () => {
    const a = [1, 0.5, 1];
    const b = [3, 1.5, 2];
    const c = [5, 2.5, 3]; // a, b, c collinear, exactly in float32
    const degenerate = [
      [...a, ...a, ...b],
      [...a, ...b, ...a],
      [...b, ...a, ...a],
      [...a, ...b, ...b],
      [...a, ...b, ...c],
      [...c, ...a, ...b],
      [...a, ...a, ...a],
    ];
    const random = new Random(7);
    for (const triangle of degenerate) {
      for (let n = 0; n < 300; n++) {
        const origin = [random.range(-10, 10), random.range(-10, 10), random.range(-10, 10)];
        // Aim at a random point of the segment the triangle collapsed to, or right at a vertex.
        const s = n % 3 === 0 ? 0 : random.next();
        const target = [0, 1, 2].map((k) => triangle[k]! + s * (Math.max(triangle[3 + k]!, triangle[6 + k]!) - triangle[k]!));
        const direction = target.map((x, k) => x - origin[k]!);
        for (const doubleSided of SIDES) {
          const t = cast(name, triangle, origin, direction, Infinity, doubleSided);
          // Zero area is detected exactly (float32 edges have an exact float64 cross product). Möller–
          // Trumbore, the baseline, does not look: a ray threading the rounding-error sliver of three
          // distinct collinear vertices may get a finite, ill-conditioned t near the segment (t = 1).
          if (name === 'moller-trumbore' && (triangle === degenerate[4] || triangle === degenerate[5])) {
            expect(t === RAY_MISS || (t >= 0 && Math.abs(t - 1) < 1e-3)).toBe(true);
          } else {
            expect(t).toBe(RAY_MISS);
          }
        }
      }
    }
  });

  it('misses for NaN or infinite rays, zero directions and non-finite vertices', () => {
    const bad = [NaN, Infinity, -Infinity];
    for (const doubleSided of SIDES) {
      for (const value of bad) {
        for (let k = 0; k < 3; k++) {
          const origin = [1, 5, 1];
          const direction = [0, -1, 0];
          origin[k] = value;
          expect(cast(name, FLAT, origin, [0, -1, 0], Infinity, doubleSided)).toBe(RAY_MISS);
          direction[k] = value;
          expect(cast(name, FLAT, [1, 5, 1], direction, Infinity, doubleSided)).toBe(RAY_MISS);
        }
        for (let k = 0; k < 9; k++) {
          const triangle = [...FLAT];
          triangle[k] = value;
          expect(cast(name, triangle, [1, 5, 1], [0, -1, 0], Infinity, doubleSided)).toBe(RAY_MISS);
          expect(cast(name, triangle, [1, 5, 1], [0.1, -1, 0.2], Infinity, doubleSided)).toBe(RAY_MISS);
        }
      }
      expect(cast(name, FLAT, [1, 5, 1], [0, 0, 0], Infinity, doubleSided)).toBe(RAY_MISS);
      expect(cast(name, FLAT, [1, 5, 1], [0, -0, 0], Infinity, doubleSided)).toBe(RAY_MISS);
    }
  });

  it('hits along every axis direction, both signs (axis-parallel rays divide by nothing)', () => {
    const triangles: Record<number, number[]> = {
      0: [0, 0, 0, 0, 4, 0, 0, 0, 4], // x = 0 plane
      1: FLAT,
      2: [0, 0, 0, 4, 0, 0, 0, 4, 0], // z = 0 plane
    };
    for (let axis = 0; axis < 3; axis++) {
      for (const sign of [1, -1]) {
        const origin = [1, 1, 1];
        origin[axis] = -5 * sign;
        const direction = [0, 0, 0];
        direction[axis] = sign;
        expect(cast(name, triangles[axis]!, origin, direction, Infinity, true)).toBe(5);
      }
    }
  });
});

describe('kernel registry', () => {
  it('defaults to the watertight test and resolves every name', () => {
    expect(DEFAULT_RAY_TRIANGLE_KERNEL).toBe('watertight');
    expect(getRayTriangleKernel().name).toBe('watertight');
    for (const name of RAY_TRIANGLE_KERNEL_NAMES) expect(getRayTriangleKernel(name).name).toBe(name);
    expect(RAY_TRIANGLE_KERNELS.watertight.watertight).toBe(true);
  });

  it('throws a typed error naming the field for an unknown kernel', () => {
    expect(() => getRayTriangleKernel('moller', 'probe.triangleTest')).toThrow(InvalidParameterError);
    expect(() => getRayTriangleKernel('moller', 'probe.triangleTest')).toThrow(/probe\.triangleTest/);
  });

  it('marks unusable rays invalid in the prepared data', () => {
    const rayData = createRayData();
    const kernel = getRayTriangleKernel();
    kernel.prepareRay(0, 0, 0, 0, 0, 1, rayData);
    expect(rayData[RAY_VALID]).toBe(1);
    kernel.prepareRay(0, 0, 0, 0, 0, 0, rayData);
    expect(rayData[RAY_VALID]).toBe(0);
    kernel.prepareRay(0, NaN, 0, 0, 0, 1, rayData);
    expect(rayData[RAY_VALID]).toBe(0);
  });
});
