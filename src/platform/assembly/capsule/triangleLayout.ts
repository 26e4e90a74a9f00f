// Triangles in leaf-reference order, four at a time as structure of arrays (144 bytes per group: nine
// f32x4 rows ax, ay, az, bx, by, bz, cx, cy, cz), as the ray kernel keeps them: reference k's corner c,
// axis a is the float32 at group(k) + 48c + 16a + 4(k & 3).

import { TRIANGLE_GROUP_BYTES as TRIANGLE_GROUP } from '../generated/layout';

/** Address of reference k's lane in its group (corner c, axis a at + 48c + 16a). */
export function triangleAt(triangles: usize, k: u32): usize {
  return triangles + <usize>(k >>> 2) * TRIANGLE_GROUP + 4 * <usize>(k & 3);
}

/** Address of the pair of lanes holding reference k (k even: lanes 0–1 or 2–3), for quickCull.ts. */
export function trianglePair(triangles: usize, k: u32): usize {
  return triangles + <usize>(k >>> 2) * TRIANGLE_GROUP + 4 * <usize>(k & 2);
}
