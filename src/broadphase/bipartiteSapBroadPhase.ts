import { KIND_DYNAMIC, KIND_STATIC } from './broadPhase';
import { BroadPhaseBase } from './broadPhaseBase';
import { grown } from './boxTable';
import { FoundPairs, SortedBoxes, pruneBipartite, sweepKey } from './boxPruningKernels';
import { floatKey } from './floatKey';
import { StaleRule } from './pairManager';
import { RadixSorter } from './radixSort';
import { SweepAndPrune } from './sweepAndPrune';

const LOW_SENTINEL = -1;
const HIGH_SENTINEL = 2 ** 34;

/**
 * Bipartite ("static") sweep-and-prune for few dynamic boxes among many static ones.
 *
 * Dynamic–dynamic pairs come from an ordinary incremental SAP holding only the dynamics. Dynamic–static
 * pairs come from a second structure: the statics' endpoints sorted per axis (same keys as the SAP), and
 * for each dynamic box only its *virtual* position in those arrays — the index of the first static
 * endpoint above each of its six keys. Moving a dynamic box walks those indices over the static endpoints
 * it passes, adding and releasing pairs exactly as SAP swaps would, but the static arrays never shift:
 * the update writes only the dynamic box's six integers.
 *
 * Statics changing is the rare case: the static arrays are rebuilt at the step, every dynamic box's
 * virtual position is found again by binary search, and the changed statics are box-pruned against all
 * dynamics (their untouched old pairs are dropped at commit). Until then the moving dynamics ignore
 * changed statics.
 */
export class BipartiteSapBroadPhase extends BroadPhaseBase {
  readonly name = 'bipartite-sap';
  private readonly dynamicSap = new SweepAndPrune(this.table, this.pairs, false);
  private readonly keys: Float64Array[] = [new Float64Array(2), new Float64Array(2), new Float64Array(2)];
  /** 2·id + isMax per static endpoint. */
  private readonly owner: Int32Array[] = [new Int32Array(2), new Int32Array(2), new Int32Array(2)];
  private staticEndpoints = 0;
  /** Per static id and axis: the index of its min and max endpoints. */
  private staticMin = new Int32Array(0);
  private staticMax = new Int32Array(0);
  /** Per dynamic id and axis: the index of the first static endpoint above its min and max keys. */
  private virtualMin = new Int32Array(0);
  private virtualMax = new Int32Array(0);
  /** Dynamic ids whose virtual positions are valid (placed at a step). */
  private placed = new Uint8Array(0);
  /** Statics inserted or updated this step: dynamics ignore them until the step prunes them. */
  private freshStatic = new Uint8Array(0);
  private staticsChanged = false;
  private readonly sorter = new RadixSorter();
  private readonly found = new FoundPairs();
  private readonly sortedA = new SortedBoxes();
  private readonly sortedB = new SortedBoxes();
  private virtualMoves = 0;
  private readonly stats = { swaps: 0, virtualMoves: 0, rebuilds: 0 };

  constructor() {
    super(StaleRule.Dirty);
    for (let axis = 0; axis < 3; axis++) {
      this.keys[axis]![0] = LOW_SENTINEL;
      this.keys[axis]![1] = HIGH_SENTINEL;
    }
  }

  protected override staleObjects(): Uint8Array {
    return this.freshStatic;
  }

  private fit(): void {
    const capacity = this.table.capacity;
    if (this.placed.length >= capacity) return;
    this.staticMin = grown(this.staticMin, 3 * capacity);
    this.staticMax = grown(this.staticMax, 3 * capacity);
    this.virtualMin = grown(this.virtualMin, 3 * capacity);
    this.virtualMax = grown(this.virtualMax, 3 * capacity);
    this.placed = grown(this.placed, capacity);
    this.freshStatic = grown(this.freshStatic, capacity);
  }

  protected onInsert(id: number): void {
    this.fit();
    if (this.table.kind[id] === KIND_STATIC) {
      this.freshStatic[id] = 1;
      this.staticsChanged = true;
    } else {
      this.dynamicSap.add(id);
    }
  }

  protected onUpdate(id: number): void {
    if (this.table.kind[id] === KIND_STATIC) {
      this.freshStatic[id] = 1;
      this.staticsChanged = true;
      return;
    }
    this.dynamicSap.move(id);
    if (this.placed[id]) this.moveVirtually(id);
  }

  protected onRemove(id: number): void {
    if (this.table.kind[id] === KIND_STATIC) {
      this.staticsChanged = true;
      // The mark names this incarnation only: left set, it would make the step untouch and drop the pairs of
      // a dynamic inserted under the same id before the step.
      this.freshStatic[id] = 0;
    } else {
      this.dynamicSap.remove(id, false);
      this.placed[id] = 0;
    }
  }

  protected onStep(): void {
    this.dynamicSap.flush();
    if (this.staticsChanged) {
      this.rebuildStatics();
      this.pruneFreshStatics();
    }
    this.placeNewDynamics();
    this.stats.swaps = this.dynamicSap.swaps;
    this.dynamicSap.swaps = 0;
    this.stats.virtualMoves = this.virtualMoves;
    this.virtualMoves = 0;
  }

  protected override afterCommit(): void {
    const fresh = this.freshStatic;
    const list = this.dirtyList;
    for (let i = 0; i < this.dirtyCount; i++) fresh[list[i]!] = 0;
  }

  /** Walks the dynamic box's virtual endpoints to its new keys, axis by axis, adding and releasing pairs. */
  private moveVirtually(id: number): void {
    const bits = this.table.bits;
    const base = 6 * id;
    for (let axis = 0; axis < 3; axis++) {
      const minKey = 2 * floatKey(bits[base + axis]!);
      const maxKey = 2 * floatKey(bits[base + 3 + axis]!) + 1;
      const at = 3 * id + axis;
      const keys = this.keys[axis]!;
      // Same order as the SAP: the virtual interval stays valid in between.
      if (keys[this.virtualMin[at]! - 1]! > minKey) this.walkMin(id, axis, minKey);
      if (keys[this.virtualMax[at]!]! <= maxKey) this.walkMax(id, axis, maxKey);
      if (keys[this.virtualMax[at]! - 1]! > maxKey) this.walkMax(id, axis, maxKey);
      if (keys[this.virtualMin[at]!]! <= minKey) this.walkMin(id, axis, minKey);
    }
  }

  /** The dynamic min passing a static max starts an overlap going left and ends one going right. */
  private walkMin(id: number, axis: number, key: number): void {
    const keys = this.keys[axis]!;
    const owner = this.owner[axis]!;
    const at = 3 * id + axis;
    let v = this.virtualMin[at]!;
    const start = v;
    while (keys[v - 1]! > key) {
      v--;
      const o = owner[v]!;
      if (o & 1) this.event(id, o >> 1, axis, true);
    }
    while (keys[v]! <= key) {
      const o = owner[v]!;
      v++;
      if (o & 1) this.event(id, o >> 1, axis, false);
    }
    this.virtualMin[at] = v;
    this.virtualMoves += Math.abs(v - start);
  }

  /** The dynamic max passing a static min starts an overlap going right and ends one going left. */
  private walkMax(id: number, axis: number, key: number): void {
    const keys = this.keys[axis]!;
    const owner = this.owner[axis]!;
    const at = 3 * id + axis;
    let v = this.virtualMax[at]!;
    const start = v;
    while (keys[v - 1]! > key) {
      v--;
      const o = owner[v]!;
      if (!(o & 1)) this.event(id, o >> 1, axis, false);
    }
    while (keys[v]! <= key) {
      const o = owner[v]!;
      v++;
      if (!(o & 1)) this.event(id, o >> 1, axis, true);
    }
    this.virtualMax[at] = v;
    this.virtualMoves += Math.abs(v - start);
  }

  // Only the other two axes are tested, so the walks need not store the index as they go.

  /** An interval status change on `axis` between dynamic `id` and static `s`; a pair if the other axes overlap. */
  private event(id: number, s: number, axis: number, begins: boolean): void {
    if (this.freshStatic[s] || this.table.kind[s] !== KIND_STATIC) return;
    const j = axis === 0 ? 1 : 0;
    const k = axis === 2 ? 1 : 2;
    const virtualMin = this.virtualMin;
    const virtualMax = this.virtualMax;
    const staticMin = this.staticMin;
    const staticMax = this.staticMax;
    const dj = 3 * id + j;
    const sj = 3 * s + j;
    const dk = 3 * id + k;
    const sk = 3 * s + k;
    if (
      virtualMin[dj]! <= staticMax[sj]! &&
      staticMin[sj]! < virtualMax[dj]! &&
      virtualMin[dk]! <= staticMax[sk]! &&
      staticMin[sk]! < virtualMax[dk]!
    ) {
      if (begins) this.pairs.touch(id, s);
      else this.pairs.release(id, s);
    }
  }

  private rebuildStatics(): void {
    const table = this.table;
    const { ibits, kind, live, liveCount } = table;
    const count = table.staticCount;
    const endpoints = 2 * count;
    const sortKeys = new Int32Array(endpoints);
    const sortOwners = new Int32Array(endpoints);
    for (let axis = 0; axis < 3; axis++) {
      let n = 0;
      // Mins first, then maxes: the stable sort keeps a min before a max at equal coordinates.
      for (let i = 0; i < liveCount; i++) {
        const id = live[i]!;
        if (kind[id] !== KIND_STATIC) continue;
        sortKeys[n] = sweepKey(ibits[6 * id + axis]!);
        sortOwners[n++] = 2 * id;
      }
      for (let i = 0; i < liveCount; i++) {
        const id = live[i]!;
        if (kind[id] !== KIND_STATIC) continue;
        sortKeys[n] = sweepKey(ibits[6 * id + 3 + axis]!);
        sortOwners[n++] = 2 * id + 1;
      }
      this.sorter.sort(sortKeys, sortOwners, endpoints);
      const keys = (this.keys[axis] = grown(this.keys[axis]!, endpoints + 2));
      const owner = (this.owner[axis] = grown(this.owner[axis]!, endpoints + 2));
      const staticMin = this.staticMin;
      const staticMax = this.staticMax;
      keys[0] = LOW_SENTINEL;
      owner[0] = -1;
      for (let e = 0; e < endpoints; e++) {
        const o = sortOwners[e]!;
        // Back to the unsigned float key the SAP keys are made of.
        keys[e + 1] = 2 * ((sortKeys[e]! ^ 0x80000000) >>> 0) + (o & 1);
        owner[e + 1] = o;
        if (o & 1) staticMax[3 * (o >> 1) + axis] = e + 1;
        else staticMin[3 * (o >> 1) + axis] = e + 1;
      }
      keys[endpoints + 1] = HIGH_SENTINEL;
      owner[endpoints + 1] = -1;
    }
    this.staticEndpoints = endpoints;
    for (let i = 0; i < liveCount; i++) {
      const id = live[i]!;
      if (kind[id] === KIND_DYNAMIC && this.placed[id]) this.placeVirtually(id);
    }
    this.staticsChanged = false;
    this.stats.rebuilds++;
  }

  /** Binary search per key: the first static endpoint strictly above it. */
  private placeVirtually(id: number): void {
    const bits = this.table.bits;
    for (let axis = 0; axis < 3; axis++) {
      this.virtualMin[3 * id + axis] = this.firstAbove(axis, 2 * floatKey(bits[6 * id + axis]!));
      this.virtualMax[3 * id + axis] = this.firstAbove(axis, 2 * floatKey(bits[6 * id + 3 + axis]!) + 1);
    }
  }

  private firstAbove(axis: number, key: number): number {
    const keys = this.keys[axis]!;
    let lo = 1;
    let hi = this.staticEndpoints + 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid]! > key) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Statics inserted or updated this step against every dynamic box. */
  private pruneFreshStatics(): void {
    const { kind, live, liveCount } = this.table;
    const fresh = this.freshStatic;
    const statics: number[] = [];
    const dynamics: number[] = [];
    for (let i = 0; i < liveCount; i++) {
      const id = live[i]!;
      if (kind[id] === KIND_DYNAMIC) dynamics.push(id);
      else if (fresh[id]) statics.push(id);
    }
    // Dynamics may have touched pairs with these statics earlier in the step, against their old boxes.
    this.pairs.untouch(fresh);
    this.pruneSets(statics, dynamics);
  }

  /** Dynamics inserted this step: their virtual positions, and their pairs with the settled statics. */
  private placeNewDynamics(): void {
    const { kind, live, liveCount } = this.table;
    const dirtyList = this.dirtyList;
    const newcomers: number[] = [];
    for (let i = 0; i < this.dirtyCount; i++) {
      const id = dirtyList[i]!;
      if (kind[id] !== KIND_DYNAMIC || this.placed[id]) continue;
      this.placeVirtually(id);
      this.placed[id] = 1;
      newcomers.push(id);
    }
    if (newcomers.length === 0 || this.table.staticCount === 0) return;
    const statics: number[] = [];
    for (let i = 0; i < liveCount; i++) {
      const id = live[i]!;
      if (kind[id] === KIND_STATIC && !this.freshStatic[id]) statics.push(id);
    }
    this.pruneSets(newcomers, statics);
  }

  private pruneSets(first: number[], second: number[]): void {
    if (first.length === 0 || second.length === 0) return;
    this.sortInto(this.sortedA, first);
    this.sortInto(this.sortedB, second);
    const found = this.found;
    found.count = 0;
    pruneBipartite(this.sortedA, this.sortedB, found);
    for (let i = 0; i < found.count; i++) this.pairs.touch(found.a[i]!, found.b[i]!);
  }

  private sortInto(set: SortedBoxes, ids: number[]): void {
    const ibits = this.table.ibits;
    const n = ids.length;
    const keys = new Int32Array(n);
    const order = Int32Array.from(ids);
    for (let i = 0; i < n; i++) keys[i] = sweepKey(ibits[6 * order[i]!]!);
    this.sorter.sort(keys, order, n);
    set.gather(this.table, 0, order, keys, n);
  }

  counters(): Readonly<Record<string, number>> {
    return {
      'dynamic swaps': this.stats.swaps,
      'virtual moves': this.stats.virtualMoves,
      'static endpoints': this.staticEndpoints,
      'static rebuilds': this.stats.rebuilds,
      'hash look-ups': this.lastLookups,
    };
  }
}
