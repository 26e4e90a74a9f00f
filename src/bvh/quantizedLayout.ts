import { ColliderscopeError } from '../errors';
import type { BuildTree } from './buildTree';
import { QUANTIZED_NODE_BYTES, QUANTIZED_WORDS_BYTES, ROOT_FRAME_HEADROOM } from './layoutSpec';
import { CHILD_TYPE_EMPTY, CHILD_TYPE_NODE, encodeChildWord, leafType } from './childWord';
import { QUANT_MAX, frameIsSafe, quantizationStep, quantizeDown, quantizeUp } from './quantize';
import { CHILD_LEAF, CHILD_NODE, type WideTree } from './wideTree';

/**
 * The 64-byte quantized 4-way node (one cache line), node n at byte 64·n of one ArrayBuffer:
 *
 *   bytes  0..47  24 × uint16 child bounds, bound-major so one bound of all four children is one
 *                 8-byte run: u16[32n + 4b + s] is bound b of slot s, b = 0 minX, 1 minY, 2 minZ,
 *                 3 maxX, 4 maxY, 5 maxZ (see quantize.ts for the decoding; an empty slot holds
 *                 min = 65535, max = 0)
 *   bytes 48..63  4 × uint32 child words, u32[16n + 12 + s] (see childWord.ts: 24-bit index, 4-bit
 *                 type, and the collision-mask index byte spread over the top nibbles of slots 0, 1)
 *
 * A node's children are quantized against the box the traversal holds for the node: the decoded slot
 * box in its parent, rootFrame for node 0, sharedFrames[6(n − firstShared)..] for shared nodes, and
 * ownFrames[6n..] for a node a refit detached (ownsFrame[n] = 1; see frameOf).
 */
export { QUANTIZED_NODE_BYTES } from './layoutSpec';
export const QUANTIZED_NODE_U16 = QUANTIZED_NODE_BYTES / 2;
export const QUANTIZED_NODE_U32 = QUANTIZED_NODE_BYTES / 4;
export const QUANTIZED_WORDS_U32 = QUANTIZED_WORDS_BYTES / 4;

export interface QuantizedNodes {
  readonly layout: 'quantized';
  readonly nodeCount: number;
  readonly buffer: ArrayBuffer;
  readonly u16: Uint16Array;
  readonly u32: Uint32Array;
  /** minX, minY, minZ, maxX, maxY, maxZ of the root's frame. */
  readonly rootFrame: Float64Array;
  readonly firstShared: number;
  readonly sharedFrames: Float64Array;
  /**
   * 1 for a node below firstShared that carries a frame of its own (min xyz, max xyz at ownFrames[6n..])
   * instead of its decoded slot box: a refit that gives a node a new frame detaches its node children,
   * keeping the frames their children are quantized against, so the change does not cascade down their
   * subtrees (refit.ts). All 0 after a build and after a full refit.
   */
  readonly ownsFrame: Uint8Array;
  /** The detached nodes' frames, 6 per node (empty until the refit's bookkeeping is made, refitState.ts). */
  ownFrames: Float64Array;
  readonly bytes: number;
}

/**
 * The frame of a node that does not take its parent's decoded slot box as its frame (shared or
 * detached), as min xyz, max xyz in `out`; false for a node whose frame is its decoded slot box.
 */
export function frameOf(nodes: QuantizedNodes, node: number, out: Float64Array): boolean {
  if (node >= nodes.firstShared) out.set(nodes.sharedFrames.subarray(6 * (node - nodes.firstShared), 6 * (node - nodes.firstShared) + 6));
  else if (nodes.ownsFrame[node] === 1) out.set(nodes.ownFrames.subarray(6 * node, 6 * node + 6));
  else return false;
  return true;
}

/** Bound b (0..5) of slot s of node n as a raw 16-bit value. */
export const quantizedBound = (u16: Uint16Array, node: number, bound: number, slot: number): number =>
  u16[QUANTIZED_NODE_U16 * node + 4 * bound + slot]!;
/** Child word of slot s of node n. */
export const quantizedChildWord = (u32: Uint32Array, node: number, slot: number): number =>
  u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + slot]!;

/** Moves every side of a frame (min xyz, max xyz) out by `headroom` of its extent on that axis. */
export function widenFrame(frame: Float64Array, headroom: number): void {
  for (let k = 0; k < 3; k++) {
    const pad = headroom * (frame[k + 3]! - frame[k]!);
    frame[k] = frame[k]! - pad;
    frame[k + 3] = frame[k + 3]! + pad;
  }
}

/** Widens an axis of a frame whose extent is positive but too small to quantize against safely. */
export function makeFrameSafe(frame: Float64Array, offset: number): void {
  for (let axis = 0; axis < 3; axis++) {
    let min = frame[offset + axis]!;
    let max = frame[offset + axis + 3]!;
    let grow = Math.max(max - min, 2 ** -20 * (Math.abs(min) + Math.abs(max)), Number.MIN_VALUE);
    while (!frameIsSafe(min, max)) {
      min -= grow;
      max += grow;
      grow *= 2;
    }
    frame[offset + axis] = min;
    frame[offset + axis + 3] = max;
  }
}

export function packQuantized(wide: WideTree, tree: BuildTree, nodeMaskIndex: Uint8Array): QuantizedNodes {
  const nodeCount = wide.nodeCount;
  const buffer = new ArrayBuffer(QUANTIZED_NODE_BYTES * nodeCount);
  const u16 = new Uint16Array(buffer);
  const u32 = new Uint32Array(buffer);
  const rootFrame = new Float64Array(6);
  if (nodeCount > 0) {
    // The root's frame: the union of its slots' boxes.
    rootFrame.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    for (let s = 0; s < 4; s++) {
      const source = wide.source[s]!;
      if (source < 0) continue;
      for (let k = 0; k < 3; k++) {
        rootFrame[k] = Math.min(rootFrame[k]!, tree.bounds[6 * source + k]!);
        rootFrame[k + 3] = Math.max(rootFrame[k + 3]!, tree.bounds[6 * source + 3 + k]!);
      }
    }
    widenFrame(rootFrame, ROOT_FRAME_HEADROOM);
    makeFrameSafe(rootFrame, 0);
  }
  const sharedFrames = wide.sharedFrames.slice();
  for (let i = 0; i < sharedFrames.length / 6; i++) makeFrameSafe(sharedFrames, 6 * i);

  // Frames of nodes waiting to be packed: 6 per node, filled by the parent as it decodes the slot.
  const frames = new Float64Array(6 * Math.max(1, nodeCount));
  frames.set(rootFrame, 0);
  for (let i = 0; i < sharedFrames.length / 6; i++) frames.set(sharedFrames.subarray(6 * i, 6 * i + 6), 6 * (wide.firstShared + i));
  const decoded = new Float64Array(6);
  // Parents always have smaller indices than their children (the collapse numbers depth-first and shared
  // nodes come last), so one ascending pass sees every frame before it is needed.
  for (let node = 0; node < nodeCount; node++) {
    const f = 6 * node;
    const stepX = quantizationStep(frames[f]!, frames[f + 3]!);
    const stepY = quantizationStep(frames[f + 1]!, frames[f + 4]!);
    const stepZ = quantizationStep(frames[f + 2]!, frames[f + 5]!);
    const steps = [stepX, stepY, stepZ];
    for (let s = 0; s < 4; s++) {
      const slot = 4 * node + s;
      const kind = wide.kind[slot]!;
      const base = QUANTIZED_NODE_U16 * node;
      if (kind !== CHILD_NODE && kind !== CHILD_LEAF) {
        for (let k = 0; k < 3; k++) {
          u16[base + 4 * k + s] = QUANT_MAX;
          u16[base + 4 * (k + 3) + s] = 0;
        }
        u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s] = encodeChildWord(0, CHILD_TYPE_EMPTY, s, nodeMaskIndex[node]!);
        continue;
      }
      const source = 6 * wide.source[slot]!;
      const child = wide.ref[slot]!;
      const ownsFrame = kind === CHILD_NODE && child < wide.firstShared;
      for (let k = 0; k < 3; k++) {
        const frameMin = frames[f + k]!;
        const step = steps[k]!;
        let qMin = quantizeDown(tree.bounds[source + k]!, frameMin, step);
        let qMax = quantizeUp(tree.bounds[source + 3 + k]!, frameMin, step);
        let lo = frameMin + qMin * step;
        let hi = frameMin + qMax * step;
        if (ownsFrame && !frameIsSafe(lo, hi)) {
          // Too thin to serve as its children's frame: take the parent's whole extent on this axis.
          qMin = 0;
          qMax = QUANT_MAX;
          lo = frameMin;
          hi = frameMin + QUANT_MAX * step;
        }
        if (!(lo <= tree.bounds[source + k]! && hi >= tree.bounds[source + 3 + k]!)) {
          throw new ColliderscopeError(`internal: quantized box of node ${node} slot ${s} does not contain its child on axis ${k}`);
        }
        u16[base + 4 * k + s] = qMin;
        u16[base + 4 * (k + 3) + s] = qMax;
        decoded[k] = lo;
        decoded[k + 3] = hi;
      }
      if (kind === CHILD_NODE) {
        if (ownsFrame) frames.set(decoded, 6 * child);
        u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s] = encodeChildWord(child, CHILD_TYPE_NODE, s, nodeMaskIndex[node]!);
      } else {
        const leaf = wide.ref[slot]!;
        u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s] = encodeChildWord(
          tree.leafStart[leaf]!,
          leafType(tree.leafCount[leaf]!),
          s,
          nodeMaskIndex[node]!,
        );
      }
    }
  }
  return {
    layout: 'quantized',
    nodeCount,
    buffer,
    u16,
    u32,
    rootFrame,
    firstShared: wide.firstShared,
    sharedFrames,
    ownsFrame: new Uint8Array(nodeCount),
    ownFrames: new Float64Array(0),
    bytes: buffer.byteLength + 8 * sharedFrames.length + nodeCount,
  };
}
