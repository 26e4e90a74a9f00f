/**
 * The actors' own broad-phase: sort and sweep over one box per actor, along the axis on which the boxes'
 * centres spread most (a pile dropped in a column spreads along y while it falls, then along x or z once
 * it lies on the ground: sweeping along a short axis visits nearly every pair). A few hundred actors that
 * move a little per substep keep their order almost unchanged, so an insertion sort of last substep's
 * order costs about one pass, and the sweep then visits only the boxes whose intervals on the axis
 * overlap. The axis changes only when another one spreads clearly more (by half), as a change re-sorts;
 * the pairs do not depend on it. It reports
 * exactly the pairs whose closed boxes overlap (the same set as any general broad-phase given the same
 * boxes), as sorted keys a·2²⁴ + b with a < b, and allocates only when the actor count grows.
 */
export class ActorSweep {
  /** min x, y, z, max x, y, z per actor, as last set. */
  private boxes = new Float64Array(6 * 64);
  /** Whether the actor has a box (set since the last reset, not removed). */
  private present = new Uint8Array(64);
  /** The sweep axis (0, 1, 2: x, y, z). */
  private axis = 0;
  /** Present actors by increasing min on the sweep axis (ties by id), kept from one sweep to the next. */
  private order = new Int32Array(64);
  private orderCount = 0;
  private orderValid = false;
  /** The pairs of the last findPairs(), as keys a·2²⁴ + b (a < b), sorted. */
  keys = new Float64Array(256);
  /** How many pairs the last findPairs() found. */
  private lastCount = 0;

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
    if (!this.orderValid) this.rebuildOrder();
    const axis = this.chooseAxis();
    this.sortOrder(axis);
    // Room for twice the last sweep's pairs (and four per box) before the sweep: growing inside it is
    // rare then. (Each step of the sweep is its own function: V8 compiled the long loops of one big
    // function on the stack, mid-call, and threw that code out again at every call.)
    const wanted = Math.max(2 * this.lastCount, 4 * this.orderCount);
    if (this.keys.length < wanted) this.keys = new Float64Array(wanted);
    const count = this.sweepPairs(axis);
    this.keys.subarray(0, count).sort();
    this.lastCount = count;
    return count;
  }

  /** Insertion sort of the order by min on the axis, then id: nearly sorted already. */
  private sortOrder(axis: number): void {
    const boxes = this.boxes;
    const order = this.order;
    const n = this.orderCount;
    for (let i = 1; i < n; i++) {
      const id = order[i]!;
      const x = boxes[6 * id + axis]!;
      let j = i - 1;
      while (j >= 0) {
        const other = order[j]!;
        const ox = boxes[6 * other + axis]!;
        if (ox < x || (ox === x && other < id)) break;
        order[j + 1] = other;
        j--;
      }
      order[j + 1] = id;
    }
  }

  /** The sweep over the sorted order: writes the pairs' keys (unsorted) to `keys`, returns how many. */
  private sweepPairs(axis: number): number {
    const boxes = this.boxes;
    const order = this.order;
    const n = this.orderCount;
    // The two other axes, checked once the sweep axis overlaps.
    const u = axis === 0 ? 1 : 0,
      v = axis === 2 ? 1 : 2;
    let out = this.keys;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const a = order[i]!;
      const o = 6 * a;
      const max = boxes[o + 3 + axis]!;
      const minU = boxes[o + u]!,
        minV = boxes[o + v]!,
        maxU = boxes[o + 3 + u]!,
        maxV = boxes[o + 3 + v]!;
      for (let j = i + 1; j < n; j++) {
        const b = order[j]!;
        const p = 6 * b;
        if (boxes[p + axis]! > max) break;
        if (boxes[p + u]! > maxU || boxes[p + 3 + u]! < minU || boxes[p + v]! > maxV || boxes[p + 3 + v]! < minV) continue;
        // The sort puts a before b by min on the axis, so max of b ≥ its min ≥ min of a: the axis overlaps.
        if (count === out.length) {
          const grown = new Float64Array(Math.max(256, 2 * out.length));
          grown.set(out);
          out = this.keys = grown;
        }
        out[count++] = a < b ? a * 16777216 + b : b * 16777216 + a;
      }
    }
    return count;
  }

  /** The axis along which the present boxes' centres spread most (variance), kept unless another beats it by half. */
  private chooseAxis(): number {
    const boxes = this.boxes;
    const order = this.order;
    const n = this.orderCount;
    if (n < 2) return this.axis;
    let sx = 0,
      sy = 0,
      sz = 0,
      qx = 0,
      qy = 0,
      qz = 0;
    for (let i = 0; i < n; i++) {
      const o = 6 * order[i]!;
      const x = boxes[o]! + boxes[o + 3]!,
        y = boxes[o + 1]! + boxes[o + 4]!,
        z = boxes[o + 2]! + boxes[o + 5]!;
      sx += x;
      sy += y;
      sz += z;
      qx += x * x;
      qy += y * y;
      qz += z * z;
    }
    const spreadX = qx - (sx * sx) / n,
      spreadY = qy - (sy * sy) / n,
      spreadZ = qz - (sz * sz) / n;
    const current = this.axis === 0 ? spreadX : this.axis === 1 ? spreadY : spreadZ;
    const widest = Math.max(spreadX, spreadY, spreadZ);
    if (widest > 1.5 * current) this.axis = widest === spreadX ? 0 : widest === spreadY ? 1 : 2;
    return this.axis;
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
