// The 64-byte quantized 4-way nodes of src/bvh/quantizedLayout.ts, with the same float64 expressions
// (src/bvh/quantize.ts), so a node packed here decodes exactly as the traversals expect. Reads wide set
// 1 and the mask index byte of each node (maskIndexAt, written by JavaScript from the collision masks);
// writes the nodes at quantizedAt, the root frame (6 × f64) at ROOT_FRAME and makes the shared frames
// safe in place. Returns 0, or 1 + the node whose quantized box failed to contain its child (a bug).

import {
  CHILD_INDEX_MASK,
  CHILD_MASK_NIBBLE_SHIFT,
  CHILD_TYPE_EMPTY,
  CHILD_TYPE_NODE,
  CHILD_TYPE_SHIFT,
  QUANT_MAX,
  QUANT_STEP_SCALE,
  QUANTIZED_NODE_BYTES,
  QUANTIZED_WORDS_BYTES,
  ROOT_FRAME_HEADROOM,
} from '../generated/layout';
import { framesAt, kindAt, leafCountAt, leafStartAt, maskIndexAt, nodeBoxesAt, quantizedAt, refAt, sharedFramesAt, sourceAt } from './arena';

const CHILD_NODE: u8 = 0;
const CHILD_LEAF: u8 = 2;

export const ROOT_FRAME: usize = memory.data(48, 16);

function quantizationStep(frameMin: f64, frameMax: f64): f64 {
  return (frameMax - frameMin) * QUANT_STEP_SCALE;
}

function quantizeDown(value: f64, frameMin: f64, step: f64): i32 {
  if (!(step > 0)) return 0;
  let q = Math.floor((value - frameMin) / step);
  if (q < 0) q = 0;
  if (q > <f64>QUANT_MAX) q = <f64>QUANT_MAX;
  while (q > 0 && frameMin + q * step > value) q--;
  return <i32>q;
}

function quantizeUp(value: f64, frameMin: f64, step: f64): i32 {
  if (!(step > 0)) return 0;
  let q = Math.ceil((value - frameMin) / step);
  if (q < 0) q = 0;
  if (q > <f64>QUANT_MAX) q = <f64>QUANT_MAX;
  while (q < <f64>QUANT_MAX && frameMin + q * step < value) q++;
  return <i32>q;
}

function frameIsSafe(frameMin: f64, frameMax: f64): bool {
  const extent = frameMax - frameMin;
  if (extent == 0) return true;
  return (
    extent >= Math.pow(2, -22) * (Math.abs(frameMin) + Math.abs(frameMax)) &&
    frameMin + <f64>QUANT_MAX * quantizationStep(frameMin, frameMax) >= frameMax
  );
}

const MIN_POSITIVE: f64 = 5e-324;

function makeFrameSafe(frame: usize): void {
  for (let axis: usize = 0; axis < 3; axis++) {
    let min = load<f64>(frame + 8 * axis);
    let max = load<f64>(frame + 8 * axis + 24);
    let grow = Math.max(Math.max(max - min, Math.pow(2, -20) * (Math.abs(min) + Math.abs(max))), MIN_POSITIVE);
    while (!frameIsSafe(min, max)) {
      min -= grow;
      max += grow;
      grow *= 2;
    }
    store<f64>(frame + 8 * axis, min);
    store<f64>(frame + 8 * axis + 24, max);
  }
}

function childWord(index: i32, type: u32, slot: i32, maskIndex: u32): u32 {
  const nibble: u32 = slot == 0 ? maskIndex & 15 : slot == 1 ? maskIndex >> 4 : 0;
  return (((<u32>index) & CHILD_INDEX_MASK) | (type << CHILD_TYPE_SHIFT) | (nibble << CHILD_MASK_NIBBLE_SHIFT)) >>> 0;
}

function bound(binary: i32, k: usize): f64 {
  return <f64>load<f32>(nodeBoxesAt + 32 * <usize>binary + 4 * k);
}

export function packQuantized(nodeCount: i32, firstShared: i32): i32 {
  if (nodeCount == 0) return 0;
  const kind = kindAt(1),
    ref = refAt(1),
    source = sourceAt(1);
  // The root's frame: the union of its slots' boxes.
  for (let k: usize = 0; k < 3; k++) {
    store<f64>(ROOT_FRAME + 8 * k, Infinity);
    store<f64>(ROOT_FRAME + 8 * k + 24, -Infinity);
  }
  for (let s = 0; s < 4; s++) {
    const binary = load<i32>(source + 4 * <usize>s);
    if (binary < 0) continue;
    for (let k: usize = 0; k < 3; k++) {
      store<f64>(ROOT_FRAME + 8 * k, Math.min(load<f64>(ROOT_FRAME + 8 * k), bound(binary, k)));
      store<f64>(ROOT_FRAME + 8 * k + 24, Math.max(load<f64>(ROOT_FRAME + 8 * k + 24), bound(binary, k + 4)));
    }
  }
  // Headroom all round, as the TypeScript packer leaves (layoutSpec.ts ROOT_FRAME_HEADROOM).
  for (let k: usize = 0; k < 3; k++) {
    const min = load<f64>(ROOT_FRAME + 8 * k);
    const max = load<f64>(ROOT_FRAME + 8 * k + 24);
    const pad = ROOT_FRAME_HEADROOM * (max - min);
    store<f64>(ROOT_FRAME + 8 * k, min - pad);
    store<f64>(ROOT_FRAME + 8 * k + 24, max + pad);
  }
  makeFrameSafe(ROOT_FRAME);
  memory.copy(framesAt, ROOT_FRAME, 48);
  for (let i = firstShared; i < nodeCount; i++) {
    const shared = sharedFramesAt + 48 * <usize>(i - firstShared);
    makeFrameSafe(shared);
    memory.copy(framesAt + 48 * <usize>i, shared, 48);
  }
  // Parents have smaller indices than their children (shared nodes come last): one ascending pass.
  for (let node = 0; node < nodeCount; node++) {
    const f = framesAt + 48 * <usize>node;
    const out = quantizedAt + QUANTIZED_NODE_BYTES * <usize>node;
    const maskIndex = <u32>load<u8>(maskIndexAt + <usize>node);
    for (let s = 0; s < 4; s++) {
      const slot = ((<usize>node) << 2) + <usize>s;
      const k = load<u8>(kind + slot);
      const words = out + QUANTIZED_WORDS_BYTES + 4 * <usize>s;
      if (k != CHILD_NODE && k != CHILD_LEAF) {
        for (let axis: usize = 0; axis < 3; axis++) {
          store<u16>(out + 2 * (4 * axis + <usize>s), <u16>QUANT_MAX);
          store<u16>(out + 2 * (4 * (axis + 3) + <usize>s), 0);
        }
        store<u32>(words, childWord(0, CHILD_TYPE_EMPTY, s, maskIndex));
        continue;
      }
      const binary = load<i32>(source + 4 * slot);
      const child = load<i32>(ref + 4 * slot);
      const ownsFrame = k == CHILD_NODE && child < firstShared;
      const childFrame = framesAt + 48 * <usize>child;
      for (let axis: usize = 0; axis < 3; axis++) {
        const frameMin = load<f64>(f + 8 * axis);
        const step = quantizationStep(frameMin, load<f64>(f + 8 * axis + 24));
        const low = bound(binary, axis);
        const high = bound(binary, axis + 4);
        let qMin = quantizeDown(low, frameMin, step);
        let qMax = quantizeUp(high, frameMin, step);
        let lo = frameMin + <f64>qMin * step;
        let hi = frameMin + <f64>qMax * step;
        if (ownsFrame && !frameIsSafe(lo, hi)) {
          // Too thin to serve as its children's frame: take the parent's whole extent on this axis.
          qMin = 0;
          qMax = QUANT_MAX;
          lo = frameMin;
          hi = frameMin + <f64>QUANT_MAX * step;
        }
        if (!(lo <= low && hi >= high)) return node + 1;
        store<u16>(out + 2 * (4 * axis + <usize>s), <u16>qMin);
        store<u16>(out + 2 * (4 * (axis + 3) + <usize>s), <u16>qMax);
        if (ownsFrame) {
          store<f64>(childFrame + 8 * axis, lo);
          store<f64>(childFrame + 8 * axis + 24, hi);
        }
      }
      if (k == CHILD_NODE) {
        store<u32>(words, childWord(child, CHILD_TYPE_NODE, s, maskIndex));
      } else {
        const leafStart = load<i32>(leafStartAt + 4 * <usize>child);
        const leafCount = load<i32>(leafCountAt + 4 * <usize>child);
        store<u32>(words, childWord(leafStart, <u32>(leafCount + 1), s, maskIndex));
      }
    }
  }
  return 0;
}
