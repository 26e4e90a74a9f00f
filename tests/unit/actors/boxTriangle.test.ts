import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/core';
import { BOX_TRIANGLE_MAX_POINTS, BOX_TRIANGLE_STRIDE, boxTriangleContacts } from '../../../src/actors/boxTriangle';
import { reduceBoxManifold } from '../../../src/actors/manifold';

type Vec = [number, number, number];

interface Case {
  centre: Vec;
  /** Row-major rotation, world = R · local. */
  rotation: number[];
  half: Vec;
  a: Vec;
  b: Vec;
  e: Vec;
  reach: number;
}

const sub = (p: Vec, q: Vec): Vec => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const dot = (p: Vec, q: Vec): number => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const cross = (p: Vec, q: Vec): Vec => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];

function unitNormal(a: Vec, b: Vec, e: Vec): Vec {
  const n = cross(sub(b, a), sub(e, a));
  const length = Math.hypot(...n);
  return length > 1e-20 ? [n[0] / length, n[1] / length, n[2] / length] : [0, 0, 0];
}

function rotationFromQuaternion(x: number, y: number, z: number, w: number): number[] {
  const l = Math.hypot(x, y, z, w);
  x /= l;
  y /= l;
  z /= l;
  w /= l;
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

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

interface Contact {
  /** The point on the box (the written point, on the triangle's plane, moved back by the depth). */
  onBox: Vec;
  depth: number;
  feature: number;
}

function run(c: Case): Contact[] {
  const n = unitNormal(c.a, c.b, c.e);
  const out = new Float64Array(BOX_TRIANGLE_STRIDE * BOX_TRIANGLE_MAX_POINTS + 3).fill(NaN);
  const count = boxTriangleContacts(...c.centre, new Float64Array(c.rotation), 0, ...c.half, ...c.a, ...c.b, ...c.e, ...n, c.reach, out, 3);
  expect(count).toBeLessThanOrEqual(BOX_TRIANGLE_MAX_POINTS);
  const contacts: Contact[] = [];
  for (let k = 0; k < count; k++) {
    const o = 3 + BOX_TRIANGLE_STRIDE * k;
    const depth = out[o + 3]!;
    contacts.push({ onBox: [out[o]! - depth * n[0], out[o + 1]! - depth * n[1], out[o + 2]! - depth * n[2]], depth, feature: out[o + 4]! });
  }
  return contacts;
}

/** The box point in the box's frame: Rᵀ (p − c). */
function toLocal(c: Case, p: Vec): Vec {
  const d = sub(p, c.centre);
  const R = c.rotation;
  return [R[0]! * d[0] + R[3]! * d[1] + R[6]! * d[2], R[1]! * d[0] + R[4]! * d[1] + R[7]! * d[2], R[2]! * d[0] + R[5]! * d[1] + R[8]! * d[2]];
}

function insidePrism(c: Case, p: Vec, tolerance: number): boolean {
  const n = unitNormal(c.a, c.b, c.e);
  const corners = [c.a, c.b, c.e];
  for (let j = 0; j < 3; j++) {
    const edge = sub(corners[(j + 1) % 3]!, corners[j]!);
    const inward = cross(n, edge);
    if (dot(inward, sub(p, corners[j]!)) < -tolerance * Math.hypot(...inward)) return false;
  }
  return true;
}

/** The box's eight corners in the world. */
function corners(c: Case): Vec[] {
  const R = c.rotation;
  const out: Vec[] = [];
  for (let k = 0; k < 8; k++) {
    const l: Vec = [k & 1 ? c.half[0] : -c.half[0], k & 2 ? c.half[1] : -c.half[1], k & 4 ? c.half[2] : -c.half[2]];
    out.push([
      c.centre[0] + R[0]! * l[0] + R[1]! * l[1] + R[2]! * l[2],
      c.centre[1] + R[3]! * l[0] + R[4]! * l[1] + R[5]! * l[2],
      c.centre[2] + R[6]! * l[0] + R[7]! * l[1] + R[8]! * l[2],
    ]);
  }
  return out;
}

/** Every contact lies on the box's surface and inside the triangle's prism, with the depth of its point below the plane. */
function checkContacts(c: Case, contacts: Contact[]): void {
  const n = unitNormal(c.a, c.b, c.e);
  const scale = 1 + Math.max(...c.half) + Math.hypot(...c.centre);
  const tolerance = 1e-9 * scale;
  for (const contact of contacts) {
    const local = toLocal(c, contact.onBox);
    const outside = Math.max(...local.map((x, k) => Math.abs(x) - c.half[k]!));
    expect(outside).toBeLessThan(tolerance);
    // On the surface: some coordinate at its face.
    expect(outside).toBeGreaterThan(-tolerance);
    expect(insidePrism(c, contact.onBox, tolerance)).toBe(true);
    expect(contact.depth).toBeCloseTo(-dot(sub(contact.onBox, c.a), n), 9);
    expect(contact.depth).toBeGreaterThanOrEqual(-c.reach - tolerance);
    expect(Number.isInteger(contact.feature)).toBe(true);
  }
  // Feature ids are distinct within one call (they key the warm-start cache).
  expect(new Set(contacts.map((x) => x.feature)).size).toBe(contacts.length);
}

const BIG_TRIANGLE = { a: [-10, 0, -10] as Vec, b: [0, 0, 10] as Vec, e: [10, 0, -10] as Vec };

describe('box–triangle contacts', () => {
  it('a box resting flat inside a triangle touches at its four bottom corners, at their depth', () => {
    const c: Case = { centre: [0.3, 0.49, -1], rotation: IDENTITY, half: [1, 0.5, 0.7], ...BIG_TRIANGLE, reach: 0.05 };
    const contacts = run(c);
    checkContacts(c, contacts);
    expect(contacts.length).toBe(4);
    for (const x of contacts) {
      expect(x.depth).toBeCloseTo(0.01, 12);
      expect(Math.abs(x.onBox[0] - 0.3)).toBeCloseTo(1, 12);
      expect(Math.abs(x.onBox[2] + 1)).toBeCloseTo(0.7, 12);
    }
    // Lifted beyond the reach: nothing; within it: four speculative contacts.
    expect(run({ ...c, centre: [0.3, 0.56, -1] }).length).toBe(0);
    const gap = run({ ...c, centre: [0.3, 0.53, -1] });
    expect(gap.length).toBe(4);
    for (const x of gap) expect(x.depth).toBeCloseTo(-0.03, 12);
  });

  it("a box on an edge touches at the edge's two ends, on a vertex at one point", () => {
    const s = Math.SQRT1_2;
    // 45° about z: the lowest edge runs along z at depth 0.02.
    const onEdge: Case = {
      centre: [0, s - 0.02, 0],
      rotation: rotationFromQuaternion(0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)),
      half: [0.5, 0.5, 0.5],
      ...BIG_TRIANGLE,
      reach: 0.05,
    };
    const edge = run(onEdge);
    checkContacts(onEdge, edge);
    expect(edge.length).toBe(2);
    for (const x of edge) expect(x.depth).toBeCloseTo(0.02, 12);
    expect(Math.abs(edge[0]!.onBox[2] - edge[1]!.onBox[2])).toBeCloseTo(1, 12);
    // A corner down: rotate so that the body diagonal (1, 1, 1) points straight down.
    const axis = cross([1, 1, 1], [0, -1, 0]);
    const angle = Math.acos(-1 / Math.sqrt(3));
    const l = Math.hypot(...axis);
    const rotation = rotationFromQuaternion(
      (axis[0] / l) * Math.sin(angle / 2),
      (axis[1] / l) * Math.sin(angle / 2),
      (axis[2] / l) * Math.sin(angle / 2),
      Math.cos(angle / 2),
    );
    const onVertex: Case = { centre: [1, 0.5 * Math.sqrt(3) - 0.01, -2], rotation, half: [0.5, 0.5, 0.5], ...BIG_TRIANGLE, reach: 0.05 };
    const vertex = run(onVertex);
    checkContacts(onVertex, vertex);
    expect(vertex.length).toBe(1);
    expect(vertex[0]!.depth).toBeCloseTo(0.01, 12);
  });

  it('a box across a triangle edge is cut along it: each side of the seam holds its part', () => {
    // Two triangles sharing the edge x = 0, z from −4 to 4.
    const left = { a: [0, 0, -4] as Vec, b: [-4, 0, 0] as Vec, e: [0, 0, 4] as Vec };
    const right = { a: [0, 0, -4] as Vec, b: [0, 0, 4] as Vec, e: [4, 0, 0] as Vec };
    const base = { centre: [0.2, 0.49, 0] as Vec, rotation: IDENTITY, half: [1, 0.5, 0.5] as Vec, reach: 0.05 };
    const l = run({ ...base, ...left });
    const r = run({ ...base, ...right });
    checkContacts({ ...base, ...left }, l);
    checkContacts({ ...base, ...right }, r);
    expect(l.length).toBeGreaterThan(0);
    expect(r.length).toBeGreaterThan(0);
    // Together they cover the box's bottom: its four corners are among the points (each in one prism).
    const all = [...l, ...r];
    for (const x of [-0.8, 1.2]) for (const z of [-0.5, 0.5]) expect(all.some((p) => Math.hypot(p.onBox[0] - x, p.onBox[2] - z) < 1e-12)).toBe(true);
    // The seam: both sides stop at x = 0, where the box's long edges cross it.
    expect(l.filter((p) => Math.abs(p.onBox[0]) < 1e-12).length).toBe(2);
    expect(r.filter((p) => Math.abs(p.onBox[0]) < 1e-12).length).toBe(2);
    for (const p of all) expect(p.depth).toBeCloseTo(0.01, 12);
  });

  it('deep penetration: a box sunk below the plane with its centre over the triangle is pushed out; behind and beside it, nothing', () => {
    const deep: Case = { centre: [0, -0.3, -1], rotation: IDENTITY, half: [0.5, 0.5, 0.5], ...BIG_TRIANGLE, reach: 0.05 };
    const contacts = run(deep);
    checkContacts(deep, contacts);
    expect(contacts.length).toBe(4);
    for (const x of contacts) expect(x.depth).toBeCloseTo(0.8, 12);
    // Centre behind the plane and outside the prism: a neighbour's business.
    expect(run({ ...deep, centre: [30, -0.3, 0] }).length).toBe(0);
    // Wholly behind the plane: nothing either.
    expect(run({ ...deep, centre: [0, -1.2, -1] }).length).toBe(0);
  });

  it('a degenerate triangle gives no contact', () => {
    const base = { centre: [0, 0.4, 0] as Vec, rotation: IDENTITY, half: [0.5, 0.5, 0.5] as Vec, reach: 0.05 };
    expect(run({ ...base, a: [0, 0, 0], b: [1, 0, 0], e: [2, 0, 0] })).toEqual([]);
    expect(run({ ...base, a: [0, 0, 0], b: [0, 0, 0], e: [0, 0, 0] })).toEqual([]);
  });

  it('random boxes and triangles: every contact on the box, in the prism, at its depth; the deepest matches the reference', () => {
    const random = new Random(2024);
    const u = (lo: number, hi: number): number => lo + (hi - lo) * random.next();
    let compared = 0;
    let touching = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const half: Vec = [u(0.1, 1), u(0.1, 1), u(0.1, 1)];
      const a: Vec = [u(-2, 2), u(-0.5, 0.5), u(-2, 2)];
      const b: Vec = [u(-2, 2), u(-0.5, 0.5), u(-2, 2)];
      const e: Vec = [u(-2, 2), u(-0.5, 0.5), u(-2, 2)];
      // Wound counter-clockwise seen from above, like the terrain's triangles (normal up).
      if (unitNormal(a, b, e)[1] < 0) [b[0], b[1], b[2], e[0], e[1], e[2]] = [e[0], e[1], e[2], b[0], b[1], b[2]];
      const c: Case = {
        centre: [u(-2, 2), u(-0.5, 1.5), u(-2, 2)],
        rotation: rotationFromQuaternion(u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1)),
        half,
        a,
        b,
        e,
        reach: u(0, 0.2),
      };
      const contacts = run(c);
      checkContacts(c, contacts);
      if (contacts.length > 0) touching++;
      // Reference: the box's lowest point along the normal (support point). When it lies inside the prism,
      // the centre is in front of the plane and it is within reach, the deepest contact is exactly it.
      const n = unitNormal(a, b, e);
      const cornerDepths = corners(c).map((p) => ({ p, depth: -dot(sub(p, a), n) }));
      const lowest = cornerDepths.reduce((best, x) => (x.depth > best.depth ? x : best));
      const height = dot(sub(c.centre, a), n);
      if (height >= 0 && lowest.depth >= -c.reach && insidePrism(c, lowest.p, -1e-6)) {
        compared++;
        expect(contacts.length).toBeGreaterThan(0);
        expect(Math.max(...contacts.map((x) => x.depth))).toBeCloseTo(lowest.depth, 9);
      }
      // Nothing is reported when the box is beyond reach of the plane everywhere.
      if (Math.max(...cornerDepths.map((x) => x.depth)) < -c.reach) expect(contacts.length).toBe(0);
    }
    expect(compared).toBeGreaterThan(100);
    expect(touching).toBeGreaterThan(300);
  });
});

describe('box manifold reduction', () => {
  it('keeps the four corners of a face among seam points at the same distances, whatever the order', () => {
    // A face from x −0.4…0.8, z −0.5…0.3 on flat ground, cut by seams at x = 0 and z = 0: corners and crossings.
    const points: [number, number][] = [
      [0, -0.5],
      [-0.4, 0],
      [0.8, -0.5],
      [0, 0.3],
      [-0.4, 0.3],
      [0.8, 0],
      [-0.4, -0.5],
      [0.8, 0.3],
    ];
    const random = new Random(3);
    for (let trial = 0; trial < 50; trial++) {
      const order = points.map((p) => ({ p, key: random.next() })).sort((x, y) => x.key - y.key);
      const stride = 10;
      const cand = new Float64Array(stride * points.length);
      order.forEach(({ p }, k) => {
        cand.set([0, 1, 0, p[0], 0, p[1], 1e-4 * random.next()], stride * k);
      });
      const picked = new Int32Array(6);
      const n = reduceBoxManifold(cand, stride, points.length, 4, 0.5, picked);
      expect(n).toBe(4);
      const chosen = Array.from(picked.subarray(0, n), (k) => order[k]!.p.join(',')).sort();
      expect(chosen).toEqual(['-0.4,-0.5', '-0.4,0.3', '0.8,-0.5', '0.8,0.3']);
    }
  });
});
