/**
 * Per actor, the terrain triangles near it, kept from one substep to the next: the BVH walk runs on a
 * box grown by some slack, and while the actor's query box stays inside that grown box the same list
 * serves (an actor at rest or creeping queries the BVH once, a falling one every few substeps). The
 * triangles are kept as records ready for the contact tests (corners, bounds, unit normal), so a
 * reused list costs no set-up either.
 *
 * Reuse does not change the contacts: the grown box's list holds every triangle the exact box's list
 * holds, in tree order, and the extra ones are out of every contact sphere's reach, which the contact
 * tests check triangle by triangle anyway. (With spatial splits a triangle referenced by several leaves
 * is reported at the first leaf the walk enters, which a bigger box may reach earlier: the order of
 * such a triangle could differ, and with it a tie between equally deep contacts.)
 *
 * A record: corners (9), bounds min/max x, y, z (6), unit normal (3), flat (1), triangle id (1).
 */
export const TRIANGLE_STRIDE = 20;

/** Where terrain triangles near a box come from: the BVH walk, or all triangles in the tests. */
export interface TriangleSource {
  readonly triangles: Uint32Array;
  run(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number;
}

/**
 * Writes the records of `count` triangles (ids in `triangles`) at `records[offset…]` and the union of
 * their bounds into `union` (min xyz, max xyz at unionOffset).
 */
export function writeTriangleRecords(
  triangles: Uint32Array,
  count: number,
  positions: Float32Array,
  indices: Uint32Array,
  records: Float64Array,
  offset: number,
  union: Float64Array,
  unionOffset: number,
): void {
  let nearMinX = Infinity,
    nearMinY = Infinity,
    nearMinZ = Infinity,
    nearMaxX = -Infinity,
    nearMaxY = -Infinity,
    nearMaxZ = -Infinity;
  for (let t = 0; t < count; t++) {
    const triangle = triangles[t]!;
    const i3 = 3 * triangle;
    const a = 3 * indices[i3]!,
      e = 3 * indices[i3 + 1]!,
      f = 3 * indices[i3 + 2]!;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const bx = positions[e]!,
      by = positions[e + 1]!,
      bz = positions[e + 2]!;
    const cx = positions[f]!,
      cy = positions[f + 1]!,
      cz = positions[f + 2]!;
    // Face normal from the winding.
    const e1x = bx - ax,
      e1y = by - ay,
      e1z = bz - az;
    const e2x = cx - ax,
      e2y = cy - ay,
      e2z = cz - az;
    let fx = e1y * e2z - e1z * e2y,
      fy = e1z * e2x - e1x * e2z,
      fz = e1x * e2y - e1y * e2x;
    const fLength = Math.sqrt(fx * fx + fy * fy + fz * fz);
    const flat = !(fLength > 1e-20);
    if (!flat) {
      fx /= fLength;
      fy /= fLength;
      fz /= fLength;
    }
    const o = offset + TRIANGLE_STRIDE * t;
    records[o] = ax;
    records[o + 1] = ay;
    records[o + 2] = az;
    records[o + 3] = bx;
    records[o + 4] = by;
    records[o + 5] = bz;
    records[o + 6] = cx;
    records[o + 7] = cy;
    records[o + 8] = cz;
    const minX = Math.min(ax, bx, cx),
      maxX = Math.max(ax, bx, cx);
    const minY = Math.min(ay, by, cy),
      maxY = Math.max(ay, by, cy);
    const minZ = Math.min(az, bz, cz),
      maxZ = Math.max(az, bz, cz);
    records[o + 9] = minX;
    records[o + 10] = maxX;
    records[o + 11] = minY;
    records[o + 12] = maxY;
    records[o + 13] = minZ;
    records[o + 14] = maxZ;
    records[o + 15] = fx;
    records[o + 16] = fy;
    records[o + 17] = fz;
    records[o + 18] = flat ? 1 : 0;
    records[o + 19] = triangle;
    if (minX < nearMinX) nearMinX = minX;
    if (maxX > nearMaxX) nearMaxX = maxX;
    if (minY < nearMinY) nearMinY = minY;
    if (maxY > nearMaxY) nearMaxY = maxY;
    if (minZ < nearMinZ) nearMinZ = minZ;
    if (maxZ > nearMaxZ) nearMaxZ = maxZ;
  }
  union[unionOffset] = nearMinX;
  union[unionOffset + 1] = nearMinY;
  union[unionOffset + 2] = nearMinZ;
  union[unionOffset + 3] = nearMaxX;
  union[unionOffset + 4] = nearMaxY;
  union[unionOffset + 5] = nearMaxZ;
}

/** The kept triangle lists of every actor, in one pool of records. */
export class TerrainNeighbours {
  /** Per actor: the box its list was gathered for (min xyz, max xyz). */
  private gathered = new Float64Array(0);
  /** Per actor: the union of its triangles' bounds (min xyz, max xyz). */
  union = new Float64Array(0);
  /** Per actor: its list's first record (an offset into `records`), length and room. */
  start = new Int32Array(0);
  count = new Int32Array(0);
  private room = new Int32Array(0);
  private valid = new Uint8Array(0);
  records = new Float64Array(TRIANGLE_STRIDE * 1024);
  /** Records in use (live or abandoned) at the start of the pool. */
  private used = 0;
  /** Lists gathered by a BVH walk and lists reused, since the last resetCounters. */
  walks = 0;
  reused = 0;

  /** Forgets every list: the terrain changed (new, edited, restored) or the actors did. */
  invalidate(): void {
    this.valid.fill(0);
    this.used = 0;
  }

  /**
   * Forgets the lists whose grown box reaches over the area [minX, maxX] × [minZ, maxZ] (any height):
   * the ground moved there, and only there (an edit moves heights, so a triangle that changed stays
   * within the area that names it). The others still hold exactly the triangles they were gathered with.
   */
  invalidateArea(minX: number, minZ: number, maxX: number, maxZ: number): void {
    const g = this.gathered;
    const valid = this.valid;
    for (let i = 0; i < valid.length; i++) {
      if (valid[i] === 0) continue;
      const b = 6 * i;
      if (g[b]! > maxX || g[b + 3]! < minX || g[b + 2]! > maxZ || g[b + 5]! < minZ) continue;
      valid[i] = 0;
    }
  }

  resetCounters(): void {
    this.walks = 0;
    this.reused = 0;
  }

  /**
   * Makes sure actor i's list covers the query box [min, max] — reusing it when the box lies inside
   * the one it was gathered for, else walking `source` on the box grown by `slack` — and returns how
   * many triangles it holds (records from start[i], bounds union at 6i).
   */
  gather(
    i: number,
    minX: number,
    minY: number,
    minZ: number,
    maxX: number,
    maxY: number,
    maxZ: number,
    slack: number,
    source: TriangleSource,
    positions: Float32Array,
    indices: Uint32Array,
  ): number {
    if (i >= this.valid.length) this.grow(i + 1);
    const g = this.gathered;
    const b = 6 * i;
    if (
      this.valid[i] !== 0 &&
      minX >= g[b]! &&
      minY >= g[b + 1]! &&
      minZ >= g[b + 2]! &&
      maxX <= g[b + 3]! &&
      maxY <= g[b + 4]! &&
      maxZ <= g[b + 5]!
    ) {
      this.reused++;
      return this.count[i]!;
    }
    this.walks++;
    g[b] = minX - slack;
    g[b + 1] = minY - slack;
    g[b + 2] = minZ - slack;
    g[b + 3] = maxX + slack;
    g[b + 4] = maxY + slack;
    g[b + 5] = maxZ + slack;
    const found = source.run(g[b], g[b + 1]!, g[b + 2]!, g[b + 3]!, g[b + 4]!, g[b + 5]!);
    if (this.valid[i] === 0 || this.room[i]! < found) this.allocate(i, found);
    this.valid[i] = 1;
    this.count[i] = found;
    writeTriangleRecords(source.triangles, found, positions, indices, this.records, this.start[i]!, this.union, b);
    return found;
  }

  /** A fresh slab for actor i at the pool's end, compacting the live lists first when the pool is full. */
  private allocate(i: number, found: number): void {
    const room = found + (found >> 1) + 4;
    this.valid[i] = 0;
    if (TRIANGLE_STRIDE * (this.used + room) > this.records.length) {
      let live = room;
      for (let k = 0; k < this.valid.length; k++) if (this.valid[k] !== 0) live += this.room[k]!;
      const records = new Float64Array(Math.max(this.records.length, TRIANGLE_STRIDE * 2 * live));
      let used = 0;
      for (let k = 0; k < this.valid.length; k++) {
        if (this.valid[k] === 0) continue;
        const from = this.start[k]!;
        records.set(this.records.subarray(from, from + TRIANGLE_STRIDE * this.count[k]!), TRIANGLE_STRIDE * used);
        this.start[k] = TRIANGLE_STRIDE * used;
        used += this.room[k]!;
      }
      this.records = records;
      this.used = used;
    }
    this.start[i] = TRIANGLE_STRIDE * this.used;
    this.room[i] = room;
    this.used += room;
  }

  private grow(n: number): void {
    const capacity = Math.max(n, 2 * this.valid.length, 64);
    const gathered = new Float64Array(6 * capacity);
    gathered.set(this.gathered);
    this.gathered = gathered;
    const union = new Float64Array(6 * capacity);
    union.set(this.union);
    this.union = union;
    for (const name of ['start', 'count', 'room'] as const) {
      const grown = new Int32Array(capacity);
      grown.set(this[name]);
      this[name] = grown;
    }
    const valid = new Uint8Array(capacity);
    valid.set(this.valid);
    this.valid = valid;
  }
}
