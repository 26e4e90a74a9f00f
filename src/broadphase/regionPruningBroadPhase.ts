import { KIND_NONE, KIND_STATIC } from './broadPhase';
import { BroadPhaseBase } from './broadPhaseBase';
import { grown } from './boxTable';
import { FoundPairs, SWEEP_SENTINEL, SortedBoxes, pruneBipartite, pruneComplete, sweepKey } from './boxPruningKernels';
import { StaleRule } from './pairManager';
import { RadixSorter } from './radixSort';
import { chooseSweepAxis } from './sweepAxis';
import { UniformGrid } from './uniformGrid';

export interface RegionPruningOptions {
  /** Regions along each of the two axes across the sweep axis, on a grid fitted at the first step. */
  regions: [number, number];
}

export const DEFAULT_REGION_PRUNING_OPTIONS: RegionPruningOptions = { regions: [6, 6] };

interface Region {
  /** Boxes not updated since the last step ("sleeping": static or still), sorted, kept across steps. */
  sleeping: SortedBoxes;
  spare: SortedBoxes;
  /** Boxes updated this step, sorted. */
  updated: SortedBoxes;
  /** Some sleeping box woke up or left: drop it at the step. */
  evicted: boolean;
  /** Boxes falling asleep this step, in sweep order. */
  arrivals: number[];
}

/**
 * Region-based box pruning in the spirit of PhysX's MBP and ABP. The world across the sweep axis is cut
 * into a grid of regions (border regions reach to infinity); a box belongs to every region it touches.
 * Within a region the boxes are split in two: those updated this step and the sleeping rest (static
 * boxes, and dynamic ones that did not move). Each step only the updated boxes are sorted (one radix sort
 * for all regions, then dealt out in order) and pruned — completely among themselves and bipartite
 * against the sleeping set, which stays sorted across steps and changes only when boxes wake up or fall
 * asleep. Pairs between two sleeping boxes cannot change, so the pair manager keeps them. A pair found in
 * several regions is reported only by the region holding the min corner of the two boxes' intersection.
 */
export class RegionPruningBroadPhase extends BroadPhaseBase {
  readonly name = 'regions';
  private grid: UniformGrid;
  private readonly options: RegionPruningOptions;
  private regions: Region[] = [];
  private axis = 0;
  private axis1 = 1;
  private axis2 = 2;
  /** Per id: region range (lo1, hi1, lo2, hi2) on the two partition axes, when known. */
  private range = new Int32Array(0);
  // The region grid, flattened for the hot loops: region (c1, c2) is c2·cells1 + c1.
  private origin1 = 0;
  private origin2 = 0;
  private inverse1 = 1;
  private inverse2 = 1;
  private cells1 = 1;
  private cells2 = 1;
  private ranged = new Uint8Array(0);
  /** Per id: it sits in the sleeping sets of its regions. */
  private asleep = new Uint8Array(0);
  /** Boxes updated last step: those not updated this step fall asleep now. */
  private awake = new Int32Array(0);
  private awakeCount = 0;
  private readonly sorter = new RadixSorter();
  private order = new Int32Array(0);
  private keys = new Int32Array(0);
  private readonly found = new FoundPairs();
  private readonly stats = { tests: 0, updated: 0, asleep: 0, copies: 0, reported: 0 };

  constructor(options: Partial<RegionPruningOptions> = {}) {
    super(StaleRule.Dirty);
    this.options = { ...DEFAULT_REGION_PRUNING_OPTIONS, ...options };
    this.grid = new UniformGrid([1, 1, 1]);
  }

  protected onInsert(): void {
    const capacity = this.table.capacity;
    if (this.asleep.length < capacity) {
      this.asleep = grown(this.asleep, capacity);
      this.ranged = grown(this.ranged, capacity);
      this.range = grown(this.range, 4 * capacity);
    }
  }

  protected onUpdate(id: number): void {
    this.wake(id);
  }

  protected onRemove(id: number): void {
    this.wake(id);
    this.ranged[id] = 0;
  }

  /** Takes a sleeping box out of its regions' sleeping sets (at the step). */
  private wake(id: number): void {
    if (!this.asleep[id]) return;
    this.asleep[id] = 0;
    const range = this.range;
    const at = 4 * id;
    for (let c2 = range[at + 2]!; c2 <= range[at + 3]!; c2++)
      for (let c1 = range[at]!; c1 <= range[at + 1]!; c1++) this.regions[c2 * this.cells1 + c1]!.evicted = true;
  }

  // Clamped before truncating: huge coordinates would overflow the int32 truncation.
  private cell1(value: number): number {
    const x = (value - this.origin1) * this.inverse1;
    return x < 0 ? 0 : x >= this.cells1 ? this.cells1 - 1 : x | 0;
  }

  private cell2(value: number): number {
    const x = (value - this.origin2) * this.inverse2;
    return x < 0 ? 0 : x >= this.cells2 ? this.cells2 - 1 : x | 0;
  }

  private fitGrid(): void {
    const axis = chooseSweepAxis(this.table);
    this.axis = axis;
    this.axis1 = axis === 0 ? 1 : 0;
    this.axis2 = axis === 2 ? 1 : 2;
    const [n1, n2] = this.options.regions;
    const cells: [number, number, number] = [1, 1, 1];
    cells[this.axis1] = n1;
    cells[this.axis2] = n2;
    const grid = new UniformGrid(cells);
    grid.fit(this.table);
    this.grid = grid;
    this.origin1 = grid.origin[this.axis1]!;
    this.origin2 = grid.origin[this.axis2]!;
    this.inverse1 = grid.inverseSize[this.axis1]!;
    this.inverse2 = grid.inverseSize[this.axis2]!;
    this.cells1 = n1;
    this.cells2 = n2;
    this.regions = [];
    for (let r = 0; r < grid.cellCount; r++) {
      this.regions.push({ sleeping: new SortedBoxes(), spare: new SortedBoxes(), updated: new SortedBoxes(), evicted: false, arrivals: [] });
    }
  }

  protected onStep(): void {
    const table = this.table;
    const { kind, ibits } = table;
    if (!this.grid.fitted) {
      if (this.dirtyCount === 0) return;
      this.fitGrid();
    }
    const axis = this.axis;
    const regions = this.regions;

    // Boxes updated last step but not this one fall asleep.
    const capacity = Math.max(this.dirtyCount, this.awakeCount);
    this.order = grown(this.order, capacity);
    this.keys = grown(this.keys, capacity);
    const order = this.order;
    const keys = this.keys;
    let sleepers = 0;
    for (let i = 0; i < this.awakeCount; i++) {
      const id = this.awake[i]!;
      if (kind[id] === KIND_NONE || this.dirty[id] || this.asleep[id] || !this.ranged[id]) continue;
      this.asleep[id] = 1;
      order[sleepers] = id;
      keys[sleepers++] = sweepKey(ibits[6 * id + axis]!);
    }
    this.sorter.sort(keys, order, sleepers);
    const range = this.range;
    const cells1 = this.cells1;
    for (let i = 0; i < sleepers; i++) {
      const id = order[i]!;
      const at = 4 * id;
      for (let c2 = range[at + 2]!; c2 <= range[at + 3]!; c2++)
        for (let c1 = range[at]!; c1 <= range[at + 1]!; c1++) regions[c2 * cells1 + c1]!.arrivals.push(id);
    }
    for (const region of regions) if (region.evicted || region.arrivals.length > 0) this.refreshSleeping(region);

    // This step's updated boxes: new ranges, one sort, dealt to their regions in order.
    let updated = 0;
    const dirtyList = this.dirtyList;
    const boxes = table.boxes;
    const ranged = this.ranged;
    const axis1 = this.axis1;
    const axis2 = this.axis2;
    const origin1 = this.origin1;
    const origin2 = this.origin2;
    const inverse1 = this.inverse1;
    const inverse2 = this.inverse2;
    const last1 = this.cells1 - 1;
    const last2 = this.cells2 - 1;
    for (let i = 0; i < this.dirtyCount; i++) {
      const id = dirtyList[i]!;
      if (kind[id] === KIND_NONE) continue;
      // The cell functions inlined (same arithmetic as cell1/cell2, which the duplicate filter uses).
      const base = 6 * id;
      const at = 4 * id;
      let x = (boxes[base + axis1]! - origin1) * inverse1;
      range[at] = x < 0 ? 0 : x >= last1 + 1 ? last1 : x | 0;
      x = (boxes[base + 3 + axis1]! - origin1) * inverse1;
      range[at + 1] = x < 0 ? 0 : x >= last1 + 1 ? last1 : x | 0;
      x = (boxes[base + axis2]! - origin2) * inverse2;
      range[at + 2] = x < 0 ? 0 : x >= last2 + 1 ? last2 : x | 0;
      x = (boxes[base + 3 + axis2]! - origin2) * inverse2;
      range[at + 3] = x < 0 ? 0 : x >= last2 + 1 ? last2 : x | 0;
      ranged[id] = 1;
      order[updated] = id;
      keys[updated++] = sweepKey(ibits[base + axis]!);
    }
    this.sorter.sort(keys, order, updated);
    for (const region of regions) region.updated.count = 0;
    let copies = 0;
    for (let i = 0; i < updated; i++) {
      const id = order[i]!;
      const key = keys[i]!;
      const base = 6 * id;
      const maxKey = sweepKey(ibits[base + 3 + axis]!);
      const lo1 = boxes[base + axis1]!;
      const hi1 = boxes[base + 3 + axis1]!;
      const lo2 = boxes[base + axis2]!;
      const hi2 = boxes[base + 3 + axis2]!;
      const at = 4 * id;
      for (let c2 = range[at + 2]!; c2 <= range[at + 3]!; c2++)
        for (let c1 = range[at]!; c1 <= range[at + 1]!; c1++) {
          regions[c2 * cells1 + c1]!.updated.push(key, maxKey, lo1, hi1, lo2, hi2, id);
          copies++;
        }
    }

    const found = this.found;
    let tests = 0;
    let reported = 0;
    let asleep = 0;
    for (let r = 0; r < regions.length; r++) {
      const region = regions[r]!;
      asleep += region.sleeping.count;
      const fresh = region.updated;
      if (fresh.count === 0) continue;
      fresh.close();
      found.count = 0;
      tests += pruneComplete(fresh, found);
      if (region.sleeping.count > 0) tests += pruneBipartite(fresh, region.sleeping, found);
      reported += this.report(r, found);
    }
    const awake = (this.awake = grown(this.awake, updated));
    awake.set(order.subarray(0, updated));
    this.awakeCount = updated;
    this.stats.tests = tests;
    this.stats.updated = updated;
    this.stats.asleep = asleep;
    this.stats.copies = copies;
    this.stats.reported = reported;
  }

  /** Touches the found pairs that are not static–static and whose intersection's min corner is in region `r`. */
  private report(r: number, found: FoundPairs): number {
    const { kind, boxes } = this.table;
    const axis1 = this.axis1;
    const axis2 = this.axis2;
    const cells1 = this.cells1;
    const single = this.regions.length === 1;
    const fa = found.a;
    const fb = found.b;
    const pairs = this.pairs;
    const range = this.range;
    let reported = 0;
    for (let i = 0; i < found.count; i++) {
      const a = fa[i]!;
      const b = fb[i]!;
      if (kind[a] === KIND_STATIC && kind[b] === KIND_STATIC) continue;
      // Two boxes that each lie in one region can only meet in this one: no duplicate to filter.
      const ra = 4 * a;
      const rb = 4 * b;
      const lone = range[ra] === range[ra + 1] && range[ra + 2] === range[ra + 3] && range[rb] === range[rb + 1] && range[rb + 2] === range[rb + 3];
      if (!single && !lone) {
        const c1 = this.cell1(Math.max(boxes[6 * a + axis1]!, boxes[6 * b + axis1]!));
        const c2 = this.cell2(Math.max(boxes[6 * a + axis2]!, boxes[6 * b + axis2]!));
        if (c2 * cells1 + c1 !== r) continue;
      }
      pairs.touch(a, b);
      reported++;
    }
    return reported;
  }

  /** Drops woken boxes from the sleeping set and merges the arrivals in, keeping sweep order. */
  private refreshSleeping(region: Region): void {
    const ibits = this.table.ibits;
    const source = region.sleeping;
    const target = region.spare;
    const asleep = this.asleep;
    const arrivals = region.arrivals;
    const table = this.table;
    const axis = this.axis;
    target.count = 0;
    let next = 0;
    let nextKey = arrivals.length > 0 ? sweepKey(ibits[6 * arrivals[0]! + axis]!) : SWEEP_SENTINEL;
    for (let i = 0; i < source.count; i++) {
      const id = source.id[i]!;
      if (!asleep[id] && region.evicted) continue;
      const key = source.minKey[i]!;
      while (nextKey < key) {
        target.append(table, axis, arrivals[next]!, nextKey);
        next++;
        nextKey = next < arrivals.length ? sweepKey(ibits[6 * arrivals[next]! + axis]!) : SWEEP_SENTINEL;
      }
      target.appendFrom(source, i);
    }
    for (; next < arrivals.length; next++) target.append(table, axis, arrivals[next]!, sweepKey(ibits[6 * arrivals[next]! + axis]!));
    target.close();
    region.sleeping = target;
    region.spare = source;
    region.evicted = false;
    arrivals.length = 0;
  }

  counters(): Readonly<Record<string, number>> {
    return {
      regions: this.regions.length,
      'updated boxes': this.stats.updated,
      'sleeping copies': this.stats.asleep,
      'updated copies': this.stats.copies,
      'candidate tests': this.stats.tests,
      'pairs reported': this.stats.reported,
      'hash look-ups': this.lastLookups,
    };
  }
}
