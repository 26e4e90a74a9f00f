import type { PairList } from './broadPhase';

const FLAG_NEW = 1;
const FLAG_TOUCHED = 2;
const FLAG_REMOVED = 4;
/** Marks, inside a commit, a pair already taken out of the hash. */
const FLAG_GONE = 8;

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
 * The pairs shared by every strategy but the reference: pairs stored as structure of arrays (a, b, flags,
 * reference count) in insertion order, so the live pairs are simply the first `count` entries, and an
 * open-addressing hash (linear probing) whose slots hold the key (a, b) inline next to the pair's index,
 * so a look-up usually reads one cache line. Removals only set a flag; `commit` compacts once per step,
 * reports what was created and deleted since the previous commit, and takes the departed pairs out of the
 * hash by backward shifting (no tombstones). A pair removed and found again within one step is neither
 * created nor deleted.
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
  /** Per pair: its hash slot. */
  private slotOf = new Int32Array(0);
  /** Per slot: a and b (a = −1 when empty). */
  private slotKeys = new Int32Array(0);
  /** Per slot: the pair's index. */
  private slotPair = new Int32Array(0);
  private mask = 0;
  private anyRemoved = false;
  readonly created = new PairBuffer();
  readonly deleted = new PairBuffer();
  /** Hash look-ups since the last commit (a strategy counter). */
  lookups = 0;

  constructor(initialCapacity = 1024) {
    this.resize(Math.max(16, initialCapacity));
  }

  private home(a: number, b: number): number {
    const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77);
    return (h ^ (h >>> 15)) & this.mask;
  }

  /** The slot holding (a, b), a < b, or −1. */
  private findSlot(a: number, b: number): number {
    this.lookups++;
    const keys = this.slotKeys;
    const mask = this.mask;
    let slot = this.home(a, b);
    for (;;) {
      const key = keys[2 * slot]!;
      if (key === a && keys[2 * slot + 1] === b) return slot;
      if (key === -1) return -1;
      slot = (slot + 1) & mask;
    }
  }

  /** Index of (a, b), a < b, or −1. */
  find(a: number, b: number): number {
    const slot = this.findSlot(a, b);
    return slot < 0 ? -1 : this.slotPair[slot]!;
  }

  /** The pair overlaps now (recompute strategies, and incremental ones whose pairs are never shared). */
  touch(x: number, y: number): void {
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const slot = this.findSlot(a, b);
    if (slot >= 0) {
      const index = this.slotPair[slot]!;
      const flags = this.flags[index]!;
      if (flags & FLAG_REMOVED) this.refs[index] = 1;
      this.flags[index] = (flags | FLAG_TOUCHED) & ~FLAG_REMOVED;
      return;
    }
    this.append(a, b);
  }

  /** One more sub-structure sees the pair overlapping. */
  addRef(x: number, y: number): void {
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const slot = this.findSlot(a, b);
    if (slot >= 0) {
      const index = this.slotPair[slot]!;
      const flags = this.flags[index]!;
      if (flags & FLAG_REMOVED) {
        this.refs[index] = 1;
        this.flags[index] = (flags | FLAG_TOUCHED) & ~FLAG_REMOVED;
      } else {
        this.refs[index]!++;
      }
      return;
    }
    this.append(a, b);
  }

  /** One sub-structure no longer sees the pair; it goes when no reference is left. */
  release(x: number, y: number): void {
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const slot = this.findSlot(a, b);
    if (slot < 0) return;
    const index = this.slotPair[slot]!;
    if (this.flags[index]! & FLAG_REMOVED) return;
    if (--this.refs[index]! <= 0) {
      this.flags[index]! |= FLAG_REMOVED;
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
    for (let i = 0; i < this.count; i++) if (mask[pa[i]!] || mask[pb[i]!]) flags[i]! &= ~FLAG_TOUCHED;
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
    const slotOf = this.slotOf;
    const slotPair = this.slotPair;
    const created = this.created;
    const deleted = this.deleted;
    created.count = 0;
    deleted.count = 0;
    const count = this.count;
    this.lookups = 0;
    if (rule === StaleRule.Keep && !anyDead && !this.anyRemoved) {
      // The common incremental case: nothing can leave, only new pairs to report.
      for (let i = 0; i < count; i++) {
        if (flags[i]! & FLAG_NEW) created.push(pa[i]!, pb[i]!);
        flags[i] = 0;
      }
      return;
    }
    // First pass: decide, report, and take departing pairs out of the hash (their indices still hold).
    let gone = 0;
    for (let i = 0; i < count; i++) {
      const a = pa[i]!;
      const b = pb[i]!;
      const f = flags[i]!;
      let leaves = (f & FLAG_REMOVED) !== 0;
      if (!leaves && anyDead) leaves = dead[a]! !== 0 || dead[b]! !== 0;
      if (!leaves && (f & FLAG_TOUCHED) === 0 && rule !== StaleRule.Keep) leaves = rule === StaleRule.All || dirty[a]! !== 0 || dirty[b]! !== 0;
      if (leaves) {
        if ((f & FLAG_NEW) === 0) deleted.push(a, b);
        this.vacate(slotOf[i]!);
        flags[i] = FLAG_GONE;
        gone++;
      } else if (f & FLAG_NEW) {
        created.push(a, b);
      }
    }
    // Second pass: compact, pointing each moved pair's slot at its new index.
    if (gone > 0) {
      let write = 0;
      for (let i = 0; i < count; i++) {
        if (flags[i] === FLAG_GONE) continue;
        if (write !== i) {
          pa[write] = pa[i]!;
          pb[write] = pb[i]!;
          refs[write] = refs[i]!;
          const slot = slotOf[i]!;
          slotOf[write] = slot;
          slotPair[slot] = write;
        }
        flags[write] = 0;
        write++;
      }
      this.count = write;
    } else {
      flags.fill(0, 0, count);
    }
    this.anyRemoved = false;
  }

  /** Forgets every pair without reporting anything. */
  clear(): void {
    this.count = 0;
    this.slotKeys.fill(-1);
    this.created.count = 0;
    this.deleted.count = 0;
    this.anyRemoved = false;
  }

  /** Empties a slot and shifts back the entries of its probe run that may no longer be reachable. */
  private vacate(hole: number): void {
    const keys = this.slotKeys;
    const slotPair = this.slotPair;
    const slotOf = this.slotOf;
    const mask = this.mask;
    let next = hole;
    for (;;) {
      next = (next + 1) & mask;
      const a = keys[2 * next]!;
      if (a === -1) break;
      const b = keys[2 * next + 1]!;
      const home = this.home(a, b);
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (stays) continue;
      keys[2 * hole] = a;
      keys[2 * hole + 1] = b;
      const index = slotPair[next]!;
      slotPair[hole] = index;
      slotOf[index] = hole;
      hole = next;
    }
    keys[2 * hole] = -1;
  }

  private append(a: number, b: number): void {
    // Keep the table at most half full.
    if (2 * (this.count + 1) > this.slotPair.length || this.count === this.a.length) this.resize(2 * this.a.length);
    const index = this.count++;
    this.a[index] = a;
    this.b[index] = b;
    this.flags[index] = FLAG_NEW | FLAG_TOUCHED;
    this.refs[index] = 1;
    this.place(index, a, b);
  }

  private place(index: number, a: number, b: number): void {
    const keys = this.slotKeys;
    const mask = this.mask;
    let slot = this.home(a, b);
    while (keys[2 * slot] !== -1) slot = (slot + 1) & mask;
    keys[2 * slot] = a;
    keys[2 * slot + 1] = b;
    this.slotPair[slot] = index;
    this.slotOf[index] = slot;
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
    this.slotOf = new Int32Array(capacity);
    // Two slots per pair: probe runs stay short.
    const slots = 2 * capacity;
    this.slotKeys = new Int32Array(2 * slots).fill(-1);
    this.slotPair = new Int32Array(slots);
    this.mask = slots - 1;
    for (let i = 0; i < this.count; i++) this.place(i, a[i]!, b[i]!);
  }
}
