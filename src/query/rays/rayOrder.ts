/**
 * A cast order for a batch of rays: by the Morton code of each origin's position over the scene's
 * ground plane (x, z in a 256 × 256 grid over the root frame). Rays that start near each other walk
 * through many of the same nodes and triangles, so consecutive walks find them in cache. Results are
 * unchanged: each ray's walk is its own. One counting-sort pass over the 16-bit codes, into
 * caller-owned scratch (nothing allocated per cast). A finer grid sorted in two 10-bit passes cost
 * three times as long (5.6 vs 1.7 ms for 100k rays) and walked no faster: 100k incoherent rays on the
 * 512 terrain put about one and a half rays in each of these cells already.
 */

import type { RayBatch } from './rayTypes';

const BITS = 8;
const CELLS = 1 << BITS;

/** Spreads the low 8 bits of v to the even bit positions. */
function spread(v: number): number {
  v &= 0xff;
  v = (v | (v << 4)) & 0x0f0f;
  v = (v | (v << 2)) & 0x3333;
  v = (v | (v << 1)) & 0x5555;
  return v;
}

export class RayOrder {
  private keys = new Uint32Array(0);
  /** order[i]: the caller's index of the i-th ray to cast. */
  private order = new Int32Array(0);
  private readonly counts = new Int32Array(CELLS * CELLS);

  /**
   * Fills order[0..count) for the rays' origins and copies the rays into the staging arrays in that
   * order, so the kernel reads them front to back (reading them in Morton order from the caller's
   * layout cost the walk a cache miss per ray); the copy is the sort's last pass, reading the caller's
   * rays in their order and writing each at its place. frame: the scene's min x, min z, extent x,
   * extent z.
   */
  sort(
    rays: RayBatch,
    count: number,
    minX: number,
    minZ: number,
    extentX: number,
    extentZ: number,
    originsOut: Float32Array,
    directionsOut: Float32Array,
    tMaxOut: Float32Array,
  ): Int32Array {
    const origins = rays.origins;
    if (this.order.length < count) {
      this.keys = new Uint32Array(count);
      this.order = new Int32Array(count);
    }
    const keys = this.keys;
    const counts = this.counts;
    counts.fill(0);
    const scaleX = extentX > 0 ? (CELLS - 1) / extentX : 0;
    const scaleZ = extentZ > 0 ? (CELLS - 1) / extentZ : 0;
    for (let i = 0; i < count; i++) {
      // NaN and far-away origins clamp to the grid's edges (the comparisons fail for NaN: cell 0).
      let x = (origins[3 * i]! - minX) * scaleX;
      let z = (origins[3 * i + 2]! - minZ) * scaleZ;
      x = x > 0 ? (x < CELLS - 1 ? x : CELLS - 1) : 0;
      z = z > 0 ? (z < CELLS - 1 ? z : CELLS - 1) : 0;
      const key = spread(x) | (spread(z) << 1);
      keys[i] = key;
      counts[key]!++;
    }
    let sum = 0;
    for (let key = 0; key < CELLS * CELLS; key++) {
      const c = counts[key]!;
      counts[key] = sum;
      sum += c;
    }
    const order = this.order;
    const directions = rays.directions;
    const tMax = rays.tMax;
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
