import { Random } from '../math/random';

/**
 * Seeded 2D gradient noise (Perlin's improved noise: quintic fade, hashed lattice gradients).
 * Output lies in about [-1, 1] and is exactly 0 at lattice points. Only +, *, floor and table look-ups
 * are used, so the same seed gives bit-identical values on every run and every engine.
 */

const DIAGONAL = 0.7071067811865476;
/** Sixteen gradients: the eight compass directions, each twice, so a 4-bit hash picks one evenly. */
const GRADIENT_X = new Float64Array([1, -1, 0, 0, DIAGONAL, -DIAGONAL, DIAGONAL, -DIAGONAL, 1, -1, 0, 0, DIAGONAL, -DIAGONAL, DIAGONAL, -DIAGONAL]);
const GRADIENT_Y = new Float64Array([0, 0, 1, -1, DIAGONAL, DIAGONAL, -DIAGONAL, -DIAGONAL, 0, 0, 1, -1, DIAGONAL, DIAGONAL, -DIAGONAL, -DIAGONAL]);

export interface GradientNoise2D {
  readonly seed: number;
  /** The doubled permutation table: `permutation[i & 255]` and `permutation[(i & 255) + 256]` agree. */
  readonly permutation: Uint8Array;
}

export function createGradientNoise(seed: number): GradientNoise2D {
  const random = new Random(seed);
  const table = new Uint8Array(512);
  for (let i = 0; i < 256; i++) table[i] = i;
  for (let i = 255; i > 0; i--) {
    const j = random.int(i + 1);
    const swap = table[i]!;
    table[i] = table[j]!;
    table[j] = swap;
  }
  for (let i = 0; i < 256; i++) table[i + 256] = table[i]!;
  return { seed, permutation: table };
}

function fade(t: number): number {
  return t * t * t * (t * (t * 6 - 15) + 10);
}

/** Noise at (x, y). */
export function gradientNoise2D(noise: GradientNoise2D, x: number, y: number): number {
  const perm = noise.permutation;
  const floorX = Math.floor(x);
  const floorY = Math.floor(y);
  const cellX = floorX & 255;
  const cellY = floorY & 255;
  const fx = x - floorX;
  const fy = y - floorY;

  const row0 = perm[cellX]!;
  const row1 = perm[cellX + 1]!;
  const h00 = perm[row0 + cellY]! & 15;
  const h01 = perm[row0 + cellY + 1]! & 15;
  const h10 = perm[row1 + cellY]! & 15;
  const h11 = perm[row1 + cellY + 1]! & 15;

  const n00 = GRADIENT_X[h00]! * fx + GRADIENT_Y[h00]! * fy;
  const n10 = GRADIENT_X[h10]! * (fx - 1) + GRADIENT_Y[h10]! * fy;
  const n01 = GRADIENT_X[h01]! * fx + GRADIENT_Y[h01]! * (fy - 1);
  const n11 = GRADIENT_X[h11]! * (fx - 1) + GRADIENT_Y[h11]! * (fy - 1);

  const u = fade(fx);
  const v = fade(fy);
  const bottom = n00 + u * (n10 - n00);
  const top = n01 + u * (n11 - n01);
  // The raw range of 2D Perlin noise with unit gradients is ±√0.5; scale it to about ±1.
  return (bottom + v * (top - bottom)) * 1.4142135623730951;
}
