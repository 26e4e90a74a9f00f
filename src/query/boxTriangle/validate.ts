/**
 * The boundary checks for box-triangle tests. The kernels assume finite input (a NaN would slip through
 * their comparisons as some arbitrary exit); every public entry point checks here first and reports
 * EXIT_INVALID or throws InvalidParameterError instead.
 */

/** A usable box: finite centre, finite half-sizes ≥ 0 (zero is a flat box or a point). */
export function isValidBox(box: ArrayLike<number>, b: number): boolean {
  for (let axis = 0; axis < 3; axis++) {
    if (!(Math.abs(box[b + axis]!) < Infinity)) return false;
    const half = box[b + 3 + axis]!;
    if (!(half >= 0 && half < Infinity)) return false;
  }
  return true;
}

/** Finite coordinates for all three vertices (degenerate triangles are valid: they have an answer). */
export function isValidTriangle(positions: ArrayLike<number>, vertex0: number, vertex1: number, vertex2: number): boolean {
  for (const vertex of [vertex0, vertex1, vertex2]) {
    for (let axis = 0; axis < 3; axis++) if (!(Math.abs(positions[3 * vertex + axis]!) < Infinity)) return false;
  }
  return true;
}
