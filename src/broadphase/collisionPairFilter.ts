import { MASK_ALL, checkFilter } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import { MAX_BROAD_PHASE_ID, type BroadPhaseStep, type PairList } from './broadPhase';
import { grown } from './boxTable';
import { PairBuffer } from './pairManager';

/** 2^24 ids, so a·2^24 + b is an exact integer key for a pair. */
const PAIR_KEY_SCALE = 16777216;

/**
 * Collision categories over any strategy's output: every id may carry a 32-bit category and a 32-bit
 * filter (both MASK_ALL unless set), and a pair is kept only when each one's category passes the
 * other's filter: (a.category & b.filter) ≠ 0 and (b.category & a.filter) ≠ 0. It reads a step's pairs,
 * created and deleted lists and writes the filtered ones, so one implementation serves every strategy.
 *
 * The filtered lists keep the contract of BroadPhase.step (set differences of the filtered pair sets
 * between steps): while no masks change, a created or deleted pair is kept exactly when its masks pass;
 * when some id's masks changed since the last step, its pairs that overlap in both steps are created or
 * deleted as their verdict flips (deleted pairs are judged by the masks of the last step).
 *
 * Until some id is given masks other than MASK_ALL, `apply` returns the step as it is: no cost.
 */
export class CollisionPairFilter {
  /** Per id, its category and filter now, and as they were at the last step. */
  private category = new Uint32Array(0);
  private filter = new Uint32Array(0);
  private lastCategory = new Uint32Array(0);
  private lastFilter = new Uint32Array(0);
  private changed = new Uint8Array(0);
  private changedList = new Int32Array(16);
  private changedCount = 0;
  /** Ids whose category or filter is not MASK_ALL. */
  private restricted = 0;
  private readonly pairs = new PairBuffer();
  private readonly created = new PairBuffer();
  private readonly deleted = new PairBuffer();
  private readonly createdKeys = new Set<number>();
  private readonly result: BroadPhaseStep = { pairs: this.pairs, created: this.created, deleted: this.deleted };

  /** Whether some pair may be filtered out (some id has masks other than MASK_ALL, now or at the last step). */
  get active(): boolean {
    return this.restricted > 0 || this.changedCount > 0;
  }

  /** Sets id's category and filter (32-bit each); an InvalidParameterError names a bad one. */
  set(id: number, category: number, filter: number): void {
    if (!(Number.isInteger(id) && id >= 0 && id < MAX_BROAD_PHASE_ID))
      throw new InvalidParameterError('id', `an integer in [0, ${MAX_BROAD_PHASE_ID})`, id);
    checkFilter(category, 'category');
    checkFilter(filter, 'filter');
    if (id >= this.category.length && category === MASK_ALL && filter === MASK_ALL) return;
    this.ensure(id + 1);
    const oldCategory = this.category[id]!;
    const oldFilter = this.filter[id]!;
    if (oldCategory === category && oldFilter === filter) return;
    const wasRestricted = oldCategory !== MASK_ALL || oldFilter !== MASK_ALL;
    const isRestricted = category !== MASK_ALL || filter !== MASK_ALL;
    this.restricted += (isRestricted ? 1 : 0) - (wasRestricted ? 1 : 0);
    this.category[id] = category;
    this.filter[id] = filter;
    if (this.changed[id] === 0) {
      this.changed[id] = 1;
      if (this.changedCount === this.changedList.length) this.changedList = grown(this.changedList, this.changedCount + 1);
      this.changedList[this.changedCount++] = id;
    }
  }

  categoryOf(id: number): number {
    return id < this.category.length ? this.category[id]! : MASK_ALL;
  }

  filterOf(id: number): number {
    return id < this.filter.length ? this.filter[id]! : MASK_ALL;
  }

  /** Every id back to MASK_ALL (for a broad-phase rebuilt from scratch, whose first step creates every pair). */
  clear(): void {
    this.category = new Uint32Array(0);
    this.filter = new Uint32Array(0);
    this.lastCategory = new Uint32Array(0);
    this.lastFilter = new Uint32Array(0);
    this.changed = new Uint8Array(0);
    this.changedCount = 0;
    this.restricted = 0;
  }

  /** The step's lists with the filtered pairs left out; the step itself while nothing is filtered. */
  apply(step: BroadPhaseStep): BroadPhaseStep {
    if (!this.active) return step;
    // Every id a pair names gets its slot (MASK_ALL), so the loops below read no undefined.
    this.ensure(Math.max(maxId(step.pairs), maxId(step.created), maxId(step.deleted)) + 1);
    const category = this.category;
    const filter = this.filter;
    keep(step.pairs, category, filter, this.pairs);
    keep(step.created, category, filter, this.created);
    keep(step.deleted, this.lastCategory, this.lastFilter, this.deleted);
    if (this.changedCount > 0) {
      this.flipChanged(step);
      const changed = this.changed;
      const list = this.changedList;
      for (let i = 0; i < this.changedCount; i++) {
        const id = list[i]!;
        changed[id] = 0;
        this.lastCategory[id] = category[id]!;
        this.lastFilter[id] = filter[id]!;
      }
      this.changedCount = 0;
    }
    return this.result;
  }

  /** Pairs of a changed id that overlap in both steps: created or deleted as their verdict flipped. */
  private flipChanged(step: BroadPhaseStep): void {
    const createdKeys = this.createdKeys;
    createdKeys.clear();
    const created = step.created;
    for (let i = 0; i < created.count; i++) createdKeys.add(created.a[i]! * PAIR_KEY_SCALE + created.b[i]!);
    const { category, filter, lastCategory, lastFilter, changed } = this;
    const pairs = step.pairs;
    for (let i = 0; i < pairs.count; i++) {
      const a = pairs.a[i]!;
      const b = pairs.b[i]!;
      if (changed[a] === 0 && changed[b] === 0) continue;
      if (createdKeys.has(a * PAIR_KEY_SCALE + b)) continue;
      const now = (category[a]! & filter[b]!) !== 0 && (category[b]! & filter[a]!) !== 0;
      const before = (lastCategory[a]! & lastFilter[b]!) !== 0 && (lastCategory[b]! & lastFilter[a]!) !== 0;
      if (now && !before) this.created.push(a, b);
      else if (before && !now) this.deleted.push(a, b);
    }
  }

  private ensure(length: number): void {
    if (length <= this.category.length) return;
    const size = Math.max(length, 2 * this.category.length, 64);
    const widen = (array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> => {
      const next = new Uint32Array(size).fill(MASK_ALL);
      next.set(array);
      return next;
    };
    this.category = widen(this.category);
    this.filter = widen(this.filter);
    this.lastCategory = widen(this.lastCategory);
    this.lastFilter = widen(this.lastFilter);
    this.changed = grown(this.changed, size);
  }
}

function maxId(list: PairList): number {
  let max = -1;
  // b > a in every pair.
  for (let i = 0; i < list.count; i++) if (list.b[i]! > max) max = list.b[i]!;
  return max;
}

/** out := the pairs of `list` whose masks pass. */
function keep(list: PairList, category: Uint32Array, filter: Uint32Array, out: PairBuffer): void {
  out.count = 0;
  const { a, b, count } = list;
  for (let i = 0; i < count; i++) {
    const p = a[i]!;
    const q = b[i]!;
    if ((category[p]! & filter[q]!) !== 0 && (category[q]! & filter[p]!) !== 0) out.push(p, q);
  }
}
