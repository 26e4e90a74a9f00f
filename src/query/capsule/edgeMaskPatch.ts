import { BEND_VALLEY, groupEdges, sharedEdgeBend } from './edgeMasks';

/** partner[e]: the other slot of a two-triangle edge, BORDER for an edge of one triangle, NON_MANIFOLD for more. */
export const BORDER = -1;
export const NON_MANIFOLD = -2;

/**
 * Which edge slot shares each edge slot's vertex pair (computeEdgeMasks' grouping, kept so that a
 * refit can patch the masks: the topology never changes, only the bends do). 4 bytes per edge slot.
 */
export function edgePartners(indices: Uint32Array, vertexCount: number): Int32Array {
  const { low, high, order, slotCount } = groupEdges(indices, vertexCount);
  const partner = new Int32Array(indices.length - (indices.length % 3));
  let start = 0;
  while (start < slotCount) {
    const first = order[start]!;
    let end = start + 1;
    while (end < slotCount && low[order[end]!] === low[first] && high[order[end]!] === high[first]) end++;
    const size = end - start;
    for (let k = start; k < end; k++) partner[order[k]!] = size === 1 ? BORDER : size > 2 ? NON_MANIFOLD : order[start + end - 1 - k]!;
    start = end;
  }
  return partner;
}

/**
 * Brings computeEdgeMasks' masks (whole mesh, no filter) up to date after `count` triangles moved: the
 * bits of those triangles and of their neighbours (the lower slot of an edge owns its bit, and a bend
 * depends on both triangles) are recomputed as computeEdgeMasks computes them. `stamp` (one int per
 * triangle, kept between calls with `epoch` increasing) marks the triangles done.
 */
export function patchEdgeMasks(
  positions: Float32Array,
  indices: Uint32Array,
  partner: Int32Array,
  masks: Uint8Array,
  triangles: Uint32Array,
  count: number,
  stamp: Int32Array,
  epoch: number,
): void {
  for (let i = 0; i < count; i++) {
    const t = triangles[i]!;
    refreshTriangle(positions, indices, partner, masks, t, stamp, epoch);
    for (let k = 0; k < 3; k++) {
      const other = partner[3 * t + k]!;
      if (other >= 0) refreshTriangle(positions, indices, partner, masks, (other / 3) | 0, stamp, epoch);
    }
  }
}

function refreshTriangle(
  positions: Float32Array,
  indices: Uint32Array,
  partner: Int32Array,
  masks: Uint8Array,
  t: number,
  stamp: Int32Array,
  epoch: number,
): void {
  if (stamp[t] === epoch) return;
  stamp[t] = epoch;
  let edges = 0;
  for (let i = 0; i < 3; i++) {
    const e = 3 * t + i;
    const other = partner[e]!;
    // A border edge is always kept by its only slot; a non-manifold one by its lowest slot, whatever the
    // geometry (its bit stays); a shared one by its lower slot unless it is a valley.
    if (other === BORDER) edges |= 1 << i;
    else if (other === NON_MANIFOLD) edges |= masks[t]! & (1 << i);
    else if (e < other && sharedEdgeBend(positions, indices, e, other) !== BEND_VALLEY) edges |= 1 << i;
  }
  // Vertex i lies on edge i and on edge i−1 (as computeEdgeMasks).
  const vertices = (edges | (((edges << 1) | (edges >> 2)) & 7)) & 7;
  masks[t] = edges | (vertices << 3);
}
