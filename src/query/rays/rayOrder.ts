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
 * keys four lanes wide and stages the rays by a counting sort over them: 100k rays in about 3 ms where
 * the same sort in TypeScript took 8–10, which matters most to the pool, whose threads wait for it.
 * The TypeScript walks, which read the caller's rays where they are, take the same order as a
 * permutation (CastOrder).
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

/**
 * The key's code for one frame: per axis the bit table (RayOrder writes it for the kernel, CastOrder
 * reads it) and the cells per unit of length, computed again only when the frame changes.
 */
class KeyCode {
  readonly frame = new Float64Array(6);
  tables: [Uint32Array, Uint32Array, Uint32Array] | null = null;
  /** Cells per unit per axis; 0 for an axis with no extent, whose coordinate is then 0 whatever the ray. */
  readonly scale = [0, 0, 0];

  /** Makes the code the one of `frame` (the scene's min x, y, z, max x, y, z). */
  useFrame(frame: ArrayLike<number>): [Uint32Array, Uint32Array, Uint32Array] {
    let same = this.tables !== null;
    for (let k = 0; k < 6; k++) if (!Object.is(this.frame[k], frame[k])) same = false;
    if (same) return this.tables!;
    for (let k = 0; k < 6; k++) this.frame[k] = frame[k]!;
    const extents = frameExtents(frame);
    const tables = splitKeyBits(extents).tables as [Uint32Array, Uint32Array, Uint32Array];
    for (let axis = 0; axis < 3; axis++) this.scale[axis] = extents[axis]! > 0 ? tables[axis]!.length / extents[axis]! : 0;
    this.tables = tables;
    return tables;
  }
}

export class RayOrder {
  private readonly code = new KeyCode();

  /**
   * Writes the plan for `frame` (the scene's min x, y, z, max x, y, z) at `at` in `buffer`
   * (RAY_ORDER_PLAN_BYTES, 16-byte aligned). Written for every sorted cast: other work areas of the
   * kernel's memory may have used the place since (a few hundred bytes to copy).
   */
  plan(frame: ArrayLike<number>, buffer: ArrayBufferLike, at: number): void {
    const tables = this.code.useFrame(frame);
    const scale = this.code.scale;
    const header = new Float32Array(buffer, at, RAY_ORDER_HEADER_BYTES / 4);
    const words = new Int32Array(buffer, at, RAY_ORDER_HEADER_BYTES / 4);
    header.fill(0);
    for (let axis = 0; axis < 3; axis++) {
      // The span is clipped to the frame as it is; an axis with no extent gets no cells.
      header[axis] = Number.isFinite(frame[axis]!) ? frame[axis]! : 0;
      header[4 + axis] = Number.isFinite(frame[axis + 3]!) ? frame[axis + 3]! : 0;
      header[8 + axis] = scale[axis]!;
      words[12 + axis] = tables[axis]!.length - 1;
    }
    words[16] = 4 * tables[0].length;
    words[17] = 4 * (tables[0].length + tables[1].length);
    let tableAt = at + RAY_ORDER_HEADER_BYTES;
    for (const table of tables) {
      new Uint32Array(buffer, tableAt, table.length).set(table);
      tableAt += 4 * table.length;
    }
  }
}

/** The frame's extent per axis, 0 where it is not a positive finite length (or its corners are not finite). */
function frameExtents(frame: ArrayLike<number>): number[] {
  return [0, 1, 2].map((axis) => {
    const extent = frame[axis + 3]! - frame[axis]!;
    return extent > 0 && extent < Infinity && Number.isFinite(frame[axis]!) ? extent : 0;
  });
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

/**
 * The same order for the TypeScript walks, which read the caller's rays where they are: only the
 * permutation, by the same key computed in float64 (it may differ from the kernel's float32 key near a
 * cell boundary, which moves a ray by one cell and changes nothing else). order(…)[k] is the caller's
 * index of the k-th ray to cast.
 */
export class CastOrder {
  private keys = new Uint32Array(0);
  private sorted = new Int32Array(0);
  private readonly counts = new Int32Array(RAY_ORDER_KEYS);
  private readonly code = new KeyCode();

  order(rays: { origins: Float32Array; directions: Float32Array; tMax: Float32Array }, count: number, frame: ArrayLike<number>): Int32Array {
    const [tableX, tableY, tableZ] = this.code.useFrame(frame);
    if (this.sorted.length < count) {
      this.keys = new Uint32Array(count);
      this.sorted = new Int32Array(count);
    }
    const lastX = tableX.length - 1,
      lastY = tableY.length - 1,
      lastZ = tableZ.length - 1;
    const f = this.code.frame;
    const minX = f[0]!,
      minY = f[1]!,
      minZ = f[2]!,
      maxX = f[3]!,
      maxY = f[4]!,
      maxZ = f[5]!;
    const [scaleX, scaleY, scaleZ] = this.code.scale as [number, number, number];
    const { origins, directions, tMax } = rays;
    const keys = this.keys;
    const counts = this.counts;
    counts.fill(0);
    for (let i = 0; i < count; i++) {
      const ox = origins[3 * i]!,
        oy = origins[3 * i + 1]!,
        oz = origins[3 * i + 2]!;
      const dx = directions[3 * i]!,
        dy = directions[3 * i + 1]!,
        dz = directions[3 * i + 2]!;
      const nearX = (minX - ox) / dx,
        farX = (maxX - ox) / dx;
      const nearY = (minY - oy) / dy,
        farY = (maxY - oy) / dy;
      const nearZ = (minZ - oz) / dz,
        farZ = (maxZ - oz) / dz;
      const enter = Math.max(0, Math.min(nearX, farX), Math.min(nearY, farY), Math.min(nearZ, farZ));
      const exit = Math.min(tMax[i]!, Math.max(nearX, farX), Math.max(nearY, farY), Math.max(nearZ, farZ));
      // NaN (a zero component on a plane) fails the comparison: such a ray sorts by its origin.
      const t = exit >= enter ? 0.5 * (enter + exit) : 0;
      const x = (ox + t * dx - minX) * scaleX;
      const y = (oy + t * dy - minY) * scaleY;
      const z = (oz + t * dz - minZ) * scaleZ;
      const key =
        tableX[x > 0 ? (x < lastX ? x | 0 : lastX) : 0]! |
        tableY[y > 0 ? (y < lastY ? y | 0 : lastY) : 0]! |
        tableZ[z > 0 ? (z < lastZ ? z | 0 : lastZ) : 0]!;
      keys[i] = key;
      counts[key]!++;
    }
    let sum = 0;
    for (let key = 0; key < RAY_ORDER_KEYS; key++) {
      const c = counts[key]!;
      counts[key] = sum;
      sum += c;
    }
    const sorted = this.sorted;
    for (let i = 0; i < count; i++) sorted[counts[keys[i]!]!++] = i;
    return sorted;
  }
}
