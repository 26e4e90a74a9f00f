import { CHILD_INDEX_MASK } from './layoutSpec';

/**
 * One 32-bit word per child slot, shared by both packed layouts:
 *   bits 0..23  index: a node index (type 0) or the first entry of the leaf's range in triangleOrder
 *   bits 24..27 type: 0 node, 1 empty, 2..15 a leaf range of (type − 1) triangles
 *   bits 28..31 a nibble of the node's mask index byte (slot 0: low nibble, slot 1: high nibble;
 *               slots 2 and 3: zero): the entry of CollisionMasks.nodeMasks holding the union of the
 *               masks of every triangle below the node (collisionMasks.ts)
 * Node = 0 and empty = 1 as in the talk, so `type − 1` is negative only for a node.
 */
export { CHILD_INDEX_MASK, CHILD_TYPE_EMPTY, CHILD_TYPE_NODE } from './layoutSpec';
/** Type of a leaf range holding `count` triangles (1..14). */
export const leafType = (count: number): number => count + 1;

export function encodeChildWord(index: number, type: number, slot: number, maskIndex: number): number {
  const nibble = slot === 0 ? maskIndex & 15 : slot === 1 ? maskIndex >>> 4 : 0;
  return ((index & CHILD_INDEX_MASK) | (type << 24) | (nibble << 28)) >>> 0;
}

export const childIndex = (word: number): number => word & CHILD_INDEX_MASK;
export const childType = (word: number): number => (word >>> 24) & 15;
/** Triangles in a leaf child (0 for node and empty children). */
export const childLeafCount = (word: number): number => {
  const type = (word >>> 24) & 15;
  return type > 1 ? type - 1 : 0;
};
/** The mask index byte of a node, from its first two child words. */
export const nodeMaskIndexOf = (word0: number, word1: number): number => (word0 >>> 28) | ((word1 >>> 28) << 4);
/** The mask index byte of the node whose child words start at u32[wordBase]. */
export const nodeMaskIndexAt = (u32: Uint32Array, wordBase: number): number => (u32[wordBase]! >>> 28) | ((u32[wordBase + 1]! >>> 28) << 4);
