declare module 'box-intersect' {
  type Box = ArrayLike<number>;
  /** All intersecting pairs of closed boxes within one set (flattened [min..., max...] per box); a visitor may stop early by returning a value. */
  function boxIntersect(boxes: Box[], visit?: (i: number, j: number) => unknown): unknown;
  function boxIntersect(red: Box[], blue: Box[], visit?: (i: number, j: number) => unknown): unknown;
  export default boxIntersect;
}
