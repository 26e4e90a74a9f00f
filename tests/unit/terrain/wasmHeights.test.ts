import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../../src/math/random';
import { createGradientNoise } from '../../../src/terrain/noise';
import { multifractal, planMultifractal, TERRAIN_KINDS, type MultifractalSettings } from '../../../src/terrain/multifractal';
import { generateTerrain } from '../../../src/terrain/heightfield';
import { loadWasmHeights, type WasmHeightsKernel } from '../../../src/terrain/wasmHeights';

let kernel: WasmHeightsKernel;
beforeAll(async () => {
  const loaded = await loadWasmHeights();
  if (loaded === null) throw new Error('the terrain kernel did not load');
  kernel = loaded;
});

/** The TypeScript reference, as generateTerrain's loop calls it. */
function reference(settings: MultifractalSettings, seed: number, side: number, step: number, offset: number): Float64Array {
  const plan = planMultifractal(createGradientNoise(seed), settings);
  const out = new Float64Array(side * side);
  for (let row = 0; row < side; row++)
    for (let col = 0; col < side; col++) out[row * side + col] = multifractal(plan, col * step + offset, row * step + offset);
  return out;
}

/** Index of the first value whose bits differ (Object.is tells −0 from 0 and NaN from NaN alike), or −1. */
function firstDifference(a: Float64Array, b: Float64Array): number {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return a.length === b.length ? -1 : a.length;
}

function compare(settings: MultifractalSettings, seed: number, side: number, step: number, offset = 0.318309886): void {
  const expected = reference(settings, seed, side, step, offset);
  const actual = new Float64Array(side * side);
  kernel.fill(planMultifractal(createGradientNoise(seed), settings), side, step, offset, actual);
  expect(firstDifference(actual, expected), `${JSON.stringify(settings)} seed ${seed} side ${side}`).toBe(-1);
}

const DEFAULTS: MultifractalSettings = { kind: 'ridged', octaves: 8, lacunarity: 2, H: 0.9, gain: 2, offset: 1 };

describe('WebAssembly terrain heights', () => {
  it('equal the TypeScript multifractal bit for bit for every kind, on odd and even sides', () => {
    for (const kind of TERRAIN_KINDS) {
      compare({ ...DEFAULTS, kind }, 11, 33, 3 / 32);
      compare({ ...DEFAULTS, kind }, 12, 18, 0.4);
    }
  });

  it('equal it for random settings, fractional octaves included', () => {
    const random = new Random(2026);
    for (let trial = 0; trial < 24; trial++) {
      const settings: MultifractalSettings = {
        kind: TERRAIN_KINDS[trial % TERRAIN_KINDS.length]!,
        octaves: 1 + random.next() * 15,
        lacunarity: 1 + 1e-6 + random.next() * 3,
        H: random.next() * 2,
        gain: random.next() * 10,
        offset: random.next() * 3,
      };
      compare(settings, random.int(1 << 30), 1 + random.int(20), (random.next() * 64) / 16);
    }
  });

  it('equal it at the extremes: one vertex, whole octaves, coordinates past 2³¹ and on the lattice', () => {
    compare({ ...DEFAULTS, kind: 'fbm', octaves: 1 }, 3, 1, 1);
    // 16 octaves of lacunarity 4 reach 64 · 4¹⁵ ≈ 7·10¹⁰: the lattice cell must wrap as JavaScript's `& 255` does.
    for (const kind of TERRAIN_KINDS) compare({ ...DEFAULTS, kind, octaves: 16, lacunarity: 4, H: 0 }, 5, 9, 8);
    // Integer coordinates sit on lattice points, where the noise is exactly ±0.
    for (const kind of TERRAIN_KINDS) compare({ ...DEFAULTS, kind, octaves: 3.5, gain: 0, offset: 0 }, 9, 7, 1, 0);
  });

  it('are what generateTerrain uses once loaded, with the same mesh as the TypeScript loop', () => {
    const mesh = generateTerrain({ cells: 24, seed: 77, kind: 'hybrid' });
    expect(mesh.heightsKernel).toBe('wasm');
    const side = 25;
    const raw = reference({ ...DEFAULTS, ...mesh.params }, 77, side, mesh.params.baseFrequency / 24, 0.318309886);
    let low = Infinity;
    let high = -Infinity;
    for (const value of raw) {
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
    const scale = mesh.params.heightScale / (high - low);
    const expected = Float32Array.from(raw, (value) => (value - low) * scale);
    expect(firstDifference(Float64Array.from(mesh.heights), Float64Array.from(expected))).toBe(-1);
  });
});
