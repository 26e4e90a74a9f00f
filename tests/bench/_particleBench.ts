/**
 * What the particle benchmarks (particles*.ts) share: their command line and the world they step.
 *
 *   --quick            smoke run: 10,000 particles and 100 raycasts a frame (each benchmark shrinks
 *                      its terrain and frame counts too)
 *   --particles N      particles alive on average (showcase effects; default 100,000)
 *   --budget N         raycasts a frame for all effects together (default 1,000)
 *   --NAME VALUE       a benchmark's own options, read with option()
 */
import {
  ParticleSystem,
  Sandbox,
  buildBVH,
  parseScene,
  showcaseEffects,
  type BVH,
  type ParticleSystemOptions,
  type TerrainMesh,
  type TerrainParams,
} from '../../src/core';

const argv = process.argv.slice(2);

/** Whether this is a smoke run (--quick). */
export const quick = argv.includes('--quick');

/** The value after --name on the command line, or `fallback`. */
export function option(name: string, fallback: string): string {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < argv.length ? argv[at + 1]! : fallback;
}

/** A comma-separated option as a list. */
export const list = (name: string, fallback: string): string[] => option(name, fallback).split(',');
export const numbers = (name: string, fallback: string): number[] => list(name, fallback).map(Number);

/** Particles alive on average and raycasts a frame: the showcase's load (issue target: 100,000 and 1,000). */
export const PARTICLES = Number(option('particles', quick ? '10000' : '100000'));
export const BUDGET = Number(option('budget', quick ? '100' : '1000'));
/** One frame. */
export const DT = 1 / 60;
/** The step budget for 100,000 particles and 1,000 rays on the 512-cell terrain, and the fall-through ceiling. */
export const TARGET_MS = 4;
export const TARGET_FELL = 0.005;

export interface ParticleWorld {
  sandbox: Sandbox;
  system: ParticleSystem;
}

/** The last terrain and tree made, and the terrain section they were made for. */
let lastGround: { key: string; terrain: TerrainMesh; bvh: BVH } | null = null;

/** The seed of every particle benchmark's scene. */
export const SCENE_SEED = 20120619;

/**
 * A sandbox of its own on `terrain` with the showcase effects for `load` (default PARTICLES particles
 * and BUDGET rays), the scene's seed SCENE_SEED, snapshots off. Worlds made one after another on the same terrain share
 * its mesh and tree (no benchmark edits them): the SIMD ray kernel holds one tree in its memory and
 * copies another in when cast against it (some 60 ms at 512 cells), which two worlds stepped in turn
 * would otherwise pay at every switch.
 */
export function particleWorld(
  name: string,
  terrain: Partial<TerrainParams>,
  options: Partial<ParticleSystemOptions> = {},
  load: { particles?: number; budget?: number } = {},
): ParticleWorld {
  const scene = parseScene({ name, seed: SCENE_SEED, terrain });
  const key = JSON.stringify(scene.terrain);
  const ground = lastGround?.key === key ? lastGround : null;
  const sandbox = new Sandbox(scene, ground?.terrain, 8);
  const bvh = ground?.bvh ?? buildBVH(sandbox.terrain.positions, sandbox.terrain.indices);
  lastGround = { key, terrain: sandbox.terrain, bvh };
  sandbox.setBvh(bvh);
  const system = new ParticleSystem(
    showcaseEffects(sandbox.terrain, { particles: load.particles ?? PARTICLES, budget: load.budget ?? BUDGET }),
    { seed: scene.seed, ...options },
    false,
  );
  sandbox.addSystem(system);
  return { sandbox, system };
}
