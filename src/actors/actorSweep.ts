/**
 * The actors' own broad-phase: sort and sweep on x over one box per actor. A few hundred actors that move
 * a little per substep keep their x order almost unchanged, so an insertion sort of last substep's order
 * costs about one pass, and the sweep then visits only the boxes whose x intervals overlap. It reports
 * exactly the pairs whose closed boxes overlap (the same set as any general broad-phase given the same
 * boxes), as sorted keys a·2²⁴ + b with a < b, and allocates only when the actor count grows.
 */
export class ActorSweep {
  /** min x, y, z, max x, y, z per actor, as last set. */
  private boxes = new Float64Array(6 * 64);
  /** Whether the actor has a box (set since the last reset, not removed). */
  private present = new Uint8Array(64);
  /** Present actors by increasing min x (ties by id), kept from one sweep to the next. */
  private order = new Int32Array(64);
  private orderCount = 0;
  private orderValid = false;
  /** The pairs of the last findPairs(), as keys a·2²⁴ + b (a < b), sorted. */
  keys = new Float64Array(256);

  /** Forgets every box. */
  reset(): void {
    this.present.fill(0);
    this.orderCount = 0;
    this.orderValid = false;
  }

  has(id: number): boolean {
    return id < this.present.length && this.present[id] !== 0;
  }

  /** Sets (or replaces) actor `id`'s box. */
  set(id: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void {
    if (id >= this.present.length) this.reserve(id + 1);
    const o = 6 * id;
    const b = this.boxes;
    b[o] = minX;
    b[o + 1] = minY;
    b[o + 2] = minZ;
    b[o + 3] = maxX;
    b[o + 4] = maxY;
    b[o + 5] = maxZ;
    if (this.present[id] === 0) {
      this.present[id] = 1;
      this.orderValid = false;
    }
  }

  remove(id: number): void {
    if (!this.has(id)) return;
    this.present[id] = 0;
    this.orderValid = false;
  }

  /** Finds the overlapping pairs; returns their count, their keys (sorted) in `keys`. */
  findPairs(): number {
    const boxes = this.boxes;
    if (!this.orderValid) this.rebuildOrder();
    const order = this.order;
    const n = this.orderCount;
    // Insertion sort by min x, then id: nearly sorted already.
    for (let i = 1; i < n; i++) {
      const id = order[i]!;
      const x = boxes[6 * id]!;
      let j = i - 1;
      while (j >= 0) {
        const other = order[j]!;
        const ox = boxes[6 * other]!;
        if (ox < x || (ox === x && other < id)) break;
        order[j + 1] = other;
        j--;
      }
      order[j + 1] = id;
    }
    let out = this.keys;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const a = order[i]!;
      const o = 6 * a;
      const maxX = boxes[o + 3]!;
      const minY = boxes[o + 1]!,
        minZ = boxes[o + 2]!,
        maxY = boxes[o + 4]!,
        maxZ = boxes[o + 5]!;
      for (let j = i + 1; j < n; j++) {
        const b = order[j]!;
        const p = 6 * b;
        if (boxes[p]! > maxX) break;
        if (boxes[p + 1]! > maxY || boxes[p + 4]! < minY || boxes[p + 2]! > maxZ || boxes[p + 5]! < minZ) continue;
        // The sort puts a before b by min x, so max x of b ≥ its min x ≥ min x of a: x overlaps.
        if (count === out.length) {
          const grown = new Float64Array(Math.max(256, 2 * out.length));
          grown.set(out);
          out = this.keys = grown;
        }
        out[count++] = a < b ? a * 16777216 + b : b * 16777216 + a;
      }
    }
    out.subarray(0, count).sort();
    return count;
  }

  private rebuildOrder(): void {
    const present = this.present;
    const order = this.order;
    let n = 0;
    for (let id = 0; id < present.length; id++) if (present[id] !== 0) order[n++] = id;
    this.orderCount = n;
    this.orderValid = true;
  }

  private reserve(actors: number): void {
    const capacity = Math.max(actors, 2 * this.present.length);
    const boxes = new Float64Array(6 * capacity);
    boxes.set(this.boxes);
    this.boxes = boxes;
    const present = new Uint8Array(capacity);
    present.set(this.present);
    this.present = present;
    this.order = new Int32Array(capacity);
    this.orderValid = false;
  }
}
