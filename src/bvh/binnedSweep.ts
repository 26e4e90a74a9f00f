import { SPLIT_BINNED, type BuildWorkspace } from './buildWorkspace';
import { inflatedHalfArea } from './surfaceArea';

/**
 * Split strategy 1, binned form for large nodes: the same centre sweep, over `bins` equal centre
 * intervals per axis instead of every sorted position. One pass drops every reference into a bin on all
 * three axes, then each axis sweeps its bins like the sorted sweep sweeps references.
 */
export function evaluateBinnedSweep(workspace: BuildWorkspace, start: number, count: number): void {
  const bins = workspace.options.bins;
  const binCounts = workspace.binCounts;
  const binBounds = workspace.binBounds;
  const bounds = workspace.refBounds;
  const centres = workspace.centreBox;
  const radius = workspace.options.sweptRadius;

  const cMinX = centres[0]!,
    cMinY = centres[1]!,
    cMinZ = centres[2]!;
  const extentX = centres[3]! - cMinX,
    extentY = centres[4]! - cMinY,
    extentZ = centres[5]! - cMinZ;
  // A zero extent gives scale 0: every reference lands in bin 0 and the axis offers no split.
  const scaleX = extentX > 0 ? bins / extentX : 0;
  const scaleY = extentY > 0 ? bins / extentY : 0;
  const scaleZ = extentZ > 0 ? bins / extentZ : 0;
  const last = bins - 1;

  binCounts.fill(0);
  for (let b = 0; b < 3 * bins; b++) {
    const o = 6 * b;
    binBounds[o] = Infinity;
    binBounds[o + 1] = Infinity;
    binBounds[o + 2] = Infinity;
    binBounds[o + 3] = -Infinity;
    binBounds[o + 4] = -Infinity;
    binBounds[o + 5] = -Infinity;
  }
  const end = start + count;
  for (let ref = start; ref < end; ref++) {
    const r = 6 * ref;
    const x0 = bounds[r]!,
      y0 = bounds[r + 1]!,
      z0 = bounds[r + 2]!;
    const x1 = bounds[r + 3]!,
      y1 = bounds[r + 4]!,
      z1 = bounds[r + 5]!;
    let bx = Math.floor((x0 + x1 - cMinX) * scaleX);
    let by = Math.floor((y0 + y1 - cMinY) * scaleY);
    let bz = Math.floor((z0 + z1 - cMinZ) * scaleZ);
    if (bx > last) bx = last;
    if (by > last) by = last;
    if (bz > last) bz = last;
    by += bins;
    bz += 2 * bins;
    binCounts[bx]!++;
    binCounts[by]!++;
    binCounts[bz]!++;
    let o = 6 * bx;
    if (x0 < binBounds[o]!) binBounds[o] = x0;
    if (y0 < binBounds[o + 1]!) binBounds[o + 1] = y0;
    if (z0 < binBounds[o + 2]!) binBounds[o + 2] = z0;
    if (x1 > binBounds[o + 3]!) binBounds[o + 3] = x1;
    if (y1 > binBounds[o + 4]!) binBounds[o + 4] = y1;
    if (z1 > binBounds[o + 5]!) binBounds[o + 5] = z1;
    o = 6 * by;
    if (x0 < binBounds[o]!) binBounds[o] = x0;
    if (y0 < binBounds[o + 1]!) binBounds[o + 1] = y0;
    if (z0 < binBounds[o + 2]!) binBounds[o + 2] = z0;
    if (x1 > binBounds[o + 3]!) binBounds[o + 3] = x1;
    if (y1 > binBounds[o + 4]!) binBounds[o + 4] = y1;
    if (z1 > binBounds[o + 5]!) binBounds[o + 5] = z1;
    o = 6 * bz;
    if (x0 < binBounds[o]!) binBounds[o] = x0;
    if (y0 < binBounds[o + 1]!) binBounds[o + 1] = y0;
    if (z0 < binBounds[o + 2]!) binBounds[o + 2] = z0;
    if (x1 > binBounds[o + 3]!) binBounds[o + 3] = x1;
    if (y1 > binBounds[o + 4]!) binBounds[o + 4] = y1;
    if (z1 > binBounds[o + 5]!) binBounds[o + 5] = z1;
  }

  // An axis with no centre extent puts everything in bin 0, so its planes all have an empty side and are skipped.
  sweepBins(binCounts, binBounds, bins, radius, workspace, SPLIT_BINNED);
}

/**
 * Prices every plane between bins on each axis: counts[axis·bins + b] references with union box
 * boxes[6(axis·bins + b) ..]. Records the cheapest in workspace.choice with `kind`; `position` is the
 * last bin on the left.
 */
export function sweepBins(counts: Int32Array, boxes: Float64Array, bins: number, radius: number, workspace: BuildWorkspace, kind: number): void {
  const suffixBoxes = workspace.suffixBoxes;
  const suffixAreas = workspace.suffixAreas;
  const suffixCounts = workspace.suffixCounts;
  const choice = workspace.choice;
  for (let axis = 0; axis < 3; axis++) {
    const base = axis * bins;
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    let rightCount = 0;
    for (let b = bins - 1; b >= 1; b--) {
      const o = 6 * (base + b);
      rightCount += counts[base + b]!;
      if (boxes[o]! < minX) minX = boxes[o]!;
      if (boxes[o + 1]! < minY) minY = boxes[o + 1]!;
      if (boxes[o + 2]! < minZ) minZ = boxes[o + 2]!;
      if (boxes[o + 3]! > maxX) maxX = boxes[o + 3]!;
      if (boxes[o + 4]! > maxY) maxY = boxes[o + 4]!;
      if (boxes[o + 5]! > maxZ) maxZ = boxes[o + 5]!;
      const s = 6 * b;
      suffixBoxes[s] = minX;
      suffixBoxes[s + 1] = minY;
      suffixBoxes[s + 2] = minZ;
      suffixBoxes[s + 3] = maxX;
      suffixBoxes[s + 4] = maxY;
      suffixBoxes[s + 5] = maxZ;
      suffixAreas[b] = rightCount > 0 ? inflatedHalfArea(maxX - minX, maxY - minY, maxZ - minZ, radius) : 0;
      suffixCounts[b] = rightCount;
    }
    minX = Infinity;
    minY = Infinity;
    minZ = Infinity;
    maxX = -Infinity;
    maxY = -Infinity;
    maxZ = -Infinity;
    let leftCount = 0;
    for (let b = 0; b < bins - 1; b++) {
      const o = 6 * (base + b);
      leftCount += counts[base + b]!;
      if (boxes[o]! < minX) minX = boxes[o]!;
      if (boxes[o + 1]! < minY) minY = boxes[o + 1]!;
      if (boxes[o + 2]! < minZ) minZ = boxes[o + 2]!;
      if (boxes[o + 3]! > maxX) maxX = boxes[o + 3]!;
      if (boxes[o + 4]! > maxY) maxY = boxes[o + 4]!;
      if (boxes[o + 5]! > maxZ) maxZ = boxes[o + 5]!;
      const right = suffixCounts[b + 1]!;
      if (leftCount === 0 || right === 0) continue;
      const cost = inflatedHalfArea(maxX - minX, maxY - minY, maxZ - minZ, radius) * leftCount + suffixAreas[b + 1]! * right;
      if (cost < choice.weightedArea) {
        choice.weightedArea = cost;
        choice.kind = kind;
        choice.axis = axis;
        choice.position = b;
        const left = choice.leftBox;
        left[0] = minX;
        left[1] = minY;
        left[2] = minZ;
        left[3] = maxX;
        left[4] = maxY;
        left[5] = maxZ;
        const right = choice.rightBox;
        for (let k = 0; k < 6; k++) right[k] = suffixBoxes[6 * (b + 1) + k]!;
      }
    }
  }
}

/** Partitions the segment in place by the winning bin; returns the left count. */
export function applyBinnedSplit(workspace: BuildWorkspace, start: number, count: number): number {
  const bins = workspace.options.bins;
  const axis = workspace.choice.axis;
  const lastLeftBin = workspace.choice.position;
  const bounds = workspace.refBounds;
  const cMin = workspace.centreBox[axis]!;
  const extent = workspace.centreBox[axis + 3]! - cMin;
  const scale = bins / extent;
  let i = start;
  let j = start + count - 1;
  while (i <= j) {
    let bin = Math.floor((bounds[6 * i + axis]! + bounds[6 * i + 3 + axis]! - cMin) * scale);
    if (bin > bins - 1) bin = bins - 1;
    if (bin <= lastLeftBin) {
      i++;
    } else {
      workspace.swap(i, j);
      j--;
    }
  }
  return i - start;
}
