import { CHILD_INDEX_MASK, CHILD_TYPE_EMPTY, CHILD_TYPE_NODE, childIndex, childLeafCount, childType, nodeMaskIndexAt } from '../../bvh/childWord';
import type { CollisionMasks } from '../../bvh/collisionMasks';
import { RAY_NODE_CHILD_MASKS, RAY_NODE_RECORD_BYTES, RAY_NODE_WORDS } from '../../bvh/layoutSpec';
import { decodeFrames } from '../../bvh/nodeRecords';
import { QUANT_STEP_SCALE } from '../../bvh/quantize';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from '../../bvh/quantizedLayout';

/**
 * The quantized 4-way nodes as the ray kernel reads them: one 128-byte record per node (two cache
 * lines the hardware fetches as a pair), its four child boxes already decoded into world planes, so a
 * node's box test is (plane − origin) · (1/d) with no dequantizing on the way:
 *
 *   bytes  0..95   six f32x4 rows minX, minY, minZ, maxX, maxY, maxZ, one lane per child slot
 *   bytes 96..111  4 × u32 child words, as in the quantized node (src/bvh/childWord.ts), except that a
 *                  leaf's index is its first group of four triangles (rayLeafGroups.ts)
 *   bytes 112..127 4 × u32 the children's collision masks (collisionMasks.ts): a node child's combined
 *                  mask (nodeMasks at its mask index), a leaf's the union of its triangles' masks, an
 *                  empty slot's 0; a filtered cast drops a child whose mask misses its filter
 *
 * Each plane is the float64 decode the TypeScript walk makes (frameMin + q · step, decodeFrames),
 * rounded outward to float32 (mins down, maxes up), so a record's box contains the walk's box and the
 * kernel's float32 slack covers only its own arithmetic. An empty slot is the inverted box
 * (mins +∞, maxes −∞), which no ray enters: its entry is +∞ and its exit −∞ or NaN on every axis.
 */
export { RAY_NODE_RECORD_BYTES } from '../../bvh/layoutSpec';
const RECORD_FLOATS = RAY_NODE_RECORD_BYTES / 4;
const WORDS_OFFSET_U32 = RAY_NODE_WORDS / 4;
const MASKS_OFFSET_U32 = RAY_NODE_CHILD_MASKS / 4;

const float32 = new Float32Array(1);
const bits32 = new Int32Array(float32.buffer);

/** The largest float32 ≤ x (x finite). */
function float32Down(x: number): number {
  const rounded = Math.fround(x);
  if (rounded <= x) return rounded;
  float32[0] = rounded;
  // One ulp towards −∞: the bit pattern moves away from zero for negatives, towards it for positives.
  bits32[0] = rounded > 0 ? bits32[0]! - 1 : rounded < 0 ? bits32[0]! + 1 : 0x80000001 | 0;
  return float32[0];
}

/** The smallest float32 ≥ x (x finite). */
const float32Up = (x: number): number => -float32Down(-x);

/**
 * groupAt: the first triangle group of each leaf, by its first reference (rayLeafGroups.ts); masks and
 * triangleOrder: the BVH's, for the children's collision masks.
 */
export function writeRayNodeRecords(
  nodes: QuantizedNodes,
  buffer: ArrayBufferLike,
  start: number,
  groupAt: Int32Array,
  masks: CollisionMasks,
  triangleOrder: Uint32Array | null,
): void {
  const count = nodes.nodeCount;
  const records = new Float32Array(buffer, start, RECORD_FLOATS * count);
  const words = new Uint32Array(buffer, start, RECORD_FLOATS * count);
  const frames = decodeFrames(nodes);
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  for (let node = 0; node < count; node++) {
    const f = 6 * node;
    const b = QUANTIZED_NODE_U16 * node;
    const o = RECORD_FLOATS * node;
    for (let slot = 0; slot < 4; slot++) {
      const word = u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + slot]!;
      words[o + WORDS_OFFSET_U32 + slot] = childLeafCount(word) > 0 ? ((word & ~CHILD_INDEX_MASK) | groupAt[childIndex(word)]!) >>> 0 : word;
      words[o + MASKS_OFFSET_U32 + slot] = childMask(nodes, masks, triangleOrder, word);
      const empty = childType(word) === CHILD_TYPE_EMPTY;
      for (let axis = 0; axis < 3; axis++) {
        const min = frames[f + axis]!,
          step = frames[f + 3 + axis]!;
        records[o + 4 * axis + slot] = empty ? Infinity : float32Down(min + u16[b + 4 * axis + slot]! * step);
        records[o + 12 + 4 * axis + slot] = empty ? -Infinity : float32Up(min + u16[b + 12 + 4 * axis + slot]! * step);
      }
    }
  }
}

/** The combined collision mask of the child whose word is `word`: 0 for an empty slot. */
function childMask(nodes: QuantizedNodes, masks: CollisionMasks, triangleOrder: Uint32Array | null, word: number): number {
  if (childType(word) === CHILD_TYPE_NODE)
    return masks.nodeMasks[nodeMaskIndexAt(nodes.u32, QUANTIZED_NODE_U32 * childIndex(word) + QUANTIZED_WORDS_U32)]!;
  const first = childIndex(word);
  const end = first + childLeafCount(word);
  let union = 0;
  for (let k = first; k < end; k++) union |= masks.materialMasks[masks.materialIds[triangleOrder === null ? k : triangleOrder[k]!]!]!;
  return union >>> 0;
}

/**
 * Rewrites the child planes of `count` nodes of records already written by writeRayNodeRecords, after a
 * refit re-encoded them (child words and masks do not change). `frames` holds every node's frame as
 * min xyz, max xyz (GeometryChange.frames), from which the planes decode exactly as decodeFrames gives.
 */
export function rewriteRayNodePlanes(
  nodes: QuantizedNodes,
  buffer: ArrayBuffer,
  start: number,
  frames: Float64Array,
  list: Int32Array,
  count: number,
): void {
  const records = new Float32Array(buffer, start, RECORD_FLOATS * nodes.nodeCount);
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  for (let i = 0; i < count; i++) {
    const node = list[i]!;
    const f = 6 * node;
    const b = QUANTIZED_NODE_U16 * node;
    const o = RECORD_FLOATS * node;
    for (let slot = 0; slot < 4; slot++) {
      if (childType(u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + slot]!) === CHILD_TYPE_EMPTY) continue;
      for (let axis = 0; axis < 3; axis++) {
        const min = frames[f + axis]!;
        const step = (frames[f + 3 + axis]! - min) * QUANT_STEP_SCALE;
        records[o + 4 * axis + slot] = float32Down(min + u16[b + 4 * axis + slot]! * step);
        records[o + 12 + 4 * axis + slot] = float32Up(min + u16[b + 12 + 4 * axis + slot]! * step);
      }
    }
  }
}
