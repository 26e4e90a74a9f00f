import { QUANT_STEP_SCALE } from '../../bvh/quantize';
import type { QuantizedNodes } from '../../bvh/quantizedLayout';

/**
 * The frames of the quantized walk. A node's children are stored as 16-bit offsets in the frame its
 * walker holds for it: six float64 (min x, y, z and step x, y, z, the step being extent / 65535 so a
 * bound decodes as min + q · step). Every walk over the quantized tree keeps these on its stack and
 * sets them up through the two functions below, small enough for the JIT to inline into the loops.
 */
export const FRAME_SIZE = 6;

/** frames[o .. o + 5] := the root's frame. */
export function writeRootFrame(nodes: QuantizedNodes, frames: Float64Array, o: number): void {
  const root = nodes.rootFrame;
  frames[o] = root[0]!;
  frames[o + 1] = root[1]!;
  frames[o + 2] = root[2]!;
  frames[o + 3] = (root[3]! - root[0]!) * QUANT_STEP_SCALE;
  frames[o + 4] = (root[4]! - root[1]!) * QUANT_STEP_SCALE;
  frames[o + 5] = (root[5]! - root[2]!) * QUANT_STEP_SCALE;
}

/**
 * frames[o .. o + 5] := the frame of node `child`, entered through a slot whose decoded box is
 * [lo, hi]. A shared node (two parents, each bounding only its half) and a node a refit detached
 * (ownsFrame, quantizedLayout.ts) have frames of their own instead.
 */
export function writeChildFrame(
  frames: Float64Array,
  o: number,
  child: number,
  firstShared: number,
  sharedFrames: Float64Array,
  ownsFrame: Uint8Array,
  ownFrames: Float64Array,
  loX: number,
  loY: number,
  loZ: number,
  hiX: number,
  hiY: number,
  hiZ: number,
): void {
  if (child >= firstShared) {
    const g = FRAME_SIZE * (child - firstShared);
    loX = sharedFrames[g]!;
    loY = sharedFrames[g + 1]!;
    loZ = sharedFrames[g + 2]!;
    hiX = sharedFrames[g + 3]!;
    hiY = sharedFrames[g + 4]!;
    hiZ = sharedFrames[g + 5]!;
  } else if (ownsFrame[child] === 1) {
    const g = FRAME_SIZE * child;
    loX = ownFrames[g]!;
    loY = ownFrames[g + 1]!;
    loZ = ownFrames[g + 2]!;
    hiX = ownFrames[g + 3]!;
    hiY = ownFrames[g + 4]!;
    hiZ = ownFrames[g + 5]!;
  }
  frames[o] = loX;
  frames[o + 1] = loY;
  frames[o + 2] = loZ;
  frames[o + 3] = (hiX - loX) * QUANT_STEP_SCALE;
  frames[o + 4] = (hiY - loY) * QUANT_STEP_SCALE;
  frames[o + 5] = (hiZ - loZ) * QUANT_STEP_SCALE;
}

/**
 * writeChildFrame for the node in slot `slot` of a node whose bounds start at u16[b] and whose frame is
 * (min, step): the slot's box decoded as the packer checked it (frame min + q · step).
 */
export function writeSlotFrame(
  frames: Float64Array,
  o: number,
  child: number,
  firstShared: number,
  sharedFrames: Float64Array,
  ownsFrame: Uint8Array,
  ownFrames: Float64Array,
  u16: Uint16Array,
  slotBase: number,
  minX: number,
  minY: number,
  minZ: number,
  stepX: number,
  stepY: number,
  stepZ: number,
): void {
  writeChildFrame(
    frames,
    o,
    child,
    firstShared,
    sharedFrames,
    ownsFrame,
    ownFrames,
    minX + u16[slotBase]! * stepX,
    minY + u16[slotBase + 4]! * stepY,
    minZ + u16[slotBase + 8]! * stepZ,
    minX + u16[slotBase + 12]! * stepX,
    minY + u16[slotBase + 16]! * stepY,
    minZ + u16[slotBase + 20]! * stepZ,
  );
}
