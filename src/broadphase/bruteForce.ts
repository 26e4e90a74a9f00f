import { KIND_STATIC, type BodyKind, type BoxSource, type BroadPhase, type BroadPhaseStep } from './broadPhase';
import { BoxTable } from './boxTable';
import { PairBuffer } from './pairManager';

/** 2^24 ids, so a·2^24 + b is an exact integer key for a pair. */
const PAIR_KEY_SCALE = 16777216;

/**
 * The reference: every box against every other each step, pairs diffed against the previous step with
 * a plain Set. Deliberately shares nothing with the strategies but the checked box table, so the tests
 * that compare against it also check the pair manager.
 */
export class BruteForceBroadPhase implements BroadPhase {
  readonly name = 'brute-force';
  private readonly table = new BoxTable();
  private previous = new Set<number>();
  private readonly pairs = new PairBuffer();
  private readonly created = new PairBuffer();
  private readonly deleted = new PairBuffer();
  private tests = 0;

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
    this.table.add(id, box, offset, kind);
  }

  update(id: number, box: BoxSource, offset = 0): void {
    this.table.require(id);
    this.table.write(id, box, offset);
  }

  remove(id: number): void {
    this.table.require(id);
    this.table.delete(id);
  }

  step(): BroadPhaseStep {
    const { boxes, kind, live, liveCount } = this.table;
    const current = new Set<number>();
    this.pairs.count = 0;
    for (let i = 0; i < liveCount; i++) {
      const p = live[i]!;
      const pb = 6 * p;
      for (let j = i + 1; j < liveCount; j++) {
        const q = live[j]!;
        if (kind[p] === KIND_STATIC && kind[q] === KIND_STATIC) continue;
        const qb = 6 * q;
        if (
          boxes[pb]! <= boxes[qb + 3]! &&
          boxes[qb]! <= boxes[pb + 3]! &&
          boxes[pb + 1]! <= boxes[qb + 4]! &&
          boxes[qb + 1]! <= boxes[pb + 4]! &&
          boxes[pb + 2]! <= boxes[qb + 5]! &&
          boxes[qb + 2]! <= boxes[pb + 5]!
        ) {
          const a = Math.min(p, q);
          const b = Math.max(p, q);
          current.add(a * PAIR_KEY_SCALE + b);
          this.pairs.push(a, b);
        }
      }
    }
    this.tests = (liveCount * (liveCount - 1)) / 2;
    this.created.count = 0;
    this.deleted.count = 0;
    for (const key of current) if (!this.previous.has(key)) this.created.push(Math.floor(key / PAIR_KEY_SCALE), key % PAIR_KEY_SCALE);
    for (const key of this.previous) if (!current.has(key)) this.deleted.push(Math.floor(key / PAIR_KEY_SCALE), key % PAIR_KEY_SCALE);
    this.previous = current;
    return { pairs: this.pairs, created: this.created, deleted: this.deleted };
  }

  forEachBox(visit: (id: number, box: Float32Array, offset: number, kind: BodyKind) => void): void {
    const table = this.table;
    for (let i = 0; i < table.liveCount; i++) {
      const id = table.live[i]!;
      visit(id, table.boxes, 6 * id, table.kind[id] === KIND_STATIC ? 'static' : 'dynamic');
    }
  }

  counters(): Readonly<Record<string, number>> {
    return { 'box tests': this.tests };
  }
}
