import type { BVH } from '../../../src/bvh/index';
import { Random } from '../../../src/math/random';
import {
  createCapsuleBatch,
  createCapsuleHits,
  segmentTriangleClosest,
  sweepCapsules,
  sweepCapsulesBruteForce,
  type CapsuleBatch,
  type CapsuleHits,
  type SweepCounters,
  type SweepOptions,
} from '../../../src/query/capsule/index';

export interface Mesh {
  positions: Float32Array;
  indices: Uint32Array;
  /** The triangles a collision filter keeps (keep[t] ≠ 0); all when absent. */
  keep?: Uint8Array;
}

/** keep[t] = 1 for the triangles (BVH ids) whose material mask shares a bit with `filter`. */
export function keptByFilter(bvh: BVH, filter: number): Uint8Array {
  const { materialIds, materialMasks } = bvh.masks;
  return Uint8Array.from({ length: bvh.triangleCount }, (_, t) => ((materialMasks[materialIds[t]!]! & filter) !== 0 ? 1 : 0));
}

export const TOI_TOLERANCE = 1e-4;
/** How close to touching (world units) a contact the two sides disagree on must be to count as a graze. */
export const GRAZE_TOLERANCE = 1e-6;

const closest = new Float64Array(7);

/** Distance from capsule i's axis, moved by t, to triangle k. */
export function axisDistance(mesh: Mesh, batch: CapsuleBatch, i: number, t: number, k: number): number {
  const { positions: p, indices } = mesh;
  const a = 3 * indices[3 * k]!,
    b = 3 * indices[3 * k + 1]!,
    c = 3 * indices[3 * k + 2]!;
  const s = batch.start,
    e = batch.end,
    d = batch.motion,
    i3 = 3 * i;
  return segmentTriangleClosest(
    s[i3]! + t * d[i3]!,
    s[i3 + 1]! + t * d[i3 + 1]!,
    s[i3 + 2]! + t * d[i3 + 2]!,
    e[i3]! + t * d[i3]!,
    e[i3 + 1]! + t * d[i3 + 1]!,
    e[i3 + 2]! + t * d[i3 + 2]!,
    p[a]!,
    p[a + 1]!,
    p[a + 2]!,
    p[b]!,
    p[b + 1]!,
    p[b + 2]!,
    p[c]!,
    p[c + 1]!,
    p[c + 2]!,
    closest,
  );
}

/** Smallest axis-to-mesh distance over t ∈ [0, tEnd]: per triangle a golden-section search (the distance
 *  is convex in t), over every triangle. */
export function minimumDistance(mesh: Mesh, batch: CapsuleBatch, i: number, tEnd: number): number {
  const triangles = mesh.indices.length / 3;
  let best = Infinity;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let k = 0; k < triangles; k++) {
    if (mesh.keep !== undefined && mesh.keep[k] === 0) continue;
    let lo = 0,
      hi = tEnd;
    let x1 = hi - g * (hi - lo),
      x2 = lo + g * (hi - lo);
    let f1 = axisDistance(mesh, batch, i, x1, k),
      f2 = axisDistance(mesh, batch, i, x2, k);
    for (let step = 0; step < 60 && hi - lo > 1e-12; step++) {
      if (f1 <= f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = axisDistance(mesh, batch, i, x1, k);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = axisDistance(mesh, batch, i, x2, k);
      }
    }
    best = Math.min(best, f1, f2, axisDistance(mesh, batch, i, 0, k), axisDistance(mesh, batch, i, tEnd, k));
  }
  return best;
}

export function meshDistance(mesh: Mesh, batch: CapsuleBatch, i: number, t: number): number {
  let best = Infinity;
  for (let k = 0; k < mesh.indices.length / 3; k++)
    if (mesh.keep === undefined || mesh.keep[k] !== 0) best = Math.min(best, axisDistance(mesh, batch, i, t, k));
  return best;
}

export interface Comparison {
  sweeps: number;
  hits: number;
  startsInContact: number;
  /** Disagreements explained by a graze within GRAZE_TOLERANCE of touching. */
  grazes: number;
  failures: string[];
  counters: SweepCounters;
  ours: CapsuleHits;
  reference: CapsuleHits;
}

/**
 * Sweeps with sweepCapsules and with the brute-force reference and compares: same hit or miss, toi
 * within TOI_TOLERANCE. A disagreement passes only as a graze: our earlier or extra contact must really
 * touch (axis within r + GRAZE_TOLERANCE of the mesh at our toi), and our later contact or miss must not
 * skip a real one (axis never closer than r − GRAZE_TOLERANCE before our toi). Also checks every contact
 * we report: the contact triangle at distance r from the axis at toi, unit normal, point on the capsule's
 * surface along the normal. With options.filter, the reference skips the triangles the filter rejects
 * (the mesh must be the BVH's, triangle for triangle), and so do the distance checks.
 */
export function compareWithReference(fullMesh: Mesh, bvh: BVH, batch: CapsuleBatch, options: Partial<SweepOptions> = {}): Comparison {
  const mesh: Mesh = options.filter === undefined ? fullMesh : { ...fullMesh, keep: keptByFilter(bvh, options.filter) };
  const ours = createCapsuleHits(batch.count);
  const reference = createCapsuleHits(batch.count);
  const counters = sweepCapsules(bvh, batch, ours, options);
  sweepCapsulesBruteForce(mesh.positions, mesh.indices, batch, reference, mesh.keep);
  const failures: string[] = [];
  let hits = 0,
    startsInContact = 0,
    grazes = 0;
  for (let i = 0; i < batch.count; i++) {
    const r = batch.radius[i]!;
    const ourHit = ours.triangle[i]! >= 0;
    const theirHit = reference.triangle[i]! >= 0;
    const ourT = ours.toi[i]!,
      theirT = reference.toi[i]!;
    if (theirHit) hits++;
    if (theirHit && theirT === 0) startsInContact++;
    if (ourHit && mesh.keep !== undefined && mesh.keep[ours.triangle[i]!] === 0)
      failures.push(`sweep ${i}: hit triangle ${ours.triangle[i]}, which the filter rejects`);
    else if (ourHit) {
      const problem = checkContact(mesh, batch, ours, i);
      if (problem !== '') failures.push(`sweep ${i}: ${problem}`);
    }
    const agree = ourHit === theirHit && (!ourHit || Math.abs(ourT - theirT) <= TOI_TOLERANCE);
    if (agree) {
      if (theirHit && theirT === 0 && ourT !== 0) failures.push(`sweep ${i}: starts in contact but toi ${ourT}`);
      continue;
    }
    const ourEnd = ourHit ? ourT : 1;
    const theirEnd = theirHit ? theirT : 1;
    let graze = true;
    if (ourEnd < theirEnd && meshDistance(mesh, batch, i, ourT) > r + GRAZE_TOLERANCE) graze = false;
    if (ourEnd > theirEnd && minimumDistance(mesh, batch, i, ourEnd) < r - GRAZE_TOLERANCE) graze = false;
    if (graze) grazes++;
    else
      failures.push(
        `sweep ${i}: ours ${ourHit ? `t ${ourT} tri ${ours.triangle[i]}` : 'miss'}, reference ${theirHit ? `t ${theirT} tri ${reference.triangle[i]}` : 'miss'}`,
      );
  }
  return { sweeps: batch.count, hits, startsInContact, grazes, failures, counters, ours, reference };
}

function checkContact(mesh: Mesh, batch: CapsuleBatch, hits: CapsuleHits, i: number): string {
  const t = hits.toi[i]!,
    k = hits.triangle[i]!,
    r = batch.radius[i]!;
  if (!(t >= 0 && t <= 1)) return `toi ${t} outside [0, 1]`;
  const i3 = 3 * i;
  const nx = hits.normal[i3]!,
    ny = hits.normal[i3 + 1]!,
    nz = hits.normal[i3 + 2]!;
  if (Math.abs(Math.hypot(nx, ny, nz) - 1) > 1e-5) return `normal not unit (${nx}, ${ny}, ${nz})`;
  const distance = axisDistance(mesh, batch, i, t, k);
  if (t > 0) {
    if (Math.abs(distance - r) > 1e-4 * Math.max(1, r)) return `triangle ${k} at distance ${distance} from the axis at toi, radius ${r}`;
    // The point plus r·normal lies on the axis at toi.
    const px = hits.point[i3]! + r * nx,
      py = hits.point[i3 + 1]! + r * ny,
      pz = hits.point[i3 + 2]! + r * nz;
    const s = batch.start,
      e = batch.end,
      d = batch.motion;
    const onAxis = pointSegmentDistance(
      px,
      py,
      pz,
      s[i3]! + t * d[i3]!,
      s[i3 + 1]! + t * d[i3 + 1]!,
      s[i3 + 2]! + t * d[i3 + 2]!,
      e[i3]! + t * d[i3]!,
      e[i3 + 1]! + t * d[i3 + 1]!,
      e[i3 + 2]! + t * d[i3 + 2]!,
    );
    if (onAxis > 1e-3 * Math.max(1, r)) return `contact point + r·normal is ${onAxis} off the axis`;
  } else if (distance > r + 1e-5) return `toi 0 but triangle ${k} is ${distance} from the axis (radius ${r})`;
  return '';
}

function pointSegmentDistance(px: number, py: number, pz: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const ex = bx - ax,
    ey = by - ay,
    ez = bz - az;
  const ee = ex * ex + ey * ey + ez * ez;
  let u = ee > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / ee : 0;
  u = Math.min(1, Math.max(0, u));
  return Math.hypot(px - ax - u * ex, py - ay - u * ey, pz - az - u * ez);
}

/** A uniformly distributed unit vector. */
export function unitVector(random: Random): [number, number, number] {
  const y = random.range(-1, 1);
  const angle = random.range(0, 2 * Math.PI);
  const r = Math.sqrt(1 - y * y);
  return [r * Math.cos(angle), y, r * Math.sin(angle)];
}

export interface SweepShape {
  /** Segment half-length range and radius range. */
  halfLength: [number, number];
  radius: [number, number];
  /** Motion length range. */
  motion: [number, number];
}

/**
 * Random sweeps whose capsule centre is drawn by `centre` (null = reject and redraw), random axis
 * orientation and motion direction. Returns the batch.
 */
export function randomSweeps(
  seed: number,
  count: number,
  shape: SweepShape,
  centre: (random: Random) => [number, number, number] | null,
  accept: (batch: CapsuleBatch, i: number) => boolean = () => true,
): CapsuleBatch {
  const random = new Random(seed);
  const batch = createCapsuleBatch(count);
  for (let i = 0; i < count;) {
    const c = centre(random);
    if (c === null) continue;
    const [ax, ay, az] = unitVector(random);
    const h = random.range(shape.halfLength[0], shape.halfLength[1]);
    const [mx, my, mz] = unitVector(random);
    const m = random.range(shape.motion[0], shape.motion[1]);
    batch.start.set([c[0] - ax * h, c[1] - ay * h, c[2] - az * h], 3 * i);
    batch.end.set([c[0] + ax * h, c[1] + ay * h, c[2] + az * h], 3 * i);
    batch.radius[i] = random.range(shape.radius[0], shape.radius[1]);
    batch.motion.set([mx * m, my * m, mz * m], 3 * i);
    if (accept(batch, i)) i++;
  }
  return batch;
}

/**
 * Sweep centres over the middle of a surface: x and z in [−9, 9], y `lift` above the height there
 * (null where the surface has no height, so randomSweeps draws again).
 */
export function centreAbove(heightOf: (x: number, z: number) => number, lift: [number, number]): (random: Random) => [number, number, number] | null {
  return (random) => {
    const x = random.range(-9, 9),
      z = random.range(-9, 9);
    const h = heightOf(x, z);
    return Number.isNaN(h) ? null : [x, h + random.range(lift[0], lift[1]), z];
  };
}

/** Keeps sweeps whose capsule stays over the grid (so "above" means in front) with the axis midpoint above. */
export function inFront(heightOf: (x: number, z: number) => number, half: number): (batch: CapsuleBatch, i: number) => boolean {
  return (batch, i) => {
    const i3 = 3 * i;
    const s = batch.start,
      e = batch.end,
      d = batch.motion;
    const reach = batch.radius[i]! + 0.01;
    for (const t of [0, 1]) {
      for (const p of [s, e]) {
        if (Math.abs(p[i3]! + t * d[i3]!) > half - reach || Math.abs(p[i3 + 2]! + t * d[i3 + 2]!) > half - reach) return false;
      }
    }
    const mx = 0.5 * (s[i3]! + e[i3]!),
      my = 0.5 * (s[i3 + 1]! + e[i3 + 1]!),
      mz = 0.5 * (s[i3 + 2]! + e[i3 + 2]!);
    return my > heightOf(mx, mz);
  };
}
