/**
 * The box–triangle benchmark's scenarios on a real mesh (the terrain's own triangles, a scanned mesh):
 * every test is one triangle of the mesh, unchanged in shape, against a box placed on the mesh as the
 * scenario says. Each box is similar to the benchmark's one box (the same proportions, some scale), so
 * the similarity that takes it onto that box (a translation and one uniform scale, which keep overlap
 * and the triangle's shape) turns every (box, triangle) pair into a triangle against the one box, and
 * every contender runs the same one-box call over the same soup as on the synthetic sets.
 *
 *   best     a box holding the whole triangle, 1.05–3× its extent, anywhere it still holds it
 *   worst    a box around one corner, smaller than the triangle (its other corners outside): touching,
 *            one corner in
 *   crossing a box around a point inside the triangle, every corner outside it: overlapping, no corner in
 *   near     a box of 0.2–2× the triangle's size near it (centre within 1.5 box sizes of its bounds) that
 *            v1 finds apart
 *   no hit   the same box sizes a thousand box sizes away
 *   mixed    boxes of 0.5–6 mean edge lengths at random points of the surface, each with the triangles
 *            whose bounds overlap the box grown by one mean edge length on every side (about what a BVH's
 *            leaves hand the test); some inside, some through, most apart
 */
import type { Random } from '../../src/math/random';
import { isOverlapExit } from '../../src/query/boxTriangle/exits';
import { mollerV1 } from '../../src/query/boxTriangle/mollerV1';

export type Scenario = 'best' | 'worst' | 'no hit' | 'mixed' | 'crossing' | 'near';

export interface SourceMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

/** A triangle soup: triangle t is vertices 3t, 3t+1, 3t+2. */
export interface Soup {
  positions: Float32Array;
  indices: Uint32Array;
}

/**
 * `count` tests of `scenario` on `mesh`, each mapped onto `box` (centre, half sizes).
 */
export function meshScenario(scenario: Scenario, mesh: SourceMesh, box: Float64Array, count: number, random: Random): Soup {
  const triangles = mesh.indices.length / 3;
  const out = new Float32Array(9 * count);
  const corner = new Float64Array(9);
  const load = (t: number): void => {
    for (let v = 0; v < 3; v++) for (let a = 0; a < 3; a++) corner[3 * v + a] = mesh.positions[3 * mesh.indices[3 * t + v]! + a]!;
  };
  /** Stores triangle (corner) as seen from the box (centre, scale s of the one box) into slot `k`. */
  const place = (k: number, centre: readonly number[], s: number): void => {
    for (let v = 0; v < 3; v++) for (let a = 0; a < 3; a++) out[9 * k + 3 * v + a] = box[a]! + (corner[3 * v + a]! - centre[a]!) / s;
  };
  /** The largest over axes of |p − q| in units of the one box's half sizes. */
  const boxDistance = (p: ArrayLike<number>, po: number, q: ArrayLike<number>, qo: number): number => {
    let d = 0;
    for (let a = 0; a < 3; a++) d = Math.max(d, Math.abs(p[po + a]! - q[qo + a]!) / box[a + 3]!);
    return d;
  };
  /** The triangle's extent in units of the one box's full sizes (the scale of the smallest box holding it). */
  const extent = (): number => {
    let e = 0;
    for (let a = 0; a < 3; a++) {
      const lo = Math.min(corner[a]!, corner[3 + a]!, corner[6 + a]!);
      const hi = Math.max(corner[a]!, corner[3 + a]!, corner[6 + a]!);
      e = Math.max(e, (hi - lo) / (2 * box[a + 3]!));
    }
    return e;
  };
  const midpoint = (): number[] =>
    [0, 1, 2].map((a) => (Math.min(corner[a]!, corner[3 + a]!, corner[6 + a]!) + Math.max(corner[a]!, corner[3 + a]!, corner[6 + a]!)) / 2);
  const jitter = (centre: number[], s: number, fraction: number): number[] =>
    centre.map((c, a) => c + random.range(-fraction, fraction) * s * box[a + 3]!);
  const pointInside = (): number[] => {
    let w0 = 0,
      w1 = 0;
    do {
      w0 = random.range(0.1, 0.8);
      w1 = random.range(0.1, 0.8);
    } while (w0 + w1 > 0.9);
    const w2 = 1 - w0 - w1;
    return [0, 1, 2].map((a) => w0 * corner[a]! + w1 * corner[3 + a]! + w2 * corner[6 + a]!);
  };

  if (scenario === 'mixed') return mixed(mesh, box, count, random);
  let k = 0;
  while (k < count) {
    load(random.int(triangles));
    const size = extent();
    if (!(size > 0)) continue;
    if (scenario === 'best') {
      const s = size * random.range(1.05, 3);
      // The box may move while it still holds the triangle: slack of (s − size) box half sizes per side.
      place(k++, jitter(midpoint(), s - size, 0.99), s);
    } else if (scenario === 'worst' || scenario === 'crossing') {
      // Around corner v (worst) or a point inside (crossing): the box's scale is a fraction u ≤ 0.6 of
      // the nearest outside corner's distance, and its centre moves at most half a box size, so those
      // corners stay outside (distance ≥ s/u − s/2 > s) and the point stays inside.
      const v = random.int(3);
      const point = scenario === 'worst' ? [corner[3 * v]!, corner[3 * v + 1]!, corner[3 * v + 2]!] : pointInside();
      let nearest = Infinity;
      for (let w = 0; w < 3; w++) if (scenario === 'crossing' || w !== v) nearest = Math.min(nearest, boxDistance(corner, 3 * w, point, 0));
      if (!(nearest > 0)) continue;
      const s = nearest * random.range(0.3, 0.6);
      place(k++, jitter(point, s, 0.5), s);
    } else {
      const s = size * random.range(0.2, 2);
      const mid = midpoint();
      if (scenario === 'no hit') {
        const centre = [...mid];
        centre[random.int(3)]! += (random.next() < 0.5 ? -1 : 1) * 1000 * 2 * s * box[3 + random.int(3)]!;
        place(k++, centre, s);
      } else {
        // near: retried until v1 finds the pair apart.
        const centre = mid.map((c, a) => c + random.range(-1, 1) * (size + 1.5 * s) * box[a + 3]!);
        place(k, centre, s);
        if (!isOverlapExit(mollerV1(box, 0, out, 3 * k, 3 * k + 1, 3 * k + 2))) k++;
      }
    }
  }
  return soup(out, count);
}

function soup(positions: Float32Array, count: number): Soup {
  const indices = new Uint32Array(3 * count);
  for (let i = 0; i < indices.length; i++) indices[i] = i;
  return { positions, indices };
}

function mixed(mesh: SourceMesh, box: Float64Array, count: number, random: Random): Soup {
  const { positions, indices } = mesh;
  const triangles = indices.length / 3;
  const lo = new Float32Array(3 * triangles),
    hi = new Float32Array(3 * triangles);
  let edgeSum = 0;
  for (let t = 0; t < triangles; t++) {
    for (let a = 0; a < 3; a++) {
      const p = positions[3 * indices[3 * t]! + a]!,
        q = positions[3 * indices[3 * t + 1]! + a]!,
        r = positions[3 * indices[3 * t + 2]! + a]!;
      lo[3 * t + a] = Math.min(p, q, r);
      hi[3 * t + a] = Math.max(p, q, r);
    }
    for (let e = 0; e < 3; e++) {
      const i = indices[3 * t + e]!,
        j = indices[3 * t + ((e + 1) % 3)]!;
      edgeSum += Math.hypot(
        positions[3 * i]! - positions[3 * j]!,
        positions[3 * i + 1]! - positions[3 * j + 1]!,
        positions[3 * i + 2]! - positions[3 * j + 2]!,
      );
    }
  }
  const edge = edgeSum / (3 * triangles);
  const largestHalf = Math.max(box[3]!, box[4]!, box[5]!);
  const out = new Float32Array(9 * count);
  let k = 0;
  while (k < count) {
    // A box of 0.5–6 mean edge lengths (its largest side), log-uniform, at a random point of the surface.
    const t = random.int(triangles);
    let w0 = random.next(),
      w1 = random.next();
    if (w0 + w1 > 1) [w0, w1] = [1 - w0, 1 - w1];
    const centre = [0, 1, 2].map(
      (a) =>
        (1 - w0 - w1) * positions[3 * indices[3 * t]! + a]! +
        w0 * positions[3 * indices[3 * t + 1]! + a]! +
        w1 * positions[3 * indices[3 * t + 2]! + a]!,
    );
    const s = (edge * Math.exp(random.range(Math.log(0.5), Math.log(6)))) / (2 * largestHalf);
    for (let c = 0; c < triangles && k < count; c++) {
      let near = true;
      for (let a = 0; a < 3 && near; a++) {
        const half = s * box[a + 3]! + edge;
        near = lo[3 * c + a]! <= centre[a]! + half && hi[3 * c + a]! >= centre[a]! - half;
      }
      if (!near) continue;
      for (let v = 0; v < 3; v++)
        for (let a = 0; a < 3; a++) out[9 * k + 3 * v + a] = box[a]! + (positions[3 * indices[3 * c + v]! + a]! - centre[a]!) / s;
      k++;
    }
  }
  return soup(out, count);
}
