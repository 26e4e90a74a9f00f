// The quick cull's look-up tables and the pair bits of the 21 feature pairs, as in
// src/query/capsule/featureBits.ts (which documents the layout): built once when the module starts.

export const SPHERE1_SHIFT: i32 = 7;
export const CYLINDER_SHIFT: i32 = 14;
export const FACE_BIT: i32 = 0b1000000;
export const ALL_PAIRS: i32 = (1 << 21) - 1;
export const FACE_BITS: i32 = (FACE_BIT << 0) | (FACE_BIT << SPHERE1_SHIFT) | (FACE_BIT << CYLINDER_SHIFT);

/** band | halfPlane << 3 → the 7 pair bits of one capsule part (PART_LUT). */
export const PART_LUT: usize = memory.data(64);
/** Edge mask byte → the 21-bit word of pairs it allows (MASK_TO_PAIRS). */
export const MASK_TO_PAIRS: usize = memory.data(256, 16);

function rotate1(x: i32): i32 {
  return ((x >> 1) | (x << 2)) & 7; // bit i ← bit i+1
}
function rotate2(x: i32): i32 {
  return ((x >> 2) | (x << 1)) & 7; // bit i ← bit i+2
}

let band = 0;
do {
  let half = 0;
  do {
    const meets = band | half;
    const edges = band & rotate1(meets) & rotate2(meets);
    const vertices = band & rotate2(band);
    const face = meets == 7 ? 1 : 0;
    store<u8>(PART_LUT + <usize>(band | (half << 3)), <u8>(vertices | (edges << 3) | (face << 6)));
  } while (++half < 8);
} while (++band < 8);

let mask = 0;
do {
  const part = ((mask >> 3) & 7) | ((mask & 7) << 3) | FACE_BIT;
  store<i32>(MASK_TO_PAIRS + <usize>(4 * mask), part | (part << SPHERE1_SHIFT) | (part << CYLINDER_SHIFT));
} while (++mask < 64);

// The pair types in the order the TypeScript sweep drains its queues (featureTests.ts: drainQueues),
// each with its bits in the 21-bit word. Within a type, pairs are tested triangle by triangle and bit
// by bit upwards, which is the order the TypeScript queues hold them in.
export const SPHERE_VERTEX: i32 = 0;
export const SPHERE_EDGE: i32 = 1;
export const SPHERE_FACE: i32 = 2;
export const CYLINDER_VERTEX: i32 = 3;
export const CYLINDER_EDGE: i32 = 4;
export const CYLINDER_FACE: i32 = 5;
export const SPHERE_VERTEX_BITS: i32 = 0b111 | (0b111 << SPHERE1_SHIFT);
export const SPHERE_EDGE_BITS: i32 = 0b111000 | (0b111000 << SPHERE1_SHIFT);
export const SPHERE_FACE_BITS: i32 = FACE_BIT | (FACE_BIT << SPHERE1_SHIFT);
export const CYLINDER_VERTEX_BITS: i32 = 0b111 << CYLINDER_SHIFT;
export const CYLINDER_EDGE_BITS: i32 = 0b111000 << CYLINDER_SHIFT;
export const CYLINDER_FACE_BITS: i32 = FACE_BIT << CYLINDER_SHIFT;
