/**
 * Vertex normals of a height grid from central height differences (one-sided at the border), exact unit
 * length, written for the vertex rectangle [col0, col1] × [row0, row1] (inclusive): the whole grid at
 * generation, the ring around an edit afterwards, with the same arithmetic so both agree bit for bit.
 */
export function writeHeightfieldNormals(
  heights: Float32Array,
  side: number,
  spacing: number,
  normals: Float32Array,
  col0 = 0,
  row0 = 0,
  col1 = side - 1,
  row1 = side - 1,
): void {
  for (let row = row0; row <= row1; row++) {
    const up = row > 0 ? row - 1 : row;
    const down = row < side - 1 ? row + 1 : row;
    for (let col = col0; col <= col1; col++) {
      const left = col > 0 ? col - 1 : col;
      const right = col < side - 1 ? col + 1 : col;
      const slopeX = (heights[row * side + right]! - heights[row * side + left]!) / ((right - left) * spacing);
      const slopeZ = (heights[down * side + col]! - heights[up * side + col]!) / ((down - up) * spacing);
      const inverseLength = 1 / Math.sqrt(slopeX * slopeX + 1 + slopeZ * slopeZ);
      const v = 3 * (row * side + col);
      normals[v] = -slopeX * inverseLength;
      normals[v + 1] = inverseLength;
      normals[v + 2] = -slopeZ * inverseLength;
    }
  }
}
