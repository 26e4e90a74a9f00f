import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import {
  RAY_MISS,
  RAY_TRIANGLE_KERNELS,
  RAY_TRIANGLE_KERNEL_NAMES,
  createRayData,
  type RayTriangleKernelName,
} from '../../../src/query/rayTriangle/index';
import { exactRayTriangle } from './exactReference';

/** Cases closer than this to a decision boundary (relative) may go either way in float64. */
const CLEARANCE = 1e-9;
const CASES_PER_SEED = 4000;

interface Case {
  origin: number[];
  direction: number[];
  vertices: Float32Array;
  tMax: number;
}

function randomCase(random: Random): Case {
  const vertices = new Float32Array(9);
  for (let k = 0; k < 9; k++) vertices[k] = random.range(-10, 10);
  const origin = [0, 0, 0].map(() => Math.fround(random.range(-20, 20)));
  // Aim near the triangle so about half the rays hit; weights outside [0, 1] aim beside it.
  const u = random.range(-0.3, 1.3);
  const v = random.range(-0.3, 1.3 - u);
  const target = [0, 1, 2].map((k) => vertices[k]! + u * (vertices[3 + k]! - vertices[k]!) + v * (vertices[6 + k]! - vertices[k]!));
  const lengthScale = random.range(0.05, 3);
  let direction = target.map((x, k) => (x - origin[k]!) * lengthScale);
  const style = random.int(5);
  if (style === 0) direction = direction.map(Math.fround);
  if (style === 1) {
    // Axis-parallel: keep only the dominant component, from an origin moved in line with the target.
    const axis = [0, 1, 2].reduce((best, k) => (Math.abs(direction[k]!) > Math.abs(direction[best]!) ? k : best), 0);
    for (let k = 0; k < 3; k++) {
      if (k === axis) continue;
      direction[k] = 0;
      origin[k] = target[k]!;
    }
  }
  if (style === 2) {
    // Grazing: tilt the direction almost into the triangle's plane.
    const e1 = [0, 1, 2].map((k) => vertices[3 + k]! - vertices[k]!);
    const e2 = [0, 1, 2].map((k) => vertices[6 + k]! - vertices[k]!);
    const n = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    const nn = n[0]! ** 2 + n[1]! ** 2 + n[2]! ** 2;
    const along = (direction[0]! * n[0]! + direction[1]! * n[1]! + direction[2]! * n[2]!) / nn;
    const keep = 10 ** -random.range(2, 7);
    direction = direction.map((x, k) => x - (1 - keep) * along * n[k]!);
  }
  // The target sits at t = 1 / lengthScale; a finite tMax falls on either side of it.
  const tMax = random.next() < 0.5 ? Infinity : random.range(0, 2) / lengthScale;
  return { origin, direction, vertices, tMax };
}

describe.each(RAY_TRIANGLE_KERNEL_NAMES)('%s kernel against the exact BigInt reference', (name: RayTriangleKernelName) => {
  const kernel = RAY_TRIANGLE_KERNELS[name];

  it.each([1, 2, 3])('agrees on hit, side and t on random rays and triangles (seed %i)', (seed) => {
    const random = new Random(seed);
    const rayData = createRayData();
    const barycentric = new Float64Array(3);
    let compared = 0;
    let hits = 0;
    let fronts = 0;
    for (let n = 0; n < CASES_PER_SEED; n++) {
      const { origin, direction, vertices, tMax } = randomCase(random);
      const v = Array.from(vertices);
      const exact = exactRayTriangle(origin, direction, v.slice(0, 3), v.slice(3, 6), v.slice(6, 9), tMax);
      kernel.prepareRay(origin[0]!, origin[1]!, origin[2]!, direction[0]!, direction[1]!, direction[2]!, rayData);
      for (const doubleSided of [false, true]) {
        barycentric.fill(NaN);
        const t = kernel.intersect(rayData, vertices, 0, 1, 2, tMax, doubleSided, barycentric);
        // Whatever the case, the answer is a miss or a distance inside the range: never NaN.
        expect(t === RAY_MISS || (t >= 0 && t <= tMax)).toBe(true);
        if (exact.clearance <= CLEARANCE) continue;
        const expected = doubleSided ? exact.hit : exact.front;
        if (t >= 0 !== expected)
          throw new Error(`case ${n} (${doubleSided ? 'double' : 'single'}-sided): kernel ${t}, exact ${JSON.stringify(exact)}`);
        if (!expected) continue;
        expect(Math.abs(t - exact.t)).toBeLessThanOrEqual(1e-9 * Math.max(1, exact.t));
        // The barycentric point is the ray's point at t.
        for (let k = 0; k < 3; k++) {
          const fromWeights = barycentric[0]! * vertices[k]! + barycentric[1]! * vertices[3 + k]! + barycentric[2]! * vertices[6 + k]!;
          expect(Math.abs(fromWeights - (origin[k]! + t * direction[k]!))).toBeLessThanOrEqual(1e-7);
        }
        expect(barycentric[0]! + barycentric[1]! + barycentric[2]!).toBeCloseTo(1, 9);
      }
      if (exact.clearance > CLEARANCE) {
        compared++;
        if (exact.hit) hits++;
        if (exact.front) fronts++;
      }
    }
    // The comparison must mean something: most cases are clear of the boundary, both outcomes occur.
    expect(compared).toBeGreaterThan(0.9 * CASES_PER_SEED);
    expect(hits).toBeGreaterThan(0.1 * compared);
    expect(hits).toBeLessThan(0.85 * compared);
    expect(fronts).toBeGreaterThan(0.25 * hits);
    expect(fronts).toBeLessThan(0.75 * hits);
  });
});
