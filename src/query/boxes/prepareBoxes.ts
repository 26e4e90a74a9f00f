import type { BoxBatch } from './boxTypes';
import type { BoxWorkspace } from './boxWorkspace';

/** Largest |row·row − 1| or |row·row'| accepted for an oriented box's axes (they arrive as float32). */
export const AXES_TOLERANCE = 1e-3;

/**
 * Copies the batch into the workspace (see BoxWorkspace) and lists the valid boxes in `active`;
 * returns how many there are. A box is invalid with a NaN or infinite number, a negative half-size, or
 * axes that are not orthonormal within AXES_TOLERANCE.
 *
 * The world bounds used to cull nodes are padded outward, so that a node test never drops a triangle
 * that the leaf test would accept: for an axis-aligned box by 2^-40 of its coordinates' magnitude (far
 * above the float64 rounding of c − h and c + h, and of the leaf test's t − c); for an oriented box also
 * by 2·AXES_TOLERANCE of its size (the axes may be that far from orthonormal) and by 2^-20 of its
 * coordinates' magnitude (its triangles reach the leaf test in float32 in the box's frame).
 */
export function prepareBoxes(boxes: BoxBatch, workspace: BoxWorkspace): number {
  const n = boxes.count;
  workspace.ensureBoxes(n);
  const { centers, halfSizes } = boxes;
  const axes = boxes.axes ?? null;
  const { kernelBox, center, rotation, oriented, loX, loY, loZ, hiX, hiY, hiZ, active } = workspace;
  let valid = 0;
  for (let i = 0; i < n; i++) {
    const cx = centers[3 * i]!,
      cy = centers[3 * i + 1]!,
      cz = centers[3 * i + 2]!;
    const hx = halfSizes[3 * i]!,
      hy = halfSizes[3 * i + 1]!,
      hz = halfSizes[3 * i + 2]!;
    if (!(Math.abs(cx) < Infinity && Math.abs(cy) < Infinity && Math.abs(cz) < Infinity)) continue;
    if (!(hx >= 0 && hx < Infinity && hy >= 0 && hy < Infinity && hz >= 0 && hz < Infinity)) continue;
    let ex = hx,
      ey = hy,
      ez = hz;
    let pad = 2 ** -40 * (Math.max(Math.abs(cx), Math.abs(cy), Math.abs(cz)) + hx + hy + hz) + 1e-300;
    const isOriented = axes !== null && !isIdentity(axes, 9 * i);
    if (isOriented) {
      if (!isOrthonormal(axes, 9 * i)) continue;
      for (let k = 0; k < 9; k++) rotation[9 * i + k] = axes[9 * i + k]!;
      // World half-extents: |R|ᵀ h, the rows being the box's axes.
      ex = Math.abs(axes[9 * i]!) * hx + Math.abs(axes[9 * i + 3]!) * hy + Math.abs(axes[9 * i + 6]!) * hz;
      ey = Math.abs(axes[9 * i + 1]!) * hx + Math.abs(axes[9 * i + 4]!) * hy + Math.abs(axes[9 * i + 7]!) * hz;
      ez = Math.abs(axes[9 * i + 2]!) * hx + Math.abs(axes[9 * i + 5]!) * hy + Math.abs(axes[9 * i + 8]!) * hz;
      pad += 2 * AXES_TOLERANCE * (hx + hy + hz) + 2 ** -20 * (Math.max(Math.abs(cx), Math.abs(cy), Math.abs(cz)) + hx + hy + hz);
    }
    oriented[i] = isOriented ? 1 : 0;
    center[3 * i] = cx;
    center[3 * i + 1] = cy;
    center[3 * i + 2] = cz;
    kernelBox[6 * i] = isOriented ? 0 : cx;
    kernelBox[6 * i + 1] = isOriented ? 0 : cy;
    kernelBox[6 * i + 2] = isOriented ? 0 : cz;
    kernelBox[6 * i + 3] = hx;
    kernelBox[6 * i + 4] = hy;
    kernelBox[6 * i + 5] = hz;
    loX[i] = cx - ex - pad;
    loY[i] = cy - ey - pad;
    loZ[i] = cz - ez - pad;
    hiX[i] = cx + ex + pad;
    hiY[i] = cy + ey + pad;
    hiZ[i] = cz + ez + pad;
    active[valid++] = i;
  }
  return valid;
}

function isIdentity(axes: Float32Array, a: number): boolean {
  return (
    axes[a] === 1 &&
    axes[a + 1] === 0 &&
    axes[a + 2] === 0 &&
    axes[a + 3] === 0 &&
    axes[a + 4] === 1 &&
    axes[a + 5] === 0 &&
    axes[a + 6] === 0 &&
    axes[a + 7] === 0 &&
    axes[a + 8] === 1
  );
}

function isOrthonormal(axes: Float32Array, a: number): boolean {
  for (let k = 0; k < 9; k++) if (!(Math.abs(axes[a + k]!) < Infinity)) return false;
  for (let r = 0; r < 3; r++) {
    for (let s = r; s < 3; s++) {
      const dot = axes[a + 3 * r]! * axes[a + 3 * s]! + axes[a + 3 * r + 1]! * axes[a + 3 * s + 1]! + axes[a + 3 * r + 2]! * axes[a + 3 * s + 2]!;
      if (!(Math.abs(dot - (r === s ? 1 : 0)) <= AXES_TOLERANCE)) return false;
    }
  }
  return true;
}
