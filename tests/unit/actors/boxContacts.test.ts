import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/core';
import { BOX_BOX_MAX_POINTS, BOX_BOX_STRIDE, boxBoxContacts, boxBoxNormal, sphereBoxContact, sphereBoxResult } from '../../../src/actors/boxContacts';

type Vec = [number, number, number];

interface Box {
  centre: Vec;
  /** Row-major rotation, world = R · local. */
  rotation: number[];
  half: Vec;
}

const sub = (p: Vec, q: Vec): Vec => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const dot = (p: Vec, q: Vec): number => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

function rotationFromQuaternion(x: number, y: number, z: number, w: number): number[] {
  const l = Math.hypot(x, y, z, w);
  [x, y, z, w] = [x / l, y / l, z / l, w / l];
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
}
const aboutY = (angle: number): number[] => rotationFromQuaternion(0, Math.sin(angle / 2), 0, Math.cos(angle / 2));

/** Rᵀ (p − c). */
function toLocal(box: Box, p: Vec): Vec {
  const d = sub(p, box.centre);
  const R = box.rotation;
  return [R[0]! * d[0] + R[3]! * d[1] + R[6]! * d[2], R[1]! * d[0] + R[4]! * d[1] + R[7]! * d[2], R[2]! * d[0] + R[5]! * d[1] + R[8]! * d[2]];
}

/** How far p lies outside the box (negative: inside, by the distance to its nearest face). */
function outside(box: Box, p: Vec): number {
  const l = toLocal(box, p);
  return Math.max(...l.map((x, k) => Math.abs(x) - box.half[k]!));
}

/** Half the box's extent along the unit direction. */
function projected(box: Box, l: Vec): number {
  const R = box.rotation;
  let sum = 0;
  for (let k = 0; k < 3; k++) sum += box.half[k]! * Math.abs(R[k]! * l[0] + R[3 + k]! * l[1] + R[6 + k]! * l[2]);
  return sum;
}
const overlapAlong = (a: Box, b: Box, l: Vec): number => projected(a, l) + projected(b, l) - Math.abs(dot(sub(b.centre, a.centre), l));

interface Point {
  p: Vec;
  depth: number;
  features: [number, number];
}

function runBoxBox(a: Box, b: Box, reach: number): { points: Point[]; normal: Vec } {
  const out = new Float64Array(BOX_BOX_STRIDE * BOX_BOX_MAX_POINTS + 2).fill(NaN);
  const n = boxBoxContacts(
    ...a.centre,
    new Float64Array(a.rotation),
    0,
    ...a.half,
    ...b.centre,
    new Float64Array([0, ...b.rotation]),
    1,
    ...b.half,
    reach,
    out,
    2,
  );
  const points: Point[] = [];
  for (let k = 0; k < n; k++) {
    const o = 2 + BOX_BOX_STRIDE * k;
    points.push({ p: [out[o]!, out[o + 1]!, out[o + 2]!], depth: out[o + 3]!, features: [out[o + 4]!, out[o + 5]!] });
  }
  return { points, normal: [boxBoxNormal[0]!, boxBoxNormal[1]!, boxBoxNormal[2]!] };
}

/**
 * Every point, moved half its depth against the normal, is on or in a, and moved half its depth along
 * the normal, on or in b (the normal points from b to a); depths are at most the boxes' overlap along the
 * normal; the normal is unit and no direction separates the boxes by less (within the axis bias).
 */
function checkBoxBox(a: Box, b: Box, reach: number, result: { points: Point[]; normal: Vec }, directions: Vec[]): void {
  const { points, normal } = result;
  const tolerance = 1e-6;
  if (points.length === 0) return;
  expect(Math.hypot(...normal)).toBeCloseTo(1, 12);
  // The normal points from b to a.
  expect(dot(normal, sub(a.centre, b.centre))).toBeGreaterThanOrEqual(-tolerance);
  const along = overlapAlong(a, b, normal);
  for (const { p, depth } of points) {
    const h = 0.5 * depth;
    expect(outside(a, [p[0] - h * normal[0], p[1] - h * normal[1], p[2] - h * normal[2]])).toBeLessThan(tolerance + 0.02 * Math.abs(depth));
    expect(outside(b, [p[0] + h * normal[0], p[1] + h * normal[1], p[2] + h * normal[2]])).toBeLessThan(tolerance + 0.02 * Math.abs(depth));
    expect(depth).toBeLessThanOrEqual(along + tolerance);
    expect(depth).toBeGreaterThanOrEqual(-reach - tolerance);
  }
  // The chosen axis is within the bias (5% and half a percent of the smallest half extent) of the best direction sampled.
  let best = Infinity;
  for (const d of directions) best = Math.min(best, overlapAlong(a, b, d));
  const smallest = Math.min(...a.half, ...b.half);
  expect(along).toBeLessThanOrEqual(best + 0.06 * Math.abs(best) + 0.006 * smallest + tolerance);
  expect(new Set(points.map((x) => x.features.join('/'))).size).toBe(points.length);
}

function randomDirections(random: Random, count: number): Vec[] {
  const out: Vec[] = [];
  while (out.length < count) {
    const d: Vec = [2 * random.next() - 1, 2 * random.next() - 1, 2 * random.next() - 1];
    const l = Math.hypot(...d);
    if (l > 0.1 && l <= 1) out.push([d[0] / l, d[1] / l, d[2] / l]);
  }
  return out;
}

describe('sphere–box contact', () => {
  it('outside: the closest point of the box, normal towards the centre; inside: out through the nearest face', () => {
    const box: Box = { centre: [1, 2, 3], rotation: aboutY(0.4), half: [0.5, 0.3, 0.8] };
    const run = (s: Vec, r: number): { n: Vec; p: Vec; depth: number } => {
      sphereBoxContact(...s, r, ...box.centre, new Float64Array(box.rotation), 0, ...box.half);
      const x = sphereBoxResult;
      return { n: [x[0]!, x[1]!, x[2]!], p: [x[3]!, x[4]!, x[5]!], depth: x[6]! };
    };
    // Straight above the top face.
    const top = run([1, 2.6, 3], 0.4);
    expect(top.n[1]).toBeCloseTo(1, 12);
    expect(top.depth).toBeCloseTo(0.1, 12);
    // Its point: the middle of the overlap, 0.05 below the top face.
    expect(top.p[1]).toBeCloseTo(2.25, 12);
    // Inside, nearest to the top face (0.1 away): depth r + 0.1, normal up.
    const inside = run([1, 2.2, 3], 0.25);
    expect(inside.n[1]).toBeCloseTo(1, 12);
    expect(inside.depth).toBeCloseTo(0.35, 12);

    const random = new Random(99);
    const surface: Vec[] = [];
    for (let k = 0; k < 20000; k++) {
      // Random points on the box's surface, in the world.
      const l: Vec = [(2 * random.next() - 1) * box.half[0], (2 * random.next() - 1) * box.half[1], (2 * random.next() - 1) * box.half[2]];
      const axis = k % 3;
      l[axis] = (random.next() < 0.5 ? -1 : 1) * box.half[axis]!;
      const R = box.rotation;
      surface.push([
        box.centre[0] + R[0]! * l[0] + R[1]! * l[1] + R[2]! * l[2],
        box.centre[1] + R[3]! * l[0] + R[4]! * l[1] + R[5]! * l[2],
        box.centre[2] + R[6]! * l[0] + R[7]! * l[1] + R[8]! * l[2],
      ]);
    }
    let insideCount = 0;
    for (let trial = 0; trial < 200; trial++) {
      const s: Vec = [1 + 3 * (random.next() - 0.5), 2 + 3 * (random.next() - 0.5), 3 + 3 * (random.next() - 0.5)];
      const r = 0.1 + 0.5 * random.next();
      const { n, p, depth } = run(s, r);
      expect(Math.hypot(...n)).toBeCloseTo(1, 12);
      // The box's point: the written point moved half the depth along the normal; it is on the surface.
      const onBox: Vec = [p[0] + 0.5 * depth * n[0], p[1] + 0.5 * depth * n[1], p[2] + 0.5 * depth * n[2]];
      expect(Math.abs(outside(box, onBox))).toBeLessThan(1e-9);
      const nearest = Math.min(...surface.map((q) => Math.hypot(...sub(s, q))));
      const inBox = outside(box, s) < 0;
      if (inBox) insideCount++;
      // Reference: the distance to the sampled surface, a little more than the exact one (so the
      // reference depth is a little less than the exact one outside the box, a little more inside).
      const reference = inBox ? r + nearest : r - nearest;
      if (inBox) {
        expect(depth).toBeLessThanOrEqual(reference + 1e-9);
        expect(depth).toBeGreaterThan(reference - 0.05);
      } else {
        expect(depth).toBeGreaterThanOrEqual(reference - 1e-9);
        expect(depth).toBeLessThan(reference + 0.05);
      }
    }
    expect(insideCount).toBeGreaterThan(5);
  });
});

describe('box–box contacts', () => {
  const directions = randomDirections(new Random(5), 4000);

  it('a box resting flat on a bigger one touches at its four bottom corners', () => {
    const a: Box = { centre: [0.2, 1.29, -0.1], rotation: IDENTITY, half: [0.5, 0.3, 0.4] };
    const b: Box = { centre: [0, 0, 0], rotation: IDENTITY, half: [2, 1, 2] };
    const result = runBoxBox(a, b, 0.05);
    checkBoxBox(a, b, 0.05, result, directions);
    expect(result.points.length).toBe(4);
    expect(result.normal[1]).toBeCloseTo(1, 12);
    for (const x of result.points) expect(x.depth).toBeCloseTo(0.01, 12);
    // Swapped: the same contacts, the normal reversed.
    const swapped = runBoxBox(b, a, 0.05);
    checkBoxBox(b, a, 0.05, swapped, directions);
    expect(swapped.points.length).toBe(4);
    expect(swapped.normal[1]).toBeCloseTo(-1, 12);
    // Beyond reach: nothing; within it: speculative contacts.
    expect(runBoxBox({ ...a, centre: [0.2, 1.36, -0.1] }, b, 0.05).points.length).toBe(0);
    const gap = runBoxBox({ ...a, centre: [0.2, 1.33, -0.1] }, b, 0.05);
    expect(gap.points.length).toBe(4);
    for (const x of gap.points) expect(x.depth).toBeCloseTo(-0.03, 12);
  });

  it('two equal boxes face to face, one turned 45° about the normal: the octagon of their overlap', () => {
    const a: Box = { centre: [0, 0.99, 0], rotation: aboutY(Math.PI / 4), half: [0.5, 0.5, 0.5] };
    const b: Box = { centre: [0, 0, 0], rotation: IDENTITY, half: [0.5, 0.5, 0.5] };
    const result = runBoxBox(a, b, 0.05);
    checkBoxBox(a, b, 0.05, result, directions);
    expect(result.points.length).toBe(8);
    for (const x of result.points) expect(x.depth).toBeCloseTo(0.01, 12);
  });

  it('crossed edges: one contact between the two edges', () => {
    // a turned 45° about x (an edge down, along x), b turned 45° about z (an edge up, along z) below it.
    const s = Math.SQRT1_2;
    const a: Box = {
      centre: [0, 2 * s - 0.02, 0],
      rotation: rotationFromQuaternion(Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)),
      half: [0.5, 0.5, 0.5],
    };
    const b: Box = { centre: [0, 0, 0], rotation: rotationFromQuaternion(0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)), half: [0.5, 0.5, 0.5] };
    const result = runBoxBox(a, b, 0.05);
    checkBoxBox(a, b, 0.05, result, directions);
    expect(result.points.length).toBe(1);
    expect(result.points[0]!.depth).toBeCloseTo(0.02, 9);
    expect(result.normal[1]).toBeCloseTo(1, 9);
    expect(Math.hypot(result.points[0]!.p[0], result.points[0]!.p[2])).toBeLessThan(1e-9);
  });

  it('random boxes: points on both boxes, depths within the overlap, the normal as good as any sampled direction', () => {
    const random = new Random(17);
    const u = (lo: number, hi: number): number => lo + (hi - lo) * random.next();
    let touching = 0;
    for (let trial = 0; trial < 400; trial++) {
      const a: Box = {
        centre: [u(-1, 1), u(-1, 1), u(-1, 1)],
        rotation: rotationFromQuaternion(u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1)),
        half: [u(0.1, 0.8), u(0.1, 0.8), u(0.1, 0.8)],
      };
      const b: Box = {
        centre: [u(-1, 1), u(-1, 1), u(-1, 1)],
        rotation: rotationFromQuaternion(u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1)),
        half: [u(0.1, 0.8), u(0.1, 0.8), u(0.1, 0.8)],
      };
      const reach = u(0, 0.1);
      const result = runBoxBox(a, b, reach);
      checkBoxBox(a, b, reach, result, directions);
      if (result.points.length > 0) touching++;
      // Separated by more than the reach along some sampled direction: no contact.
      if (directions.some((d) => overlapAlong(a, b, d) < -reach - 1e-9)) expect(result.points.length).toBe(0);
    }
    expect(touching).toBeGreaterThan(100);
  });
});
