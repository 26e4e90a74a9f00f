import type { BuildTree } from './buildTree';
import { CHILD_TYPE_EMPTY, CHILD_TYPE_NODE, encodeChildWord, leafType } from './childWord';
import { float32Above, float32Below } from './float32Round';
import { CHILD_LEAF, CHILD_NODE, type WideTree } from './wideTree';

/**
 * The float32 4-wide node (112 bytes), for comparison with the quantized one. Node n is 28 words:
 *   f32[28n + 4b + s]   bound b of slot s (b = 0 minX, 1 minY, 2 minZ, 3 maxX, 4 maxY, 5 maxZ),
 *                       rounded outward from the builder's float64 boxes; an empty slot holds
 *                       min = +∞, max = −∞
 *   u32[28n + 24 + s]   child word of slot s (childWord.ts), exactly as in the quantized layout
 * No frames: boxes are absolute, so shared nodes need nothing special.
 */
export const FLOAT_NODE_WORDS = 28;
export const FLOAT_WORDS_OFFSET = 24;

export interface FloatNodes {
  readonly layout: 'float';
  readonly nodeCount: number;
  readonly buffer: ArrayBuffer;
  readonly f32: Float32Array;
  readonly u32: Uint32Array;
  readonly bytes: number;
}

export const floatBound = (f32: Float32Array, node: number, bound: number, slot: number): number => f32[FLOAT_NODE_WORDS * node + 4 * bound + slot]!;
export const floatChildWord = (u32: Uint32Array, node: number, slot: number): number => u32[FLOAT_NODE_WORDS * node + FLOAT_WORDS_OFFSET + slot]!;

export function packFloat(wide: WideTree, tree: BuildTree, nodeMaskIndex: Uint8Array): FloatNodes {
  const nodeCount = wide.nodeCount;
  const buffer = new ArrayBuffer(4 * FLOAT_NODE_WORDS * nodeCount);
  const f32 = new Float32Array(buffer);
  const u32 = new Uint32Array(buffer);
  for (let node = 0; node < nodeCount; node++) {
    const base = FLOAT_NODE_WORDS * node;
    for (let s = 0; s < 4; s++) {
      const slot = 4 * node + s;
      const kind = wide.kind[slot]!;
      if (kind !== CHILD_NODE && kind !== CHILD_LEAF) {
        for (let k = 0; k < 3; k++) {
          f32[base + 4 * k + s] = Infinity;
          f32[base + 4 * (k + 3) + s] = -Infinity;
        }
        u32[base + FLOAT_WORDS_OFFSET + s] = encodeChildWord(0, CHILD_TYPE_EMPTY, s, nodeMaskIndex[node]!);
        continue;
      }
      const source = 6 * wide.source[slot]!;
      for (let k = 0; k < 3; k++) {
        f32[base + 4 * k + s] = float32Below(tree.bounds[source + k]!);
        f32[base + 4 * (k + 3) + s] = float32Above(tree.bounds[source + 3 + k]!);
      }
      const ref = wide.ref[slot]!;
      u32[base + FLOAT_WORDS_OFFSET + s] =
        kind === CHILD_NODE
          ? encodeChildWord(ref, CHILD_TYPE_NODE, s, nodeMaskIndex[node]!)
          : encodeChildWord(tree.leafStart[ref]!, leafType(tree.leafCount[ref]!), s, nodeMaskIndex[node]!);
    }
  }
  return { layout: 'float', nodeCount, buffer, f32, u32, bytes: buffer.byteLength };
}
