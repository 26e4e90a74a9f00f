import { describe, expect, it } from 'vitest';
import {
  BROAD_PHASE_NAMES,
  BoxTable,
  ColliderscopeError,
  DynamicAabbTree,
  MAX_FLOAT32,
  PairManager,
  createBroadPhase,
  switchBroadPhase,
  type BroadPhase,
} from '../../../src/core';
import { pairKeys } from './churn';
import { Random } from '../../../src/math/random';

const box = (x: number, y: number, z: number, h = 1): number[] => [x - h, y - h, z - h, x + h, y + h, z + h];
const keys = (pairs: Array<[number, number]>): number[] => pairs.map(([a, b]) => Math.min(a, b) * 16777216 + Math.max(a, b)).sort((x, y) => x - y);

describe('broad-phase interface', () => {
  for (const name of BROAD_PHASE_NAMES) {
    describe(name, () => {
      it('refuses bad input with a typed error and keeps its state', () => {
        const bp = createBroadPhase(name);
        bp.insert(1, box(0, 0, 0), 'dynamic');
        expect(() => bp.insert(1, box(0, 0, 0), 'dynamic')).toThrow(ColliderscopeError);
        expect(() => bp.insert(2, [0, 0, 0, NaN, 1, 1], 'dynamic')).toThrow(/finite/);
        expect(() => bp.insert(2, [0, 0, 0, -1, 1, 1], 'dynamic')).toThrow(/max ≥ min/);
        expect(() => bp.insert(2, [0, 0, 0, Infinity, 1, 1], 'dynamic')).toThrow(/finite/);
        expect(() => bp.insert(2, [0, 0, 0, 1e39, 1, 1], 'dynamic')).toThrow(/float32/);
        expect(() => bp.insert(-1, box(0, 0, 0), 'dynamic')).toThrow(/id/);
        expect(() => bp.insert(1.5, box(0, 0, 0), 'dynamic')).toThrow(/id/);
        expect(() => bp.insert(2, [0, 0, 0], 'dynamic')).toThrow(/six numbers/);
        expect(() => bp.insert(2, box(0, 0, 0), 'sleepy' as 'static')).toThrow(/static/);
        expect(() => bp.update(7, box(0, 0, 0))).toThrow(/id/);
        expect(() => bp.remove(7)).toThrow(/id/);
        expect(() => bp.update(1, [0, 0, 0, 1, NaN, 1])).toThrow(/finite/);
        expect(bp.has(2)).toBe(false);
        expect(bp.size).toBe(1);
        bp.insert(2, box(1.5, 0, 0), 'dynamic');
        expect(pairKeys(bp.step().pairs)).toEqual(keys([[1, 2]]));
      });

      it('treats boxes as closed and never reports static–static pairs', () => {
        const bp = createBroadPhase(name);
        bp.insert(0, [0, 0, 0, 1, 1, 1], 'dynamic');
        bp.insert(1, [1, 1, 1, 2, 2, 2], 'dynamic'); // touches 0 at a corner
        bp.insert(2, [2, 0, 0, 3, 1, 1], 'static'); // touches 1 along an edge, 0 not at all
        bp.insert(3, [2, 0, 0, 3, 1, 1], 'static'); // same box as 2: static–static
        bp.insert(4, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 'dynamic'); // a point inside 0
        const step = bp.step();
        expect(pairKeys(step.pairs)).toEqual(
          keys([
            [0, 1],
            [0, 4],
            [1, 2],
            [1, 3],
          ]),
        );
        expect(pairKeys(step.created)).toEqual(pairKeys(step.pairs));
        expect(step.deleted.count).toBe(0);
      });

      it('rounds outward to float32 so no overlap is lost', () => {
        const bp = createBroadPhase(name);
        // 0.1 is not a float32: the first box's max rounds up, the second's min rounds down.
        bp.insert(0, [0, 0, 0, 0.1, 1, 1], 'dynamic');
        bp.insert(1, [0.1, 0, 0, 1, 1, 1], 'dynamic');
        bp.insert(2, [1 + 1e-12, 0, 0, 2, 1, 1], 'dynamic'); // overlaps 1 once rounded outward
        bp.insert(3, [-MAX_FLOAT32, -1, -1, MAX_FLOAT32, 1, 1], 'static');
        bp.insert(4, [3e38, 0, 0, MAX_FLOAT32, 0, 0], 'dynamic');
        expect(pairKeys(bp.step().pairs)).toEqual(
          keys([
            [0, 1],
            [1, 2],
            [0, 3],
            [1, 3],
            [2, 3],
            [3, 4],
          ]),
        );
      });

      it('reports created and deleted as set differences, across remove and re-insert', () => {
        const bp = createBroadPhase(name);
        bp.insert(0, box(0, 0, 0), 'dynamic');
        bp.insert(1, box(1, 0, 0), 'dynamic');
        bp.insert(2, box(10, 0, 0), 'static');
        let step = bp.step();
        expect(pairKeys(step.created)).toEqual(keys([[0, 1]]));
        // Removed and inserted again, still overlapping: no change.
        bp.remove(1);
        bp.insert(1, box(1.5, 0, 0), 'dynamic');
        step = bp.step();
        expect(step.created.count + step.deleted.count).toBe(0);
        expect(pairKeys(step.pairs)).toEqual(keys([[0, 1]]));
        // Moved away and back within a step: no change either.
        bp.update(0, box(50, 0, 0));
        bp.update(0, box(0.5, 0, 0));
        step = bp.step();
        expect(step.created.count + step.deleted.count).toBe(0);
        // Re-inserted as the other kind next to the static one.
        bp.remove(1);
        bp.insert(1, box(10.5, 0, 0), 'static');
        step = bp.step();
        expect(pairKeys(step.deleted)).toEqual(keys([[0, 1]]));
        expect(step.created.count).toBe(0);
        expect(bp.kindOf(1)).toBe('static');
        bp.update(0, box(10, 1, 0));
        step = bp.step();
        expect(pairKeys(step.created)).toEqual(
          keys([
            [0, 1],
            [0, 2],
          ]),
        );
        bp.remove(0);
        step = bp.step();
        expect(pairKeys(step.deleted)).toEqual(
          keys([
            [0, 1],
            [0, 2],
          ]),
        );
        expect(step.pairs.count).toBe(0);
        expect(bp.size).toBe(2);
      });

      it('grows with large, sparse ids', () => {
        const bp = createBroadPhase(name);
        bp.insert(5, box(0, 0, 0), 'dynamic');
        bp.insert(70_000, box(1, 1, 1), 'dynamic');
        bp.insert(200_000, box(2.5, 2.5, 2.5), 'dynamic');
        expect(() => bp.insert(16_777_216, box(0, 0, 0), 'dynamic')).toThrow(/id/);
        expect(pairKeys(bp.step().pairs)).toEqual(
          keys([
            [5, 70_000],
            [70_000, 200_000],
          ]),
        );
      });
    });
  }
});

describe('switching strategies live', () => {
  it('carries every box, id and kind over, and continues with the same pairs', () => {
    const random = new Random(3);
    let bp: BroadPhase = createBroadPhase('sap');
    const reference = createBroadPhase('brute-force');
    const boxes = new Float64Array(6 * 300);
    for (let i = 0; i < 300; i++) {
      boxes.set(box(random.range(-20, 20), random.range(-20, 20), random.range(-20, 20), random.range(0.5, 3)), 6 * i);
      const kind = i % 4 === 0 ? 'static' : 'dynamic';
      bp.insert(i, boxes, kind, 6 * i);
      reference.insert(i, boxes, kind, 6 * i);
    }
    for (let frame = 0; frame < 40; frame++) {
      if (frame % 5 === 0) bp = switchBroadPhase(bp, BROAD_PHASE_NAMES[(frame / 5) % BROAD_PHASE_NAMES.length]!);
      for (let i = 1; i < 300; i += 4) {
        for (const k of [0, 3]) boxes[6 * i + k]! += random.range(-1, 1);
        boxes[6 * i + 3] = Math.max(boxes[6 * i + 3]!, boxes[6 * i]!);
        bp.update(i, boxes, 6 * i);
        reference.update(i, boxes, 6 * i);
      }
      expect(pairKeys(bp.step().pairs)).toEqual(pairKeys(reference.step().pairs));
      expect(bp.size).toBe(300);
      expect(bp.kindOf(4)).toBe('static');
    }
  });
});

describe('pair manager', () => {
  it('counts references, reports set differences and survives growth', () => {
    const pm = new PairManager(4);
    const dead = new Uint8Array(100);
    const dirty = new Uint8Array(100);
    for (let i = 0; i < 50; i++) pm.addRef(i, i + 1);
    pm.addRef(2, 1);
    pm.commit(dead, false, 0, dirty);
    expect(pm.created.count).toBe(50);
    pm.release(1, 2);
    pm.release(3, 4);
    pm.commit(dead, false, 0, dirty);
    expect(pm.deleted.count).toBe(1);
    expect([pm.deleted.a[0], pm.deleted.b[0]]).toEqual([3, 4]);
    expect(pm.find(1, 2)).toBeGreaterThanOrEqual(0);
    pm.release(1, 2);
    pm.touch(1, 2);
    pm.commit(dead, false, 0, dirty);
    expect(pm.created.count + pm.deleted.count).toBe(0);
    expect(pm.count).toBe(49);
  });
});

describe('pair manager hash', () => {
  it('matches a Map model through random adds, releases, touches, commits and growth (seed 17)', () => {
    const random = new Random(17);
    const pm = new PairManager(16);
    const dead = new Uint8Array(64);
    const dirty = new Uint8Array(64);
    const refs = new Map<number, number>();
    let previous = new Set<number>();
    for (let round = 0; round < 200; round++) {
      const operations = 1 + random.int(300);
      for (let n = 0; n < operations; n++) {
        const x = random.int(64);
        const y = random.int(64);
        if (x === y) continue;
        const key = Math.min(x, y) * 64 + Math.max(x, y);
        if (random.next() < 0.55) {
          pm.addRef(x, y);
          refs.set(key, (refs.get(key) ?? 0) + 1);
        } else if (refs.has(key)) {
          pm.release(y, x);
          const left = refs.get(key)! - 1;
          if (left === 0) refs.delete(key);
          else refs.set(key, left);
        }
      }
      pm.commit(dead, false, 0, dirty);
      const current = new Set(refs.keys());
      const sorted = (keys: Iterable<number>): string => [...keys].sort((p, q) => p - q).join(',');
      const listed: number[] = [];
      for (let i = 0; i < pm.count; i++) listed.push(pm.a[i]! * 64 + pm.b[i]!);
      expect(sorted(listed)).toBe(sorted(current));
      const unfound = [...current].filter((key) => pm.find(Math.floor(key / 64), key % 64) < 0);
      expect(unfound.length).toBe(0);
      const created: number[] = [];
      for (let i = 0; i < pm.created.count; i++) created.push(pm.created.a[i]! * 64 + pm.created.b[i]!);
      const deleted: number[] = [];
      for (let i = 0; i < pm.deleted.count; i++) deleted.push(pm.deleted.a[i]! * 64 + pm.deleted.b[i]!);
      expect(sorted(created)).toBe(sorted([...current].filter((key) => !previous.has(key))));
      expect(sorted(deleted)).toBe(sorted([...previous].filter((key) => !current.has(key))));
      previous = current;
    }
  });
});

describe('dynamic AABB tree', () => {
  it('stays balanced under sorted inserts and random removals', () => {
    const tree = new DynamicAabbTree();
    const leaves: number[] = [];
    for (let i = 0; i < 4096; i++) leaves.push(tree.insert(i, i, 0, 0, i + 0.5, 1, 1));
    expect(tree.treeHeight).toBeLessThanOrEqual(2 * Math.log2(4096));
    const random = new Random(5);
    for (let i = 0; i < 3000; i++) {
      const k = random.int(leaves.length);
      tree.remove(leaves[k]!);
      leaves[k] = leaves[leaves.length - 1]!;
      leaves.pop();
    }
    expect(tree.nodes).toBe(2 * leaves.length - 1);
    expect(tree.treeHeight).toBeLessThanOrEqual(2 * Math.log2(leaves.length) + 2);
    expect(tree.query(100, 0, 0, 100, 1, 1)).toBeLessThanOrEqual(2);
  });
});

describe('float32 outward rounding', () => {
  it('matches stepping the bit pattern, at every binade edge and on random doubles (seed 13)', () => {
    const f32 = new Float32Array(1);
    const bits = new Uint32Array(f32.buffer);
    const step = (value: number, up: boolean): number => {
      f32[0] = value;
      const nearest = f32[0];
      if (up ? nearest >= value : nearest <= value) return nearest === 0 ? 0 : nearest;
      if (nearest === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
      bits[0] = nearest > 0 === up ? bits[0]! + 1 : bits[0]! - 1;
      // Zero is stored as +0 whichever side it is reached from (up from −1.4e-45 the bits give −0).
      return f32[0] + 0;
    };
    const table = new BoxTable(1);
    const check = (value: number): void => {
      const box = [value, value, value, value, value, value];
      table.write(0, box);
      expect([table.boxes[0], table.boxes[3]]).toEqual([step(value, false), step(value, true)]);
    };
    for (let e = -149; e <= 127; e++) {
      for (const m of [1, 1 + 1e-9, 1.5, 2 - 1e-9]) {
        for (const sign of [1, -1]) {
          const value = sign * m * 2 ** e;
          if (Math.abs(value) <= MAX_FLOAT32) check(value);
        }
      }
    }
    const random = new Random(13);
    for (let i = 0; i < 5000; i++) check((random.next() - 0.5) * 2 ** (random.int(280) - 150));
    check(0);
    check(-0);
    check(MAX_FLOAT32);
    check(-MAX_FLOAT32);
  });
});
