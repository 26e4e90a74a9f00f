import { describe, expect, it } from 'vitest';
import { Random, Sandbox, TimingRing, parseScene, summarize, type SimSystem } from '../../../src/core';

describe('TimingRing', () => {
  it('keeps now / avg / min / max over the last window of samples (seed 3)', () => {
    const ring = new TimingRing(8);
    const random = new Random(3);
    const all: number[] = [];
    for (let i = 0; i < 30; i++) {
      const value = random.range(0, 10);
      all.push(value);
      ring.record('phase', value);
      const window = all.slice(-8);
      const stats = ring.stats('phase');
      expect(stats.now).toBe(value);
      expect(stats.count).toBe(window.length);
      expect(stats.min).toBe(Math.min(...window));
      expect(stats.max).toBe(Math.max(...window));
      expect(stats.avg).toBeCloseTo(window.reduce((a, b) => a + b, 0) / window.length, 12);
      expect(Array.from(ring.window('phase'))).toEqual(window);
    }
  });

  it('lists phases in first-seen order and reports zeros for an unknown phase', () => {
    const ring = new TimingRing(4);
    ring.record('b', 1);
    ring.record('a', 2);
    ring.record('b', 3);
    expect(ring.phases).toEqual(['b', 'a']);
    expect(ring.stats('nope')).toEqual({ now: 0, avg: 0, min: 0, max: 0, count: 0 });
  });

  it('marks one-off events apart from per-frame phases and never drops them as warm-up', () => {
    const ring = new TimingRing(4, 2);
    ring.recordEvent('bvh.build', 120);
    ring.record('step', 1);
    ring.record('step', 2);
    ring.record('step', 3);
    expect(ring.isEvent('bvh.build')).toBe(true);
    expect(ring.isEvent('step')).toBe(false);
    expect(ring.isEvent('nope')).toBe(false);
    expect(ring.stats('bvh.build').now).toBe(120);
    expect(Array.from(ring.window('step'))).toEqual([3]);
    expect(ring.timeEvent('terrain.generate', () => 7)).toBe(7);
    expect(ring.isEvent('terrain.generate')).toBe(true);
    expect(ring.phases).toEqual(['bvh.build', 'step', 'terrain.generate']);
    // A restart clears the frame's samples; the builds still describe the world.
    ring.clear();
    expect(ring.stats('step').count).toBe(0);
    expect(ring.stats('bvh.build').now).toBe(120);
  });

  it('rejects a window that is not a positive integer', () => {
    expect(() => new TimingRing(0)).toThrow(RangeError);
    expect(() => new TimingRing(2.5)).toThrow(RangeError);
  });

  it('summarizes median, min, max and mean', () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, mean: 3 });
    expect(summarize([4, 1, 3, 2]).median).toBe(2.5);
    expect(summarize([])).toEqual({ median: 0, min: 0, max: 0, mean: 0 });
  });
});

describe('Sandbox', () => {
  it('steps its systems, times each one and reports their metrics', () => {
    const scene = parseScene({ terrain: { cells: 16 } });
    const sandbox = new Sandbox(scene);
    // Generating the terrain is a one-off event, listed apart from the frame's phases.
    expect(sandbox.timings.isEvent('terrain.generate')).toBe(true);
    let steps = 0;
    let terrainChanges = 0;
    const counter: SimSystem = {
      name: 'counter',
      step: () => void steps++,
      metrics: () => ({ steps }),
      terrainChanged: () => void terrainChanges++,
      hash: (hasher) => void hasher.word(steps),
      section: () => ({}),
    };
    sandbox.addSystem(counter);
    for (let i = 0; i < 5; i++) sandbox.step(0.02);
    expect(steps).toBe(5);
    expect(sandbox.frame).toBe(5);
    expect(sandbox.time).toBeCloseTo(0.1, 12);
    expect(sandbox.timings.phases).toEqual(['terrain.generate', 'step.counter', 'step']);
    expect(sandbox.report().metrics).toMatchObject({ terrain: { cells: 16, triangles: 512 }, counter: { steps: 5 } });
    expect(terrainChanges).toBe(1);

    // A system that leaves takes its own rows with it; the others keep theirs.
    sandbox.timings.record('counter.inner', 1);
    sandbox.timings.record('counterfeit.inner', 1);
    sandbox.removeSystem(counter);
    expect(sandbox.timings.phases).toEqual(['terrain.generate', 'step', 'counterfeit.inner']);
    expect(sandbox.timings.window('step').length).toBe(5);
  });

  it('refuses a NaN or negative time step and keeps its state', () => {
    const sandbox = new Sandbox(parseScene({ terrain: { cells: 16 } }));
    expect(() => sandbox.step(NaN)).toThrow(/dt must be a finite number/);
    expect(() => sandbox.step(-1)).toThrow(RangeError);
    expect(sandbox.frame).toBe(0);
  });
});
