/**
 * Per-ray constants shared by every ray-triangle kernel, in one caller-owned Float64Array so a BVH leaf
 * loop prepares a ray once and then calls any kernel on it without allocating.
 *
 * Layout (float64 slots):
 *   0..2   origin x, y, z
 *   3..5   direction x, y, z (not normalised: t is measured in units of its length)
 *   6      1 when the ray is usable, 0 when the origin or direction holds NaN/±∞ or the direction is zero
 *   7..9   kx, ky, kz: the watertight test's axis permutation, kz the dominant direction axis and kx, ky
 *          swapped when the direction along kz is negative so the winding of projected triangles is kept
 *   10..12 Sx, Sy, Sz: the shear taking the direction to (0, 0, 1) in the permuted frame
 */
export const RAY_DATA_LENGTH = 13;

export const RAY_ORIGIN_X = 0;
export const RAY_ORIGIN_Y = 1;
export const RAY_ORIGIN_Z = 2;
export const RAY_DIRECTION_X = 3;
export const RAY_DIRECTION_Y = 4;
export const RAY_DIRECTION_Z = 5;
export const RAY_VALID = 6;
export const RAY_AXIS_X = 7;
export const RAY_AXIS_Y = 8;
export const RAY_AXIS_Z = 9;
export const RAY_SHEAR_X = 10;
export const RAY_SHEAR_Y = 11;
export const RAY_SHEAR_Z = 12;

/** A fresh buffer for one ray's constants. Allocate once per caller, not per ray. */
export function createRayData(): Float64Array {
  return new Float64Array(RAY_DATA_LENGTH);
}

/**
 * Writes the constants of the ray origin + t·direction into rayData. An unusable ray (NaN or infinite
 * component, zero direction) is marked invalid and every kernel then reports a miss for it.
 */
export function prepareRay(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, rayData: Float64Array): void {
  rayData[RAY_ORIGIN_X] = ox;
  rayData[RAY_ORIGIN_Y] = oy;
  rayData[RAY_ORIGIN_Z] = oz;
  rayData[RAY_DIRECTION_X] = dx;
  rayData[RAY_DIRECTION_Y] = dy;
  rayData[RAY_DIRECTION_Z] = dz;

  const absX = Math.abs(dx);
  const absY = Math.abs(dy);
  const absZ = Math.abs(dz);
  // A NaN fails every comparison, so "finite" is asked as a positive question that NaN answers no to.
  const finite =
    absX < Infinity && absY < Infinity && absZ < Infinity && Math.abs(ox) < Infinity && Math.abs(oy) < Infinity && Math.abs(oz) < Infinity;
  const valid = finite && (absX > 0 || absY > 0 || absZ > 0);
  rayData[RAY_VALID] = valid ? 1 : 0;

  let kz = 2;
  if (absX >= absY && absX >= absZ) kz = 0;
  else if (absY >= absZ) kz = 1;
  let kx = kz === 2 ? 0 : kz + 1;
  let ky = kx === 2 ? 0 : kx + 1;
  const along = kz === 0 ? dx : kz === 1 ? dy : dz;
  if (along < 0) {
    const swap = kx;
    kx = ky;
    ky = swap;
  }
  rayData[RAY_AXIS_X] = kx;
  rayData[RAY_AXIS_Y] = ky;
  rayData[RAY_AXIS_Z] = kz;
  const directionKx = kx === 0 ? dx : kx === 1 ? dy : dz;
  const directionKy = ky === 0 ? dx : ky === 1 ? dy : dz;
  rayData[RAY_SHEAR_X] = valid ? directionKx / along : 0;
  rayData[RAY_SHEAR_Y] = valid ? directionKy / along : 0;
  rayData[RAY_SHEAR_Z] = valid ? 1 / along : 0;
}
