import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import {
  BOX_TRIANGLE_VARIANTS,
  EXIT_AXIS_X,
  EXIT_AXIS_Z,
  EXIT_CONTAINED,
  EXIT_COUNT,
  EXIT_EDGE_FIRST,
  EXIT_INVALID,
  EXIT_NAMES,
  EXIT_OVERLAP,
  EXIT_PLANE,
  EXIT_SEPARATED,
  isOverlapExit,
  mollerV1,
  mollerV2,
  overlapBoxWithTriangles,
  testBoxTriangle,
} from '../../../src/query/boxTriangle/index';
import { InvalidParameterError } from '../../../src/errors';
import { loadSimdBoxTriangles, type SimdBoxTriangleKernel } from '../../../src/query/boxTriangle/boxTriangleKernel';
import { exactBoxTriangle } from './exactReference';
import { v1SeparatingExits } from './v1Axes';

let simd: SimdBoxTriangleKernel;
beforeAll(async () => {
  const loaded = await loadSimdBoxTriangles();
  // Node 20+ has WebAssembly SIMD; null means the module was not built (npm run build:wasm).
  expect(loaded).not.toBeNull();
  simd = loaded!;
});

/**
 * The WebAssembly SIMD test on every case's box against a run of three triangles — its own and two
 * others, so both f64x2 lanes and the odd run's repeated lane are exercised — must give v1's answer.
 */
function checkSimd(boxes: Float64Array, positions: Float32Array, indices: Uint32Array, count: number): string[] {
  const failures: string[] = [];
  const run = new Uint32Array(3);
  const answers = new Uint8Array(3);
  for (let i = 0; i < count; i++) {
    run[0] = i;
    run[1] = (7 * i + 3) % count;
    run[2] = (13 * i + 5) % count;
    const hits = simd.overlap(boxes, 6 * i, positions, indices, run, 0, 3, answers);
    let expected = 0;
    for (let k = 0; k < 3; k++) {
      const t = run[k]!;
      const v1 = isOverlapExit(mollerV1(boxes, 6 * i, positions, 3 * t, 3 * t + 1, 3 * t + 2)) ? 1 : 0;
      expected += v1;
      if (answers[k] !== v1 && failures.length < 5) failures.push(`box ${i}, triangle ${t}: SIMD ${answers[k]} vs v1 ${v1}`);
    }
    if (hits !== expected && failures.length < 5) failures.push(`box ${i}: SIMD counted ${hits}, v1 ${expected}`);
  }
  failures.push(...checkRows(boxes, positions, indices, count, null));
  // A leaf order that is not the identity: every triangle once, shuffled by a fixed stride.
  const order = Uint32Array.from({ length: count }, (_, k) => (k * 7919) % count);
  if (count % 7919 !== 0) failures.push(...checkRows(boxes, positions, indices, count, order));
  return failures;
}

/**
 * The rows pass (float32 rows in leaf order, the undecided lanes through the pair test): each case's
 * box against a run of the order around its own triangle, of varying start and length so runs begin and
 * end inside groups of four, must give v1's answer for every triangle of the run.
 */
function checkRows(boxes: Float64Array, positions: Float32Array, indices: Uint32Array, count: number, order: Uint32Array | null): string[] {
  const failures: string[] = [];
  const answers = new Uint8Array(16);
  for (let i = 0; i < count; i++) {
    const length = Math.min(count, 1 + (i % 11));
    const first = Math.max(0, Math.min(count - length, i - (i % 5)));
    const hits = simd.overlap(boxes, 6 * i, positions, indices, order, first, length, answers, false, true);
    let expected = 0;
    for (let k = 0; k < length; k++) {
      const t = order === null ? first + k : order[first + k]!;
      const v1 = isOverlapExit(mollerV1(boxes, 6 * i, positions, 3 * t, 3 * t + 1, 3 * t + 2)) ? 1 : 0;
      expected += v1;
      if (answers[k] !== v1 && failures.length < 5) failures.push(`rows, box ${i}, triangle ${t}: SIMD ${answers[k]} vs v1 ${v1}`);
    }
    if (hits !== expected && failures.length < 5) failures.push(`rows, box ${i}: SIMD counted ${hits}, v1 ${expected}`);
  }
  return failures;
}

/** A case: box = [cx, cy, cz, hx, hy, hz], triangle = nine coordinates (float32-representable). */
interface Case {
  box: number[];
  triangle: number[];
}

const f32 = Math.fround;

interface Tally {
  cases: number;
  overlaps: number;
  contained: number;
  exits: number[];
}

/**
 * Runs every variant on the cases, single and batched, and checks:
 *  - v1, v2 and the optimized test give the exact answer (when `exact` is true: inputs on which float64
 *    arithmetic is exact or far from a decision boundary) and always agree with each other;
 *  - the optimized test takes v1's exit for box axes and plane, an edge exit only where v1 takes one
 *    and on an axis v1's arithmetic separates, "contained" exactly when all vertices are in the box;
 *  - the batched call gives the single calls' exits.
 */
function check(cases: Case[], exact = true): Tally {
  const tally: Tally = { cases: cases.length, overlaps: 0, contained: 0, exits: new Array<number>(EXIT_COUNT).fill(0) };
  const boxes = new Float64Array(6 * cases.length);
  const positions = new Float32Array(9 * cases.length);
  cases.forEach((c, i) => {
    boxes.set(c.box, 6 * i);
    positions.set(c.triangle, 9 * i);
  });
  const indices = Uint32Array.from({ length: 3 * cases.length }, (_, i) => i);
  const batchExit = new Uint8Array(1);
  const failures: string[] = [];
  cases.forEach((c, i) => {
    const a = 3 * i,
      b = 3 * i + 1,
      q = 3 * i + 2;
    const e1 = mollerV1(boxes, 6 * i, positions, a, b, q);
    const e2 = mollerV2(boxes, 6 * i, positions, a, b, q);
    const eo = testBoxTriangle('optimized', c.box, c.triangle);
    overlapBoxWithTriangles(boxes, 6 * i, positions, indices, null, i, 1, batchExit);
    const reference = exactBoxTriangle(c.box, Array.from(positions.subarray(9 * i, 9 * i + 9)));
    const v1Mask = v1SeparatingExits(boxes.subarray(6 * i, 6 * i + 6), positions, a, b, q);
    const problems: string[] = [];
    if (exact && isOverlapExit(e1) !== reference.overlap) problems.push(`v1 ${EXIT_NAMES[e1]} vs exact ${reference.overlap}`);
    if (exact && isOverlapExit(e2) !== reference.overlap) problems.push(`v2 ${EXIT_NAMES[e2]} vs exact ${reference.overlap}`);
    if (isOverlapExit(eo) !== isOverlapExit(e1)) problems.push(`optimized ${EXIT_NAMES[eo]} vs v1 ${EXIT_NAMES[e1]}`);
    if (exact && isOverlapExit(e1) !== isOverlapExit(e2)) problems.push(`v1 ${EXIT_NAMES[e1]} vs v2 ${EXIT_NAMES[e2]}`);
    if (batchExit[0] !== eo) problems.push(`batched ${EXIT_NAMES[batchExit[0]!]} vs single ${EXIT_NAMES[eo]}`);
    if ((eo === EXIT_CONTAINED) !== reference.contained) problems.push(`optimized ${EXIT_NAMES[eo]}, contained ${reference.contained}`);
    if (eo >= EXIT_AXIS_X && eo <= EXIT_PLANE && eo !== e1) problems.push(`optimized ${EXIT_NAMES[eo]} vs v1 ${EXIT_NAMES[e1]}`);
    if (eo >= EXIT_EDGE_FIRST && (e1 < EXIT_EDGE_FIRST || (v1Mask & (1 << eo)) === 0))
      problems.push(`optimized ${EXIT_NAMES[eo]}, v1 ${EXIT_NAMES[e1]}, v1 mask ${v1Mask.toString(2)}`);
    if (e1 !== EXIT_OVERLAP && (v1Mask & (1 << e1)) === 0) problems.push(`v1 exit ${EXIT_NAMES[e1]} not in its own mask`);
    if (problems.length > 0 && failures.length < 5) failures.push(`case ${i} ${JSON.stringify(c)}: ${problems.join('; ')}`);
    if (isOverlapExit(eo)) tally.overlaps++;
    if (eo === EXIT_CONTAINED) tally.contained++;
    tally.exits[eo]!++;
  });
  expect(failures).toEqual([]);
  expect(checkSimd(boxes, positions, indices, cases.length)).toEqual([]);
  return tally;
}

/** Random float32 boxes and triangles of mixed sizes around them. */
function randomCases(seed: number, count: number, scale: number): Case[] {
  const random = new Random(seed);
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const box = [0, 1, 2].map(() => f32(random.range(-scale, scale))).concat([0, 1, 2].map(() => f32(random.range(0, scale / 2))));
    const spread = random.range(0.1, 2) * scale;
    const triangle = Array.from({ length: 9 }, (_, k) => f32(box[k % 3]! + random.range(-spread, spread)));
    cases.push({ box, triangle });
  }
  return cases;
}

/** Integers in [−range, range], half-sizes in [0, range/2]: float64 arithmetic is exact on them (all
 *  values below 2^14), and the coarse grid makes touching configurations common. */
function gridCases(seed: number, count: number, range: number, boxRange = range): Case[] {
  const random = new Random(seed);
  const int = (lo: number, hi: number): number => lo + random.int(hi - lo + 1);
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const box = [
      int(-boxRange, boxRange),
      int(-boxRange, boxRange),
      int(-boxRange, boxRange),
      int(0, boxRange >> 1),
      int(0, boxRange >> 1),
      int(0, boxRange >> 1),
    ];
    // Every other triangle is drawn around its box, so that contained and touching ones are common.
    const near = i % 2 === 1;
    const triangle = Array.from({ length: 9 }, (_, k) =>
      near ? box[k % 3]! + int(-box[3 + (k % 3)]! - 1, box[3 + (k % 3)]! + 1) : int(-range, range),
    );
    cases.push({ box, triangle });
  }
  return cases;
}

const scaled = (cases: Case[], factor: number): Case[] =>
  cases.map((c) => ({ box: c.box.map((x) => x * factor), triangle: c.triangle.map((x) => x * factor) }));

describe('box-triangle variants against the exact reference', () => {
  it('random float32 boxes and triangles (seed 501)', () => {
    const tally = check([...randomCases(501, 3000, 10), ...randomCases(502, 1000, 1000)]);
    expect(tally.overlaps).toBeGreaterThan(400);
    expect(tally.overlaps).toBeLessThan(3600);
    // Every kind of exit occurs.
    for (let exit = EXIT_CONTAINED; exit < EXIT_SEPARATED; exit++) expect(tally.exits[exit], EXIT_NAMES[exit]).toBeGreaterThan(0);
  });

  it('touching: integer grids where faces, edges and corners meet exactly (seed 503)', () => {
    const tally = check([...gridCases(503, 4000, 4), ...gridCases(504, 2000, 8, 4)]);
    expect(tally.overlaps).toBeGreaterThan(500);
    expect(tally.contained).toBeGreaterThan(20);
  });

  it('touching by construction: vertex on a face, edge on an edge, plane through a corner, then nudged out', () => {
    const box = [0, 0, 0, 2, 3, 4];
    const cases: Case[] = [
      { box, triangle: [2, 0, 0, 5, 1, 0, 5, -1, 1] }, // a vertex on the +x face
      { box, triangle: [2, 3, -9, 2, 3, 9, 7, 8, 0] }, // an edge along the box edge x = 2, y = 3
      { box, triangle: [2, 3, 4, 9, 3, 4, 2, 9, 4] }, // a vertex on the corner
      { box, triangle: [5, 0, 0, 0, 6, 0, 0, 0, 7] }, // plane x/5 + y/6 + z/7 = 1: misses
      { box, triangle: [9, 0, 0, 0, 9, 0, 0, 0, 9] }, // plane x + y + z = 9: exactly through the corner (2, 3, 4)
      { box, triangle: [10, 0, 0, 0, 10, 0, 0, 0, 10] }, // one unit further: misses
      { box, triangle: [-2, -3, -4, 2, 3, 4, 2, -3, 4] }, // a diagonal face through two corners
      { box, triangle: [3, -1, 0, 3, 1, 0, 3, 0, 1] }, // parallel to the +x face, one unit out
      { box, triangle: [2, -10, -10, 2, 10, -10, 2, 0, 10] }, // in the +x face plane
      { box, triangle: [2.5, 3.5, 0, 6, 0, 0, 0, 7, 0] }, // edge passing the corner (2, 3) in the xy-plane: misses
      { box, triangle: [2, 4, 0, 3, 3, 0, 0, 9, 1] }, // edge x + y = 6 … through the corner? (2,4)-(3,3): passes (2.5, 3.5)
    ];
    // Each case also moved by one unit along each axis, and by the smallest float32 step towards or away.
    const variations: Case[] = [];
    for (const c of cases) {
      variations.push(c);
      for (let axis = 0; axis < 3; axis++) {
        for (const delta of [-1, 1]) variations.push({ box: c.box, triangle: c.triangle.map((x, k) => (k % 3 === axis ? x + delta : x)) });
      }
    }
    check(variations);
    const nudged = cases.flatMap((c) =>
      [-1, 1].map((sign) => ({ box: c.box, triangle: c.triangle.map((x) => f32(x + sign * 2 ** -20 * Math.max(1, Math.abs(x)))) })),
    );
    check(nudged);
  });

  it('degenerate triangles: collinear, repeated vertices, a single point; flat and point boxes (seed 505)', () => {
    const random = new Random(505);
    const int = (n: number): number => random.int(2 * n + 1) - n;
    const cases: Case[] = [];
    for (let i = 0; i < 3000; i++) {
      const box = [int(4), int(4), int(4), random.int(3), random.int(3), random.int(3)];
      if (i % 5 === 0) box[3 + random.int(3)] = 0; // flat box
      if (i % 25 === 0) box[3] = box[4] = box[5] = 0; // a point
      const a = [int(6), int(6), int(6)];
      const b = [int(6), int(6), int(6)];
      const kind = i % 4;
      let c: number[];
      if (kind === 0)
        c = [0, 1, 2].map((k) => a[k]! + 2 * (b[k]! - a[k]!)); // collinear, beyond b
      else if (kind === 1)
        c = [0, 1, 2].map((k) => (a[k]! + b[k]!) / 2); // collinear, between (halves are exact)
      else if (kind === 2)
        c = a.slice(); // repeated vertex
      else c = b.slice(); // a and b, b repeated
      const triangle = kind === 3 && i % 8 === 3 ? [...a, ...a, ...a] : [...a, ...b, ...c];
      cases.push({ box, triangle });
    }
    const tally = check(cases);
    expect(tally.overlaps).toBeGreaterThan(100);
  });

  it('huge and tiny: exact grid cases scaled by 2^100 and 2^-140 (float32 subnormals), same answers', () => {
    const base = gridCases(506, 1500, 6);
    const tallies = [1, 2 ** 100, 2 ** -140].map((factor) => check(scaled(base, factor)));
    expect(tallies[1]!.exits).toEqual(tallies[0]!.exits);
    expect(tallies[2]!.exits).toEqual(tallies[0]!.exits);
  });

  it('huge triangles against small boxes, sizes 4 to 8000 times the box (seed 507)', () => {
    // Coordinates below 2^14 on an integer grid keep every float64 product and sum exact.
    const random = new Random(507);
    const cases: Case[] = [];
    for (let i = 0; i < 1500; i++) {
      const box = [random.int(9) - 4, random.int(9) - 4, random.int(9) - 4, 1 + random.int(3), 1 + random.int(3), 1 + random.int(3)];
      const size = [8, 100, 8000][i % 3]!;
      const triangle = Array.from({ length: 9 }, () => random.int(2 * size + 1) - size);
      cases.push({ box, triangle });
    }
    const tally = check(cases);
    expect(tally.overlaps).toBeGreaterThan(30);
    expect(tally.exits[EXIT_PLANE]).toBeGreaterThan(30);
  });

  it('very large size ratios in float32: the variants still agree with each other (seed 508)', () => {
    // 1e6-unit triangles against unit boxes: here float64 rounding can exceed the box, so only the
    // variants' agreement is checked, not the exact answer.
    const random = new Random(508);
    const cases: Case[] = [];
    for (let i = 0; i < 1000; i++) {
      const box = [
        f32(random.range(-1, 1)),
        f32(random.range(-1, 1)),
        f32(random.range(-1, 1)),
        f32(random.range(0, 1)),
        f32(random.range(0, 1)),
        f32(random.range(0, 1)),
      ];
      const triangle = Array.from({ length: 9 }, () => f32(random.range(-1e6, 1e6)));
      cases.push({ box, triangle });
    }
    check(cases, false);
  });
});

describe('the SIMD rows pass at the faces', () => {
  it('vertices within a few float32 steps of a face of a box with full float64 coordinates give v1 answers (seed 511)', () => {
    // Here float64's v − c rounds: exact arithmetic and mollerV1's can disagree on which side of a face a
    // vertex lies, and the float32 pass must leave every such lane to the exact test.
    const random = new Random(511);
    const step = (x: number, n: number): number => {
      const f = new Float32Array([x]);
      const bits = new Int32Array(f.buffer);
      bits[0]! += (x >= 0 ? 1 : -1) * n;
      return f[0]!;
    };
    const boxCount = 400;
    const perBox = 8;
    const boxes = new Float64Array(6 * boxCount * perBox);
    const positions = new Float32Array(9 * boxCount * perBox);
    for (let i = 0; i < boxCount; i++) {
      const centre = [0, 1, 2].map(() => random.range(-1000, 1000) * (1 + 2 ** -40 * random.next()));
      const half = [0, 1, 2].map(() => random.range(0.01, 50) * (1 + 2 ** -40 * random.next()));
      for (let t = 0; t < perBox; t++) {
        const c = i * perBox + t;
        boxes.set([...centre, ...half], 6 * c);
        // All three vertices around one face (separation) or just inside every face (containment).
        const axis = random.int(3);
        const side = random.next() < 0.5 ? -1 : 1;
        for (let v = 0; v < 3; v++) {
          for (let k = 0; k < 3; k++) {
            const face = centre[k]! + (t % 2 === 0 && k === axis ? side : random.next() < 0.5 ? -1 : 1) * half[k]!;
            const onFace = t % 2 === 0 && k !== axis ? centre[k]! + random.range(-0.9, 0.9) * half[k]! : face;
            positions[9 * c + 3 * v + k] = step(Math.fround(onFace), random.int(5) - 2);
          }
        }
      }
    }
    const count = boxCount * perBox;
    const indices = Uint32Array.from({ length: 3 * count }, (_, k) => k);
    const failures = checkRows(boxes, positions, indices, count, null);
    expect(failures).toEqual([]);
  });
});

describe('box-triangle input validation', () => {
  const box = [0, 0, 0, 1, 1, 1];
  const triangle = [-2, 0, 0, 2, 0.5, 0, 0, -0.5, 0.5];

  it('a valid case answers', () => {
    for (const variant of BOX_TRIANGLE_VARIANTS) expect(isOverlapExit(testBoxTriangle(variant, box, triangle))).toBe(true);
  });

  it('NaN or infinity anywhere, or a negative half-size, is reported as invalid by every variant', () => {
    for (const variant of BOX_TRIANGLE_VARIANTS) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        for (let i = 0; i < 6; i++)
          expect(
            testBoxTriangle(
              variant,
              box.map((x, k) => (k === i ? bad : x)),
              triangle,
            ),
          ).toBe(EXIT_INVALID);
      }
      // Triangle coordinates are float32: beyond its range they round to infinity.
      for (const bad of [NaN, Infinity, -Infinity, 1e39]) {
        for (let i = 0; i < 9; i++)
          expect(
            testBoxTriangle(
              variant,
              box,
              triangle.map((x, k) => (k === i ? bad : x)),
            ),
          ).toBe(EXIT_INVALID);
      }
      expect(testBoxTriangle(variant, [0, 0, 0, 1, -1e-9, 1], triangle)).toBe(EXIT_INVALID);
    }
  });

  it('the raw kernels do not throw on NaN; they return some exit code', () => {
    const boxes = Float64Array.of(0, 0, 0, 1, 1, 1);
    const positions = Float32Array.of(NaN, 0, 0, 2, 0.5, 0, 0, NaN, 0.5);
    const indices = Uint32Array.of(0, 1, 2);
    const exits = new Uint8Array(1);
    for (const code of [mollerV1(boxes, 0, positions, 0, 1, 2), mollerV2(boxes, 0, positions, 0, 1, 2)]) {
      expect(code).toBeGreaterThanOrEqual(EXIT_CONTAINED);
      expect(code).toBeLessThan(EXIT_COUNT);
    }
    expect(() => overlapBoxWithTriangles(boxes, 0, positions, indices, null, 0, 1, exits)).not.toThrow();
  });

  it('a malformed call throws InvalidParameterError', () => {
    expect(() => testBoxTriangle('v3' as never, box, triangle)).toThrow(InvalidParameterError);
    expect(() => testBoxTriangle('v1', [0, 0, 0], triangle)).toThrow(InvalidParameterError);
    expect(() => testBoxTriangle('v1', box, [0, 0, 0])).toThrow(InvalidParameterError);
  });
});

describe('the batched optimized test', () => {
  it('a run through a triangle list, with an offset, gives the single tests’ exits (seed 509)', () => {
    const random = new Random(509);
    const vertices = 60;
    const positions = Float32Array.from({ length: 3 * vertices }, () => f32(random.range(-4, 4)));
    const triangleCount = 200;
    const indices = Uint32Array.from({ length: 3 * triangleCount }, () => random.int(vertices));
    const order = Uint32Array.from({ length: triangleCount }, (_, i) => (i * 37) % triangleCount);
    const boxes = Float64Array.of(0.5, -0.25, 1, 1.5, 2, 0.75);
    const exits = new Uint8Array(triangleCount);
    const first = 13,
      count = 150;
    const overlaps = overlapBoxWithTriangles(boxes, 0, positions, indices, order, first, count, exits);
    let expected = 0;
    for (let k = 0; k < count; k++) {
      const t = order[first + k]!;
      const single = mollerV1(boxes, 0, positions, indices[3 * t]!, indices[3 * t + 1]!, indices[3 * t + 2]!);
      expect(isOverlapExit(exits[k]!)).toBe(isOverlapExit(single));
      if (isOverlapExit(single)) expected++;
    }
    expect(overlaps).toBe(expected);
    expect(expected).toBeGreaterThan(10);
    // Axis exits are the optimized test's own, and in v1's order.
    expect(EXIT_AXIS_Z - EXIT_AXIS_X).toBe(2);
  });
});

/**
 * The rows pass's float32 screen decides a lane only when every one of v1's 13 axis tests is clear of its
 * boundary by a margin that bounds float32's and float64's rounding. These cases put triangles on both
 * sides of that margin: each slides along a random direction to where v1's answer flips (found by
 * bisection on v1 itself), then sits at relative distances 2⁻⁴ … 2⁻⁴⁰ of its size before and after it,
 * so the deciding axis (a box face, the plane or an edge axis, whichever meets first) is within, at and
 * beyond the margin. Every answer must be v1's.
 */
describe('the SIMD rows pass: its float32 screen against v1', () => {
  /** Each made case moved along its direction to the flip of v1's answer, and around it; the cases as flat arrays. */
  function aroundTangency(count: number, make: () => { box: number[]; triangle: number[]; direction: number[] }) {
    const boxes: number[] = [];
    const triangles: number[] = [];
    const box64 = new Float64Array(6);
    const moved = new Float32Array(9);
    const overlapsAt = (box: number[], triangle: number[], direction: number[], lambda: number): boolean => {
      box64.set(box);
      for (let k = 0; k < 9; k++) moved[k] = triangle[k]! + lambda * direction[k % 3]!;
      return isOverlapExit(mollerV1(box64, 0, moved, 0, 1, 2));
    };
    for (let i = 0; i < count; i++) {
      const { box, triangle, direction } = make();
      let inside = 0;
      let outside = 1;
      if (!overlapsAt(box, triangle, direction, inside)) continue;
      while (overlapsAt(box, triangle, direction, outside) && outside < 2 ** 60) outside *= 2;
      for (let step = 0; step < 80; step++) {
        const middle = (inside + outside) / 2;
        if (middle === inside || middle === outside) break;
        if (overlapsAt(box, triangle, direction, middle)) inside = middle;
        else outside = middle;
      }
      for (let k = 4; k <= 40; k += 2) {
        for (const sign of [-1, 1]) {
          const lambda = outside * (1 + sign * 2 ** -k);
          boxes.push(...box);
          for (let c = 0; c < 9; c++) triangles.push(Math.fround(triangle[c]! + lambda * direction[c % 3]!));
        }
      }
      boxes.push(...box);
      for (let c = 0; c < 9; c++) triangles.push(Math.fround(triangle[c]! + outside * direction[c % 3]!));
    }
    return { boxes: Float64Array.from(boxes), positions: Float32Array.from(triangles), count: boxes.length / 6 };
  }

  const randomDirection = (random: Random): number[] => {
    const d = [random.range(-1, 1), random.range(-1, 1), random.range(-1, 1)];
    if (random.next() < 0.3) d[random.int(3)] = 0; // along a face or an edge of the box
    return d;
  };

  /** A triangle through the box (its centroid near the centre), of `size` box sizes, with `scale` and `centre`. */
  function crossingCase(random: Random, centreScale: number, size: number, degenerate: boolean) {
    const centre = [0, 1, 2].map(() => random.range(-1, 1) * centreScale);
    const half = [0, 1, 2].map(() => random.range(0.1, 1) * size);
    const spread = size * 2 ** random.range(-4, 4);
    const triangle: number[] = [];
    for (let v = 0; v < 3; v++) for (let k = 0; k < 3; k++) triangle.push(centre[k]! + random.range(-1, 1) * spread);
    if (degenerate) {
      const kind = random.int(3);
      const w = random.range(-2, 2);
      for (let k = 0; k < 3; k++) {
        if (kind === 0)
          triangle[6 + k] = triangle[k]! + w * (triangle[3 + k]! - triangle[k]!); // collinear
        else if (kind === 1)
          triangle[6 + k] = triangle[3 + k]!; // repeated vertex
        else triangle[3 + k] = triangle[6 + k] = triangle[k]!; // a point
      }
    }
    return { box: [...centre, ...half], triangle, direction: randomDirection(random).map((d) => d * size) };
  }

  function expectV1(cases: { boxes: Float64Array; positions: Float32Array; count: number }): void {
    const indices = Uint32Array.from({ length: 3 * cases.count }, (_, k) => k);
    expect(cases.count).toBeGreaterThan(100);
    expect(checkRows(cases.boxes, cases.positions, indices, cases.count, null)).toEqual([]);
  }

  it('random triangles slid to the flip of v1 and nudged across it, box near the origin (seed 521)', () => {
    const random = new Random(521);
    expectV1(aroundTangency(250, () => crossingCase(random, 10, random.range(0.5, 20), false)));
  });

  it('the same with the box far from the origin (|c| up to 2^30 box sizes: margins grow with |c|) (seed 522)', () => {
    const random = new Random(522);
    expectV1(aroundTangency(200, () => crossingCase(random, 2 ** random.range(10, 30), random.range(0.5, 20), false)));
  });

  it('degenerate triangles (collinear, a repeated vertex, a point) slid across the flip (seed 523)', () => {
    const random = new Random(523);
    expectV1(aroundTangency(250, () => crossingCase(random, 10, random.range(0.5, 20), true)));
  });

  it('huge and tiny coordinates: at the screen range limits 2^40 and 2^-20, and past them (seed 524)', () => {
    const random = new Random(524);
    const sizes = [2 ** 36, 2 ** 39, 2 ** 41, 2 ** 60, 2 ** -18, 2 ** -20, 2 ** -22, 2 ** -60];
    expectV1(
      aroundTangency(320, () => {
        const size = sizes[random.int(sizes.length)]!;
        return crossingCase(random, size * 4, size, random.next() < 0.2);
      }),
    );
  });

  it('random boxes and triangles of mixed scales, most lanes decided by the screen (seed 525)', () => {
    const random = new Random(525);
    const count = 4000;
    const boxes = new Float64Array(6 * count);
    const positions = new Float32Array(9 * count);
    for (let i = 0; i < count; i++) {
      const scale = 2 ** random.range(-10, 20);
      const c = crossingCase(random, scale * 2 ** random.range(0, 12), scale, i % 10 === 0);
      if (i % 13 === 0) c.box[3 + random.int(3)]! *= -1; // a negative half size: the raw kernel still gives v1's answer
      boxes.set(c.box, 6 * i);
      const shift = random.range(0, 3);
      for (let k = 0; k < 9; k++) positions[9 * i + k] = c.triangle[k]! + shift * c.direction[k % 3]!;
    }
    expectV1({ boxes, positions, count });
  });
});
