import { sharedKernel } from '../../platform/loadWasm';
import { positionsRevision } from '../../bvh/revision';
import { alignTo, growMemoryTo } from '../../platform/moduleMemory';

/** The exports of the compiled test (src/platform/assembly/boxTriangle/overlapBoxTriangles.ts). */
interface BoxTriangleExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  overlapBoxTriangles(box: number, positions: number, indices: number, ids: number, first: number, count: number, out: number): number;
  overlapBoxRows(
    box: number,
    bounds: number,
    positions: number,
    indices: number,
    order: number,
    references: number,
    rows: number,
    ready: number,
    first: number,
    count: number,
    out: number,
  ): number;
}

interface MemoryViews {
  f64: Float64Array;
  f32: Float32Array;
  u32: Uint32Array;
  u8: Uint8Array;
}

/** The box: 6 × f64, then its float32 bounds for the rows pass (12 × f32) and the rows screen's box (8 × f32). */
const BOX_BYTES = 128;
/** Bytes of module memory per run element: id (4) and answer (1). */
const RUN_BYTES = 5;
/** A group of four triangles in rows: nine f32x4. */
const ROW_GROUP_BYTES = 144;
/**
 * The rows pass decides a lane in float32 only this far (relative to the box's coordinates) from the
 * box's faces; float64's rounding of v − c, which mollerV1 compares, is 2⁻⁵³ relative.
 */
const ROWS_MARGIN = 2 ** -30;
const NEXT_F32 = new Float32Array(1);
const NEXT_U32 = new Uint32Array(NEXT_F32.buffer);

/** The nearest float32 at or above x (finite x), or at or below it. */
function float32Up(x: number): number {
  const f = Math.fround(x);
  return f >= x ? f : nextFloat32(f, 1);
}
function float32Down(x: number): number {
  const f = Math.fround(x);
  return f <= x ? f : nextFloat32(f, -1);
}
function nextFloat32(f: number, direction: 1 | -1): number {
  if (f === 0) return direction * 2 ** -149;
  NEXT_F32[0] = f;
  NEXT_U32[0]! += f > 0 === direction > 0 ? 1 : -1;
  return NEXT_F32[0];
}

/**
 * The WebAssembly SIMD box–triangle test: one box against a run of triangles, two at a time in f64x2,
 * with mollerV1's answer bit for bit. The module's memory holds
 *
 *   heapBase → the box (6 × f64, then 12 × f32 bounds) | the resident mesh: positions (f32 xyz),
 *              indices (3 × u32) | its rows, if asked for: groups of four triangles (144 B), a ready
 *              byte per group, the leaf order (u32) | the run's triangle ids (u32), one answer byte per
 *              triangle | a scratch mesh
 *
 * The mesh is copied in once, when first tested against, and stays until another mesh is; a scratch
 * mesh (reused arrays with new contents, such as triangles moved into an oriented box's frame) is
 * copied per call into its own area, so it never evicts the resident one; ids and answers are staged per call (4 B in and 1 B out per triangle, next to ~10–60 ns of testing). The
 * memory only grows, and the views are re-made from memory.buffer after each grow.
 */
export class SimdBoxTriangleKernel {
  private readonly exports: BoxTriangleExports;
  private residentPositions: Float32Array | null = null;
  private residentIndices: Uint32Array | null = null;
  /** positionsRevision of the resident positions when copied in: a refit moves them in place. */
  private residentRevision = -1;
  private readonly box: number;
  private positions = 0;
  private indices = 0;
  /** End of the resident mesh: where the rows (if any) start. */
  private meshEnd = 0;
  /** Where the id and answer areas start: after the mesh and its rows. */
  private tailStart = 0;
  private ids = 0;
  private idCapacity = 0;
  private scratch = 0;
  private scratchBytes = 0;
  private memoryViews: MemoryViews | null = null;
  /** The resident rows: for which leaf order (null: triangle ids) and positions revision they were made. */
  private rowsOrder: Uint32Array | null | undefined = undefined;
  private rowsRevision = -1;
  private rows = 0;
  private rowsReady = 0;
  private rowGroupCapacity = 0;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as BoxTriangleExports;
    this.box = alignTo(this.exports.heapBase(), 16);
    this.meshEnd = this.box + BOX_BYTES;
    this.tailStart = this.meshEnd;
  }

  /**
   * Tests box[b..b+5] (centre, half extents) against the triangles `first .. first + count − 1` of
   * `triangles` (ids), or those ids themselves when `triangles` is null; writes 1 (overlap) or 0 per
   * triangle of the run into overlaps[0 .. count) and returns how many overlap. A mesh is kept in the
   * module by identity; `scratchMesh` says the arrays are reused with new contents (a small scratch
   * soup, e.g. triangles moved into an oriented box's frame) and must be copied again.
   *
   * `leafOrder` says `triangles` is a BVH's leaf order (immutable, as BVHs keep it) or null for the
   * mesh's own order: the run is then read from triangle rows in that order (float32, four triangles per
   * load, kept in the module), and only the lanes the float32 pass cannot decide exactly take the pair
   * test. The answers are the same either way.
   */
  overlap(
    box: Float64Array,
    b: number,
    positions: Float32Array,
    indices: Uint32Array,
    triangles: Uint32Array | null,
    first: number,
    count: number,
    overlaps: Uint8Array,
    scratchMesh = false,
    leafOrder = false,
  ): number {
    if (count <= 0) return 0;
    if (!scratchMesh) this.makeResident(positions, indices);
    if (leafOrder && !scratchMesh) return this.overlapRows(box, b, indices, triangles, first, count, overlaps);
    this.makeRoom(count, scratchMesh ? positions.byteLength + indices.byteLength : 0);
    // Called per leaf and box: element-wise copies through views kept across calls, no allocation.
    const { f64, f32, u32, u8 } = this.views();
    const box8 = this.box >> 3;
    for (let k = 0; k < 6; k++) f64[box8 + k] = box[b + k]!;
    let meshPositions = this.positions;
    let meshIndices = this.indices;
    if (scratchMesh) {
      meshPositions = this.scratch;
      meshIndices = alignTo(this.scratch + positions.byteLength, 16);
      f32.set(positions, meshPositions >> 2);
      u32.set(indices, meshIndices >> 2);
    }
    let ids = 0;
    let start = first;
    if (triangles !== null) {
      const ids4 = this.ids >> 2;
      for (let k = 0; k < count; k++) u32[ids4 + k] = triangles[first + k]!;
      ids = this.ids;
      start = 0;
    }
    const out = this.ids + 4 * this.idCapacity;
    const hits = this.exports.overlapBoxTriangles(this.box, meshPositions, meshIndices, ids, start, count, out);
    copyAnswers(u8, out, count, overlaps);
    return hits;
  }

  private overlapRows(
    box: Float64Array,
    b: number,
    indices: Uint32Array,
    order: Uint32Array | null,
    first: number,
    count: number,
    overlaps: Uint8Array,
  ): number {
    const references = order === null ? indices.length / 3 : order.length;
    this.makeRows(order, references);
    this.makeRoom(count, 0);
    const { f64, f32, u8 } = this.views();
    const box8 = this.box >> 3;
    const bounds4 = (this.box + 48) >> 2;
    for (let k = 0; k < 3; k++) {
      const centre = box[b + k]!;
      const half = box[b + 3 + k]!;
      f64[box8 + k] = centre;
      f64[box8 + 3 + k] = half;
      const margin = ROWS_MARGIN * (Math.abs(centre) + Math.abs(half));
      // Inner bounds rounded inwards, outer outwards; NaN bounds decide nothing (every compare fails).
      f32[bounds4 + k] = float32Up(centre - half + margin);
      f32[bounds4 + 3 + k] = float32Down(centre + half - margin);
      f32[bounds4 + 6 + k] = float32Down(centre - half - margin);
      f32[bounds4 + 9 + k] = float32Up(centre + half + margin);
      // The screen's box: nearest float32 (its error is in the screen's margins), any NaN kept.
      f32[bounds4 + 12 + k] = centre;
      f32[bounds4 + 15 + k] = half;
    }
    f32[bounds4 + 18] = Math.max(Math.abs(f32[bounds4 + 15]!), Math.abs(f32[bounds4 + 16]!), Math.abs(f32[bounds4 + 17]!));
    f32[bounds4 + 19] = float32Up(Math.max(Math.abs(box[b]!), Math.abs(box[b + 1]!), Math.abs(box[b + 2]!)));
    const out = this.ids + 4 * this.idCapacity;
    const hits = this.exports.overlapBoxRows(
      this.box,
      this.box + 48,
      this.positions,
      this.indices,
      order === null ? 0 : this.rowsOrderAddress,
      references,
      this.rows,
      this.rowsReady,
      first,
      count,
      out,
    );
    copyAnswers(u8, out, count, overlaps);
    return hits;
  }

  /** Where the resident leaf order sits (after the rows' ready bytes). */
  private rowsOrderAddress = 0;

  /**
   * Rows for `order` over the resident mesh: the area (groups, ready bytes, a copy of the order) placed
   * after the mesh, every group marked not gathered yet. Kept while the order and the positions'
   * revision stay; the id and answer areas move behind it.
   */
  private makeRows(order: Uint32Array | null, references: number): void {
    const revision = this.residentRevision;
    if (order === this.rowsOrder && revision === this.rowsRevision) return;
    const groups = Math.ceil(references / 4);
    if (groups > this.rowGroupCapacity || this.rows === 0) {
      this.rowGroupCapacity = groups;
      this.rows = alignTo(this.meshEnd, 16);
      this.rowsReady = this.rows + ROW_GROUP_BYTES * groups;
      this.rowsOrderAddress = alignTo(this.rowsReady + groups, 16);
      this.tailStart = alignTo(this.rowsOrderAddress + 4 * references, 16);
      this.ids = 0;
      this.idCapacity = 0;
      this.scratchBytes = 0;
      this.makeRoom(0, 0);
    }
    const { u8, u32 } = this.views();
    u8.fill(0, this.rowsReady, this.rowsReady + groups);
    if (order !== null) u32.set(order, this.rowsOrderAddress >> 2);
    this.rowsOrder = order;
    this.rowsRevision = revision;
  }

  /** Views of the whole module memory, re-made only after it grew (growing detaches the old buffer). */
  private views(): MemoryViews {
    const buffer = this.exports.memory.buffer;
    if (this.memoryViews === null || this.memoryViews.u8.buffer !== buffer) {
      this.memoryViews = { f64: new Float64Array(buffer), f32: new Float32Array(buffer), u32: new Uint32Array(buffer), u8: new Uint8Array(buffer) };
    }
    return this.memoryViews;
  }

  /** Bytes of module memory in use. */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** Copies a mesh in when it is not the resident one (the id and answer areas follow it). */
  private makeResident(positions: Float32Array, indices: Uint32Array): void {
    const revision = positionsRevision(positions);
    if (positions === this.residentPositions && indices === this.residentIndices && revision === this.residentRevision) return;
    this.positions = this.box + BOX_BYTES;
    this.indices = alignTo(this.positions + positions.byteLength, 16);
    this.meshEnd = alignTo(this.indices + indices.byteLength, 16);
    this.tailStart = this.meshEnd;
    this.rows = 0;
    this.rowGroupCapacity = 0;
    this.rowsOrder = undefined;
    this.ids = 0;
    this.idCapacity = 0;
    this.scratchBytes = 0;
    this.makeRoom(0, 0);
    const { f32, u32 } = this.views();
    f32.set(positions, this.positions >> 2);
    u32.set(indices, this.indices >> 2);
    this.residentPositions = positions;
    this.residentIndices = indices;
    this.residentRevision = revision;
  }

  /**
   * After the resident mesh: ids (4 B) and answers (1 B) for runs of `runLength`, then room for a
   * scratch mesh of `scratchBytes` that never displaces the resident one. Grows the memory if needed.
   */
  private makeRoom(runLength: number, scratchBytes: number): void {
    if (runLength <= this.idCapacity && scratchBytes <= this.scratchBytes && this.ids !== 0) return;
    this.idCapacity = Math.max(runLength, this.idCapacity, 1024);
    this.scratchBytes = Math.max(scratchBytes + 16, this.scratchBytes);
    this.ids = this.tailStart;
    this.scratch = alignTo(this.ids + RUN_BYTES * this.idCapacity, 16);
    const end = this.scratch + this.scratchBytes;
    growMemoryTo(this.exports.memory, end);
  }
}

/** overlaps[0 .. count) := the module's answers at `out`: a leaf's few element-wise (no allocation), long runs as one copy. */
function copyAnswers(u8: Uint8Array, out: number, count: number, overlaps: Uint8Array): void {
  if (count > 64) overlaps.set(u8.subarray(out, out + count));
  else for (let k = 0; k < count; k++) overlaps[k] = u8[out + k]!;
}

/** Where the compiled test lands (npm run build:wasm). */
const KERNEL_URL = new URL('../../platform/generated/boxTriangle.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (instance) => new SimdBoxTriangleKernel(instance));

/** Loads the shared SIMD box–triangle test once; null (with a reason) where it cannot run. */
export const loadSimdBoxTriangles = (): Promise<SimdBoxTriangleKernel | null> => shared.load();
export const simdBoxTriangleKernel = (): SimdBoxTriangleKernel | null => shared.current();
export const simdBoxTrianglesUnavailableReason = (): string => shared.unavailableReason();
