import type { BVH } from './buildBVH';
import { forEachNodeBox } from './nodeBoxes';

/**
 * Precomputed child orders, one per octant of ray direction (the old painter's-algorithm trick of eight
 * precomputed sort orders, applied to tree traversal): a ray takes its octant once from the signs of its
 * direction, and a node's order for that octant is a table look-up instead of a per-node distance test.
 *
 * Octant o = 4·[dx < 0] + 2·[dy < 0] + [dz < 0]; its representative direction is the diagonal
 * (±1, ±1, ±1) with those signs. Children are ranked by the projection of their box centres on it,
 * the same key the distance sort uses with the ray's own direction.
 */
export const octantOf = (dx: number, dy: number, dz: number): number => (dx < 0 ? 4 : 0) | (dy < 0 ? 2 : 0) | (dz < 0 ? 1 : 0);

/** Sign (+1 or −1) of the diagonal of octant o on axis k (0 x, 1 y, 2 z). */
export const octantSign = (octant: number, axis: number): number => ((octant >> (2 - axis)) & 1 ? -1 : 1);

/**
 * Bit o set: for octant o, visit the right child first. Keys are projections of doubled centres (the
 * factor 2 does not change the order); a tie keeps the left child first.
 */
export function binaryOctantCode(
  lMinX: number,
  lMinY: number,
  lMinZ: number,
  lMaxX: number,
  lMaxY: number,
  lMaxZ: number,
  rMinX: number,
  rMinY: number,
  rMinZ: number,
  rMaxX: number,
  rMaxY: number,
  rMaxZ: number,
): number {
  const x = rMinX + rMaxX - lMinX - lMaxX;
  const y = rMinY + rMaxY - lMinY - lMaxY;
  const z = rMinZ + rMaxZ - lMinZ - lMaxZ;
  let code = 0;
  for (let octant = 0; octant < 8; octant++) {
    const along = octantSign(octant, 0) * x + octantSign(octant, 1) * y + octantSign(octant, 2) * z;
    if (along < 0) code |= 1 << octant;
  }
  return code;
}

/**
 * The split-axis order in the same 8-bit form: along the axis where the children's centres lie farthest
 * apart, visit first the child on the side the ray comes from. Coded like the precomputed order, so it
 * costs the traversal the same one AND and differs only in the order it picks.
 */
export function splitAxisCode(
  lMinX: number,
  lMinY: number,
  lMinZ: number,
  lMaxX: number,
  lMaxY: number,
  lMaxZ: number,
  rMinX: number,
  rMinY: number,
  rMinZ: number,
  rMaxX: number,
  rMaxY: number,
  rMaxZ: number,
): number {
  const x = rMinX + rMaxX - lMinX - lMaxX;
  const y = rMinY + rMaxY - lMinY - lMaxY;
  const z = rMinZ + rMaxZ - lMinZ - lMaxZ;
  const ax = Math.abs(x),
    ay = Math.abs(y),
    az = Math.abs(z);
  const axis = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const difference = axis === 0 ? x : axis === 1 ? y : z;
  if (difference === 0) return 0;
  let code = 0;
  for (let octant = 0; octant < 8; octant++) {
    // The right child lies on the positive side when difference > 0: a ray moving towards −axis meets it first.
    if (octantSign(octant, axis) < 0 === difference > 0) code |= 1 << octant;
  }
  return code;
}

/**
 * Per-octant child permutations of the 4-way tree, 8 bytes per node beside the nodes: byte 8n + o holds
 * the order of node n's slots for octant o, two bits per position (first slot in bits 0..1). Empty slots
 * go last; ties keep slot order. Computed from the boxes the traversal decodes.
 */
export function wideOctantPermutations(bvh: BVH): Uint8Array {
  const nodeCount = (bvh.quantized ?? bvh.float)?.nodeCount ?? 0;
  const centres = new Float64Array(12 * nodeCount);
  const present = new Uint8Array(4 * nodeCount);
  forEachNodeBox(bvh, (minX, minY, minZ, maxX, maxY, maxZ, _depth, _isLeaf, node, slot) => {
    const o = 12 * node + 3 * slot;
    centres[o] = minX + maxX;
    centres[o + 1] = minY + maxY;
    centres[o + 2] = minZ + maxZ;
    present[4 * node + slot] = 1;
  });
  const permutations = new Uint8Array(8 * nodeCount);
  const keys = new Float64Array(4);
  const order = [0, 1, 2, 3];
  for (let node = 0; node < nodeCount; node++) {
    for (let octant = 0; octant < 8; octant++) {
      const sx = octantSign(octant, 0),
        sy = octantSign(octant, 1),
        sz = octantSign(octant, 2);
      for (let s = 0; s < 4; s++) {
        const o = 12 * node + 3 * s;
        keys[s] = present[4 * node + s] ? sx * centres[o]! + sy * centres[o + 1]! + sz * centres[o + 2]! : Infinity;
      }
      order.sort((a, b) => keys[a]! - keys[b]! || a - b);
      permutations[8 * node + octant] = order[0]! | (order[1]! << 2) | (order[2]! << 4) | (order[3]! << 6);
    }
  }
  return permutations;
}
