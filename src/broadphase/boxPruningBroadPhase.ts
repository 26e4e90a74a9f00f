import { KIND_DYNAMIC, KIND_STATIC } from './broadPhase';
import { BroadPhaseBase } from './broadPhaseBase';
import { grown } from './boxTable';
import { FoundPairs, SortedBoxes, pruneBipartite, pruneComplete, sweepKey } from './boxPruningKernels';
import { StaleRule } from './pairManager';
import { RadixSorter, insertionSort } from './radixSort';
import { chooseSweepAxis } from './sweepAxis';

export type BoxPruningSort = 'radix' | 'coherent';

/** Steps between re-evaluations of the sweep axis. */
const AXIS_REVIEW_PERIOD = 64;

/**
 * Box pruning: each step the dynamic boxes are sorted along one axis on integer keys and swept (complete
 * pruning), then swept against the static boxes (bipartite pruning), whose sorted set is rebuilt only when
 * a static changes. Nothing is incremental but the sort: `radix` sorts from scratch, `coherent` keeps last
 * step's order and insertion-sorts it, which is linear when boxes move little.
 */
export class BoxPruningBroadPhase extends BroadPhaseBase {
  readonly name: string;
  private readonly sorter = new RadixSorter();
  private readonly dynamics = new SortedBoxes();
  private readonly statics = new SortedBoxes();
  private readonly found = new FoundPairs();
  private order = new Int32Array(64);
  private orderKeys = new Int32Array(64);
  private orderCount = 0;
  private listed = new Uint8Array(64);
  private staticsChanged = true;
  private axis = 0;
  private steps = 0;
  private readonly stats = { tests: 0, pairs: 0, moves: 0, axis: 0 };

  constructor(private readonly sort: BoxPruningSort = 'radix') {
    super(StaleRule.All);
    this.name = sort === 'radix' ? 'box-pruning' : 'box-pruning-coherent';
  }

  protected onInsert(id: number): void {
    if (this.table.kind[id] === KIND_STATIC) this.staticsChanged = true;
  }

  protected onUpdate(id: number): void {
    if (this.table.kind[id] === KIND_STATIC) this.staticsChanged = true;
  }

  protected onRemove(id: number): void {
    if (this.table.kind[id] === KIND_STATIC) this.staticsChanged = true;
  }

  protected onStep(): void {
    const table = this.table;
    if (this.steps++ % AXIS_REVIEW_PERIOD === 0) {
      const axis = chooseSweepAxis(table);
      if (axis !== this.axis) {
        this.axis = axis;
        this.staticsChanged = true;
        this.orderCount = 0;
      }
    }
    const axis = this.axis;
    if (this.staticsChanged) this.sortStatics();
    this.sortDynamics();
    const found = this.found;
    found.count = 0;
    let tests = pruneComplete(this.dynamics, found);
    if (this.statics.count > 0) tests += pruneBipartite(this.dynamics, this.statics, found);
    const pairs = this.pairs;
    const fa = found.a;
    const fb = found.b;
    for (let i = 0; i < found.count; i++) pairs.touch(fa[i]!, fb[i]!);
    this.stats.tests = tests;
    this.stats.pairs = found.count;
    this.stats.axis = axis;
  }

  private sortStatics(): void {
    const table = this.table;
    const n = table.staticCount;
    this.order = grown(this.order, table.liveCount);
    this.orderKeys = grown(this.orderKeys, table.liveCount);
    const ids = new Int32Array(n);
    const keys = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < table.liveCount; i++) {
      const id = table.live[i]!;
      if (table.kind[id] !== KIND_STATIC) continue;
      ids[k] = id;
      keys[k++] = sweepKey(table.ibits[6 * id + this.axis]!);
    }
    this.sorter.sort(keys, ids, n);
    this.statics.gather(table, this.axis, ids, keys, n);
    this.staticsChanged = false;
  }

  private sortDynamics(): void {
    const table = this.table;
    const { ibits, kind, live, liveCount } = table;
    const axis = this.axis;
    this.order = grown(this.order, liveCount);
    this.orderKeys = grown(this.orderKeys, liveCount);
    const order = this.order;
    const keys = this.orderKeys;
    let n = 0;
    if (this.sort === 'coherent') {
      // Keep last step's order for boxes still dynamic, then append the newcomers.
      this.listed = grown(this.listed, table.capacity);
      const listed = this.listed;
      for (let i = 0; i < this.orderCount; i++) {
        const id = order[i]!;
        if (kind[id] !== KIND_DYNAMIC || listed[id]) continue;
        listed[id] = 1;
        order[n] = id;
        keys[n++] = sweepKey(ibits[6 * id + axis]!);
      }
      for (let i = 0; i < liveCount; i++) {
        const id = live[i]!;
        if (kind[id] !== KIND_DYNAMIC || listed[id]) continue;
        order[n] = id;
        keys[n++] = sweepKey(ibits[6 * id + axis]!);
      }
      for (let i = 0; i < n; i++) listed[order[i]!] = 0;
      this.stats.moves = insertionSort(keys, order, 0, n);
    } else {
      for (let i = 0; i < liveCount; i++) {
        const id = live[i]!;
        if (kind[id] !== KIND_DYNAMIC) continue;
        order[n] = id;
        keys[n++] = sweepKey(ibits[6 * id + axis]!);
      }
      this.sorter.sort(keys, order, n);
    }
    this.orderCount = n;
    this.dynamics.gather(table, axis, order, keys, n);
  }

  counters(): Readonly<Record<string, number>> {
    const counters: Record<string, number> = {
      'candidate tests': this.stats.tests,
      'overlaps found': this.stats.pairs,
      'sweep axis': this.stats.axis,
    };
    if (this.sort === 'coherent') counters['insertion moves'] = this.stats.moves;
    return counters;
  }
}
