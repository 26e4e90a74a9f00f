// The quick cull's look-up tables and the pair bits of the 21 feature pairs, as in
// src/query/capsule/featureBits.ts (which documents the layout).

export const SPHERE1_SHIFT: i32 = 7;
export const CYLINDER_SHIFT: i32 = 14;
export const FACE_BIT: i32 = 0b1000000;
export const ALL_PAIRS: i32 = (1 << 21) - 1;
export const FACE_BITS: i32 = (FACE_BIT << 0) | (FACE_BIT << SPHERE1_SHIFT) | (FACE_BIT << CYLINDER_SHIFT);

// The tables are static data written with their final bytes (generated from featureBits.ts): every
// shared-memory instance writes its data segments into the one memory as it starts, so tables filled by
// start-up code would read as zeros to the threads sweeping meanwhile.
export { MASK_TO_PAIRS, PART_LUT } from '../generated/capsuleTables';

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
