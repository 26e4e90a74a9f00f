import type { BVH } from './buildBVH';
import { CHILD_INDEX_MASK } from './childWord';
import { FLOAT_NODE_WORDS, FLOAT_WORDS_OFFSET } from './floatLayout';
import { QUANT_STEP_SCALE } from './quantize';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, frameOf } from './quantizedLayout';

/**
 * Called once per non-empty child slot with its decoded box (exactly what a query tests), the depth of
 * the child (root's children are depth 1), whether it is a leaf range, and the node holding the slot.
 */
export type NodeBoxVisitor = (
  minX: number,
  minY: number,
  minZ: number,
  maxX: number,
  maxY: number,
  maxZ: number,
  depth: number,
  isLeaf: boolean,
  node: number,
  slot: number,
) => void;

/**
 * Walks every child box of the packed tree, each node once (a shared node under the first parent that
 * reaches it), for the overlay and for checks. Reads the quantized layout when built, else the float one.
 */
export function forEachNodeBox(
  bvh: BVH,
  visit: NodeBoxVisitor,
  layout: 'quantized' | 'float' = bvh.quantized !== null ? 'quantized' : 'float',
): void {
  const quantized = layout === 'quantized' ? bvh.quantized : null;
  const float = layout === 'float' ? bvh.float : null;
  const nodeCount = quantized?.nodeCount ?? float?.nodeCount ?? 0;
  if (nodeCount === 0) return;
  const seen = new Uint8Array(nodeCount);
  const ownFrame = new Float64Array(6);
  const stack: number[] = [0, 0];
  const frames: number[][] = [quantized !== null ? Array.from(quantized.rootFrame) : []];
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const node = stack.pop()!;
    const frame = frames.pop()!;
    if (seen[node]) continue;
    seen[node] = 1;
    for (let s = 0; s < 4; s++) {
      const box = [0, 0, 0, 0, 0, 0];
      let word: number;
      if (quantized !== null) {
        word = quantized.u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s]!;
        for (let k = 0; k < 3; k++) {
          const step = (frame[k + 3]! - frame[k]!) * QUANT_STEP_SCALE;
          box[k] = frame[k]! + quantized.u16[QUANTIZED_NODE_U16 * node + 4 * k + s]! * step;
          box[k + 3] = frame[k]! + quantized.u16[QUANTIZED_NODE_U16 * node + 4 * (k + 3) + s]! * step;
        }
      } else {
        word = float!.u32[FLOAT_NODE_WORDS * node + FLOAT_WORDS_OFFSET + s]!;
        for (let k = 0; k < 6; k++) box[k] = float!.f32[FLOAT_NODE_WORDS * node + 4 * k + s]!;
      }
      const type = (word >>> 24) & 15;
      if (type === 1) continue;
      visit(box[0]!, box[1]!, box[2]!, box[3]!, box[4]!, box[5]!, depth + 1, type > 1, node, s);
      if (type !== 0) continue;
      const child = word & CHILD_INDEX_MASK;
      let childFrame = box;
      if (quantized !== null && frameOf(quantized, child, ownFrame)) childFrame = Array.from(ownFrame);
      stack.push(child, depth + 1);
      frames.push(childFrame);
    }
  }
}

/** Child boxes in the overlay's format: 6 floats per box, its depth, and 1 for leaf ranges. */
export interface NodeBoxList {
  count: number;
  bounds: Float32Array;
  depth: Uint8Array;
  leaf: Uint8Array;
}

export function collectNodeBoxes(bvh: BVH, layout?: 'quantized' | 'float'): NodeBoxList {
  const boxes: number[] = [];
  const depths: number[] = [];
  const leaves: number[] = [];
  forEachNodeBox(
    bvh,
    (minX, minY, minZ, maxX, maxY, maxZ, depth, isLeaf) => {
      boxes.push(minX, minY, minZ, maxX, maxY, maxZ);
      depths.push(Math.min(255, depth));
      leaves.push(isLeaf ? 1 : 0);
    },
    layout,
  );
  return { count: depths.length, bounds: Float32Array.from(boxes), depth: Uint8Array.from(depths), leaf: Uint8Array.from(leaves) };
}
