import type { PairList } from './broadPhase';

const FLAG_NEW = 1;
const FLAG_TOUCHED = 2;
const FLAG_REMOVED = 4;

/** A growable list of id pairs (structure of arrays) that a step hands out. */
export class PairBuffer implements PairList {
  count = 0;
  a = new Uint32Array(64);
  b = new Uint32Array(64);

  push(a: number, b: number): void {
    if (this.count === this.a.length) {
      const na = new Uint32Array(this.a.length * 2);
      const nb = new Uint32Array(this.a.length * 2);
      na.set(this.a);
      nb.set(this.b);
      this.a = na;
      this.b = nb;
    }
    this.a[this.count] = a;
    this.b[this.count++] = b;
  }
}

/** How a commit treats a pair that nobody touched since the last commit. */
export const StaleRule = {
  /** Incremental strategies: pairs live until released. */
  Keep: 0,
  /** Strategies that re-find every pair of each updated object: an untouched pair of an updated object is gone. */
  Dirty: 1,
  /** Full recompute: every untouched pair is gone. */
  All: 2,
} as const;
export type StaleRule = (typeof StaleRule)[keyof typeof StaleRule];

/**
 * The pairs shared by every strategy but the reference: a hash of (a, b) with a < b, pairs stored as
 * structure of arrays (a, b, flags, reference count, chain link) in insertion order, so the live pairs
 * are simply the first `count` entries. Removals only set a flag; `commit` compacts once per step,
 * reports what was created and deleted since the previous commit, and rebuilds the chains if anything
 * left. A pair removed and found again within one step is neither created nor deleted.
 *
 * Strategies either `touch` pairs (present now) or, when several sub-structures can see the same pair
 * (multi-SAP cells), count references with `addRef`/`release`.
 */
export class PairManager {
  count = 0;
  a = new Uint32Array(0);
  b = new Uint32Array(0);
  private flags = new Uint8Array(0);
  private refs = new Int32Array(0);
  private next = new Int32Array(0);
  private table = new Int32Array(0);
  private mask = 0;
  private anyRemoved = false;
  readonly created = new PairBuffer();
  readonly deleted = new PairBuffer();
  /** Hash look-ups since the last commit (a strategy counter). */
  lookups = 0;

  constructor(initialCapacity = 1024) {
    this.resize(initialCapacity);
  }

  private hash(a: number, b: number): number {
    return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & this.mask;
  }

  /** Index of (a, b), a < b, or −1. */
  find(a: number, b: number): number {
    this.lookups++;
    const pa = this.a;
    const pb = this.b;
    const next = this.next;
    let index = this.table[this.hash(a, b)]!;
    while (index >= 0 && (pa[index] !== a || pb[index] !== b)) index = next[index]!;
    return index;
  }

  /** The pair overlaps now (recompute strategies, and incremental ones whose pairs are never shared). */
  touch(x: number, y: number): void {
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const index = this.find(a, b);
    if (index >= 0) {
      const flags = this.flags[index]!;
      if (flags & FLAG_REMOVED) this.refs[index] = 1;
      this.flags[index] = (flags | FLAG_TOUCHED) & ~FLAG_REMOVED;
      return;
    }
    this.append(a, b, 1);
  }

  /** One more sub-structure sees the pair overlapping. */
  addRef(x: number, y: number): void {
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const index = this.find(a, b);
    if (index >= 0) {
      const flags = this.flags[index]!;
      if (flags & FLAG_REMOVED) {
        this.refs[index] = 1;
        this.flags[index] = (flags | FLAG_TOUCHED) & ~FLAG_REMOVED;
      } else {
        this.refs[index]++;
      }
      return;
    }
    this.append(a, b, 1);
  }

  /** One sub-structure no longer sees the pair; it goes when no reference is left. */
  release(x: number, y: number): void {
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const index = this.find(a, b);
    if (index < 0 || this.flags[index]! & FLAG_REMOVED) return;
    if (--this.refs[index]! <= 0) {
      this.flags[index] |= FLAG_REMOVED;
      this.anyRemoved = true;
    }
  }

  /** Removes every pair of an object flagged in `dead` (used before an id is inserted again mid-step). */
  purge(dead: Uint8Array): void {
    const pa = this.a;
    const pb = this.b;
    const flags = this.flags;
    for (let i = 0; i < this.count; i++) {
      if (dead[pa[i]!] || dead[pb[i]!]) {
        flags[i] = (flags[i]! | FLAG_REMOVED) & ~FLAG_TOUCHED;
        this.anyRemoved = true;
      }
    }
  }

  /**
   * Forgets that pairs of the flagged objects were touched: they must be found again before the commit
   * or go (used when an object's earlier touches this step were made against a box that has changed since).
   */
  untouch(mask: Uint8Array): void {
    const pa = this.a;
    const pb = this.b;
    const flags = this.flags;
    for (let i = 0; i < this.count; i++) if (mask[pa[i]!] || mask[pb[i]!]) flags[i] &= ~FLAG_TOUCHED;
  }

  /**
   * Ends a step: drops removed pairs, pairs of dead objects and stale pairs (see StaleRule), fills
   * `created` and `deleted`, and clears the per-step flags.
   */
  commit(dead: Uint8Array, anyDead: boolean, rule: StaleRule, dirty: Uint8Array): void {
    const pa = this.a;
    const pb = this.b;
    const flags = this.flags;
    const refs = this.refs;
    const created = this.created;
    const deleted = this.deleted;
    created.count = 0;
    deleted.count = 0;
    const count = this.count;
    let write = 0;
    if (rule === StaleRule.Keep && !anyDead && !this.anyRemoved) {
      // The common incremental case: nothing can leave, only new pairs to report.
      for (let i = 0; i < count; i++) {
        if (flags[i]! & FLAG_NEW) created.push(pa[i]!, pb[i]!);
        flags[i] = 0;
      }
      this.lookups = 0;
      return;
    }
    for (let i = 0; i < count; i++) {
      const a = pa[i]!;
      const b = pb[i]!;
      const f = flags[i]!;
      let gone = (f & FLAG_REMOVED) !== 0;
      if (!gone && anyDead) gone = dead[a]! !== 0 || dead[b]! !== 0;
      if (!gone && (f & FLAG_TOUCHED) === 0 && rule !== StaleRule.Keep) gone = rule === StaleRule.All || dirty[a]! !== 0 || dirty[b]! !== 0;
      if (gone) {
        if ((f & FLAG_NEW) === 0) deleted.push(a, b);
        continue;
      }
      if (f & FLAG_NEW) created.push(a, b);
      pa[write] = a;
      pb[write] = b;
      refs[write] = refs[i]!;
      flags[write] = 0;
      write++;
    }
    this.count = write;
    if (write !== count) this.rebuildChains();
    this.anyRemoved = false;
    this.lookups = 0;
  }

  /** Forgets every pair without reporting anything. */
  clear(): void {
    this.count = 0;
    this.table.fill(-1);
    this.created.count = 0;
    this.deleted.count = 0;
    this.anyRemoved = false;
  }

  private append(a: number, b: number, refs: number): void {
    if (this.count === this.a.length) this.resize(this.a.length * 2);
    const index = this.count++;
    this.a[index] = a;
    this.b[index] = b;
    this.flags[index] = FLAG_NEW | FLAG_TOUCHED;
    this.refs[index] = refs;
    const slot = this.hash(a, b);
    this.next[index] = this.table[slot]!;
    this.table[slot] = index;
  }

  private resize(capacity: number): void {
    const a = new Uint32Array(capacity);
    const b = new Uint32Array(capacity);
    const flags = new Uint8Array(capacity);
    const refs = new Int32Array(capacity);
    a.set(this.a.subarray(0, this.count));
    b.set(this.b.subarray(0, this.count));
    flags.set(this.flags.subarray(0, this.count));
    refs.set(this.refs.subarray(0, this.count));
    this.a = a;
    this.b = b;
    this.flags = flags;
    this.refs = refs;
    this.next = new Int32Array(capacity);
    // Two table slots per pair keeps chains short.
    this.table = new Int32Array(2 * capacity);
    this.mask = 2 * capacity - 1;
    this.rebuildChains();
  }

  private rebuildChains(): void {
    const table = this.table;
    const next = this.next;
    const pa = this.a;
    const pb = this.b;
    table.fill(-1);
    for (let i = 0; i < this.count; i++) {
      const slot = this.hash(pa[i]!, pb[i]!);
      next[i] = table[slot]!;
      table[slot] = i;
    }
  }
}
