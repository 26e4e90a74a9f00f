/**
 * A cast order for a batch of rays: by where each ray crosses the scene, the midpoint of its span
 * inside the root frame (clipped to its tMax), put on a 16-bit Morton-like code over that frame.
 * Rays that pass through the same part of the scene walk many of the same nodes and test the same
 * leaves, so consecutive walks find them in cache; on the 512 terrain the leaves' triangles (19 MB)
 * no longer fit the caches, and a leaf that misses costs more than its whole test. Results are
 * unchanged: each ray's walk is its own.
 *
 * On 100k incoherent rays over the 512 terrain (origins 1–40 units above it, directions anywhere
 * downwards), ordering by the origins alone gained 14 % over no order; ordering by the span's midpoint
 * gains another 1.27× (median of paired CPU-time runs), since rays starting side by side go on to land
 * anywhere within some hundred units. The midpoint needs no knowledge of the surface: for a terrain it
 * sits about halfway down the frame's height, where rays landing close together cross close together.
 *
 * The code's 16 bits go to the frame's axes one at a time, each to the axis whose cells are then the
 * longest, and are interleaved in that order (coarse splits first), so a flat terrain spends them on x
 * and z and a tall scene on y too. One counting-sort pass over the codes, into caller-owned scratch
 * (nothing allocated per cast but the bit tables when the frame's shape changes).
 */

import type { RayBatch } from './rayTypes';

const KEY_BITS = 16;
const KEYS = 1 << KEY_BITS;

export class RayOrder {
  private keys = new Uint32Array(0);
  /** order[i]: the caller's index of the i-th ray to cast. */
  private order = new Int32Array(0);
  private readonly counts = new Int32Array(KEYS);
  /** Per axis: the key bits of each cell coordinate, for the bit split of `splitExtents`. */
  private readonly cellBits: [Uint32Array, Uint32Array, Uint32Array] = [new Uint32Array(1), new Uint32Array(1), new Uint32Array(1)];
  private readonly splitExtents = new Float64Array(3).fill(NaN);

  /**
   * Fills order[0..count) for the rays and copies the rays into the staging arrays in that order, so
   * the kernel reads them front to back (reading them in sorted order from the caller's layout cost
   * the walk a cache miss per ray); the copy is the sort's last pass, reading the caller's rays in
   * their order and writing each at its place. frame: the scene's min x, y, z, max x, y, z.
   */
  sort(
    rays: RayBatch,
    count: number,
    frame: ArrayLike<number>,
    originsOut: Float32Array,
    directionsOut: Float32Array,
    tMaxOut: Float32Array,
  ): Int32Array {
    if (this.order.length < count) {
      this.keys = new Uint32Array(count);
      this.order = new Int32Array(count);
    }
    const minX = frame[0]!,
      minY = frame[1]!,
      minZ = frame[2]!,
      maxX = frame[3]!,
      maxY = frame[4]!,
      maxZ = frame[5]!;
    this.splitBits(maxX - minX, maxY - minY, maxZ - minZ);
    const [bitsX, bitsY, bitsZ] = this.cellBits;
    const topX = bitsX.length - 1,
      topY = bitsY.length - 1,
      topZ = bitsZ.length - 1;
    const scaleX = maxX > minX ? bitsX.length / (maxX - minX) : 0;
    const scaleY = maxY > minY ? bitsY.length / (maxY - minY) : 0;
    const scaleZ = maxZ > minZ ? bitsZ.length / (maxZ - minZ) : 0;
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
      // The span inside the frame, slab by slab; a zero component gives ±∞ (or NaN on a plane), and
      // a NaN anywhere makes the span empty: such a ray, or one missing the frame, sorts by its origin.
      const inverseX = 1 / dx,
        inverseY = 1 / dy,
        inverseZ = 1 / dz;
      const nearX = (minX - ox) * inverseX,
        farX = (maxX - ox) * inverseX;
      const nearY = (minY - oy) * inverseY,
        farY = (maxY - oy) * inverseY;
      const nearZ = (minZ - oz) * inverseZ,
        farZ = (maxZ - oz) * inverseZ;
      const enter = Math.max(0, Math.min(nearX, farX), Math.min(nearY, farY), Math.min(nearZ, farZ));
      const exit = Math.min(tMax[i]!, Math.max(nearX, farX), Math.max(nearY, farY), Math.max(nearZ, farZ));
      const t = exit >= enter ? 0.5 * (enter + exit) : 0;
      // Far-away or NaN points clamp to the frame's edge cells (the comparisons fail for NaN: cell 0).
      const x = (ox + t * dx - minX) * scaleX;
      const y = (oy + t * dy - minY) * scaleY;
      const z = (oz + t * dz - minZ) * scaleZ;
      const key =
        bitsX[x > 0 ? (x < topX ? x | 0 : topX) : 0]! | bitsY[y > 0 ? (y < topY ? y | 0 : topY) : 0]! | bitsZ[z > 0 ? (z < topZ ? z | 0 : topZ) : 0]!;
      keys[i] = key;
      counts[key]!++;
    }
    let sum = 0;
    for (let key = 0; key < KEYS; key++) {
      const c = counts[key]!;
      counts[key] = sum;
      sum += c;
    }
    const order = this.order;
    for (let i = 0; i < count; i++) {
      const at = counts[keys[i]!]!++;
      order[at] = i;
      const from = 3 * i;
      const to = 3 * at;
      originsOut[to] = origins[from]!;
      originsOut[to + 1] = origins[from + 1]!;
      originsOut[to + 2] = origins[from + 2]!;
      directionsOut[to] = directions[from]!;
      directionsOut[to + 1] = directions[from + 1]!;
      directionsOut[to + 2] = directions[from + 2]!;
      tMaxOut[at] = tMax[i]!;
    }
    return order;
  }

  /**
   * Gives the key's bits to the axes, one at a time to the axis with the longest cells (ties: x, then
   * z, then y), and tabulates, per axis, where each cell coordinate's bits go in the key: the k-th bit
   * given is the key's bit 15 − k, and an axis' first bit is its coordinate's highest.
   */
  private splitBits(extentX: number, extentY: number, extentZ: number): void {
    const extents = [extentX > 0 ? extentX : 0, extentY > 0 ? extentY : 0, extentZ > 0 ? extentZ : 0];
    const known = this.splitExtents;
    if (extents[0] === known[0] && extents[1] === known[1] && extents[2] === known[2]) return;
    known.set(extents);
    const bits = [0, 0, 0];
    const given: number[] = [];
    for (let k = 0; k < KEY_BITS; k++) {
      let axis = 0;
      for (const candidate of [2, 1]) if (extents[candidate]! / 2 ** bits[candidate]! > extents[axis]! / 2 ** bits[axis]!) axis = candidate;
      given.push(axis);
      bits[axis]!++;
    }
    for (let axis = 0; axis < 3; axis++) {
      const table = new Uint32Array(1 << bits[axis]!);
      let bit = bits[axis]!;
      for (let k = 0; k < KEY_BITS; k++) {
        if (given[k] !== axis) continue;
        bit--;
        const keyBit = 1 << (KEY_BITS - 1 - k);
        for (let cell = 0; cell < table.length; cell++) if ((cell >> bit) & 1) table[cell]! |= keyBit;
      }
      this.cellBits[axis] = table;
    }
  }
}

/** Puts hits found in cast order back in the caller's order. */
export function scatterHits(
  order: Int32Array,
  count: number,
  t: Float32Array,
  triangle: Int32Array,
  tOut: Float32Array,
  triangleOut: Int32Array,
): void {
  for (let i = 0; i < count; i++) {
    const ray = order[i]!;
    tOut[ray] = t[i]!;
    triangleOut[ray] = triangle[i]!;
  }
}
