import { Random } from '../../../src/math/random';

/**
 * Heightfield meshes for the capsule tests: a grid over x and z (columns and rows at given, possibly
 * uneven, coordinates), y = height, each cell split along the same diagonal as the terrain generator
 * (a, c, b and b, c, d: counter-clockwise seen from +y). Being heightfields, they have a front (above)
 * from which the edge masks are exact, and `heightAt` tells whether a point is above.
 */
export interface Heightfield {
  name: string;
  positions: Float32Array;
  indices: Uint32Array;
  xs: Float64Array;
  zs: Float64Array;
  heights: Float32Array;
}

export function heightfield(name: string, xs: number[], zs: number[], height: (i: number, j: number, x: number, z: number) => number): Heightfield {
  const side = xs.length;
  const positions = new Float32Array(3 * xs.length * zs.length);
  const heights = new Float32Array(xs.length * zs.length);
  for (let j = 0; j < zs.length; j++) {
    for (let i = 0; i < side; i++) {
      const v = j * side + i;
      positions[3 * v] = xs[i]!;
      positions[3 * v + 1] = heights[v] = height(i, j, xs[i]!, zs[j]!);
      positions[3 * v + 2] = zs[j]!;
    }
  }
  const indices: number[] = [];
  for (let j = 0; j + 1 < zs.length; j++) {
    for (let i = 0; i + 1 < side; i++) {
      const a = j * side + i,
        b = a + 1,
        c = a + side,
        d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  // Coordinates as the mesh stores them (float32), so heightAt matches the triangles.
  return {
    name,
    positions,
    indices: Uint32Array.from(indices),
    xs: Float64Array.from(xs, Math.fround),
    zs: Float64Array.from(zs, Math.fround),
    heights,
  };
}

/** Height of the triangulated surface at (x, z) inside the grid; NaN outside. */
export function heightAt(field: Heightfield, x: number, z: number): number {
  const { xs, zs, heights } = field;
  const i = cellOf(xs, x);
  const j = cellOf(zs, z);
  if (i < 0 || j < 0) return NaN;
  const u = (x - xs[i]!) / (xs[i + 1]! - xs[i]!);
  const v = (z - zs[j]!) / (zs[j + 1]! - zs[j]!);
  const side = xs.length;
  const ha = heights[j * side + i]!,
    hb = heights[j * side + i + 1]!,
    hc = heights[(j + 1) * side + i]!,
    hd = heights[(j + 1) * side + i + 1]!;
  return u + v <= 1 ? ha + u * (hb - ha) + v * (hc - ha) : hd + (1 - u) * (hc - hd) + (1 - v) * (hb - hd);
}

function cellOf(coordinates: Float64Array, x: number): number {
  if (!(x >= coordinates[0]! && x <= coordinates[coordinates.length - 1]!)) return -1;
  let lo = 0,
    hi = coordinates.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (coordinates[mid]! <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

const range = (n: number, step = 1, start = 0): number[] => Array.from({ length: n }, (_, k) => start + k * step);

/** Knife-edge ridges and valleys 3 units high on every other grid line, plus diagonal creases. */
export function sharpRidges(): Heightfield {
  return heightfield('sharp ridges', range(25, 1, -12), range(25, 1, -12), (i, j) => (i % 2) * 3 + ((i + j) % 4 === 0 ? 1.5 : 0));
}

/** Piecewise planes: a tilted plane with terraces, so most shared edges are exactly coplanar pairs. */
export function coplanarTerraces(): Heightfield {
  return heightfield('coplanar terraces', range(25, 1, -12), range(25, 1, -12), (i, j) => 0.5 * i + Math.min(Math.max(j - 8, 0), 6) * 0.75);
}

/** Columns and rows alternately 1 and 0.001 apart with random heights: needle-thin slivers everywhere. */
export function needles(seed: number): Heightfield {
  const random = new Random(seed);
  const coordinates = (n: number): number[] => {
    const out: number[] = [-12];
    for (let k = 1; k < n; k++) out.push(out[k - 1]! + (k % 2 === 0 ? 0.001 : 1.6));
    return out;
  };
  const xs = coordinates(31);
  const zs = coordinates(31);
  const heights = xs.map(() => zs.map(() => random.range(-1, 1)));
  return heightfield('needles', xs, zs, (i, j) => heights[i]![j]!);
}

/** A flat floor with isolated vertices raised 6 units: thin spikes. */
export function spikes(seed: number): Heightfield {
  const random = new Random(seed);
  const raised = new Set<number>();
  for (let k = 0; k < 40; k++) raised.add(random.int(23) + 1 + 25 * (random.int(23) + 1));
  return heightfield('spikes', range(25, 1, -12), range(25, 1, -12), (i, j) => (raised.has(i + 25 * j) ? 6 : 0));
}

/** The plane y = 0 on an integer grid. */
export function flatPlane(): Heightfield {
  return heightfield('flat plane', range(25, 1, -12), range(25, 1, -12), () => 0);
}
