import type { CollisionMasks } from '../../bvh/collisionMasks';
import { nodeMaskIndexAt } from '../../bvh/childWord';

/**
 * The collision filter as every walk applies it: a node whose combined mask misses the filter is cut
 * with its subtree, a triangle whose mask misses it is not tested. The checks are made only when the
 * filter rejects some material of the mesh (filterRejectsSome), so an unfiltered query pays nothing.
 */

/** Whether `filter` rejects any material the mesh's table holds; when not, a walk can skip every check. */
export function filterRejectsSome(masks: CollisionMasks, filter: number): boolean {
  const table = masks.materialMasks;
  for (let m = 0; m < masks.materialCount; m++) if ((table[m]! & filter) === 0) return true;
  return false;
}

/** The node whose child words start at u32[wordBase] has nothing below it that the filter keeps. */
export const subtreeMasked = (u32: Uint32Array, wordBase: number, nodeMasks: Uint32Array, filter: number): boolean =>
  (nodeMasks[nodeMaskIndexAt(u32, wordBase)]! & filter) === 0;

/** The filter rejects triangle `triangle` (a BVH triangle id). */
export const triangleMasked = (materialIds: Uint8Array, materialMasks: Uint32Array, triangle: number, filter: number): boolean =>
  (materialMasks[materialIds[triangle]!]! & filter) === 0;
