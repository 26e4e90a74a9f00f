import type { BoxTable } from './boxTable';

const SAMPLE = 1024;

/**
 * A grid of cells over the populated part of the world, for multi-SAP cells and pruning regions. It is
 * fitted once to the boxes present (2nd–98th percentile of centres per axis, so a few far-away boxes don't
 * stretch it); coordinates outside clamp to the border cells, which therefore reach to infinity, so every
 * box, however far or huge, has a cell range.
 */
export class UniformGrid {
  fitted = false;
  readonly origin = new Float64Array(3);
  readonly inverseSize = new Float64Array(3);
  readonly size = new Float64Array(3);
  readonly cells: Int32Array;

  constructor(cellsPerAxis: readonly [number, number, number]) {
    this.cells = Int32Array.from(cellsPerAxis.map((n) => Math.max(1, Math.floor(n))));
  }

  get cellCount(): number {
    return this.cells[0]! * this.cells[1]! * this.cells[2]!;
  }

  /** Fits the grid to the table's boxes; with no boxes, a unit grid at the origin. */
  fit(table: BoxTable): void {
    const count = table.liveCount;
    const step = Math.max(1, Math.floor(count / SAMPLE));
    const sampled = Math.min(SAMPLE, Math.ceil(count / step));
    const centres = new Float64Array(sampled);
    for (let axis = 0; axis < 3; axis++) {
      let lo = 0;
      let hi = 1;
      if (sampled > 0) {
        for (let s = 0; s < sampled; s++) {
          const base = 6 * table.live[s * step]!;
          centres[s] = 0.5 * table.boxes[base + axis]! + 0.5 * table.boxes[base + 3 + axis]!;
        }
        centres.sort();
        lo = centres[Math.floor((sampled - 1) * 0.02)]!;
        hi = centres[Math.ceil((sampled - 1) * 0.98)]!;
        if (!(hi > lo)) hi = lo + 1;
      }
      const size = (hi - lo) / this.cells[axis]!;
      this.origin[axis] = lo;
      this.size[axis] = size;
      this.inverseSize[axis] = 1 / size;
    }
    this.fitted = true;
  }

  /** The cell index along `axis` holding `value`, clamped to the grid. */
  cellOf(axis: number, value: number): number {
    const cell = Math.floor((value - this.origin[axis]!) * this.inverseSize[axis]!);
    const last = this.cells[axis]! - 1;
    return cell < 0 ? 0 : cell > last ? last : cell;
  }

  /** Writes the box's cell range (lo x, y, z, hi x, y, z) at `out[offset..offset + 6)`. */
  rangeOf(boxes: Float32Array, id: number, out: Int32Array, offset: number): void {
    const base = 6 * id;
    for (let axis = 0; axis < 3; axis++) {
      out[offset + axis] = this.cellOf(axis, boxes[base + axis]!);
      out[offset + 3 + axis] = this.cellOf(axis, boxes[base + 3 + axis]!);
    }
  }

  index(x: number, y: number, z: number): number {
    return (z * this.cells[1]! + y) * this.cells[0]! + x;
  }
}
