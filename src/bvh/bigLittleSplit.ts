import { SPLIT_BIG_LITTLE, type BuildWorkspace } from './buildWorkspace';
import { inflatedHalfArea } from './surfaceArea';

/**
 * Split strategy 2 (the talk's big/little): references wider than half the node on some axis on one
 * side, the rest on the other. It separates huge background triangles (a skybox, a ground plane under
 * detail) from the detail they would otherwise bloat every box of.
 */
function isBig(bounds: Float32Array, ref: number, halfX: number, halfY: number, halfZ: number): boolean {
  const o = 6 * ref;
  return bounds[o + 3]! - bounds[o]! > halfX || bounds[o + 4]! - bounds[o + 1]! > halfY || bounds[o + 5]! - bounds[o + 2]! > halfZ;
}

export function evaluateBigLittle(workspace: BuildWorkspace, start: number, count: number): void {
  const bounds = workspace.refBounds;
  const box = workspace.nodeBox;
  const halfX = 0.5 * (box[3]! - box[0]!),
    halfY = 0.5 * (box[4]! - box[1]!),
    halfZ = 0.5 * (box[5]! - box[2]!);
  const big = workspace.choice.leftBox;
  let bigCount = 0;
  let bMinX = Infinity,
    bMinY = Infinity,
    bMinZ = Infinity,
    bMaxX = -Infinity,
    bMaxY = -Infinity,
    bMaxZ = -Infinity;
  let sMinX = Infinity,
    sMinY = Infinity,
    sMinZ = Infinity,
    sMaxX = -Infinity,
    sMaxY = -Infinity,
    sMaxZ = -Infinity;
  const end = start + count;
  for (let ref = start; ref < end; ref++) {
    const o = 6 * ref;
    if (isBig(bounds, ref, halfX, halfY, halfZ)) {
      bigCount++;
      if (bounds[o]! < bMinX) bMinX = bounds[o]!;
      if (bounds[o + 1]! < bMinY) bMinY = bounds[o + 1]!;
      if (bounds[o + 2]! < bMinZ) bMinZ = bounds[o + 2]!;
      if (bounds[o + 3]! > bMaxX) bMaxX = bounds[o + 3]!;
      if (bounds[o + 4]! > bMaxY) bMaxY = bounds[o + 4]!;
      if (bounds[o + 5]! > bMaxZ) bMaxZ = bounds[o + 5]!;
    } else {
      if (bounds[o]! < sMinX) sMinX = bounds[o]!;
      if (bounds[o + 1]! < sMinY) sMinY = bounds[o + 1]!;
      if (bounds[o + 2]! < sMinZ) sMinZ = bounds[o + 2]!;
      if (bounds[o + 3]! > sMaxX) sMaxX = bounds[o + 3]!;
      if (bounds[o + 4]! > sMaxY) sMaxY = bounds[o + 4]!;
      if (bounds[o + 5]! > sMaxZ) sMaxZ = bounds[o + 5]!;
    }
  }
  if (bigCount === 0 || bigCount === count) return;
  const radius = workspace.options.sweptRadius;
  const cost =
    inflatedHalfArea(bMaxX - bMinX, bMaxY - bMinY, bMaxZ - bMinZ, radius) * bigCount +
    inflatedHalfArea(sMaxX - sMinX, sMaxY - sMinY, sMaxZ - sMinZ, radius) * (count - bigCount);
  const choice = workspace.choice;
  if (!(cost < choice.weightedArea)) return;
  choice.weightedArea = cost;
  choice.kind = SPLIT_BIG_LITTLE;
  big[0] = bMinX;
  big[1] = bMinY;
  big[2] = bMinZ;
  big[3] = bMaxX;
  big[4] = bMaxY;
  big[5] = bMaxZ;
  const small = choice.rightBox;
  small[0] = sMinX;
  small[1] = sMinY;
  small[2] = sMinZ;
  small[3] = sMaxX;
  small[4] = sMaxY;
  small[5] = sMaxZ;
}

/** Big references first; returns their count. */
export function applyBigLittleSplit(workspace: BuildWorkspace, start: number, count: number): number {
  const bounds = workspace.refBounds;
  const box = workspace.nodeBox;
  const halfX = 0.5 * (box[3]! - box[0]!),
    halfY = 0.5 * (box[4]! - box[1]!),
    halfZ = 0.5 * (box[5]! - box[2]!);
  let i = start;
  let j = start + count - 1;
  while (i <= j) {
    if (isBig(bounds, i, halfX, halfY, halfZ)) {
      i++;
    } else {
      workspace.swap(i, j);
      j--;
    }
  }
  return i - start;
}
