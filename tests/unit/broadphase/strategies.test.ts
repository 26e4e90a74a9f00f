import { describe, expect, it } from 'vitest';
import { BROAD_PHASE_NAMES, createBroadPhase } from '../../../src/broadphase/index';
import { runChurn } from './churn';

const STRATEGIES = BROAD_PHASE_NAMES.filter((name) => name !== 'brute-force');

describe('every strategy reports exactly the brute-force pairs', () => {
  for (const name of STRATEGIES) {
    it(`${name}: 1,000 frames of churn, mixed static and dynamic (seed 7)`, () => {
      const report = runChurn(createBroadPhase(name), createBroadPhase('brute-force'), {
        seed: 7,
        frames: 1000,
        maxId: 400,
        population: 120,
        staticShare: 0.3,
        moveShare: 0.3,
      });
      expect(report.frames).toBe(1000);
      expect(report.createdSeen).toBeGreaterThan(1000);
      expect(report.deletedSeen).toBeGreaterThan(1000);
    });
    it(`${name}: dense dynamic crowd with sparse large ids (seed 11)`, () => {
      const report = runChurn(createBroadPhase(name), createBroadPhase('brute-force'), {
        seed: 11,
        frames: 80,
        maxId: 100_000,
        population: 250,
        staticShare: 0,
        moveShare: 0.8,
      });
      expect(report.maxPairs).toBeGreaterThan(100);
    });
    it(`${name}: many statics, few dynamics, statics occasionally moved (seed 23)`, () => {
      const report = runChurn(createBroadPhase(name), createBroadPhase('brute-force'), {
        seed: 23,
        frames: 200,
        maxId: 600,
        population: 220,
        staticShare: 0.85,
        moveShare: 0.6,
      });
      expect(report.createdSeen).toBeGreaterThan(200);
    });
  }
});
