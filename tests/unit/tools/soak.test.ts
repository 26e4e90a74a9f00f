import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllKernels } from '../../../src/core';
import { firstNaN, judgeSoak, type SoakSample } from '../../../tools/soak/checks';
import { nodeSoak } from '../../../tools/soak/nodeSoak';

const sample = (label: string, heapMiB: number, stepMs: number): SoakSample => ({ at: 0, heapMiB, stepMs, label });

describe('soak checks', () => {
  it('finds the first NaN in nested states, typed arrays and maps, and nothing in clean ones', () => {
    expect(firstNaN({ a: [1, 2, { b: new Float32Array([0, 1]) }], c: new Map([['k', 3]]) }, 'state', 1e6)).toBe('');
    expect(firstNaN({ a: [1, 2, { b: new Float32Array([0, NaN]) }] }, 'state', 1e6)).toBe('state.a[2].b[1]');
    expect(firstNaN({ m: new Map([['k', { v: NaN }]]) }, 'state', 1e6)).toBe('state.m.get(k).v');
    expect(firstNaN(new Float64Array([Infinity, -Infinity]), 'x', 10)).toBe('');
    // A cycle is walked once; integer arrays hold no NaN.
    const cyclic: { self?: unknown; ids: Int32Array; t: number } = { ids: new Int32Array(4), t: NaN };
    cyclic.self = cyclic;
    expect(firstNaN(cyclic, 'c', 1e6)).toBe('c.t');
  });

  it('judges heap growth and step drift per label, first pass after warm-up against the last', () => {
    const warm = [sample('a', 500, 50)];
    const steady = [sample('a', 100, 10), sample('a', 120, 11), sample('b', 50, 4)];
    expect(judgeSoak([warm, steady, steady]).failures).toEqual([]);
    const leaking = [sample('a', 115, 10), sample('b', 60, 4)];
    const verdict = judgeSoak([warm, steady, leaking]);
    expect(verdict.heapGrowth).toBeCloseTo(25 / 150, 6);
    expect(verdict.failures.join()).toMatch(/heap grew 16.7%/);
    const slower = [sample('a', 100, 14), sample('b', 50, 5.2)];
    expect(judgeSoak([warm, steady, slower]).failures.join()).toMatch(/step time drifted/);
    expect(judgeSoak([warm, steady]).failures.join()).toMatch(/3 passes/);
  });
});

describe('node soak, smoke run', () => {
  beforeAll(async () => {
    await loadAllKernels();
  });

  it('steps every system with a crater and both kernels, sampling each pass without NaN', () => {
    const result = nodeSoak({ frames: 300, passes: 3, samplesPerPass: 2 });
    expect(result.passes).toHaveLength(3);
    for (const pass of result.passes) expect(new Set(pass.map((s) => s.label))).toEqual(new Set(['typescript kernels', 'wasm-simd kernels']));
    for (const s of result.passes.flat()) {
      expect(s.heapMiB).toBeGreaterThan(0);
      expect(s.stepMs).toBeGreaterThan(0);
    }
  }, 300_000);
});
