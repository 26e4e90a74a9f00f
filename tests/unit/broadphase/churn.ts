import type { BodyKind, BroadPhase, PairList } from '../../../src/broadphase/index';
import { Random } from '../../../src/math/random';

/**
 * A random workload replayed on a strategy and on the brute-force reference in lockstep: inserts,
 * updates, removes (and an id removed and inserted again within one frame) interleaved, boxes of every
 * kind of trouble — points, tiny and huge boxes, boxes exactly touching on the half-unit grid, huge
 * coordinates, boxes far outside any grid or region — and every frame's pairs, created and deleted
 * sets compared.
 */
export interface ChurnOptions {
  seed: number;
  frames: number;
  /** Ids are drawn from [0, maxId): sparse ids exercise growth. */
  maxId: number;
  /** The live population hovers around this. */
  population: number;
  /** Fraction of inserted boxes that are static. */
  staticShare: number;
  /** Fraction of dynamic boxes updated per frame. */
  moveShare: number;
}

export function pairKeys(list: PairList): number[] {
  const keys: number[] = [];
  for (let i = 0; i < list.count; i++) {
    const a = list.a[i]!;
    const b = list.b[i]!;
    if (!(a < b)) throw new Error(`pair (${a}, ${b}) is not ordered`);
    keys.push(a * 16777216 + b);
  }
  return keys.sort((x, y) => x - y);
}

function writeBox(random: Random, out: Float64Array): void {
  const roll = random.next();
  let cx: number, cy: number, cz: number, hx: number, hy: number, hz: number;
  if (roll < 0.6) {
    // Half-unit grid and integer sizes: many boxes touch exactly.
    cx = Math.round(random.range(-30, 30) * 2) / 2;
    cy = Math.round(random.range(-30, 30) * 2) / 2;
    cz = Math.round(random.range(-30, 30) * 2) / 2;
    const sizes = [0, 0.5, 1, 1.5, 2, 3];
    hx = sizes[random.int(sizes.length)]!;
    hy = sizes[random.int(sizes.length)]!;
    hz = sizes[random.int(sizes.length)]!;
  } else if (roll < 0.7) {
    cx = random.range(-30, 30);
    cy = random.range(-30, 30);
    cz = random.range(-30, 30);
    hx = hy = hz = random.range(0, 1e-6);
  } else if (roll < 0.78) {
    cx = random.range(-30, 30);
    cy = random.range(-30, 30);
    cz = random.range(-30, 30);
    hx = random.range(10, 40);
    hy = random.range(10, 40);
    hz = random.range(10, 40);
  } else if (roll < 0.86) {
    // Far outside any fitted grid.
    const far = random.next() < 0.5 ? -5000 : 5000;
    cx = far + random.range(-3, 3);
    cy = random.range(-30, 30);
    cz = random.next() < 0.5 ? far : random.range(-30, 30);
    hx = hy = hz = 2;
  } else if (roll < 0.93) {
    // Huge coordinates: far apart at 1e30 scale, or spanning almost the whole float range on one axis.
    const scale = random.next() < 0.5 ? 1e30 : 1e37;
    cx = random.next() < 0.5 ? scale * random.range(-1, 1) : 0;
    cy = random.range(-30, 30);
    cz = random.range(-30, 30);
    hx = random.next() < 0.5 ? scale * 10 : scale * 0.01;
    hy = 2;
    hz = 2;
    if (Math.abs(cx) + hx > 3e38) hx = 3e38 - Math.abs(cx);
  } else {
    // A slab: thin on one axis, wide on the others.
    cx = Math.round(random.range(-30, 30));
    cy = Math.round(random.range(-30, 30));
    cz = Math.round(random.range(-30, 30));
    hx = random.next() < 0.5 ? 0 : 60;
    hy = 60;
    hz = random.next() < 0.5 ? 0 : 60;
  }
  out[0] = cx - hx;
  out[1] = cy - hy;
  out[2] = cz - hz;
  out[3] = cx + hx;
  out[4] = cy + hy;
  out[5] = cz + hz;
}

function nudge(random: Random, box: Float64Array): void {
  const dx = Math.round(random.range(-2, 2) * 2) / 2;
  const dy = Math.round(random.range(-2, 2) * 2) / 2;
  const dz = Math.round(random.range(-2, 2) * 2) / 2;
  box[0]! += dx;
  box[3]! += dx;
  box[1]! += dy;
  box[4]! += dy;
  box[2]! += dz;
  box[5]! += dz;
}

export interface ChurnReport {
  frames: number;
  pairsSeen: number;
  createdSeen: number;
  deletedSeen: number;
  maxPairs: number;
}

/** Replays the workload; throws on the first frame where the strategy and the reference disagree. */
export function runChurn(strategy: BroadPhase, reference: BroadPhase, options: ChurnOptions): ChurnReport {
  const random = new Random(options.seed);
  const boxes = new Map<number, Float64Array>();
  const kinds = new Map<number, BodyKind>();
  const liveIds: number[] = [];
  const box = new Float64Array(6);
  const report: ChurnReport = { frames: 0, pairsSeen: 0, createdSeen: 0, deletedSeen: 0, maxPairs: 0 };
  const apply = (op: (target: BroadPhase) => void): void => {
    op(reference);
    op(strategy);
  };
  const insert = (id: number, kind: BodyKind): void => {
    const stored = new Float64Array(6);
    writeBox(random, stored);
    boxes.set(id, stored);
    kinds.set(id, kind);
    liveIds.push(id);
    apply((target) => target.insert(id, stored, kind));
  };
  const remove = (index: number): void => {
    const id = liveIds[index]!;
    liveIds[index] = liveIds[liveIds.length - 1]!;
    liveIds.pop();
    boxes.delete(id);
    kinds.delete(id);
    apply((target) => target.remove(id));
  };
  const randomKind = (): BodyKind => (random.next() < options.staticShare ? 'static' : 'dynamic');

  for (let frame = 0; frame < options.frames; frame++) {
    const population = liveIds.length;
    // Bursts now and then: a batch insert or a mass removal.
    const burst = frame % 97 === 0 ? options.population / 2 : 0;
    const inserts = population < options.population ? 1 + random.int(6) + burst : random.int(3);
    const removes = population > options.population ? 1 + random.int(6) : random.int(3) + (frame % 89 === 0 ? population / 3 : 0);
    const operations = inserts + removes + Math.ceil(population * options.moveShare);
    for (let n = 0; n < operations; n++) {
      const roll = random.next();
      if (roll < inserts / operations) {
        const id = random.int(options.maxId);
        if (!boxes.has(id)) insert(id, randomKind());
      } else if (roll < (inserts + removes) / operations) {
        if (liveIds.length > 0) {
          const index = random.int(liveIds.length);
          const id = liveIds[index]!;
          remove(index);
          // Sometimes the same id comes straight back, possibly of the other kind.
          if (random.next() < 0.2) insert(id, randomKind());
        }
      } else if (liveIds.length > 0) {
        const id = liveIds[random.int(liveIds.length)]!;
        if (kinds.get(id) === 'static' && random.next() > 0.05) continue;
        const stored = boxes.get(id)!;
        if (random.next() < 0.8) nudge(random, stored);
        else {
          writeBox(random, box);
          stored.set(box);
        }
        apply((target) => target.update(id, stored));
      }
    }
    const expected = reference.step();
    const expectedPairs = pairKeys(expected.pairs);
    const expectedCreated = pairKeys(expected.created);
    const expectedDeleted = pairKeys(expected.deleted);
    const actual = strategy.step();
    compare(strategy.name, frame, 'pairs', pairKeys(actual.pairs), expectedPairs);
    compare(strategy.name, frame, 'created', pairKeys(actual.created), expectedCreated);
    compare(strategy.name, frame, 'deleted', pairKeys(actual.deleted), expectedDeleted);
    if (strategy.size !== reference.size) throw new Error(`${strategy.name} frame ${frame}: size ${strategy.size}, expected ${reference.size}`);
    report.frames++;
    report.pairsSeen += expectedPairs.length;
    report.createdSeen += expectedCreated.length;
    report.deletedSeen += expectedDeleted.length;
    report.maxPairs = Math.max(report.maxPairs, expectedPairs.length);
  }
  return report;
}

function compare(name: string, frame: number, what: string, actual: number[], expected: number[]): void {
  if (actual.length === expected.length && actual.every((key, i) => key === expected[i])) return;
  const expectedSet = new Set(expected);
  const actualSet = new Set(actual);
  const describe = (key: number): string => `(${Math.floor(key / 16777216)}, ${key % 16777216})`;
  const missing = expected
    .filter((key) => !actualSet.has(key))
    .slice(0, 5)
    .map(describe);
  const extra = actual
    .filter((key) => !expectedSet.has(key))
    .slice(0, 5)
    .map(describe);
  const duplicates = actual.length - actualSet.size;
  throw new Error(
    `${name} frame ${frame} ${what}: ${actual.length} vs expected ${expected.length}; missing ${missing.join(' ')}; extra ${extra.join(' ')}; duplicates ${duplicates}`,
  );
}
