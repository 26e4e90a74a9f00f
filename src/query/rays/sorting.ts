/**
 * Node-sorting strategies: the order in which a traversal visits the children of a node. A ray shrinks
 * on every hit, so visiting the nearer child first lets the shrunk ray skip the farther subtree.
 *
 * Binary tree: 'none' (left, then right), 'distance' (child centres projected on the ray's direction),
 * 'split-axis' (along the axis separating the children, the side the ray comes from) and
 * 'precomputed' (8 bits per node, one per direction octant, chosen by one AND with the ray's mask).
 * 4-way tree: 'none' (slot order), 'tmax' (hit children by exit distance, the existing order) and
 * 'precomputed' (one permutation of the four slots per octant, stored beside the nodes).
 */
export const BINARY_SORTINGS = ['none', 'distance', 'split-axis', 'precomputed'] as const;
export const WIDE_SORTINGS = ['none', 'tmax', 'precomputed'] as const;
export type BinarySorting = (typeof BINARY_SORTINGS)[number];
export type WideSorting = (typeof WIDE_SORTINGS)[number];
export type NodeSorting = BinarySorting | WideSorting;

export const SORT_NONE = 0;
export const SORT_DISTANCE = 1;
export const SORT_SPLIT_AXIS = 2;
export const SORT_PRECOMPUTED = 3;
export const SORT_TMAX = 4;

export function sortingCode(sorting: NodeSorting): number {
  switch (sorting) {
    case 'none':
      return SORT_NONE;
    case 'distance':
      return SORT_DISTANCE;
    case 'split-axis':
      return SORT_SPLIT_AXIS;
    case 'precomputed':
      return SORT_PRECOMPUTED;
    case 'tmax':
      return SORT_TMAX;
  }
}

/** Slot order 0, 1, 2, 3 in the two-bits-per-position form of the 4-way permutations. */
export const IDENTITY_PERMUTATION = 0b11100100;
