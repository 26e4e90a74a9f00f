import { describe, expect, it } from 'vitest';
import { BROAD_PHASE_NAMES, CollisionPairFilter, createBroadPhase, type BroadPhase, type BroadPhaseName } from '../../../src/broadphase/index';
import { BroadPhaseSystem } from '../../../src/broadphase/broadPhaseSystem';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { parseScene } from '../../../src/core';
import { pairKeys } from './churn';

const MASK_ALL = 0xffffffff;
const KEY = 16777216;

/** A mask as the tests draw them: all, none, one of four category bits, two of them, or a random word. */
function randomMask(random: Random): number {
  const roll = random.int(6);
  if (roll === 0) return MASK_ALL;
  if (roll === 1) return random.int(4) === 0 ? 0 : MASK_ALL;
  if (roll === 2) return (1 << random.int(4)) >>> 0;
  if (roll === 3) return ((1 << random.int(4)) | (1 << random.int(4))) >>> 0;
  if (roll === 4) return (1 << random.int(32)) >>> 0;
  return random.nextUint32();
}

/**
 * A strategy behind a CollisionPairFilter against the reference: the brute force's raw pairs filtered by
 * the masks in a plain Map, and created/deleted as set differences of the filtered sets between frames.
 * Boxes on a half-unit grid (many touch exactly) move, appear, vanish and come back; masks change now
 * and then, also for ids removed and inserted again within a frame.
 */
function runFiltered(name: BroadPhaseName, seed: number, frames: number): { pairs: number; created: number; deleted: number; dropped: number } {
  const random = new Random(seed);
  const strategy = createBroadPhase(name);
  const reference = createBroadPhase('brute-force');
  const filter = new CollisionPairFilter();
  const masks = new Map<number, [number, number]>();
  const boxes = new Map<number, Float64Array>();
  let previous = new Set<number>();
  const totals = { pairs: 0, created: 0, deleted: 0, dropped: 0 };
  const both = (op: (target: BroadPhase) => void): void => {
    op(strategy);
    op(reference);
  };
  const newBox = (): Float64Array => {
    const c = [0, 1, 2].map(() => Math.round(random.range(-12, 12) * 2) / 2);
    const h = [0, 1, 2].map(() => [0, 0.5, 1, 2, 3][random.int(5)]!);
    return Float64Array.from([c[0]! - h[0]!, c[1]! - h[1]!, c[2]! - h[2]!, c[0]! + h[0]!, c[1]! + h[1]!, c[2]! + h[2]!]);
  };
  const setMasks = (id: number): void => {
    const pair: [number, number] = [randomMask(random), randomMask(random)];
    masks.set(id, pair);
    filter.set(id, pair[0], pair[1]);
  };
  const passes = (a: number, b: number): boolean => {
    const [ca, fa] = masks.get(a) ?? [MASK_ALL, MASK_ALL];
    const [cb, fb] = masks.get(b) ?? [MASK_ALL, MASK_ALL];
    return (ca & fb) !== 0 && (cb & fa) !== 0;
  };
  for (let frame = 0; frame < frames; frame++) {
    const operations = frame === 0 ? 80 : 25;
    for (let n = 0; n < operations; n++) {
      const roll = random.next();
      const id = random.int(300);
      if (!boxes.has(id)) {
        if (roll < 0.6) {
          const box = newBox();
          boxes.set(id, box);
          // Most boxes carry masks; some keep the default MASK_ALL of an id never set.
          if (random.next() < 0.8) setMasks(id);
          const kind = random.next() < 0.2 ? 'static' : 'dynamic';
          both((target) => target.insert(id, box, kind));
        }
      } else if (roll < 0.15) {
        boxes.delete(id);
        both((target) => target.remove(id));
        if (random.next() < 0.3) {
          // Straight back within the frame, maybe with other masks.
          const box = newBox();
          boxes.set(id, box);
          if (random.next() < 0.5) setMasks(id);
          both((target) => target.insert(id, box, 'dynamic'));
        }
      } else if (roll < 0.35) setMasks(id);
      else if (strategy.kindOf(id) === 'dynamic') {
        const box = boxes.get(id)!;
        const d = Math.round(random.range(-2, 2) * 2) / 2;
        box[random.int(3)]! += d;
        box[0] = Math.min(box[0]!, box[3]!);
        box[1] = Math.min(box[1]!, box[4]!);
        box[2] = Math.min(box[2]!, box[5]!);
        both((target) => target.update(id, box));
      }
    }
    const raw = reference.step();
    const current = new Set(pairKeys(raw.pairs).filter((key) => passes(Math.floor(key / KEY), key % KEY)));
    const actual = filter.apply(strategy.step());
    const sorted = (set: Set<number>): number[] => [...set].sort((x, y) => x - y);
    const expected = {
      pairs: sorted(current),
      created: sorted(new Set([...current].filter((key) => !previous.has(key)))),
      deleted: sorted(new Set([...previous].filter((key) => !current.has(key)))),
    };
    expect({ name, frame, pairs: pairKeys(actual.pairs), created: pairKeys(actual.created), deleted: pairKeys(actual.deleted) }).toEqual({
      name,
      frame,
      ...expected,
    });
    totals.pairs += current.size;
    totals.created += expected.created.length;
    totals.deleted += expected.deleted.length;
    totals.dropped += raw.pairs.count - current.size;
    previous = current;
  }
  return totals;
}

describe('collision categories over every strategy, against the brute force', () => {
  for (const name of BROAD_PHASE_NAMES) {
    it(`${name}: random masks, moves, removals and mask changes over 150 frames (seed 41)`, () => {
      const totals = runFiltered(name, 41, 150);
      expect(totals.pairs).toBeGreaterThan(1000);
      expect(totals.dropped).toBeGreaterThan(500);
      expect(totals.created).toBeGreaterThan(100);
      expect(totals.deleted).toBeGreaterThan(100);
    });
  }

  it('without masks, apply hands the step through untouched', () => {
    const strategy = createBroadPhase('sap');
    const filter = new CollisionPairFilter();
    strategy.insert(1, [0, 0, 0, 1, 1, 1], 'dynamic');
    strategy.insert(2, [1, 1, 1, 2, 2, 2], 'dynamic');
    filter.set(2, MASK_ALL, MASK_ALL);
    const step = strategy.step();
    expect(filter.active).toBe(false);
    expect(filter.apply(step)).toBe(step);
  });

  it('filter 0 reports nothing; a bipartite pair of categories only the cross pairs', () => {
    const filter = new CollisionPairFilter();
    const strategy = createBroadPhase('regions');
    for (let id = 0; id < 4; id++) strategy.insert(id, [0, 0, 0, 1, 1, 1], 'dynamic');
    for (let id = 0; id < 4; id++) filter.set(id, 1 << (id % 2), 1 << ((id + 1) % 2));
    expect(pairKeys(filter.apply(strategy.step()).pairs)).toEqual([0 * KEY + 1, 0 * KEY + 3, 1 * KEY + 2, 2 * KEY + 3]);
    for (let id = 0; id < 4; id++) filter.set(id, MASK_ALL, 0);
    const off = filter.apply(strategy.step());
    expect(off.pairs.count).toBe(0);
    expect(off.deleted.count).toBe(4);
  });

  it('names bad masks and ids', () => {
    const filter = new CollisionPairFilter();
    expect(() => filter.set(0, -1, 0)).toThrow(/category/);
    expect(() => filter.set(0, 0, 2 ** 32)).toThrow(/filter/);
    expect(() => filter.set(0, 0, 1.5)).toThrow(InvalidParameterError);
    expect(() => filter.set(-1, 0, 0)).toThrow(/id/);
  });
});

describe('the broad-phase system with categories', () => {
  it('two categories that only see each other: fewer pairs, live changes flip them, defaults change nothing', () => {
    const plain = new BroadPhaseSystem({ count: 600, seed: 3 });
    const everything = new BroadPhaseSystem({ count: 600, seed: 3, categories: 3 });
    const cross = new BroadPhaseSystem({ count: 600, seed: 3, categories: 2, filters: [0b10, 0b01] });
    for (let frame = 0; frame < 5; frame++) for (const system of [plain, everything, cross]) system.step(1 / 60);
    expect(everything.pairs).toBe(plain.pairs);
    expect(cross.overlappingPairs).toBe(plain.pairs);
    expect(cross.pairs).toBeGreaterThan(0);
    expect(cross.pairs).toBeLessThan(plain.pairs);
    expect(cross.section()).toMatchObject({ categories: 2, filters: [2, 1] });
    cross.configure({ filters: [] });
    cross.step(1 / 60);
    plain.step(1 / 60);
    expect(cross.pairs).toBe(plain.pairs);
    expect(cross.created).toBeGreaterThan(0);
    expect(() => cross.configure({ categories: 33 })).toThrow(InvalidParameterError);
    expect(() => cross.configure({ filters: [-1] })).toThrow(/filters\[0\]/);
    expect(() => parseScene({ systems: { broadphase: { filters: [1, 2 ** 32] } } }, 'b.json')).toThrow(/systems\.broadphase\.filters\[1\]/);
  });
});
