/**
 * The numbers of the packed layouts, defined once for both languages. The TypeScript code takes them
 * from here (childWord.ts, quantize.ts, quantizedLayout.ts, nodeRecords.ts, and the kernels' wrappers),
 * and tools/generate-layout.ts writes every constant of LAYOUT_TYPES as an AssemblyScript constant of
 * that type into src/platform/assembly/generated/layout.ts (git-ignored; `npm run build:wasm` writes it
 * before compiling), which the kernels import, so the two sides cannot drift apart
 * (tests/unit/bvh/layoutSpec.test.ts compares them). Plain numbers only: this file imports nothing.
 */

// Child words (childWord.ts): 24-bit index, 4-bit type, a nibble of the node's mask index byte.
export const CHILD_INDEX_MASK = 0xffffff;
export const CHILD_TYPE_SHIFT = 24;
/** The type field after the shift: (word >>> CHILD_TYPE_SHIFT) & CHILD_TYPE_BITS. */
export const CHILD_TYPE_BITS = 15;
export const CHILD_TYPE_NODE = 0;
export const CHILD_TYPE_EMPTY = 1;
/** The mask index nibble of child words 0 (low) and 1 (high). */
export const CHILD_MASK_NIBBLE_SHIFT = 28;
/** Most triangles in a leaf range (types 2..15). */
export const LEAF_MAX_TRIANGLES = 14;

// The 64-byte quantized node (quantizedLayout.ts) and its 16-bit bounds (quantize.ts).
export const QUANTIZED_NODE_BYTES = 64;
/** Byte offset of the four child words in a quantized node. */
export const QUANTIZED_WORDS_BYTES = 48;
export const QUANT_MAX = 65535;
/** A hair above 1/65535 (quantize.ts). */
export const QUANT_STEP_SCALE = (1 + 2 ** -24) / QUANT_MAX;
/**
 * The root frame reaches this fraction of the tree's extent past its box on every side. Only the root's
 * four slots are quantized against it (a step of 1/65535 of the frame), so it costs no tightness, and a
 * refit whose content leaves the tree's box by less (a crater dug below the lowest point) keeps the
 * root frame, where a moved root frame re-encodes the whole tree. The full refit leaves the same.
 */
export const ROOT_FRAME_HEADROOM = 0.25;

// The capsule kernel's node record (nodeRecords.ts): the quantized node, then its frame as float32.
export const NODE_RECORD_BYTES = 128;
export const NODE_RECORD_FRAME_MIN = 64;
export const NODE_RECORD_FRAME_STEP = 80;

// The ray kernel's node record (src/query/rays/rayNodeRecords.ts): six f32x4 plane rows, child words,
// the four children's collision masks.
export const RAY_NODE_RECORD_BYTES = 128;
export const RAY_NODE_WORDS = 96;
export const RAY_NODE_CHILD_MASKS = 112;

// Triangles in groups of four, structure of arrays (rayLeafGroups.ts, the capsule kernel): nine f32x4
// rows ax, ay, az, bx, …, cz; corner c, axis a of lane k at 48c + 16a + 4k.
export const TRIANGLE_GROUP_BYTES = 144;
export const TRIANGLE_CORNER_BYTES = 48;
export const TRIANGLE_AXIS_BYTES = 16;

// The ray kernels' cast order (src/query/rays/rayOrder.ts): a 14-bit key per ray, at most 10 of its
// bits on one axis, and the header the kernel reads it by: frame min, max, cells per unit (f32x4
// each), last cell (i32x4), the y and z bit tables' offsets from the x table (i32 × 2), then the tables.
export const RAY_ORDER_KEYS = 16384;
export const RAY_ORDER_AXIS_BITS = 10;
export const RAY_ORDER_HEADER_BYTES = 80;

/** A kernel's traversal stack entry: entry distance (f32) and node index (i32). */
export const KERNEL_STACK_ENTRY_BYTES = 8;

/** The AssemblyScript type of every shared constant (each export above but this one). */
export const LAYOUT_TYPES = {
  CHILD_INDEX_MASK: 'u32',
  CHILD_TYPE_SHIFT: 'u32',
  CHILD_TYPE_BITS: 'u32',
  CHILD_TYPE_NODE: 'u32',
  CHILD_TYPE_EMPTY: 'u32',
  CHILD_MASK_NIBBLE_SHIFT: 'u32',
  LEAF_MAX_TRIANGLES: 'i32',
  QUANTIZED_NODE_BYTES: 'usize',
  QUANTIZED_WORDS_BYTES: 'usize',
  QUANT_MAX: 'i32',
  QUANT_STEP_SCALE: 'f64',
  ROOT_FRAME_HEADROOM: 'f64',
  NODE_RECORD_BYTES: 'usize',
  NODE_RECORD_FRAME_MIN: 'usize',
  NODE_RECORD_FRAME_STEP: 'usize',
  RAY_NODE_RECORD_BYTES: 'usize',
  RAY_NODE_WORDS: 'usize',
  RAY_NODE_CHILD_MASKS: 'usize',
  TRIANGLE_GROUP_BYTES: 'usize',
  TRIANGLE_CORNER_BYTES: 'usize',
  TRIANGLE_AXIS_BYTES: 'usize',
  KERNEL_STACK_ENTRY_BYTES: 'usize',
  RAY_ORDER_KEYS: 'usize',
  RAY_ORDER_AXIS_BITS: 'usize',
  RAY_ORDER_HEADER_BYTES: 'usize',
} as const;

export type LayoutName = keyof typeof LAYOUT_TYPES;
