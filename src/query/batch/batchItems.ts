/**
 * What a batched tree walk asks of the items it carries down (rays now; boxes and capsule sweeps later).
 * The walk owns the tree: it fetches and decodes each node once per batch and decides the child order;
 * the items own the per-item tests, each one tight loop over the surviving items, so the call overhead
 * is paid per node, never per item.
 *
 * The invariant that makes one array enough (the "move-to-front" batching): at a node, the items
 * 0 .. count of the items' array are exactly those that reached it. cull() only permutes that prefix,
 * moving the items that pass to its front; the subtrees below then permute only their own prefixes, so
 * when the walk comes back to a sibling, the first `count` items are still the same set, in another
 * order. (Whether the items move themselves or an index array is the items' choice.)
 */
export interface BatchItems {
  /**
   * Moves the first `count` items that may touch the box (conservatively) to the front and
   * returns how many they are. With voting on, fills the votes of those survivors.
   */
  cull(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, count: number): number;
  /** Tests the first `count` items against the leaf's references triangleOrder[first .. first + references). */
  testLeaf(first: number, references: number, count: number): void;
  /**
   * Below a node reached by fewer than this many items, each one finishes the subtree by itself (0:
   * never): sharing is what batching buys, and a lone item walks faster with its own child order.
   */
  aloneBelow: number;
  /** The first `count` items (inside `node`'s box) each walk the binary subtree of `node` alone. */
  aloneBinary(count: number, node: number): void;
  /** The same for a 4-way node whose quantization frame is min xyz, step xyz (ignored by float nodes). */
  aloneWide(count: number, node: number, minX: number, minY: number, minZ: number, stepX: number, stepY: number, stepZ: number): void;
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

/** Work of a batched walk: item-node visits and item-box tests (summed over items), subtrees cut by the filter. */
export class BatchCounters {
  nodesVisited = 0;
  boxesTested = 0;
  /** Children not pushed because their mask misses the filter. */
  subtreesMasked = 0;

  reset(): void {
    this.nodesVisited = 0;
    this.boxesTested = 0;
    this.subtreesMasked = 0;
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
