// One ray's walk state, as a 512-byte record in memory: the single-ray walk (rayWalk.ts) reads its
// constants from it once per ray and keeps its closest hit in it, where the leaf test (leafTest.ts)
// shrinks it; the batched walk (batchWalk.ts) keeps one record per ray of its batch.

import { EXIT_SLACK, PLANE_SLACK } from './slack';

export const RAY_STATE_BYTES: usize = 512;
/** log2(RAY_STATE_BYTES): the batched walk finds a record by shifting its slot. */
export const RAY_STATE_SHIFT: usize = 9;

// Walk state.
export const TMAX = 0; // f64: current closest hit (or the ray's tMax)
export const INVERSE_X = 16; // v128: f32x4 splat of 1/(dx + 0)
export const INVERSE_Y = 32;
export const INVERSE_Z = 48;
export const TMAX_BOX = 64; // v128: f32x4 splat of tMax widened for the box test
export const NEAR_ROW_X = 128; // i32 × 6: byte offsets of the near and far plane rows in a node record
export const FAR_ROW_X = 132;
export const NEAR_ROW_Y = 136;
export const FAR_ROW_Y = 140;
export const NEAR_ROW_Z = 144;
export const FAR_ROW_Z = 148;
export const TOP = 152; // i32: stack entries in use (0: the ray is done)
export const BEST = 156; // i32: caller's triangle id of the closest hit so far, or −1
export const RAY_INDEX = 160; // i32: the ray's index in the batch
export const STACK = 164; // i32: address of this ray's stack
// Triangle-test constants (see setTriangleRay in src/query/rayTriangle/rayData.ts: prepareRay).
export const ORIGIN_KX = 168; // f64 × 3: origin on the permuted axes
export const ORIGIN_KY = 176;
export const ORIGIN_KZ = 184;
export const SHEAR_X = 192; // f64 × 3
export const SHEAR_Y = 200;
export const SHEAR_Z = 208;
export const OFFSET_KX = 216; // i32 × 3: byte offsets of the permuted axes' rows in a triangle group
export const OFFSET_KY = 220;
export const OFFSET_KZ = 224;
// The same constants as float32 splats for the four-wide screening (watertight.ts: candidates).
export const ORIGIN_KX4 = 240; // v128 × 3
export const ORIGIN_KY4 = 256;
export const ORIGIN_KZ4 = 272;
export const SHEAR_X4 = 288; // v128 × 2
export const SHEAR_Y4 = 304;
export const PROJECTION_ERROR4 = 320; // v128: bound on the float32 error of a projected coordinate
// The box test's origins, moved by the slack away from the box (near planes) or towards it (far
// planes), as splats of x, y, z.
export const NEAR_SHIFT_X4 = 336; // v128 × 3
export const NEAR_SHIFT_Y4 = 352;
export const NEAR_SHIFT_Z4 = 368;
export const FAR_SHIFT_X4 = 384; // v128 × 3
export const FAR_SHIFT_Y4 = 400;
export const FAR_SHIFT_Z4 = 416;
export const FAR_INVERSE_X = 432; // v128 × 3: splats of 1/(d + 0) widened by the exit slack, for far planes
export const FAR_INVERSE_Y = 448;
export const FAR_INVERSE_Z = 464;

/**
 * Fills the record for a valid ray (finite, non-zero direction, tMax > 0) and pushes the root onto the
 * ray's stack. `magnitude`: three f64 bounding every frame's |min| + |max| + extent.
 */
export function startRay(state: usize, ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, tMax: f64, magnitude: usize): void {
  const inverseX: f64 = 1 / (dx + 0);
  const inverseY: f64 = 1 / (dy + 0);
  const inverseZ: f64 = 1 / (dz + 0);
  v128.store(state, f32x4.splat(<f32>inverseX), INVERSE_X);
  v128.store(state, f32x4.splat(<f32>inverseY), INVERSE_Y);
  v128.store(state, f32x4.splat(<f32>inverseZ), INVERSE_Z);
  v128.store(state, f32x4.splat(<f32>(inverseX * (1 + EXIT_SLACK))), FAR_INVERSE_X);
  v128.store(state, f32x4.splat(<f32>(inverseY * (1 + EXIT_SLACK))), FAR_INVERSE_Y);
  v128.store(state, f32x4.splat(<f32>(inverseZ * (1 + EXIT_SLACK))), FAR_INVERSE_Z);
  store<f64>(state, tMax, TMAX);
  v128.store(state, f32x4.splat(<f32>(tMax * (1 + PLANE_SLACK))), TMAX_BOX);
  // Plane rows (16 bytes each): minX 0, minY 16, minZ 32, maxX 48, maxY 64, maxZ 80; picked by the
  // sign of 1/d.
  const nearX = inverseX >= 0 ? 0 : 48;
  const nearY = inverseY >= 0 ? 16 : 64;
  const nearZ = inverseZ >= 0 ? 32 : 80;
  store<i32>(state, nearX, NEAR_ROW_X);
  store<i32>(state, 48 - nearX, FAR_ROW_X);
  store<i32>(state, nearY, NEAR_ROW_Y);
  store<i32>(state, 80 - nearY, FAR_ROW_Y);
  store<i32>(state, nearZ, NEAR_ROW_Z);
  store<i32>(state, 112 - nearZ, FAR_ROW_Z);
  const signX: f64 = inverseX >= 0 ? 1 : -1;
  const signY: f64 = inverseY >= 0 ? 1 : -1;
  const signZ: f64 = inverseZ >= 0 ? 1 : -1;
  const slackX = PLANE_SLACK * (load<f64>(magnitude) + Math.abs(ox));
  const slackY = PLANE_SLACK * (load<f64>(magnitude, 8) + Math.abs(oy));
  const slackZ = PLANE_SLACK * (load<f64>(magnitude, 16) + Math.abs(oz));
  v128.store(state, f32x4.splat(<f32>(ox + signX * slackX)), NEAR_SHIFT_X4);
  v128.store(state, f32x4.splat(<f32>(oy + signY * slackY)), NEAR_SHIFT_Y4);
  v128.store(state, f32x4.splat(<f32>(oz + signZ * slackZ)), NEAR_SHIFT_Z4);
  v128.store(state, f32x4.splat(<f32>(ox - signX * slackX)), FAR_SHIFT_X4);
  v128.store(state, f32x4.splat(<f32>(oy - signY * slackY)), FAR_SHIFT_Y4);
  v128.store(state, f32x4.splat(<f32>(oz - signZ * slackZ)), FAR_SHIFT_Z4);
  store<i32>(state, -1, BEST);

  // The watertight test's axis permutation and shear, exactly as prepareRay computes them.
  const absX = Math.abs(dx);
  const absY = Math.abs(dy);
  const absZ = Math.abs(dz);
  let kz = 2;
  if (absX >= absY && absX >= absZ) kz = 0;
  else if (absY >= absZ) kz = 1;
  let kx = kz == 2 ? 0 : kz + 1;
  let ky = kx == 2 ? 0 : kx + 1;
  const along = kz == 0 ? dx : kz == 1 ? dy : dz;
  if (along < 0) {
    const swap = kx;
    kx = ky;
    ky = swap;
  }
  const directionKx = kx == 0 ? dx : kx == 1 ? dy : dz;
  const directionKy = ky == 0 ? dx : ky == 1 ? dy : dz;
  store<f64>(state, kx == 0 ? ox : kx == 1 ? oy : oz, ORIGIN_KX);
  store<f64>(state, ky == 0 ? ox : ky == 1 ? oy : oz, ORIGIN_KY);
  store<f64>(state, kz == 0 ? ox : kz == 1 ? oy : oz, ORIGIN_KZ);
  store<f64>(state, directionKx / along, SHEAR_X);
  store<f64>(state, directionKy / along, SHEAR_Y);
  store<f64>(state, 1 / along, SHEAR_Z);
  store<i32>(state, 16 * kx, OFFSET_KX);
  store<i32>(state, 16 * ky, OFFSET_KY);
  store<i32>(state, 16 * kz, OFFSET_KZ);
  v128.store(state, f32x4.splat(<f32>load<f64>(state, ORIGIN_KX)), ORIGIN_KX4);
  v128.store(state, f32x4.splat(<f32>load<f64>(state, ORIGIN_KY)), ORIGIN_KY4);
  v128.store(state, f32x4.splat(<f32>load<f64>(state, ORIGIN_KZ)), ORIGIN_KZ4);
  v128.store(state, f32x4.splat(<f32>load<f64>(state, SHEAR_X)), SHEAR_X4);
  v128.store(state, f32x4.splat(<f32>load<f64>(state, SHEAR_Y)), SHEAR_Y4);
  // Every vertex coordinate is within the frames' magnitude bound M, the shears within [−1, 1] (kz is
  // the dominant axis), so a projected coordinate (p − o) − s·(pz − oz) is below 4(M + |o|) in size and
  // its float32 evaluation (origin and shear rounded to float32 too) off by < 16 ulps of that: 2^-19.
  const largest = Math.max(Math.max(load<f64>(magnitude), load<f64>(magnitude, 8)), load<f64>(magnitude, 16));
  const origin = Math.max(Math.max(Math.abs(ox), Math.abs(oy)), Math.abs(oz));
  v128.store(state, f32x4.splat(<f32>((largest + origin) * (4.0 / 524288.0))), PROJECTION_ERROR4);

  // The root as the first stack entry: entered at 0.
  const stack = <usize>load<i32>(state, STACK);
  store<f32>(stack, 0);
  store<i32>(stack, 0, 4);
  store<i32>(state, 1, TOP);
}
