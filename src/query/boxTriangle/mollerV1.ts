import {
  EXIT_AXIS_X,
  EXIT_AXIS_Y,
  EXIT_AXIS_Z,
  EXIT_EDGE0_X,
  EXIT_EDGE0_Y,
  EXIT_EDGE0_Z,
  EXIT_EDGE1_X,
  EXIT_EDGE1_Y,
  EXIT_EDGE1_Z,
  EXIT_EDGE2_X,
  EXIT_EDGE2_Y,
  EXIT_EDGE2_Z,
  EXIT_OVERLAP,
  EXIT_PLANE,
} from './exits';

/**
 * Tomas Akenine-Möller's triangle-box overlap test, the published "old code": a baseline, kept faithful
 * to the original's order of tests and its arithmetic expression by expression (so the rounding is the
 * original's, in float64 instead of float32), only spelled as scalar locals instead of float[3] arrays.
 *
 * Separating axis theorem with the 13 candidate axes, in this order:
 *   1. the box's x, y, z axes: the triangle's bounding box against the box (min/max of three values);
 *   2. the triangle's normal: does the plane cut the box (planeBoxOverlapV1, with the plane offset d);
 *   3. the nine cross products edge × axis, each projecting the two vertices that differ on it.
 * Every test returns as soon as it finds a separating axis. Input is assumed finite (see validate.ts);
 * NaN gives some exit code, never a throw. The box is box[b..b+5] = cx, cy, cz, hx, hy, hz (h ≥ 0), the
 * triangle's corners are vertices vertex0, vertex1, vertex2 of `positions` (xyz each); returns the exit.
 */
export function mollerV1(box: Float64Array, b: number, positions: Float32Array, vertex0: number, vertex1: number, vertex2: number): number {
  const cx = box[b]!,
    cy = box[b + 1]!,
    cz = box[b + 2]!;
  const hx = box[b + 3]!,
    hy = box[b + 4]!,
    hz = box[b + 5]!;
  const i0 = 3 * vertex0,
    i1 = 3 * vertex1,
    i2 = 3 * vertex2;
  const ax = positions[i0]!,
    ay = positions[i0 + 1]!,
    az = positions[i0 + 2]!;
  const bx = positions[i1]!,
    by = positions[i1 + 1]!,
    bz = positions[i1 + 2]!;
  const qx = positions[i2]!,
    qy = positions[i2 + 1]!,
    qz = positions[i2 + 2]!;
  // Everything relative to the box centre.
  const v0x = ax - cx,
    v0y = ay - cy,
    v0z = az - cz;
  const v1x = bx - cx,
    v1y = by - cy,
    v1z = bz - cz;
  const v2x = qx - cx,
    v2y = qy - cy,
    v2z = qz - cz;
  let min: number, max: number;

  // 1. Box axes (the original's FINDMINMAX: two data-dependent branches per extra value).
  min = max = v0x;
  if (v1x < min) min = v1x;
  if (v1x > max) max = v1x;
  if (v2x < min) min = v2x;
  if (v2x > max) max = v2x;
  if (min > hx || max < -hx) return EXIT_AXIS_X;
  min = max = v0y;
  if (v1y < min) min = v1y;
  if (v1y > max) max = v1y;
  if (v2y < min) min = v2y;
  if (v2y > max) max = v2y;
  if (min > hy || max < -hy) return EXIT_AXIS_Y;
  min = max = v0z;
  if (v1z < min) min = v1z;
  if (v1z > max) max = v1z;
  if (v2z < min) min = v2z;
  if (v2z > max) max = v2z;
  if (min > hz || max < -hz) return EXIT_AXIS_Z;

  // 2. Triangle normal: plane n·x + d = 0 through v0.
  const e0x = v1x - v0x,
    e0y = v1y - v0y,
    e0z = v1z - v0z;
  const e1x = v2x - v1x,
    e1y = v2y - v1y,
    e1z = v2z - v1z;
  const nx = e0y * e1z - e0z * e1y;
  const ny = e0z * e1x - e0x * e1z;
  const nz = e0x * e1y - e0y * e1x;
  const d = -(nx * v0x + ny * v0y + nz * v0z);
  if (!planeBoxOverlapV1(nx, ny, nz, d, hx, hy, hz)) return EXIT_PLANE;

  // 3. Edge × axis; the original macro names say which two vertices each one projects.
  const e2x = v0x - v2x,
    e2y = v0y - v2y,
    e2z = v0z - v2z;
  let p0: number, p1: number, p2: number, rad: number;
  let fex = Math.abs(e0x),
    fey = Math.abs(e0y),
    fez = Math.abs(e0z);
  // AXISTEST_X01(e0z, e0y, fez, fey)
  p0 = e0z * v0y - e0y * v0z;
  p2 = e0z * v2y - e0y * v2z;
  if (p0 < p2) {
    min = p0;
    max = p2;
  } else {
    min = p2;
    max = p0;
  }
  rad = fez * hy + fey * hz;
  if (min > rad || max < -rad) return EXIT_EDGE0_X;
  // AXISTEST_Y02(e0z, e0x, fez, fex)
  p0 = -e0z * v0x + e0x * v0z;
  p2 = -e0z * v2x + e0x * v2z;
  if (p0 < p2) {
    min = p0;
    max = p2;
  } else {
    min = p2;
    max = p0;
  }
  rad = fez * hx + fex * hz;
  if (min > rad || max < -rad) return EXIT_EDGE0_Y;
  // AXISTEST_Z12(e0y, e0x, fey, fex)
  p1 = e0y * v1x - e0x * v1y;
  p2 = e0y * v2x - e0x * v2y;
  if (p2 < p1) {
    min = p2;
    max = p1;
  } else {
    min = p1;
    max = p2;
  }
  rad = fey * hx + fex * hy;
  if (min > rad || max < -rad) return EXIT_EDGE0_Z;

  fex = Math.abs(e1x);
  fey = Math.abs(e1y);
  fez = Math.abs(e1z);
  // AXISTEST_X01(e1z, e1y, fez, fey)
  p0 = e1z * v0y - e1y * v0z;
  p2 = e1z * v2y - e1y * v2z;
  if (p0 < p2) {
    min = p0;
    max = p2;
  } else {
    min = p2;
    max = p0;
  }
  rad = fez * hy + fey * hz;
  if (min > rad || max < -rad) return EXIT_EDGE1_X;
  // AXISTEST_Y02(e1z, e1x, fez, fex)
  p0 = -e1z * v0x + e1x * v0z;
  p2 = -e1z * v2x + e1x * v2z;
  if (p0 < p2) {
    min = p0;
    max = p2;
  } else {
    min = p2;
    max = p0;
  }
  rad = fez * hx + fex * hz;
  if (min > rad || max < -rad) return EXIT_EDGE1_Y;
  // AXISTEST_Z0(e1y, e1x, fey, fex)
  p0 = e1y * v0x - e1x * v0y;
  p1 = e1y * v1x - e1x * v1y;
  if (p0 < p1) {
    min = p0;
    max = p1;
  } else {
    min = p1;
    max = p0;
  }
  rad = fey * hx + fex * hy;
  if (min > rad || max < -rad) return EXIT_EDGE1_Z;

  fex = Math.abs(e2x);
  fey = Math.abs(e2y);
  fez = Math.abs(e2z);
  // AXISTEST_X2(e2z, e2y, fez, fey)
  p0 = e2z * v0y - e2y * v0z;
  p1 = e2z * v1y - e2y * v1z;
  if (p0 < p1) {
    min = p0;
    max = p1;
  } else {
    min = p1;
    max = p0;
  }
  rad = fez * hy + fey * hz;
  if (min > rad || max < -rad) return EXIT_EDGE2_X;
  // AXISTEST_Y1(e2z, e2x, fez, fex)
  p0 = -e2z * v0x + e2x * v0z;
  p1 = -e2z * v1x + e2x * v1z;
  if (p0 < p1) {
    min = p0;
    max = p1;
  } else {
    min = p1;
    max = p0;
  }
  rad = fez * hx + fex * hz;
  if (min > rad || max < -rad) return EXIT_EDGE2_Y;
  // AXISTEST_Z12(e2y, e2x, fey, fex)
  p1 = e2y * v1x - e2x * v1y;
  p2 = e2y * v2x - e2x * v2y;
  if (p2 < p1) {
    min = p2;
    max = p1;
  } else {
    min = p1;
    max = p2;
  }
  rad = fey * hx + fex * hy;
  if (min > rad || max < -rad) return EXIT_EDGE2_Z;

  return EXIT_OVERLAP;
}

/**
 * The old code's plane test: the box corners nearest and farthest along n (chosen by the sign of each
 * component) against the plane n·x + d = 0 through the box centre's frame.
 */
export function planeBoxOverlapV1(nx: number, ny: number, nz: number, d: number, hx: number, hy: number, hz: number): boolean {
  let minX: number, maxX: number, minY: number, maxY: number, minZ: number, maxZ: number;
  if (nx > 0) {
    minX = -hx;
    maxX = hx;
  } else {
    minX = hx;
    maxX = -hx;
  }
  if (ny > 0) {
    minY = -hy;
    maxY = hy;
  } else {
    minY = hy;
    maxY = -hy;
  }
  if (nz > 0) {
    minZ = -hz;
    maxZ = hz;
  } else {
    minZ = hz;
    maxZ = -hz;
  }
  if (nx * minX + ny * minY + nz * minZ + d > 0) return false;
  if (nx * maxX + ny * maxY + nz * maxZ + d >= 0) return true;
  return false;
}
