import { describe, expect, it } from 'vitest';
import { BROAD_PHASE_NAMES, BroadPhaseSystem, createBroadPhase, type BroadPhaseName } from '../../../src/core';
import { pairKeys } from './churn';

describe('broad-phase system', () => {
  it('switches strategy live without losing boxes or pairs, and reports metrics', () => {
    const system = new BroadPhaseSystem({ count: 700, movingPercent: 30, speed: 0.01, strategy: 'sap' });
    const reference = createBroadPhase('brute-force');
    system.broadPhase.forEachBox((id, box, offset, kind) => reference.insert(id, box, kind, offset));
    system.trackOverlaps = true;
    for (let frame = 0; frame < 24; frame++) {
      if (frame % 3 === 0) system.setStrategy(BROAD_PHASE_NAMES[(frame / 3) % BROAD_PHASE_NAMES.length] as BroadPhaseName);
      system.step(1 / 60);
      for (let k = 0; k < system.scene.movedCount; k++) reference.update(system.scene.moved[k]!, system.scene.boxes, 6 * system.scene.moved[k]!);
      const expected = reference.step();
      expect(system.pairs).toBe(expected.pairs.count);
      const flagged = new Set(pairKeys(expected.pairs).flatMap((key) => [Math.floor(key / 16777216), key % 16777216]));
      expect(system.overlapping.reduce((sum, flag) => sum + flag, 0)).toBe(flagged.size);
    }
    const metrics = system.metrics();
    expect(metrics.boxes).toBe(700);
    expect(typeof metrics.msAvg).toBe('number');
    expect(metrics.pairs).toBe(system.pairs);
  });

  it('rebuilds on scene changes, keeps speed changes in place, and restores saved states', () => {
    const system = new BroadPhaseSystem({ count: 800, movingPercent: 50 });
    system.step(1 / 60);
    const saved = system.saveState();
    system.step(1 / 60);
    system.step(1 / 60);
    const after = system.pairs;
    system.loadState(saved);
    system.step(1 / 60);
    system.step(1 / 60);
    expect(system.pairs).toBe(after);
    system.configure({ scene: 'ground', count: 2000, movingPercent: 10 });
    expect(system.scene.name).toBe('ground');
    expect(system.scene.count).toBe(2000);
    system.step(1 / 60);
    expect(system.scene.movedCount).toBe(200);
    expect(() => system.configure({ count: 0 })).toThrow(/count/);
    expect(() => system.setStrategy('nope' as BroadPhaseName)).toThrow(/strategy/);
  });
});
