import { InvalidParameterError } from '../errors';
import type { BVH } from './buildBVH';
import { CHILD_INDEX_MASK, CHILD_TYPE_NODE } from './childWord';
import { NODE_RECORD_BYTES, NODE_RECORD_FRAME_MIN, NODE_RECORD_FRAME_STEP } from './layoutSpec';
import { QUANT_STEP_SCALE } from './quantize';
import { QUANTIZED_NODE_BYTES, QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from './quantizedLayout';

/**
 * The quantized 4-way nodes as the capsule kernel reads them: one 128-byte record per node, two cache
 * lines the hardware fetches as a pair (the ray kernel's records, src/query/rays/rayNodeRecords.ts, hold
 * the child boxes already decoded; both start from decodeFrames and frameMagnitudes here, which is why
 * this layout lives with the BVH's own rather than beside either kernel):
 *
 *   bytes  0..63  the quantized node verbatim (src/bvh/quantizedLayout.ts)
 *   bytes 64..75  its frame's min xyz (f32), bytes 80..91 its step xyz (f32)
 *
 * so a walk's stack holds only node and entry distance, and no frame is derived on the way down.
 */
export { NODE_RECORD_BYTES } from './layoutSpec';

/**
 * Each node's frame as the TypeScript walk derives it on its way down, in float64: min xyz and step xyz
 * at 6·node (root: rootFrame; a shared or detached node: its own frame; any other node: its decoded slot
 * box in its parent).
 */
export function decodeFrames(nodes: QuantizedNodes): Float64Array {
  const count = nodes.nodeCount;
  const frames = new Float64Array(6 * count);
  const setFrame = (node: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void => {
    const f = 6 * node;
    frames[f] = minX;
    frames[f + 1] = minY;
    frames[f + 2] = minZ;
    frames[f + 3] = (maxX - minX) * QUANT_STEP_SCALE;
    frames[f + 4] = (maxY - minY) * QUANT_STEP_SCALE;
    frames[f + 5] = (maxZ - minZ) * QUANT_STEP_SCALE;
  };
  if (count > 0) {
    const r = nodes.rootFrame;
    setFrame(0, r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!);
  }
  const shared = nodes.sharedFrames;
  for (let node = nodes.firstShared; node < count; node++) {
    const g = 6 * (node - nodes.firstShared);
    setFrame(node, shared[g]!, shared[g + 1]!, shared[g + 2]!, shared[g + 3]!, shared[g + 4]!, shared[g + 5]!);
  }
  const { ownsFrame, ownFrames } = nodes;
  for (let node = 0; node < nodes.firstShared; node++) {
    if (ownsFrame[node] !== 1) continue;
    const g = 6 * node;
    setFrame(node, ownFrames[g]!, ownFrames[g + 1]!, ownFrames[g + 2]!, ownFrames[g + 3]!, ownFrames[g + 4]!, ownFrames[g + 5]!);
  }
  const u16 = nodes.u16;
  const u32 = nodes.u32;
  // Parents come before their children (shared nodes, last, and detached ones have their own frames).
  for (let node = 0; node < count; node++) {
    const f = 6 * node;
    const minX = frames[f]!,
      minY = frames[f + 1]!,
      minZ = frames[f + 2]!;
    const stepX = frames[f + 3]!,
      stepY = frames[f + 4]!,
      stepZ = frames[f + 5]!;
    const b = QUANTIZED_NODE_U16 * node;
    for (let slot = 0; slot < 4; slot++) {
      const word = u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + slot]!;
      const child = word & CHILD_INDEX_MASK;
      if (((word >>> 24) & 15) !== CHILD_TYPE_NODE || child >= nodes.firstShared || ownsFrame[child] === 1) continue;
      setFrame(
        child,
        minX + u16[b + slot]! * stepX,
        minY + u16[b + 4 + slot]! * stepY,
        minZ + u16[b + 8 + slot]! * stepZ,
        minX + u16[b + 12 + slot]! * stepX,
        minY + u16[b + 16 + slot]! * stepY,
        minZ + u16[b + 20 + slot]! * stepZ,
      );
    }
  }
  return frames;
}

/** Copies each node into its 128-byte record and adds its frame (decodeFrames), stored as float32. */
export function writeNodeRecords(nodes: QuantizedNodes, buffer: ArrayBufferLike, start: number): void {
  const count = nodes.nodeCount;
  const bytes = new Uint8Array(buffer, start, NODE_RECORD_BYTES * count);
  const records = new Float32Array(buffer, start, (NODE_RECORD_BYTES / 4) * count);
  const source = new Uint8Array(nodes.buffer);
  const frames = decodeFrames(nodes);
  for (let node = 0; node < count; node++) {
    const f = 6 * node;
    bytes.set(source.subarray(QUANTIZED_NODE_BYTES * node, QUANTIZED_NODE_BYTES * (node + 1)), NODE_RECORD_BYTES * node);
    const o = (NODE_RECORD_BYTES / 4) * node;
    const min = o + NODE_RECORD_FRAME_MIN / 4,
      step = o + NODE_RECORD_FRAME_STEP / 4;
    records[min] = frames[f]!;
    records[min + 1] = frames[f + 1]!;
    records[min + 2] = frames[f + 2]!;
    records[step] = frames[f + 3]!;
    records[step + 1] = frames[f + 4]!;
    records[step + 2] = frames[f + 5]!;
  }
}

/**
 * Per axis, a bound on |min| + |max| + (max − min) over the root frame and the shared frames: every
 * other frame lies inside one of them, so this bounds the numbers in any plane distance the kernel
 * computes, and with the ray origin it sizes the kernel's float32 rounding slack.
 */
export function frameMagnitudes(nodes: QuantizedNodes): Float64Array {
  const magnitude = new Float64Array(3);
  const frames = [nodes.rootFrame];
  for (let i = 0; i < nodes.sharedFrames.length; i += 6) frames.push(nodes.sharedFrames.subarray(i, i + 6));
  for (const frame of frames) {
    for (let axis = 0; axis < 3; axis++) {
      const min = frame[axis]!,
        max = frame[axis + 3]!;
      magnitude[axis] = Math.max(magnitude[axis]!, Math.abs(min) + Math.abs(max) + (max - min));
    }
  }
  return magnitude;
}

/** The BVH's quantized nodes; a clear error for a BVH built without that layout. */
export function quantizedNodesOf(bvh: BVH): QuantizedNodes {
  const nodes = bvh.quantized;
  if (nodes === null) throw new InvalidParameterError('bvh', "a BVH built with the 'quantized' layout", bvh.options.layouts.join(', '));
  return nodes;
}

/**
 * Rewrites `count` records already written by writeNodeRecords after a refit re-encoded those nodes: the
 * quantized node verbatim and its frame from `frames` (min xyz, max xyz per node, GeometryChange.frames),
 * giving the same floats as decodeFrames does.
 */
export function rewriteNodeRecords(
  nodes: QuantizedNodes,
  buffer: ArrayBufferLike,
  start: number,
  frames: Float64Array,
  list: Int32Array,
  count: number,
): void {
  const bytes = new Uint8Array(buffer, start, NODE_RECORD_BYTES * nodes.nodeCount);
  const records = new Float32Array(buffer, start, (NODE_RECORD_BYTES / 4) * nodes.nodeCount);
  const source = new Uint8Array(nodes.buffer);
  for (let i = 0; i < count; i++) {
    const node = list[i]!;
    const f = 6 * node;
    bytes.set(source.subarray(QUANTIZED_NODE_BYTES * node, QUANTIZED_NODE_BYTES * (node + 1)), NODE_RECORD_BYTES * node);
    const o = (NODE_RECORD_BYTES / 4) * node;
    for (let axis = 0; axis < 3; axis++) {
      const min = frames[f + axis]!;
      records[o + NODE_RECORD_FRAME_MIN / 4 + axis] = min;
      records[o + NODE_RECORD_FRAME_STEP / 4 + axis] = (frames[f + 3 + axis]! - min) * QUANT_STEP_SCALE;
    }
  }
}
