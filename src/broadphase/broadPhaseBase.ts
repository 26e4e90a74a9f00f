import { KIND_STATIC, type BodyKind, type BoxSource, type BroadPhase, type BroadPhaseStep } from './broadPhase';
import { BoxTable, grown } from './boxTable';
import { PairManager, StaleRule } from './pairManager';

/**
 * What every strategy but the reference shares: the checked box table, the pair manager, and the
 * bookkeeping of one step — which ids were inserted or updated (dirty) and which were removed (dead).
 * Strategies implement the four hooks; structural removal happens in `onRemove`, while the removed
 * object's pairs are dropped by the commit (or at once, when the same id comes back within the step).
 */
export abstract class BroadPhaseBase implements BroadPhase {
  abstract readonly name: string;
  protected readonly table = new BoxTable();
  protected readonly pairs = new PairManager();
  protected dead = new Uint8Array(64);
  protected deadList = new Int32Array(64);
  protected deadCount = 0;
  protected dirty = new Uint8Array(64);
  /** Ids inserted or updated since the last step (each once; may include ids removed since). */
  protected dirtyList = new Int32Array(64);
  protected dirtyCount = 0;
  /** Live ids among the dirty ones (when it equals the live count, every pair is re-found). */
  private liveDirty = 0;
  /** Pair hash look-ups of the last step. */
  protected lastLookups = 0;
  private readonly result: BroadPhaseStep;

  constructor(private readonly staleRule: StaleRule) {
    const pairs = this.pairs;
    this.result = {
      get pairs() {
        return pairs;
      },
      created: pairs.created,
      deleted: pairs.deleted,
    };
  }

  get size(): number {
    return this.table.liveCount;
  }

  has(id: number): boolean {
    return this.table.has(id);
  }

  kindOf(id: number): BodyKind | null {
    if (!this.table.has(id)) return null;
    return this.table.kind[id] === KIND_STATIC ? 'static' : 'dynamic';
  }

  insert(id: number, box: BoxSource, kind: BodyKind, offset = 0): void {
    const table = this.table;
    table.add(id, box, offset, kind);
    this.fitMasks();
    if (this.dead[id]) this.flushDead();
    this.markDirty(id);
    this.onInsert(id);
  }

  update(id: number, box: BoxSource, offset = 0): void {
    const table = this.table;
    // The common case in one test: a live id (typed arrays read undefined for fractional or outside ids).
    if (!(table.kind[id]! > 0 && (id | 0) === id)) table.require(id);
    this.table.write(id, box, offset);
    this.markDirty(id);
    this.onUpdate(id);
  }

  remove(id: number): void {
    this.table.require(id);
    if (this.dirty[id]) this.liveDirty--;
    this.onRemove(id);
    this.table.delete(id);
    this.dead[id] = 1;
    if (this.deadCount === this.deadList.length) this.deadList = grown(this.deadList, this.deadCount + 1);
    this.deadList[this.deadCount++] = id;
  }

  step(): BroadPhaseStep {
    this.onStep();
    this.lastLookups = this.pairs.lookups;
    const stale = this.staleObjects();
    // Every live box updated: every stale test would say yes, so skip the per-pair look-ups.
    const rule =
      this.staleRule === StaleRule.Dirty && stale === this.dirty && this.liveDirty >= this.table.liveCount ? StaleRule.All : this.staleRule;
    this.pairs.commit(this.dead, this.deadCount > 0, rule, stale);
    this.afterCommit();
    this.clearDead();
    const dirty = this.dirty;
    const list = this.dirtyList;
    for (let i = 0; i < this.dirtyCount; i++) dirty[list[i]!] = 0;
    this.dirtyCount = 0;
    this.liveDirty = 0;
    return this.result;
  }

  forEachBox(visit: (id: number, box: Float32Array, offset: number, kind: BodyKind) => void): void {
    const table = this.table;
    for (let i = 0; i < table.liveCount; i++) {
      const id = table.live[i]!;
      visit(id, table.boxes, 6 * id, table.kind[id] === KIND_STATIC ? 'static' : 'dynamic');
    }
  }

  abstract counters(): Readonly<Record<string, number>>;

  /** Runs after the commit, before the step's dirty and dead flags are cleared. */
  protected afterCommit(): void {}

  /** Objects whose untouched pairs the commit drops under StaleRule.Dirty: by default the inserted and updated ones. */
  protected staleObjects(): Uint8Array {
    return this.dirty;
  }

  /** The box is in the table (and dirty); add it to the strategy's structures, now or at the step. */
  protected abstract onInsert(id: number): void;
  /** The table holds the new box; move it in the strategy's structures. */
  protected abstract onUpdate(id: number): void;
  /** Called while the box is still in the table: take it out of the strategy's structures. */
  protected abstract onRemove(id: number): void;
  /** Finish pending work and touch, add or release pairs; the commit follows. */
  protected abstract onStep(): void;

  private markDirty(id: number): void {
    if (this.dirty[id]) return;
    this.dirty[id] = 1;
    this.liveDirty++;
    // Inline check: `grown` serves every typed-array type, so calling it per update is a megamorphic call.
    if (this.dirtyCount === this.dirtyList.length) this.dirtyList = grown(this.dirtyList, this.dirtyCount + 1);
    this.dirtyList[this.dirtyCount++] = id;
  }

  private fitMasks(): void {
    const capacity = this.table.capacity;
    if (this.dead.length < capacity) {
      this.dead = grown(this.dead, capacity);
      this.dirty = grown(this.dirty, capacity);
    }
  }

  /** An id removed earlier in this step comes back: settle the old incarnation's pairs first. */
  private flushDead(): void {
    this.pairs.purge(this.dead);
    this.clearDead();
  }

  private clearDead(): void {
    const dead = this.dead;
    const list = this.deadList;
    for (let i = 0; i < this.deadCount; i++) dead[list[i]!] = 0;
    this.deadCount = 0;
  }
}
