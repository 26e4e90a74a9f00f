import { sampleTerrainHeight, type TerrainMesh } from '../terrain/heightfield';
import { fitEffectToTerrain } from './terrainFit';
import { particleEffectPreset, type ParticleEffectKind, type ParticleEffectParams } from './effectParams';

export interface ShowcaseOptions {
  /** Particles alive on average, casing excluded (rates are scaled to it). */
  particles: number;
  /** Raycasts per frame for all effects together (the casing keeps its one). */
  budget: number;
  /** m/s², downwards: the look-ahead is fitted to it and to the terrain. */
  gravity: number;
}

/** Where each effect stands, as fractions of the world size, and how high above the ground. */
const PLACES: readonly { kind: ParticleEffectKind; at: [number, number]; above: number }[] = [
  { kind: 'sparks', at: [-0.1, 0.05], above: 1.5 },
  { kind: 'fountain', at: [0.08, -0.06], above: 0.5 },
  { kind: 'debris', at: [0.02, 0.12], above: 1 },
  { kind: 'casing', at: [-0.04, -0.1], above: 1.5 },
];

/** Mean life of a particle as a fraction of its effect's lifetime (lives are drawn in [0.8, 1]). */
const MEAN_LIFE = 0.9;

/**
 * The standard set of effects on a terrain — sparks, a fountain, debris and one bullet casing — with
 * rates scaled so about `particles` are alive and budgets scaled to `budget` rays per frame. The
 * sandbox, the headless runner, the benchmark and the tests all use it. Each effect's look-ahead is
 * fitted to the terrain (fitEffectToTerrain).
 */
export function showcaseEffects(terrain: TerrainMesh, options: Partial<ShowcaseOptions> = {}): ParticleEffectParams[] {
  const { particles = 100_000, budget = 1_000, gravity = 9.81 } = options;
  const size = terrain.params.worldSize;
  const effects = PLACES.map(({ kind, at, above }) => {
    const x = at[0] * size;
    const z = at[1] * size;
    return fitEffectToTerrain(particleEffectPreset(kind, [x, sampleTerrainHeight(terrain, x, z) + above, z]), terrain.params, gravity);
  });
  const crowd = effects.filter((e) => e.kind !== 'casing');
  const presetAlive = crowd.reduce((sum, e) => sum + e.rate * e.lifetime * MEAN_LIFE, 0);
  const presetBudget = crowd.reduce((sum, e) => sum + e.budget, 0);
  const casingBudget = effects.length - crowd.length;
  for (const effect of crowd) {
    effect.rate *= particles / presetAlive;
    effect.budget *= Math.max(0, budget - casingBudget) / presetBudget;
  }
  return effects;
}
