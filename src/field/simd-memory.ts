import { WASM_PAGE_BYTES, alignTo, growMemoryTo } from '../platform/moduleMemory';
import { PERMUTATION } from './noise3';

/**
 * The memory the SIMD field back ends share (one WebAssembly.Memory imported by the interpreter module
 * and by every JIT module, and read and written by TypeScript through typed-array views).
 *
 * Byte layout:
 *
 *   0        512 B   noise permutation table (uint8, noise3.ts)
 *   1024     128 B   positions of a ragged last iteration (fewer than the kernel's 4 or 8 points),
 *                    padded with zeros
 *   1152     128 B   wind of those points
 *   1280     256 B   lane compaction table: entry b (16 bytes at 1280 + 16·b) gathers the 32-bit lanes
 *                    whose bit is set in the 4-bit mask b to the front, for i8x16.swizzle (the JIT's
 *                    list of points to redo)
 *   1536     16 B    discard slot: the JIT stores there the rows of points it redoes
 *   2048     256 KiB interpreter registers: register r, component k at 2048 + (r·4 + k)·stride,
 *                    stride = 4 bytes × points per chunk (structure of arrays); for the JIT, its
 *                    list of points to redo (4 bytes per point, and one group of padding)
 *   then     regions allocated on demand, 16-byte aligned: the bytecode copy, staging copies of
 *            positions and wind for callers whose arrays live elsewhere, and caller point buffers.
 *
 * A region that must grow moves to a new block and its old block is released; released blocks are
 * reused first-fit before the memory grows (WebAssembly memory never shrinks). Growing the memory detaches every view of the
 * old buffer; `floats()` / `words()` re-make theirs, and SimdPointBuffers hands out fresh ones.
 */
export const PERMUTATION_AT = 0;
export const TAIL_POSITIONS_AT = 1024;
export const TAIL_WIND_AT = 1152;
/** Points the tail slots hold. */
export const TAIL_POINTS = 8;
export const COMPACTION_TABLE_AT = 1280;
export const DISCARD_AT = 1536;
export const SCRATCH_AT = 2048;
export const SCRATCH_BYTES = 256 * 1024;
const FIRST_REGION_AT = SCRATCH_AT + SCRATCH_BYTES;

/** The lane compaction table (see the layout above); bytes past the gathered lanes select zero. */
function compactionTable(): Uint8Array {
  const table = new Uint8Array(256).fill(0x80);
  for (let bits = 0; bits < 16; bits++) {
    let to = 0;
    for (let lane = 0; lane < 4; lane++) {
      if ((bits & (1 << lane)) === 0) continue;
      for (let byte = 0; byte < 4; byte++) table[bits * 16 + to * 4 + byte] = lane * 4 + byte;
      to++;
    }
  }
  return table;
}

interface Region {
  at: number;
  bytes: number;
}

export class SimdFieldMemory {
  readonly memory = new WebAssembly.Memory({ initial: Math.ceil((FIRST_REGION_AT + 64 * 1024) / WASM_PAGE_BYTES) });
  private top = FIRST_REGION_AT;
  private readonly regions = new Map<string, Region>();
  /** Released blocks, reused before the top moves. */
  private readonly released: Region[] = [];
  private viewedBuffer: ArrayBuffer | undefined;
  private floatView = new Float32Array(0);
  private wordView = new Uint32Array(0);

  constructor() {
    new Uint8Array(this.memory.buffer).set(PERMUTATION, PERMUTATION_AT);
    new Uint8Array(this.memory.buffer).set(compactionTable(), COMPACTION_TABLE_AT);
  }

  /** Byte offset of a named region of at least `bytes`, grown (moved to the top) when too small. */
  region(name: string, bytes: number): number {
    const known = this.regions.get(name);
    if (known !== undefined && known.bytes >= bytes) return known.at;
    // Grow by half again so a slowly rising point count does not move the region every time.
    const size = alignTo(Math.max(bytes, (known?.bytes ?? 0) * 1.5, 64), 16);
    if (known !== undefined) this.release(known.at, known.bytes);
    const region = { at: this.reserve(size), bytes: size };
    this.regions.set(name, region);
    return region.at;
  }

  /** A block of at least `bytes`, 16-byte aligned, never moved: a released one that fits, else a new one at the top. */
  reserve(bytes: number): number {
    const size = alignTo(bytes, 16);
    const fit = this.released.findIndex((block) => block.bytes >= size);
    if (fit >= 0) {
      const block = this.released[fit]!;
      const at = block.at;
      if (block.bytes === size) this.released.splice(fit, 1);
      else {
        block.at += size;
        block.bytes -= size;
      }
      return at;
    }
    const at = this.top;
    this.top += size;
    growMemoryTo(this.memory, this.top);
    return at;
  }

  /** Gives a block back for reuse; its bytes become anyone's. */
  release(at: number, bytes: number): void {
    this.released.push({ at, bytes: alignTo(bytes, 16) });
  }

  /** The whole memory as floats; valid until the next growth. */
  floats(): Float32Array {
    this.refreshViews();
    return this.floatView;
  }

  words(): Uint32Array {
    this.refreshViews();
    return this.wordView;
  }

  /** Whether `array` is a view of this memory (so its bytes need no copying in or out). */
  holds(array: Float32Array): boolean {
    return array.buffer === this.memory.buffer;
  }

  private refreshViews(): void {
    if (this.viewedBuffer === this.memory.buffer) return;
    this.viewedBuffer = this.memory.buffer;
    this.floatView = new Float32Array(this.memory.buffer);
    this.wordView = new Uint32Array(this.memory.buffer);
  }
}

/**
 * Positions and wind for up to `capacity` points, living in the SIMD module memory: pass
 * `buffers.positions` and `buffers.wind` to evaluateField and nothing is copied. Read the views again
 * after anything that may grow the memory (allocating buffers, a larger program); a stale view is
 * detached (length 0), never silently wrong.
 */
export class SimdPointBuffers {
  private viewedBuffer: ArrayBuffer | undefined;
  private positionView = new Float32Array(0);
  private windView = new Float32Array(0);
  private readonly positionsAt: number;
  private readonly windAt: number;
  private disposed = false;

  constructor(
    private readonly memory: SimdFieldMemory,
    readonly capacity: number,
  ) {
    this.positionsAt = memory.reserve(capacity * 16);
    this.windAt = memory.reserve(capacity * 16);
    // A reused block holds someone's old bytes; start from zeros like a new Float32Array.
    this.positions.fill(0);
    this.wind.fill(0);
  }

  /** Returns the memory for reuse; from then on the views are empty. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.memory.release(this.positionsAt, this.capacity * 16);
    this.memory.release(this.windAt, this.capacity * 16);
    this.positionView = new Float32Array(0);
    this.windView = new Float32Array(0);
  }

  get positions(): Float32Array {
    this.refresh();
    return this.positionView;
  }

  get wind(): Float32Array {
    this.refresh();
    return this.windView;
  }

  private refresh(): void {
    const buffer = this.memory.memory.buffer;
    if (this.viewedBuffer === buffer || this.disposed) return;
    this.viewedBuffer = buffer;
    this.positionView = new Float32Array(buffer, this.positionsAt, this.capacity * 4);
    this.windView = new Float32Array(buffer, this.windAt, this.capacity * 4);
  }
}

/**
 * Positions and wind for up to `capacity` points as component planes (structure of arrays) in the SIMD
 * module memory, which the SIMD JIT reads and writes in place with one v128 load or store per
 * component of four points. `positions` holds three planes of `stride` floats each: x of every point,
 * then y and z (point i's y is `positions[stride + i]`; w is 0); `wind` likewise. The stride is the
 * capacity rounded up to whole groups of four. Read the views again after anything that may grow the memory; a
 * stale view is detached (length 0), never silently wrong.
 */
/** Bytes per point of a set of planes: x, y, z floats. */
const PLANE_BYTES_PER_POINT = 12;

export class SimdPointPlanes {
  /** Floats from one component plane to the next. */
  readonly stride: number;
  /** Byte offsets of the position and wind planes in the module memory. */
  readonly positionsAt: number;
  readonly windAt: number;
  private viewedBuffer: ArrayBuffer | undefined;
  private positionView = new Float32Array(0);
  private windView = new Float32Array(0);
  private disposed = false;

  constructor(
    private readonly memory: SimdFieldMemory,
    readonly capacity: number,
  ) {
    this.stride = alignTo(capacity, 4);
    this.positionsAt = memory.reserve(Math.max(16, this.stride * PLANE_BYTES_PER_POINT));
    this.windAt = memory.reserve(Math.max(16, this.stride * PLANE_BYTES_PER_POINT));
    // A reused block holds someone's old bytes; start from zeros like a new Float32Array.
    this.positions.fill(0);
    this.wind.fill(0);
  }

  /** Returns the memory for reuse; from then on the views are empty. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.memory.release(this.positionsAt, Math.max(16, this.stride * PLANE_BYTES_PER_POINT));
    this.memory.release(this.windAt, Math.max(16, this.stride * PLANE_BYTES_PER_POINT));
    this.positionView = new Float32Array(0);
    this.windView = new Float32Array(0);
  }

  get positions(): Float32Array {
    this.refresh();
    return this.positionView;
  }

  get wind(): Float32Array {
    this.refresh();
    return this.windView;
  }

  /** Whether these planes live in `memory` and are still allocated (the JIT may use them in place). */
  livesIn(memory: SimdFieldMemory): boolean {
    return memory === this.memory && !this.disposed;
  }

  private refresh(): void {
    const buffer = this.memory.memory.buffer;
    if (this.viewedBuffer === buffer || this.disposed) return;
    this.viewedBuffer = buffer;
    this.positionView = new Float32Array(buffer, this.positionsAt, this.stride * 3);
    this.windView = new Float32Array(buffer, this.windAt, this.stride * 3);
  }
}
