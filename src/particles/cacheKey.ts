import { bit } from './bit';
/**
 * Quantizing a (position, direction) query into a plane-cache key. Positions fall into cells that
 * are `cellSide` wide in x and z and `cellHeight` tall in y (terrain detail is mostly horizontal, so
 * cells can be taller than wide); directions collapse to the dominant axis and its sign.
 */

/** +x, −x, +y, −y, +z, −z. */
export const DIRECTION_CODES = 6;

/**
 * The code of entries that describe the surface in a cell whatever the direction a particle comes
 * from: a seventh value beside the six directions, so both kinds of entry can share one table.
 */
export const SURFACE_CODE = 6;

/**
 * What a cache entry is keyed by. 'trajectory': the cell a ray started from and its direction — "going
 * this way from here, you meet this plane" (the original scheme). 'surface': cells of the surface a ray
 * hit (the hit's own and those over the rest of its triangle, see SurfaceStores) and SURFACE_CODE —
 * "the surface here is this plane", found by any particle that gets there.
 */
export const CACHE_KEYINGS = ['surface', 'trajectory'] as const;
export type CacheKeying = (typeof CACHE_KEYINGS)[number];

/**
 * The dominant axis of a direction and its sign: 0/1 for ±x, 2/3 for ±y, 4/5 for ±z. Ties go to the
 * earlier axis; a zero vector gives 1 (−x) and NaN components give 5, so every input has a code.
 */
export function directionCode(dx: number, dy: number, dz: number): number {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  const az = Math.abs(dz);
  // Branch-free (0/1 integers): particles side by side travel every which way, so branches mispredict.
  const xDominant = bit(ax >= ay) & bit(ax >= az);
  const yDominant = (1 - xDominant) & bit(ay >= az);
  const zDominant = 1 - xDominant - yDominant;
  return xDominant * (1 - bit(dx > 0)) + yDominant * (3 - bit(dy > 0)) + zDominant * (5 - bit(dz > 0));
}

/**
 * The cell coordinate of `value` for cells of side 1/inverseSize. Floors (so cells on both sides of 0
 * have the same size) and wraps to 32 bits; NaN lands in cell 0.
 */
export function cellCoordinate(value: number, inverseSize: number): number {
  return Math.floor(value * inverseSize) | 0;
}

/** One block of murmur3's 32-bit body: the key word scrambled and folded into the running hash. */
function murmurRound(hash: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  let h = hash ^ k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/**
 * The 32-bit key of a cell and direction code: murmur3 over two words and its finaliser. The cell packs
 * into the words as (x, z) in 16 bits each and (y, direction) in 29 and 3, exact within ±32,768 cells
 * across (kilometres at the usual sizes) and wrapping beyond, where the table's exact compare absorbs
 * the collisions; two rounds instead of one per coordinate halve the chain of dependent multiplies.
 * Never 0 (the table's empty marker): a hash of 0 becomes 1.
 */
export function planeCacheKey(ix: number, iy: number, iz: number, direction: number): number {
  let h = murmurRound(0x9747b28c, (ix & 0xffff) | (iz << 16));
  h = murmurRound(h, (iy << 3) | (direction & 7));
  h ^= 8;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h === 0 ? 1 : h;
}
