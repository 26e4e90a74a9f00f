import { sharedKernel } from '../../platform/loadWasm';
import { positionsRevision } from '../../bvh/revision';
import { alignTo, growMemoryTo } from '../../platform/moduleMemory';

/** The exports of the compiled test (src/platform/assembly/boxTriangle/overlapBoxTriangles.ts). */
interface BoxTriangleExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  overlapBoxTriangles(box: number, positions: number, indices: number, ids: number, first: number, count: number, out: number): number;
}

interface MemoryViews {
  f64: Float64Array;
  f32: Float32Array;
  u32: Uint32Array;
  u8: Uint8Array;
}

const BOX_BYTES = 48;

/**
 * The WebAssembly SIMD box–triangle test: one box against a run of triangles, two at a time in f64x2,
 * with mollerV1's answer bit for bit. The module's memory holds
 *
 *   heapBase → the box (6 × f64) | the resident mesh: positions (f32 xyz), indices (3 × u32) |
 *              the run's triangle ids (u32) | one answer byte per triangle of the run | a scratch mesh
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
  /** End of the resident mesh: where the id and answer areas start. */
  private meshEnd = 0;
  private ids = 0;
  private idCapacity = 0;
  private scratch = 0;
  private scratchBytes = 0;
  private memoryViews: MemoryViews | null = null;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as BoxTriangleExports;
    this.box = alignTo(this.exports.heapBase(), 16);
    this.meshEnd = this.box + BOX_BYTES;
  }

  /**
   * Tests box[b..b+5] (centre, half extents) against the triangles `first .. first + count − 1` of
   * `triangles` (ids), or those ids themselves when `triangles` is null; writes 1 (overlap) or 0 per
   * triangle of the run into overlaps[0 .. count) and returns how many overlap. A mesh is kept in the
   * module by identity; `scratchMesh` says the arrays are reused with new contents (a small scratch
   * soup, e.g. triangles moved into an oriented box's frame) and must be copied again.
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
  ): number {
    if (count <= 0) return 0;
    if (!scratchMesh) this.makeResident(positions, indices);
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
    for (let k = 0; k < count; k++) overlaps[k] = u8[out + k]!;
    return hits;
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
    this.ids = this.meshEnd;
    this.scratch = alignTo(this.ids + 5 * this.idCapacity, 16);
    const end = this.scratch + this.scratchBytes;
    growMemoryTo(this.exports.memory, end);
  }
}

/** Where the compiled test lands (npm run build:wasm). */
const KERNEL_URL = new URL('../../platform/generated/boxTriangle.wasm', import.meta.url);

const shared = sharedKernel(KERNEL_URL, (instance) => new SimdBoxTriangleKernel(instance));

/** Loads the shared SIMD box–triangle test once; null (with a reason) where it cannot run. */
export const loadSimdBoxTriangles = (): Promise<SimdBoxTriangleKernel | null> => shared.load();
export const simdBoxTriangleKernel = (): SimdBoxTriangleKernel | null => shared.current();
export const simdBoxTrianglesUnavailableReason = (): string => shared.unavailableReason();
