import { gradientNoise2D, type GradientNoise2D } from './noise';

/**
 * Ken Musgrave's multifractals over gradient noise. Each octave's weight is lacunarity^(-H·i): H is the
 * fractal increment (high H: smooth, low H: rough). Fractional octave counts blend in the last octave.
 *
 * - fBm: a plain spectral sum; statistically the same everywhere.
 * - hybrid: each octave is scaled by the running result, so valleys stay smooth and peaks get rough.
 * - ridged: 1 - |noise| squared makes sharp crests; each octave is weighted by the previous signal.
 * - hetero: "heterogeneous terrain"; each octave is scaled by the height so far, so lowlands stay flat.
 */
export type TerrainKind = 'fbm' | 'hybrid' | 'ridged' | 'hetero';

export const TERRAIN_KINDS: readonly TerrainKind[] = ['fbm', 'hybrid', 'ridged', 'hetero'];

export interface MultifractalSettings {
  kind: TerrainKind;
  octaves: number;
  lacunarity: number;
  H: number;
  gain: number;
  offset: number;
}

/** Precomputed per-octave spectral weights, so the inner loop does no pow(). */
export interface MultifractalPlan extends MultifractalSettings {
  readonly noise: GradientNoise2D;
  readonly weights: Float64Array;
  readonly wholeOctaves: number;
  readonly remainder: number;
}

export function planMultifractal(noise: GradientNoise2D, settings: MultifractalSettings): MultifractalPlan {
  const wholeOctaves = Math.floor(settings.octaves);
  const remainder = settings.octaves - wholeOctaves;
  const weights = new Float64Array(wholeOctaves + 1);
  let frequency = 1;
  for (let i = 0; i <= wholeOctaves; i++) {
    weights[i] = Math.pow(frequency, -settings.H);
    frequency *= settings.lacunarity;
  }
  return { ...settings, noise, weights, wholeOctaves, remainder };
}

/** The multifractal value at (x, y). The scale is kind-specific; the heightfield normalises it. */
export function multifractal(plan: MultifractalPlan, x: number, y: number): number {
  switch (plan.kind) {
    case 'fbm':
      return fbm(plan, x, y);
    case 'hybrid':
      return hybridMultifractal(plan, x, y);
    case 'ridged':
      return ridgedMultifractal(plan, x, y);
    case 'hetero':
      return heterogeneousTerrain(plan, x, y);
  }
}

function fbm(plan: MultifractalPlan, x: number, y: number): number {
  const { noise, weights, wholeOctaves, remainder, lacunarity } = plan;
  let value = 0;
  let i = 0;
  for (; i < wholeOctaves; i++) {
    value += gradientNoise2D(noise, x, y) * weights[i]!;
    x *= lacunarity;
    y *= lacunarity;
  }
  if (remainder > 0) value += remainder * gradientNoise2D(noise, x, y) * weights[i]!;
  return value;
}

function hybridMultifractal(plan: MultifractalPlan, x: number, y: number): number {
  const { noise, weights, wholeOctaves, remainder, lacunarity, offset } = plan;
  let result = (gradientNoise2D(noise, x, y) + offset) * weights[0]!;
  let weight = result;
  x *= lacunarity;
  y *= lacunarity;
  let i = 1;
  for (; i < wholeOctaves; i++) {
    if (weight > 1) weight = 1;
    const signal = (gradientNoise2D(noise, x, y) + offset) * weights[i]!;
    result += weight * signal;
    weight *= signal;
    x *= lacunarity;
    y *= lacunarity;
  }
  if (remainder > 0) result += remainder * (gradientNoise2D(noise, x, y) + offset) * weights[i]!;
  return result;
}

function ridgedMultifractal(plan: MultifractalPlan, x: number, y: number): number {
  const { noise, weights, wholeOctaves, remainder, lacunarity, offset, gain } = plan;
  let signal = offset - Math.abs(gradientNoise2D(noise, x, y));
  signal *= signal;
  let result = signal;
  let i = 1;
  const lastOctave = remainder > 0 ? wholeOctaves + 1 : wholeOctaves;
  for (; i < lastOctave; i++) {
    x *= lacunarity;
    y *= lacunarity;
    let weight = signal * gain;
    if (weight > 1) weight = 1;
    else if (weight < 0) weight = 0;
    signal = offset - Math.abs(gradientNoise2D(noise, x, y));
    signal *= signal * weight;
    result += signal * weights[i]! * (i === wholeOctaves ? remainder : 1);
  }
  return result;
}

function heterogeneousTerrain(plan: MultifractalPlan, x: number, y: number): number {
  const { noise, weights, wholeOctaves, remainder, lacunarity, offset } = plan;
  let value = offset + gradientNoise2D(noise, x, y);
  x *= lacunarity;
  y *= lacunarity;
  let i = 1;
  for (; i < wholeOctaves; i++) {
    value += (gradientNoise2D(noise, x, y) + offset) * weights[i]! * value;
    x *= lacunarity;
    y *= lacunarity;
  }
  if (remainder > 0) value += remainder * (gradientNoise2D(noise, x, y) + offset) * weights[i]! * value;
  return value;
}
