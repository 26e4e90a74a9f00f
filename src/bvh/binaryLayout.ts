import { ColliderscopeError } from '../errors';
import type { BuildTree } from './buildTree';
import { float32Above, float32Below } from './float32Round';
import { binaryOctantCode, splitAxisCode } from './octantOrder';
import { QUANT_MAX, frameIsSafe, quantizationStep, quantizeDown, quantizeUp } from './quantize';

/**
 * The binary tree of the SAH builder packed for ray queries, beside the 4-way layouts. Every node holds
 * its own box (the traversal tests a node when it pops it, as in the write-up's stack loop), the two
 * children of a node are siblings in memory (left at c, right at c + 1, so a node stores one index),
 * laid out depth first. Node 0 is the root; node 1 is padding so that every sibling pair starts at an
 * even index and shares a cache line.
 *
 * Link word of node n (both layouts):
 *   inner node: bit 31 clear, bits 0..30 = c, the index of the left child (right = c + 1)
 *   leaf:       bit 31 set, bits 27..30 = triangle count (1..14), bits 0..26 = first entry of the
 *               leaf's range in triangleOrder
 *
 * Order codes of node n (a 16-bit value): bits 0..7 the precomputed order, bits 8..15 the split-axis
 * order. Bit o of each byte is set when, for rays whose direction lies in octant o (octantOf), the
 * right child should be visited first. A leaf's codes are 0.
 *
 * Float layout, 32 bytes per node (8 words): f32[8n .. 8n+5] = minX, minY, minZ, maxX, maxY, maxZ
 * rounded outward to float32; u32[8n + 6] = link word; u32[8n + 7] = order codes.
 *
 * Quantized layout, 16 bytes per node (8 × uint16): u16[8n .. 8n+5] = the six bounds as 16-bit steps of
 * one frame for the whole tree (the root box): value(q) = frameMin + q·step, the same float64
 * expression as the 4-way packer (quantize.ts), mins rounded down and maxes up; u32[4n + 3] = link word.
 * The order codes do not fit and live in `codes` (u16 per node).
 */
export const BINARY_FLOAT_NODE_WORDS = 8;
export const BINARY_FLOAT_LINK = 6;
export const BINARY_FLOAT_CODES = 7;
export const BINARY_QUANTIZED_NODE_U16 = 8;
export const BINARY_QUANTIZED_LINK_U32 = 3;
export const BINARY_LEAF_BIT = 0x80000000;
export const BINARY_LEAF_START_MASK = 0x7ffffff;
/** Most references a binary leaf can start at (27 bits). */
export const BINARY_MAX_REFERENCES = BINARY_LEAF_START_MASK + 1;

export interface BinaryNodes {
  readonly nodeCount: number;
  readonly f32: Float32Array;
  readonly floatU32: Uint32Array;
  readonly u16: Uint16Array;
  readonly quantizedU32: Uint32Array;
  /** Order codes per node (see above); the float layout also holds them in its nodes. */
  readonly codes: Uint16Array;
  /** min xyz then step xyz of the quantized layout's single frame. */
  readonly frame: Float64Array;
  /** Depth of the deepest node, root 0: a single-ray stack needs maxDepth + 1 entries. */
  readonly maxDepth: number;
  readonly floatBytes: number;
  readonly quantizedBytes: number;
}

export const isBinaryLeaf = (link: number): boolean => (link & BINARY_LEAF_BIT) !== 0;
export const binaryLeafStart = (link: number): number => link & BINARY_LEAF_START_MASK;
export const binaryLeafCount = (link: number): number => (link >>> 27) & 15;
export const binaryLeftChild = (link: number): number => link;
/** Link word of a float node n. */
export const binaryFloatLink = (nodes: BinaryNodes, n: number): number => nodes.floatU32[BINARY_FLOAT_NODE_WORDS * n + BINARY_FLOAT_LINK]!;

/** Widens an axis of the frame until 65535 steps are sure to reach its max despite rounding. */
function safeFrameAxis(min: number, max: number): [number, number] {
  let grow = Math.max(max - min, 2 ** -20 * (Math.abs(min) + Math.abs(max)), Number.MIN_VALUE);
  while (!frameIsSafe(min, max)) {
    min -= grow;
    max += grow;
    grow *= 2;
  }
  return [min, max];
}

export function packBinary(tree: BuildTree): BinaryNodes {
  if (tree.referenceCount > BINARY_MAX_REFERENCES)
    throw new ColliderscopeError(`binary layout: ${tree.referenceCount} references exceed ${BINARY_MAX_REFERENCES}`);
  const treeNodes = tree.nodeCount;
  // The root, the padding node, and two per inner node of the tree.
  const nodeCount = treeNodes === 0 ? 0 : treeNodes + 1;
  const floatBuffer = new ArrayBuffer(4 * BINARY_FLOAT_NODE_WORDS * nodeCount);
  const f32 = new Float32Array(floatBuffer);
  const floatU32 = new Uint32Array(floatBuffer);
  const quantizedBuffer = new ArrayBuffer(2 * BINARY_QUANTIZED_NODE_U16 * nodeCount);
  const u16 = new Uint16Array(quantizedBuffer);
  const quantizedU32 = new Uint32Array(quantizedBuffer);
  const codes = new Uint16Array(nodeCount);
  const frame = new Float64Array(6);
  const { bounds, left, right, leafStart, leafCount } = tree;
  let maxDepth = 0;

  if (nodeCount > 0) {
    for (let k = 0; k < 3; k++) {
      const [min, max] = safeFrameAxis(bounds[k]!, bounds[3 + k]!);
      frame[k] = min;
      frame[3 + k] = quantizationStep(min, max);
    }
    // The padding node: an empty box no ray can enter.
    for (let k = 0; k < 3; k++) {
      f32[BINARY_FLOAT_NODE_WORDS + k] = Infinity;
      f32[BINARY_FLOAT_NODE_WORDS + 3 + k] = -Infinity;
      u16[BINARY_QUANTIZED_NODE_U16 + k] = QUANT_MAX;
      u16[BINARY_QUANTIZED_NODE_U16 + 3 + k] = 0;
    }
    floatU32[BINARY_FLOAT_NODE_WORDS + BINARY_FLOAT_LINK] = BINARY_LEAF_BIT;
    quantizedU32[4 + BINARY_QUANTIZED_LINK_U32] = BINARY_LEAF_BIT;

    // Depth-first: a node's children get the next free pair, then its left subtree is laid out before
    // its right one, so a subtree's nodes stay together.
    let next = 2;
    const stack: number[] = [0, 0, 0];
    while (stack.length > 0) {
      const depth = stack.pop()!;
      const at = stack.pop()!;
      const node = stack.pop()!;
      if (depth > maxDepth) maxDepth = depth;
      const o = 6 * node;
      const f = BINARY_FLOAT_NODE_WORDS * at;
      const q = BINARY_QUANTIZED_NODE_U16 * at;
      for (let k = 0; k < 3; k++) {
        const lo = bounds[o + k]!;
        const hi = bounds[o + 3 + k]!;
        f32[f + k] = float32Below(lo);
        f32[f + 3 + k] = float32Above(hi);
        const min = frame[k]!;
        const step = frame[3 + k]!;
        const qMin = quantizeDown(lo, min, step);
        const qMax = quantizeUp(hi, min, step);
        if (!(min + qMin * step <= lo && min + qMax * step >= hi)) {
          throw new ColliderscopeError(`internal: quantized box of binary node ${at} does not contain its node on axis ${k}`);
        }
        u16[q + k] = qMin;
        u16[q + 3 + k] = qMax;
      }
      let link: number;
      if (left[node]! < 0) {
        link = (BINARY_LEAF_BIT | (leafCount[node]! << 27) | leafStart[node]!) >>> 0;
      } else {
        const c = next;
        next += 2;
        link = c;
        const l = 6 * left[node]!;
        const r = 6 * right[node]!;
        const code =
          binaryOctantCode(
            bounds[l]!,
            bounds[l + 1]!,
            bounds[l + 2]!,
            bounds[l + 3]!,
            bounds[l + 4]!,
            bounds[l + 5]!,
            bounds[r]!,
            bounds[r + 1]!,
            bounds[r + 2]!,
            bounds[r + 3]!,
            bounds[r + 4]!,
            bounds[r + 5]!,
          ) |
          (splitAxisCode(
            bounds[l]!,
            bounds[l + 1]!,
            bounds[l + 2]!,
            bounds[l + 3]!,
            bounds[l + 4]!,
            bounds[l + 5]!,
            bounds[r]!,
            bounds[r + 1]!,
            bounds[r + 2]!,
            bounds[r + 3]!,
            bounds[r + 4]!,
            bounds[r + 5]!,
          ) <<
            8);
        codes[at] = code;
        stack.push(right[node]!, c + 1, depth + 1, left[node]!, c, depth + 1);
      }
      floatU32[f + BINARY_FLOAT_LINK] = link;
      floatU32[f + BINARY_FLOAT_CODES] = codes[at]!;
      quantizedU32[4 * at + BINARY_QUANTIZED_LINK_U32] = link;
    }
    if (next !== nodeCount) throw new ColliderscopeError(`internal: binary layout used ${next} of ${nodeCount} nodes`);
  }
  return {
    nodeCount,
    f32,
    floatU32,
    u16,
    quantizedU32,
    codes,
    frame,
    maxDepth,
    floatBytes: floatBuffer.byteLength,
    quantizedBytes: quantizedBuffer.byteLength + codes.byteLength,
  };
}
