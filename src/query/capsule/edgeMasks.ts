import { InvalidParameterError } from '../../errors';

/** Edge mask byte per triangle: bit i (0..2) tests edge i (vertex i → i+1), bit 3+i tests vertex i. */
export const EDGE_MASK_ALL = 0b111111;

/** Sine of the dihedral bend below which two triangles count as coplanar: the shared edge is then kept
 *  once rather than skipped as a valley (a valley that shallow changes a contact time by ~r·sin²). */
const COPLANAR_SINE = 1e-6;

export interface EdgeMaskStats {
  /** Edges with one triangle (mesh border), two, or more (non-manifold). */
  borderEdges: number;
  sharedEdges: number;
  nonManifoldEdges: number;
  /** Shared edges skipped as valleys (concave seen from the front). */
  valleyEdges: number;
  coplanarEdges: number;
  /** Edge tests kept / edge slots (3 per triangle). */
  edgesKept: number;
  verticesKept: number;
}

/**
 * Precomputes which edges and vertices each triangle tests, from the mesh alone:
 *  - an edge shared by two consistently wound triangles is tested from one of them only (the features
 *    of an edge do not depend on the triangle that names it);
 *  - a valley edge (the neighbour rises in front of the triangle) is skipped: a capsule coming from the
 *    front touches one of the two faces no later than the edge;
 *  - a coplanar shared edge is kept once, so a contact exactly on it is not left to two faces that each
 *    reject it by rounding;
 *  - border, non-manifold and inconsistently wound edges are kept (once);
 *  - a vertex is tested by a triangle when one of its two edges is: a vertex that can be touched first
 *    from the front has a ridge, coplanar or border edge, whose owner then tests it.
 * With `keep`, the masks of the mesh made of the triangles t with keep[t] ≠ 0 only (the others are not
 * anyone's neighbour and get mask 0): what a sweep with a collision filter needs, since an edge the
 * whole mesh leaves to a filtered neighbour, or skips as a valley against one, is a border edge of the
 * filtered mesh.
 */
export function computeEdgeMasks(positions: Float32Array, indices: Uint32Array, stats?: EdgeMaskStats, keep?: Uint8Array): Uint8Array {
  const triangleCount = Math.floor(indices.length / 3);
  const vertexCount = Math.floor(positions.length / 3);
  const { low, high, order, slotCount } = groupEdges(indices, vertexCount, keep);

  const masks = new Uint8Array(triangleCount);
  let borderEdges = 0,
    sharedEdges = 0,
    nonManifoldEdges = 0,
    valleyEdges = 0,
    coplanarEdges = 0;
  let start = 0;
  while (start < slotCount) {
    const first = order[start]!;
    let end = start + 1;
    while (end < slotCount && low[order[end]!] === low[first] && high[order[end]!] === high[first]) end++;
    const size = end - start;
    start = end;
    if (size === 1) borderEdges++;
    else if (size > 2) nonManifoldEdges++;
    else {
      sharedEdges++;
      const bend = sharedEdgeBend(positions, indices, first, order[end - 1]!);
      if (bend === BEND_VALLEY) {
        valleyEdges++;
        continue;
      }
      if (bend === BEND_COPLANAR) coplanarEdges++;
    }
    // The lowest slot owns the edge (the lowest triangle id: a stable choice).
    const t = (first / 3) | 0;
    masks[t]! |= 1 << (first - 3 * t);
  }

  let edgesKept = 0,
    verticesKept = 0;
  for (let t = 0; t < triangleCount; t++) {
    const edges = masks[t]! & 7;
    // Vertex i lies on edge i and on edge i−1 (bit i+2 rotated down).
    const vertices = (edges | (((edges << 1) | (edges >> 2)) & 7)) & 7;
    masks[t] = edges | (vertices << 3);
    edgesKept += (edges & 1) + ((edges >> 1) & 1) + ((edges >> 2) & 1);
    verticesKept += (vertices & 1) + ((vertices >> 1) & 1) + ((vertices >> 2) & 1);
  }
  if (stats !== undefined) Object.assign(stats, { borderEdges, sharedEdges, nonManifoldEdges, valleyEdges, coplanarEdges, edgesKept, verticesKept });
  return masks;
}

/** Edge slots (3t + i: edge i of triangle t, from corner i to corner i + 1) grouped by undirected vertex
 *  pair: order[0 .. slotCount) lists the kept slots so that equal (low, high) pairs are adjacent, in
 *  increasing slot order within a pair. */
export interface EdgeGroups {
  readonly low: Uint32Array;
  readonly high: Uint32Array;
  readonly order: Uint32Array;
  readonly slotCount: number;
}

export function groupEdges(indices: Uint32Array, vertexCount: number, keep?: Uint8Array): EdgeGroups {
  const triangleCount = Math.floor(indices.length / 3);
  const edgeCount = 3 * triangleCount;
  // Group edge slots by their undirected vertex pair: a counting sort on the lower vertex, then the
  // higher vertex within each (small) bucket.
  const low = new Uint32Array(edgeCount);
  const high = new Uint32Array(edgeCount);
  const bucketStart = new Uint32Array(vertexCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    const t = (e / 3) | 0;
    const i = e - 3 * t;
    const a = indices[3 * t + i]!;
    const b = indices[3 * t + (i === 2 ? 0 : i + 1)]!;
    if (a >= vertexCount || b >= vertexCount)
      throw new InvalidParameterError(`indices[${3 * t + i}]`, `a vertex index below ${vertexCount}`, Math.max(a, b));
    low[e] = a < b ? a : b;
    high[e] = a < b ? b : a;
    if (keep === undefined || keep[t] !== 0) bucketStart[low[e]! + 1]!++;
  }
  for (let v = 0; v < vertexCount; v++) bucketStart[v + 1]! += bucketStart[v]!;
  const fill = bucketStart.slice(0, vertexCount);
  const slotCount = bucketStart[vertexCount]!;
  const order = new Uint32Array(slotCount);
  for (let e = 0; e < edgeCount; e++) if (keep === undefined || keep[(e / 3) | 0] !== 0) order[fill[low[e]!]!++] = e;
  // Buckets are small (a vertex's edges), so insertion sort by (higher vertex, slot); slots enter in
  // increasing order, so equal keys stay in slot order.
  for (let v = 0; v < vertexCount; v++) {
    const from = bucketStart[v]!,
      to = bucketStart[v + 1]!;
    for (let i = from + 1; i < to; i++) {
      const slot = order[i]!;
      const key = high[slot]!;
      let j = i - 1;
      while (j >= from && high[order[j]!]! > key) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = slot;
    }
  }

  return { low, high, order, slotCount };
}

const BEND_RIDGE = 0;
const BEND_VALLEY = 1;
const BEND_COPLANAR = 2;
const BEND_UNKNOWN = 3;

/** Classifies the edge between edge slots e1 and e2 (3·triangle + i) of two triangles. */
export function sharedEdgeBend(positions: Float32Array, indices: Uint32Array, e1: number, e2: number): number {
  const t1 = (e1 / 3) | 0,
    i1 = e1 - 3 * t1;
  const t2 = (e2 / 3) | 0,
    i2 = e2 - 3 * t2;
  const a1 = indices[3 * t1 + i1]!,
    b1 = indices[3 * t1 + ((i1 + 1) % 3)]!;
  const a2 = indices[3 * t2 + i2]!,
    b2 = indices[3 * t2 + ((i2 + 1) % 3)]!;
  // Consistent winding walks the shared edge in opposite directions; otherwise front is undefined.
  if (!(a1 === b2 && b1 === a2)) return BEND_UNKNOWN;
  const o1 = indices[3 * t1 + ((i1 + 2) % 3)]!;
  const o2 = indices[3 * t2 + ((i2 + 2) % 3)]!;
  const h12 = heightAbove(positions, indices, t1, o2); // neighbour's apex over triangle 1's plane
  const h21 = heightAbove(positions, indices, t2, o1);
  if (Number.isNaN(h12) || Number.isNaN(h21)) return BEND_UNKNOWN;
  if (Math.abs(h12) <= COPLANAR_SINE && Math.abs(h21) <= COPLANAR_SINE) return BEND_COPLANAR;
  if (h12 > COPLANAR_SINE && h21 > COPLANAR_SINE) return BEND_VALLEY;
  if (h12 < -COPLANAR_SINE && h21 < -COPLANAR_SINE) return BEND_RIDGE;
  return BEND_UNKNOWN; // the two views disagree (slivers): keep the edge
}

/** Sine of the angle at which vertex v stands in front of triangle t's plane; NaN for a zero-area triangle. */
function heightAbove(positions: Float32Array, indices: Uint32Array, t: number, v: number): number {
  const a = 3 * indices[3 * t]!,
    b = 3 * indices[3 * t + 1]!,
    c = 3 * indices[3 * t + 2]!;
  const ax = positions[a]!,
    ay = positions[a + 1]!,
    az = positions[a + 2]!;
  const ux = positions[b]! - ax,
    uy = positions[b + 1]! - ay,
    uz = positions[b + 2]! - az;
  const vx = positions[c]! - ax,
    vy = positions[c + 1]! - ay,
    vz = positions[c + 2]! - az;
  const nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const nLength = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const wx = positions[3 * v]! - ax,
    wy = positions[3 * v + 1]! - ay,
    wz = positions[3 * v + 2]! - az;
  const wLength = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (!(nLength > 0) || !(wLength > 0)) return NaN;
  return (nx * wx + ny * wy + nz * wz) / (nLength * wLength);
}

export { BEND_RIDGE, BEND_VALLEY, BEND_COPLANAR, BEND_UNKNOWN };
