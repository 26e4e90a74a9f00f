/**
 * The cast order of a big batch of rays: by where each ray crosses the scene, the midpoint of its span
 * inside the root frame (clipped to its tMax), put on a 14-bit code over that frame. Rays that pass
 * through the same part of the scene walk many of the same nodes and test the same leaves, so
 * consecutive walks find them in cache; on the 512 terrain the leaves' triangles (19 MB) no longer fit
 * the caches, and a leaf that misses costs more than its whole test. Results are unchanged: each ray's
 * walk is its own.
 *
 * On 100k incoherent rays over the 512 terrain (origins 1–40 units above it, directions anywhere
 * downwards), ordering by the origins alone gained 14 % over no order; ordering by the span's midpoint
 * gains another 1.2× (median of paired CPU-time runs), since rays starting side by side go on to land
 * anywhere within some hundred units. The midpoint needs no knowledge of the surface: for a terrain it
 * sits about halfway down the frame's height, where rays landing close together cross close together.
 *
 * The code's 14 bits go to the frame's axes one at a time, each to the axis whose cells are then the
 * longest, and are interleaved in that order (coarse splits first), so a flat terrain spends them on x
 * and z and a tall scene on y too. This class plans the code (the bit tables, written into the kernel's
 * memory beside a header); the kernel's orderRays (src/platform/assembly/rays/rayOrder.ts) computes the
 * keys four lanes wide and stages the rays by a counting sort over them: 100k rays in about 5 ms where
 * the same sort in TypeScript took 8–10, which matters most to the pool, whose threads wait for it.
 */

import { RAY_ORDER_AXIS_BITS, RAY_ORDER_HEADER_BYTES, RAY_ORDER_KEYS } from '../../bvh/layoutSpec';

const KEY_BITS = Math.log2(RAY_ORDER_KEYS);

/** Bytes of the header and the bit tables (at most 2^10 cells per axis). */
export const RAY_ORDER_PLAN_BYTES = RAY_ORDER_HEADER_BYTES + 4 * 3 * (1 << RAY_ORDER_AXIS_BITS);

/** The kernel export that sorts (both builds of the ray kernel have it). */
export interface RayOrderExports {
  orderRays(
    inOrigins: number,
    inDirections: number,
    inTMaxs: number,
    count: number,
    plan: number,
    keys: number,
    counts: number,
    order: number,
    outOrigins: number,
    outDirections: number,
    outTMaxs: number,
  ): void;
  unorderHits(order: number, count: number, hitT: number, hitTriangle: number, outT: number, outTriangle: number): void;
}

export class RayOrder {
  /** The frame and memory the plan in memory was written for (rewritten when either changes). */
  private readonly plannedFrame = new Float64Array(6).fill(NaN);
  private plannedBuffer: ArrayBufferLike | null = null;
  private plannedAt = -1;

  /**
   * Writes the plan for `frame` (the scene's min x, y, z, max x, y, z) at `at` in `buffer`
   * (RAY_ORDER_PLAN_BYTES, 16-byte aligned), unless that plan is there already.
   */
  plan(frame: ArrayLike<number>, buffer: ArrayBufferLike, at: number): void {
    const known = this.plannedFrame;
    let same = this.plannedBuffer === buffer && this.plannedAt === at;
    for (let k = 0; k < 6; k++) if (!Object.is(known[k], frame[k])) same = false;
    if (same) return;
    for (let k = 0; k < 6; k++) known[k] = frame[k]!;
    this.plannedBuffer = buffer;
    this.plannedAt = at;
    const extents = [0, 1, 2].map((axis) => {
      const extent = frame[axis + 3]! - frame[axis]!;
      return extent > 0 && extent < Infinity ? extent : 0;
    });
    const bits = splitKeyBits(extents);
    const header = new Float32Array(buffer, at, RAY_ORDER_HEADER_BYTES / 4);
    const words = new Int32Array(buffer, at, RAY_ORDER_HEADER_BYTES / 4);
    header.fill(0);
    for (let axis = 0; axis < 3; axis++) {
      const cells = 1 << bits.count[axis]!;
      const finite = Number.isFinite(frame[axis]!) && extents[axis]! > 0;
      header[axis] = finite ? frame[axis]! : 0;
      header[4 + axis] = finite ? frame[axis + 3]! : 0;
      header[8 + axis] = finite ? cells / extents[axis]! : 0;
      words[12 + axis] = cells - 1;
    }
    const sizes = bits.tables.map((table) => table.length);
    words[16] = 4 * sizes[0]!;
    words[17] = 4 * (sizes[0]! + sizes[1]!);
    let tableAt = at + RAY_ORDER_HEADER_BYTES;
    for (const table of bits.tables) {
      new Uint32Array(buffer, tableAt, table.length).set(table);
      tableAt += 4 * table.length;
    }
  }
}

/**
 * Gives the key's bits to the axes, one at a time to the axis with the longest cells (ties: x, then
 * z, then y), and tabulates, per axis, where each cell coordinate's bits go in the key: the k-th bit
 * given is the key's bit 13 − k, and an axis' first bit is its coordinate's highest; no axis gets more than 10.
 */
export function splitKeyBits(extents: number[]): { count: number[]; tables: Uint32Array[] } {
  const count = [0, 0, 0];
  const given: number[] = [];
  for (let k = 0; k < KEY_BITS; k++) {
    const cell = (a: number): number => (count[a]! < RAY_ORDER_AXIS_BITS ? extents[a]! / 2 ** count[a]! : -1);
    let axis = 0;
    for (const candidate of [2, 1]) if (cell(candidate) > cell(axis)) axis = candidate;
    given.push(axis);
    count[axis]!++;
  }
  const tables = [0, 1, 2].map((axis) => {
    const table = new Uint32Array(1 << count[axis]!);
    let bit = count[axis]!;
    for (let k = 0; k < KEY_BITS; k++) {
      if (given[k] !== axis) continue;
      bit--;
      const keyBit = 1 << (KEY_BITS - 1 - k);
      for (let cell = 0; cell < table.length; cell++) if ((cell >> bit) & 1) table[cell]! |= keyBit;
    }
    return table;
  });
  return { count, tables };
}
