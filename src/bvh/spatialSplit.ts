import { SPLIT_SPATIAL, type BuildWorkspace } from './buildWorkspace';
import { clipTriangleToSlab } from './clipTriangle';
import { inflatedHalfArea } from './surfaceArea';

/**
 * Split strategy 3: planes on a regular grid across the node, where a triangle straddling a plane goes
 * to both sides, each time with the box of its piece on that side (the SBVH idea). Binning: a reference
 * adds its clipped piece to every bin it crosses, counts as entering its first bin and leaving its last.
 */
export function evaluateSpatialSplit(workspace: BuildWorkspace, start: number, count: number): void {
  const bins = workspace.options.spatialBins;
  const entry = workspace.spatialEntry;
  const exit = workspace.spatialExit;
  const binBounds = workspace.spatialBounds;
  const bounds = workspace.refBounds;
  const triangles = workspace.refTriangle;
  const box = workspace.nodeBox;
  const clip = workspace.clipBox;
  const radius = workspace.options.sweptRadius;
  const suffixAreas = workspace.suffixAreas;
  const suffixCounts = workspace.suffixCounts;
  const choice = workspace.choice;
  const end = start + count;

  for (let axis = 0; axis < 3; axis++) {
    const nodeMin = box[axis]!;
    const width = (box[axis + 3]! - nodeMin) / bins;
    if (!(width > 0)) continue;
    entry.fill(0);
    exit.fill(0);
    for (let b = 0; b < bins; b++) {
      const o = 6 * b;
      binBounds[o] = Infinity;
      binBounds[o + 1] = Infinity;
      binBounds[o + 2] = Infinity;
      binBounds[o + 3] = -Infinity;
      binBounds[o + 4] = -Infinity;
      binBounds[o + 5] = -Infinity;
    }
    for (let ref = start; ref < end; ref++) {
      const r = 6 * ref;
      const lo = bounds[r + axis]!;
      const hi = bounds[r + 3 + axis]!;
      const firstBin = binOf(lo, nodeMin, width, bins);
      const lastBin = binOf(hi, nodeMin, width, bins);
      entry[firstBin]!++;
      exit[lastBin]!++;
      for (let b = firstBin; b <= lastBin; b++) {
        let piece: Float32Array | Float64Array = bounds;
        let p = r;
        if (firstBin !== lastBin) {
          const slabLo = b === firstBin ? lo : nodeMin + b * width;
          const slabHi = b === lastBin ? hi : nodeMin + (b + 1) * width;
          if (!clipTriangleToSlab(workspace.positions, workspace.indices, triangles[ref]!, axis, slabLo, slabHi, bounds, r, clip)) continue;
          piece = clip;
          p = 0;
        }
        const o = 6 * b;
        for (let k = 0; k < 3; k++) {
          if (piece[p + k]! < binBounds[o + k]!) binBounds[o + k] = piece[p + k]!;
          if (piece[p + 3 + k]! > binBounds[o + 3 + k]!) binBounds[o + 3 + k] = piece[p + 3 + k]!;
        }
      }
    }

    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    let rightCount = 0;
    for (let b = bins - 1; b >= 1; b--) {
      const o = 6 * b;
      rightCount += exit[b]!;
      if (binBounds[o]! < minX) minX = binBounds[o]!;
      if (binBounds[o + 1]! < minY) minY = binBounds[o + 1]!;
      if (binBounds[o + 2]! < minZ) minZ = binBounds[o + 2]!;
      if (binBounds[o + 3]! > maxX) maxX = binBounds[o + 3]!;
      if (binBounds[o + 4]! > maxY) maxY = binBounds[o + 4]!;
      if (binBounds[o + 5]! > maxZ) maxZ = binBounds[o + 5]!;
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
      const o = 6 * b;
      leftCount += entry[b]!;
      if (binBounds[o]! < minX) minX = binBounds[o]!;
      if (binBounds[o + 1]! < minY) minY = binBounds[o + 1]!;
      if (binBounds[o + 2]! < minZ) minZ = binBounds[o + 2]!;
      if (binBounds[o + 3]! > maxX) maxX = binBounds[o + 3]!;
      if (binBounds[o + 4]! > maxY) maxY = binBounds[o + 4]!;
      if (binBounds[o + 5]! > maxZ) maxZ = binBounds[o + 5]!;
      const right = suffixCounts[b + 1]!;
      if (leftCount === 0 || right === 0 || leftCount === count || right === count) continue;
      const cost = inflatedHalfArea(maxX - minX, maxY - minY, maxZ - minZ, radius) * leftCount + suffixAreas[b + 1]! * right;
      if (cost < choice.weightedArea) {
        choice.weightedArea = cost;
        choice.kind = SPLIT_SPATIAL;
        choice.axis = axis;
        choice.position = nodeMin + (b + 1) * width;
      }
    }
  }
}

function binOf(value: number, nodeMin: number, width: number, bins: number): number {
  const bin = Math.floor((value - nodeMin) / width);
  return bin < 0 ? 0 : bin >= bins ? bins - 1 : bin;
}

const LEFT = 1;
const RIGHT = 2;

/**
 * Applies the spatial split at choice.position if it really separates the references and fits the
 * reference budget. The left side is compacted in place; the right side is appended at workspace.top.
 * Returns the left count and writes the right segment's start to workspace.spatialRightStart, or
 * returns −1 (nothing changed) when the split would not shrink both sides or would exceed the budget.
 */
export function applySpatialSplit(workspace: BuildWorkspace, start: number, count: number): number {
  const axis = workspace.choice.axis;
  const plane = workspace.choice.position;
  const bounds = workspace.refBounds;
  const triangles = workspace.refTriangle;
  const flags = workspace.sideFlags;
  const clip = workspace.clipBox;
  const positions = workspace.positions;
  const indices = workspace.indices;
  const end = start + count;
  let leftCount = 0;
  let rightCount = 0;
  for (let ref = start; ref < end; ref++) {
    const r = 6 * ref;
    const lo = bounds[r + axis]!;
    const hi = bounds[r + 3 + axis]!;
    let side = 0;
    if (hi <= plane) side = LEFT;
    else if (lo >= plane) side = RIGHT;
    else {
      if (clipTriangleToSlab(positions, indices, triangles[ref]!, axis, lo, plane, bounds, r, clip)) side |= LEFT;
      if (clipTriangleToSlab(positions, indices, triangles[ref]!, axis, plane, hi, bounds, r, clip)) side |= RIGHT;
      // Rounding could in principle empty both pieces; keep the reference whole on the left then.
      if (side === 0) side = LEFT;
    }
    flags[ref - start] = side;
    if (side & LEFT) leftCount++;
    if (side & RIGHT) rightCount++;
  }
  if (leftCount === 0 || rightCount === 0 || leftCount === count || rightCount === count) return -1;
  if (workspace.top + rightCount > workspace.capacity) return -1;

  // Right side first: it reads the references before the in-place left compaction overwrites them.
  let out = workspace.top;
  for (let ref = start; ref < end; ref++) {
    const side = flags[ref - start]!;
    if (!(side & RIGHT)) continue;
    const r = 6 * ref;
    triangles[out] = triangles[ref]!;
    if (side & LEFT) {
      clipTriangleToSlab(positions, indices, triangles[ref]!, axis, plane, bounds[r + 3 + axis]!, bounds, r, clip);
      workspace.storeBox(out, clip);
    } else {
      bounds.copyWithin(6 * out, r, r + 6);
    }
    out++;
  }
  workspace.spatialRightStart = workspace.top;
  workspace.top = out;

  let write = start;
  for (let ref = start; ref < end; ref++) {
    const side = flags[ref - start]!;
    if (!(side & LEFT)) continue;
    const r = 6 * ref;
    triangles[write] = triangles[ref]!;
    if (side & RIGHT) {
      clipTriangleToSlab(positions, indices, triangles[ref]!, axis, bounds[r + axis]!, plane, bounds, r, clip);
      workspace.storeBox(write, clip);
    } else if (write !== ref) {
      bounds.copyWithin(6 * write, r, r + 6);
    }
    write++;
  }
  return leftCount;
}
