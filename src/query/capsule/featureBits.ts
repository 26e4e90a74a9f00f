/**
 * The 21 feature pairs of a capsule (two spheres and a cylinder) against a triangle (vertex i, edge i
 * from vertex i to vertex i+1, face), one bit each in a 21-bit word, seven per capsule part:
 *
 *   bits 0..2   sphere 0 (start end) – vertex 0, 1, 2      bits 7..13  the same for sphere 1 (end)
 *   bits 3..5   sphere 0 – edge 0, 1, 2                    bits 14..16 cylinder – vertex 0, 1, 2
 *   bit  6      sphere 0 – face                            bits 17..19 cylinder – edge 0, 1, 2
 *                                                          bit  20     cylinder – face (only a start
 *                                                                      with the axis through the face)
 */
export const PAIRS_PER_TRIANGLE = 21;
export const PART_BITS = 7;
export const SPHERE0_SHIFT = 0;
export const SPHERE1_SHIFT = 7;
export const CYLINDER_SHIFT = 14;
export const VERTEX_BITS = 0b0000111;
export const EDGE_BITS = 0b0111000;
export const FACE_BIT = 0b1000000;
export const ALL_PAIRS = (1 << PAIRS_PER_TRIANGLE) - 1;
/** The three face bits: dropped together for a zero-area triangle. */
export const FACE_BITS = (FACE_BIT << SPHERE0_SHIFT) | (FACE_BIT << SPHERE1_SHIFT) | (FACE_BIT << CYLINDER_SHIFT);

/**
 * The quick cull's micro look-up table. Index: band | halfPlane << 3, where for one capsule part seen
 * along the motion, bit i of `band` says the part's 2D shadow reaches the line of edge i and bit i of
 * `halfPlane` says it reaches the triangle's side of that line. Value: the part's 7 pair bits.
 *   - an edge can be touched only if the shadow reaches its line and both neighbours' inner half-planes
 *     (the edge segment lies in both);
 *   - a vertex only if the shadow reaches both lines through it;
 *   - the face only if the shadow reaches all three inner half-planes.
 */
export const PART_LUT: Uint8Array = (() => {
  const lut = new Uint8Array(64);
  const rotate1 = (x: number): number => ((x >> 1) | (x << 2)) & 7; // bit i ← bit i+1
  const rotate2 = (x: number): number => ((x >> 2) | (x << 1)) & 7; // bit i ← bit i+2
  for (let band = 0; band < 8; band++) {
    for (let half = 0; half < 8; half++) {
      const meets = band | half;
      const edges = band & rotate1(meets) & rotate2(meets);
      const vertices = band & rotate2(band); // vertex i lies on edge i and edge i−1
      const face = meets === 7 ? 1 : 0;
      lut[band | (half << 3)] = vertices | (edges << 3) | (face << 6);
    }
  }
  return lut;
})();

/** Per-triangle edge mask byte (see edgeMasks.ts) → the 21-bit word of pairs it allows. */
export const MASK_TO_PAIRS: Int32Array = (() => {
  const table = new Int32Array(64);
  for (let mask = 0; mask < 64; mask++) {
    const part = ((mask >> 3) & 7) | ((mask & 7) << 3) | FACE_BIT;
    table[mask] = part | (part << SPHERE1_SHIFT) | (part << CYLINDER_SHIFT);
  }
  return table;
})();

export function popCount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
