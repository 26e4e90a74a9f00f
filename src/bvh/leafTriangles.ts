/**
 * Triangles copied in leaf order: reference k of a tree's triangleOrder becomes the nine floats
 * 9k .. 9k+8 (corners a, b, c as in the mesh). A leaf's triangles then sit in a few consecutive cache
 * lines instead of an order entry, an index triple and three scattered vertices each. On an incoherent
 * ray over a big mesh those scattered reads, not the arithmetic, set the pace; the price is 36 bytes per
 * reference. Ray-triangle kernels read it as a mesh whose triangle k has vertices 3k, 3k + 1, 3k + 2.
 *
 * `order` null: the leaves name mesh triangles directly (a reordered mesh).
 */
export function packLeafTriangles(positions: Float32Array, indices: Uint32Array, order: Uint32Array | null): Float32Array {
  const references = order === null ? indices.length / 3 : order.length;
  const packed = new Float32Array(9 * references);
  for (let k = 0; k < references; k++) {
    const triangle = order === null ? k : order[k]!;
    for (let corner = 0; corner < 3; corner++) {
      const v = 3 * indices[3 * triangle + corner]!;
      const o = 9 * k + 3 * corner;
      packed[o] = positions[v]!;
      packed[o + 1] = positions[v + 1]!;
      packed[o + 2] = positions[v + 2]!;
    }
  }
  return packed;
}
