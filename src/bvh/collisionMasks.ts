import { InvalidParameterError } from '../errors';
import type { BuildTree } from './buildTree';
import { CHILD_LEAF, CHILD_NODE, type WideTree } from './wideTree';

/**
 * Collision masks as in the talk: every triangle carries an 8-bit material id indexing a table of
 * 32-bit masks ("water", "player only", ...), every node the 8-bit index of its subtree's combined
 * mask in a second table, and a query's 32-bit filter keeps a triangle when (mask & filter) ≠ 0. A
 * node whose combined mask misses the filter is skipped with everything below it.
 */
export const MASK_TABLE_SIZE = 256;
/** The filter that keeps everything, and the mask of a triangle that every filter but 0 keeps. */
export const MASK_ALL = 0xffffffff;

/** Materials a caller hands to buildBVH: a material id per triangle, and material id → 32-bit mask. */
export interface MaterialInput {
  readonly ids: Uint8Array;
  readonly masks: Uint32Array;
}

export interface CollisionMasks {
  /** Material id of each triangle, by the BVH's triangle ids (permuted along with a reordered mesh). */
  readonly materialIds: Uint8Array;
  /** material id → mask; always 256 entries, those past the caller's table 0. */
  readonly materialMasks: Uint32Array;
  /** Node mask index → the union of the masks below the node; always 256 entries. */
  readonly nodeMasks: Uint32Array;
  /** Entries of nodeMasks in use. */
  readonly nodeMaskCount: number;
  /** Entries of the caller's material table (1 when the mesh came without materials). */
  readonly materialCount: number;
}

/** Checks a query's filter at the API boundary. */
export function checkFilter(value: unknown, name = 'filter'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MASK_ALL)
    throw new InvalidParameterError(name, 'a 32-bit unsigned integer (0 .. 0xffffffff)', value);
  return value;
}

/** Checks caller materials against the mesh: one id per triangle, every id naming an entry of a table of at most 256 masks. */
export function validateMaterials(input: unknown, triangleCount: number): MaterialInput {
  if (typeof input !== 'object' || input === null) throw new InvalidParameterError('materials', '{ ids: Uint8Array, masks: Uint32Array }', input);
  const { ids, masks } = input as Partial<MaterialInput>;
  if (!(masks instanceof Uint32Array) || masks.length === 0 || masks.length > MASK_TABLE_SIZE)
    throw new InvalidParameterError(
      'materials.masks',
      `a Uint32Array of 1 to ${MASK_TABLE_SIZE} masks`,
      masks instanceof Uint32Array ? `${masks.length} masks` : masks,
    );
  if (!(ids instanceof Uint8Array) || ids.length !== triangleCount)
    throw new InvalidParameterError(
      'materials.ids',
      `a Uint8Array of one material id per triangle (${triangleCount})`,
      ids instanceof Uint8Array ? `${ids.length} ids` : ids,
    );
  for (let i = 0; i < ids.length; i++) {
    if (ids[i]! >= masks.length)
      throw new InvalidParameterError(`materials.ids[${i}]`, `a material id below ${masks.length} (the mask table's size)`, ids[i]);
  }
  return { ids, masks };
}

/**
 * The masks of a new BVH: the triangles' masks (every triangle MASK_ALL without materials), and the
 * index of each wide node's combined mask. Unions are interned; should more than 256 distinct unions
 * occur, the overflow nodes take MASK_ALL (a superset: such a node is never skipped, never wrongly).
 */
export function buildCollisionMasks(
  materials: MaterialInput | null,
  triangleCount: number,
  tree: BuildTree,
  wide: WideTree,
): { masks: CollisionMasks; nodeMaskIndex: Uint8Array } {
  const materialIds = materials === null ? new Uint8Array(triangleCount) : materials.ids.slice();
  const materialMasks = new Uint32Array(MASK_TABLE_SIZE);
  if (materials === null) materialMasks[0] = MASK_ALL;
  else materialMasks.set(materials.masks);

  const nodeCount = wide.nodeCount;
  const unions = new Uint32Array(nodeCount);
  const order = tree.triangleOrder;
  // Children have larger indices than their parents (shared nodes come last), so a descending pass
  // sees every child's union before its parent.
  for (let node = nodeCount - 1; node >= 0; node--) {
    let union = 0;
    for (let s = 0; s < 4; s++) {
      const slot = 4 * node + s;
      const kind = wide.kind[slot]!;
      const ref = wide.ref[slot]!;
      if (kind === CHILD_NODE) union |= unions[ref]!;
      else if (kind === CHILD_LEAF) {
        const first = tree.leafStart[ref]!;
        const end = first + tree.leafCount[ref]!;
        for (let k = first; k < end; k++) union |= materialMasks[materialIds[order[k]!]!]!;
      }
    }
    unions[node] = union >>> 0;
  }

  const nodeMasks = new Uint32Array(MASK_TABLE_SIZE);
  const indexOf = new Map<number, number>();
  const nodeMaskIndex = new Uint8Array(nodeCount);
  const intern = (mask: number): number => {
    const known = indexOf.get(mask);
    if (known !== undefined) return known;
    // Keep the last entry free for MASK_ALL, the superset every overflowing union falls back to.
    if (indexOf.size >= MASK_TABLE_SIZE - 1 && mask !== MASK_ALL) return intern(MASK_ALL);
    const index = indexOf.size;
    nodeMasks[index] = mask;
    indexOf.set(mask, index);
    return index;
  };
  for (let node = 0; node < nodeCount; node++) nodeMaskIndex[node] = intern(unions[node]!);
  if (nodeCount === 0) intern(MASK_ALL);
  return {
    masks: { materialIds, materialMasks, nodeMasks, nodeMaskCount: indexOf.size, materialCount: materials === null ? 1 : materials.masks.length },
    nodeMaskIndex,
  };
}

/** A triangle's mask passes the filter. */
export const triangleKept = (masks: CollisionMasks, triangle: number, filter: number): boolean =>
  (masks.materialMasks[masks.materialIds[triangle]!]! & filter) !== 0;
