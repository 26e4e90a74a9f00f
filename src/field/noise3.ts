import { Random } from '../math/random';

/**
 * The `noise` built-in: 3D gradient noise (Perlin's improved noise: quintic fade, twelve edge gradients
 * picked by a hashed lattice corner). Output lies in about [-1, 1] and is 0 on lattice points. The table
 * comes from a fixed seed so every program, back end and run sees the same field; every back end calls
 * this one function, so they agree bit for bit.
 */
const FIELD_NOISE_SEED = 0x5eed_f1e1;

/** The lattice hash: a shuffled 0…255, repeated once so `perm[i + 1]` never wraps. Read by the SIMD noise too. */
export const PERMUTATION = (() => {
  const random = new Random(FIELD_NOISE_SEED);
  const table = new Uint8Array(512);
  for (let i = 0; i < 256; i++) table[i] = i;
  for (let i = 255; i > 0; i--) {
    const j = random.int(i + 1);
    const swap = table[i]!;
    table[i] = table[j]!;
    table[j] = swap;
  }
  for (let i = 0; i < 256; i++) table[i + 256] = table[i]!;
  return table;
})();

/** Dot product of the gradient a hash picks (one of the cube's twelve edge midpoints) with (x, y, z). */
function gradientDot(hash: number, x: number, y: number, z: number): number {
  const h = hash & 15;
  const u = h < 8 ? x : y;
  const v = h < 4 ? y : h === 12 || h === 14 ? x : z;
  return ((h & 1) === 0 ? u : -u) + ((h & 2) === 0 ? v : -v);
}

function fade(t: number): number {
  return t * t * t * (t * (t * 6 - 15) + 10);
}

export function fieldNoise(x: number, y: number, z: number): number {
  // Non-finite input would index the table with NaN; the field is then undefined there, so say so.
  if (!(Math.abs(x) < 1e15 && Math.abs(y) < 1e15 && Math.abs(z) < 1e15)) return Number.NaN;
  const perm = PERMUTATION;
  const floorX = Math.floor(x);
  const floorY = Math.floor(y);
  const floorZ = Math.floor(z);
  const cx = floorX & 255;
  const cy = floorY & 255;
  const cz = floorZ & 255;
  const fx = x - floorX;
  const fy = y - floorY;
  const fz = z - floorZ;
  const u = fade(fx);
  const v = fade(fy);
  const w = fade(fz);

  const a = perm[cx]! + cy;
  const aa = perm[a]! + cz;
  const ab = perm[a + 1]! + cz;
  const b = perm[cx + 1]! + cy;
  const ba = perm[b]! + cz;
  const bb = perm[b + 1]! + cz;

  const x00 = lerp(u, gradientDot(perm[aa]!, fx, fy, fz), gradientDot(perm[ba]!, fx - 1, fy, fz));
  const x10 = lerp(u, gradientDot(perm[ab]!, fx, fy - 1, fz), gradientDot(perm[bb]!, fx - 1, fy - 1, fz));
  const x01 = lerp(u, gradientDot(perm[aa + 1]!, fx, fy, fz - 1), gradientDot(perm[ba + 1]!, fx - 1, fy, fz - 1));
  const x11 = lerp(u, gradientDot(perm[ab + 1]!, fx, fy - 1, fz - 1), gradientDot(perm[bb + 1]!, fx - 1, fy - 1, fz - 1));
  return lerp(w, lerp(v, x00, x10), lerp(v, x01, x11));
}

function lerp(t: number, a: number, b: number): number {
  return a + t * (b - a);
}
