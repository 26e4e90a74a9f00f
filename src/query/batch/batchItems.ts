/**
 * What a batched tree walk asks of the items it carries down (rays now; boxes and capsule sweeps later).
 * The walk owns the tree: it fetches and decodes each node once per batch and decides the child order;
 * the items own the per-item tests, each one tight loop over the surviving items, so the call overhead
 * is paid per node, never per item.
 *
 * The invariant that makes one array enough (the "move-to-front" batching): at a node, the items
 * active[0 .. count) are exactly those that reached it. cull() only permutes that prefix, moving the
 * items that pass to its front; the subtrees below then permute only their own prefixes, so when the
 * walk comes back to a sibling, active[0 .. count) still holds the same set, in another order.
 */
export interface BatchItems {
  /** Item ids; the walk reads nothing in it, cull() and testLeaf() do. */
  readonly active: Int32Array;
  /**
   * Moves the items of active[0 .. count) that may touch the box (conservatively) to the front and
   * returns how many they are. With voting on, fills the votes of those survivors.
   */
  cull(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, count: number): number;
  /** Tests active[0 .. count) against the leaf's references triangleOrder[first .. first + references). */
  testLeaf(first: number, references: number, count: number): void;
  /** What cull() collects about its survivors for the walk's child order (VOTE_*). */
  voteMode: number;
  /** Survivors per direction octant (VOTE_OCTANTS). */
  readonly octantVotes: Int32Array;
  /** Sum of the survivors' directions (VOTE_DIRECTIONS). */
  readonly directionSum: Float64Array;
}

export const VOTE_NONE = 0;
export const VOTE_OCTANTS = 1;
export const VOTE_DIRECTIONS = 2;

/** Work of a batched walk: item-node visits and item-box tests (summed over items). */
export class BatchCounters {
  nodesVisited = 0;
  boxesTested = 0;

  reset(): void {
    this.nodesVisited = 0;
    this.boxesTested = 0;
  }
}

/** The walk's explicit stack, sized for a tree depth: an entry is a node (or child word), an item count and a box. */
export class BatchStack {
  readonly word: Uint32Array;
  readonly count: Int32Array;
  readonly box: Float64Array;

  constructor(readonly capacity: number) {
    this.word = new Uint32Array(capacity);
    this.count = new Int32Array(capacity);
    this.box = new Float64Array(6 * capacity);
  }
}
