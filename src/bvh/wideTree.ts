/**
 * The 4-way tree between the collapse and the packers. Wide node w has four slots s (index 4w + s):
 * kind CHILD_NODE (ref = a wide node), CHILD_LEAF (ref = a binary leaf, whose range of triangleOrder
 * the slot names) or CHILD_EMPTY. `source` is the binary node whose bounds the slot's box must contain.
 *
 * Nodes [firstShared, nodeCount) are shared leaf nodes: each joins the slots of two half-full leaf
 * nodes and has two parents, each of which bounds only its own half. Their children are quantized
 * against sharedFrames (6 per shared node: the union of both halves) instead of a parent's box.
 */
export const CHILD_NODE = 0;
export const CHILD_EMPTY = 1;
export const CHILD_LEAF = 2;

export interface WideTree {
  nodeCount: number;
  kind: Uint8Array;
  ref: Int32Array;
  source: Int32Array;
  /** Depth of each wide node, root 0 (a shared node takes the deeper of its two places). */
  depth: Int32Array;
  firstShared: number;
  sharedFrames: Float64Array;
}
