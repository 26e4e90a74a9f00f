import { SPLIT_SORTED, type BuildWorkspace } from './buildWorkspace';
import { inflatedHalfArea } from './surfaceArea';

/**
 * Split strategy 1, exact form: sort the references by centre on each axis and price every split
 * position with one right-to-left pass (suffix boxes) and one left-to-right pass (prefix boxes).
 * Used for nodes of at most exactSweepLimit references; insertion sort suits them (small, and already
 * near-sorted by the parent's partition).
 */
export function evaluateSortedSweep(workspace: BuildWorkspace, start: number, count: number): void {
  const bounds = workspace.refBounds;
  const order = workspace.sortOrder;
  const keys = workspace.sortKeys;
  const suffixBoxes = workspace.suffixBoxes;
  const suffixAreas = workspace.suffixAreas;
  const choice = workspace.choice;
  const capacity = workspace.exactCapacity;
  const radius = workspace.options.sweptRadius;

  for (let axis = 0; axis < 3; axis++) {
    const base = axis * capacity;
    for (let i = 0; i < count; i++) {
      const ref = start + i;
      const key = bounds[6 * ref + axis]! + bounds[6 * ref + 3 + axis]!;
      let j = i - 1;
      while (j >= 0 && keys[j]! > key) {
        keys[j + 1] = keys[j]!;
        order[base + j + 1] = order[base + j]!;
        j--;
      }
      keys[j + 1] = key;
      order[base + j + 1] = ref;
    }

    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    for (let i = count - 1; i >= 1; i--) {
      const o = 6 * order[base + i]!;
      if (bounds[o]! < minX) minX = bounds[o]!;
      if (bounds[o + 1]! < minY) minY = bounds[o + 1]!;
      if (bounds[o + 2]! < minZ) minZ = bounds[o + 2]!;
      if (bounds[o + 3]! > maxX) maxX = bounds[o + 3]!;
      if (bounds[o + 4]! > maxY) maxY = bounds[o + 4]!;
      if (bounds[o + 5]! > maxZ) maxZ = bounds[o + 5]!;
      const s = 6 * i;
      suffixBoxes[s] = minX;
      suffixBoxes[s + 1] = minY;
      suffixBoxes[s + 2] = minZ;
      suffixBoxes[s + 3] = maxX;
      suffixBoxes[s + 4] = maxY;
      suffixBoxes[s + 5] = maxZ;
      suffixAreas[i] = inflatedHalfArea(maxX - minX, maxY - minY, maxZ - minZ, radius);
    }

    minX = Infinity;
    minY = Infinity;
    minZ = Infinity;
    maxX = -Infinity;
    maxY = -Infinity;
    maxZ = -Infinity;
    for (let i = 0; i < count - 1; i++) {
      const o = 6 * order[base + i]!;
      if (bounds[o]! < minX) minX = bounds[o]!;
      if (bounds[o + 1]! < minY) minY = bounds[o + 1]!;
      if (bounds[o + 2]! < minZ) minZ = bounds[o + 2]!;
      if (bounds[o + 3]! > maxX) maxX = bounds[o + 3]!;
      if (bounds[o + 4]! > maxY) maxY = bounds[o + 4]!;
      if (bounds[o + 5]! > maxZ) maxZ = bounds[o + 5]!;
      const leftCount = i + 1;
      const cost = inflatedHalfArea(maxX - minX, maxY - minY, maxZ - minZ, radius) * leftCount + suffixAreas[leftCount]! * (count - leftCount);
      if (cost < choice.weightedArea) {
        choice.weightedArea = cost;
        choice.kind = SPLIT_SORTED;
        choice.axis = axis;
        choice.position = leftCount;
        const left = choice.leftBox;
        left[0] = minX;
        left[1] = minY;
        left[2] = minZ;
        left[3] = maxX;
        left[4] = maxY;
        left[5] = maxZ;
        const right = choice.rightBox;
        for (let k = 0; k < 6; k++) right[k] = suffixBoxes[6 * leftCount + k]!;
      }
    }
  }
}

/** Reorders the segment into the winning axis's sorted order; returns the left count. */
export function applySortedSplit(workspace: BuildWorkspace, start: number, count: number): number {
  const order = workspace.sortOrder;
  const base = workspace.choice.axis * workspace.exactCapacity;
  const tri = workspace.refTriangle;
  const bounds = workspace.refBounds;
  const copyTri = workspace.copyTriangle;
  const copyBounds = workspace.copyBounds;
  for (let i = 0; i < count; i++) {
    const ref = order[base + i]!;
    copyTri[i] = tri[ref]!;
    for (let k = 0; k < 6; k++) copyBounds[6 * i + k] = bounds[6 * ref + k]!;
  }
  for (let i = 0; i < count; i++) {
    tri[start + i] = copyTri[i]!;
    for (let k = 0; k < 6; k++) bounds[6 * (start + i) + k] = copyBounds[6 * i + k]!;
  }
  return workspace.choice.position;
}
