import { describe, expect, it } from 'vitest';
import {
  BROAD_PHASE_NAMES,
  GroundScene,
  OrbitScene,
  applySceneMoves,
  createBroadPhase,
  populateBroadPhase,
  type BroadPhaseScene,
} from '../../../src/core';
import { pairKeys } from './churn';

function agreeOnScene(makeScene: () => BroadPhaseScene, frames: number): { pairs: number; created: number } {
  const reference = createBroadPhase('brute-force');
  const referenceScene = makeScene();
  populateBroadPhase(reference, referenceScene);
  const expected: number[][] = [];
  let pairs = 0;
  let created = 0;
  for (let frame = 0; frame < frames; frame++) {
    const step = reference.step();
    expected.push(pairKeys(step.pairs));
    pairs += step.pairs.count;
    if (frame > 0) created += step.created.count;
    referenceScene.advance();
    applySceneMoves(reference, referenceScene);
  }
  for (const name of BROAD_PHASE_NAMES) {
    if (name === 'brute-force') continue;
    const scene = makeScene();
    const bp = createBroadPhase(name);
    populateBroadPhase(bp, scene);
    for (let frame = 0; frame < frames; frame++) {
      const actual = pairKeys(bp.step().pairs);
      expect(actual, `${name} frame ${frame}`).toEqual(expected[frame]);
      scene.advance();
      applySceneMoves(bp, scene);
    }
  }
  return { pairs, created };
}

describe('broad-phase scenes', () => {
  it('orbit scene (CDTestFramework), 1,024 boxes, 10% moving: every strategy agrees with brute force', () => {
    const { pairs, created } = agreeOnScene(() => new OrbitScene({ count: 1024, movingPercent: 10, seed: 4 }), 25);
    expect(pairs).toBeGreaterThan(0);
    expect(created).toBeGreaterThan(0);
  });

  it('orbit scene, 1,024 boxes, all moving fast: every strategy agrees with brute force', () => {
    agreeOnScene(() => new OrbitScene({ count: 1024, movingPercent: 100, speed: 0.02, seed: 5 }), 25);
  });

  it('ground scene (statics and dynamics): every strategy agrees with brute force', () => {
    const { pairs } = agreeOnScene(() => new GroundScene({ statics: 1000, dynamics: 100, worldSize: 160, seed: 6 }), 25);
    expect(pairs / 25).toBeGreaterThan(120);
  });

  it('orbit scene boxes have half-extents in [2, 4] and follow the orbit formula', () => {
    const scene = new OrbitScene({ count: 64, movingPercent: 50, seed: 9 });
    const before = scene.boxes.slice();
    scene.advance();
    expect(scene.movedCount).toBe(32);
    for (let i = 0; i < 64; i++) {
      for (let axis = 0; axis < 3; axis++) {
        const half = (scene.boxes[6 * i + 3 + axis]! - scene.boxes[6 * i + axis]!) / 2;
        expect(half).toBeGreaterThanOrEqual(2);
        expect(half).toBeLessThanOrEqual(4);
      }
      const moved = scene.boxes.slice(6 * i, 6 * i + 6).some((v, k) => v !== before[6 * i + k]);
      expect(moved).toBe(i < 32);
      const cx = (scene.boxes[6 * i]! + scene.boxes[6 * i + 3]!) / 2;
      expect(Math.abs(cx)).toBeLessThanOrEqual(150 + 1e-9);
    }
  });
});
