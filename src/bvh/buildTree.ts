/**
 * The binary tree the SAH builder produces, before any collapse or packing. Later layouts (the 4-way
 * collapse here, a binary packed tree with node sorting later) all start from this one structure.
 *
 * Node n: bounds[6n .. 6n+5] = minX, minY, minZ, maxX, maxY, maxZ (float64, tight around the node's
 * references, possibly clipped by spatial splits). Internal nodes have left[n], right[n] ≥ 0 and
 * children always have larger ids than their parent. Leaves have left[n] = −1 and name
 * triangleOrder[leafStart[n] .. leafStart[n] + leafCount[n]), leaves laid out in depth-first order.
 */
export interface BuildTree {
  nodeCount: number;
  bounds: Float64Array;
  left: Int32Array;
  right: Int32Array;
  leafStart: Int32Array;
  leafCount: Int32Array;
  /** Leaves below each node (1 for a leaf): the 4-way collapse prices wasted slots with it. */
  leavesBelow: Int32Array;
  /** Triangle ids of all leaves, in tree order; a triangle split spatially appears more than once. */
  triangleOrder: Uint32Array;
  /** triangleOrder.length: references after spatial splits (≥ the triangle count). */
  referenceCount: number;
  triangleCount: number;
  /** Reference slots the builder's spatial splits used beyond the triangle count (bounded by budget). */
  spatialSplitCount: number;
}

/** Grows a typed array to at least `needed` elements, keeping its contents. */
export function growInt32(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const grown = new Int32Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}

export function growFloat64(array: Float64Array<ArrayBuffer>, needed: number): Float64Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const grown = new Float64Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}
