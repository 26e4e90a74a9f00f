import { BroadPhaseBase } from './broadPhaseBase';
import { grown } from './boxTable';
import { StaleRule } from './pairManager';
import { SweepAndPrune } from './sweepAndPrune';
import { UniformGrid } from './uniformGrid';

export interface MultiSapOptions {
  /** Cells per axis of the grid fitted to the boxes at the first step. */
  cells: [number, number, number];
}

export const DEFAULT_MULTI_SAP_OPTIONS: MultiSapOptions = { cells: [4, 4, 4] };

/**
 * Multi-SAP: a grid of small incremental SAPs, each box in every cell its box touches. Each cell finds its
 * pairs exactly; a pair overlapping in several cells is one entry in the shared pair manager with one
 * reference per cell, so duplicates are filtered and the pair leaves only when no cell sees it. A box
 * crossing into a cell is inserted there (batched to the step) and released from the cells it leaves.
 * Cells shorten the endpoint arrays each swap runs over; boxes spanning many cells cost one copy each.
 */
export class MultiSapBroadPhase extends BroadPhaseBase {
  readonly name = 'multi-sap';
  private readonly grid: UniformGrid;
  private readonly cells: (SweepAndPrune | null)[] = [];
  private cellDirty = new Uint8Array(0);
  private dirtyCells: number[] = [];
  /** Per id: its cell range (lo xyz, hi xyz) once assigned to cells. */
  private range = new Int32Array(0);
  private assigned = new Uint8Array(0);
  private unassigned: number[] = [];
  private readonly newRange = new Int32Array(6);
  private readonly stats = { swaps: 0, crossings: 0, copies: 0 };
  private crossings = 0;

  constructor(options: Partial<MultiSapOptions> = {}) {
    super(StaleRule.Keep);
    this.grid = new UniformGrid(options.cells ?? DEFAULT_MULTI_SAP_OPTIONS.cells);
  }

  protected onInsert(id: number): void {
    const capacity = this.table.capacity;
    if (this.assigned.length < capacity) {
      this.assigned = grown(this.assigned, capacity);
      this.range = grown(this.range, 6 * capacity);
    }
    this.unassigned.push(id);
  }

  protected onUpdate(id: number): void {
    if (!this.assigned[id]) return;
    const range = this.range;
    const next = this.newRange;
    const at = 6 * id;
    this.grid.rangeOf(this.table.boxes, id, next, 0);
    let same = true;
    for (let k = 0; k < 6; k++) same &&= next[k] === range[at + k];
    if (same) {
      for (let z = range[at + 2]!; z <= range[at + 5]!; z++)
        for (let y = range[at + 1]!; y <= range[at + 4]!; y++)
          for (let x = range[at]!; x <= range[at + 3]!; x++) this.cells[this.grid.index(x, y, z)]!.move(id);
      return;
    }
    this.crossings++;
    // Leave the cells only in the old range, move in the shared ones, join the new ones.
    for (let z = range[at + 2]!; z <= range[at + 5]!; z++)
      for (let y = range[at + 1]!; y <= range[at + 4]!; y++)
        for (let x = range[at]!; x <= range[at + 3]!; x++) {
          const cell = this.cells[this.grid.index(x, y, z)]!;
          if (x < next[0]! || x > next[3]! || y < next[1]! || y > next[4]! || z < next[2]! || z > next[5]!) cell.remove(id, true);
          else cell.move(id);
        }
    for (let z = next[2]!; z <= next[5]!; z++)
      for (let y = next[1]!; y <= next[4]!; y++)
        for (let x = next[0]!; x <= next[3]!; x++) {
          if (x >= range[at]! && x <= range[at + 3]! && y >= range[at + 1]! && y <= range[at + 4]! && z >= range[at + 2]! && z <= range[at + 5]!)
            continue;
          this.join(this.grid.index(x, y, z), id);
        }
    range.set(next, at);
  }

  protected onRemove(id: number): void {
    if (!this.assigned[id]) return;
    this.assigned[id] = 0;
    const range = this.range;
    const at = 6 * id;
    for (let z = range[at + 2]!; z <= range[at + 5]!; z++)
      for (let y = range[at + 1]!; y <= range[at + 4]!; y++)
        for (let x = range[at]!; x <= range[at + 3]!; x++) this.cells[this.grid.index(x, y, z)]!.remove(id, false);
  }

  protected onStep(): void {
    const table = this.table;
    if (this.unassigned.length > 0) {
      if (!this.grid.fitted) {
        this.grid.fit(table);
        for (let c = 0; c < this.grid.cellCount; c++) this.cells.push(null);
        this.cellDirty = new Uint8Array(this.grid.cellCount);
      }
      for (const id of this.unassigned) {
        if (!table.has(id) || this.assigned[id]) continue;
        this.assigned[id] = 1;
        const at = 6 * id;
        this.grid.rangeOf(table.boxes, id, this.range, at);
        const range = this.range;
        for (let z = range[at + 2]!; z <= range[at + 5]!; z++)
          for (let y = range[at + 1]!; y <= range[at + 4]!; y++)
            for (let x = range[at]!; x <= range[at + 3]!; x++) this.join(this.grid.index(x, y, z), id);
      }
      this.unassigned.length = 0;
    }
    let swaps = 0;
    for (const c of this.dirtyCells) {
      this.cells[c]!.flush();
      this.cellDirty[c] = 0;
    }
    this.dirtyCells.length = 0;
    let copies = 0;
    for (const cell of this.cells) {
      if (cell === null) continue;
      swaps += cell.swaps;
      cell.swaps = 0;
      copies += cell.size;
    }
    this.stats.swaps = swaps;
    this.stats.crossings = this.crossings;
    this.stats.copies = copies;
    this.crossings = 0;
  }

  private join(c: number, id: number): void {
    let cell = this.cells[c]!;
    if (cell === null) cell = this.cells[c] = new SweepAndPrune(this.table, this.pairs, true);
    cell.add(id);
    if (!this.cellDirty[c]) {
      this.cellDirty[c] = 1;
      this.dirtyCells.push(c);
    }
  }

  counters(): Readonly<Record<string, number>> {
    let used = 0;
    for (const cell of this.cells) if (cell !== null && cell.size > 0) used++;
    return {
      swaps: this.stats.swaps,
      'cells in use': used,
      'box copies in cells': this.stats.copies,
      'cell crossings': this.stats.crossings,
      'hash look-ups': this.lastLookups,
    };
  }
}
