import type { BVH } from '../bvh/buildBVH';
import type { TerrainMesh } from '../terrain/heightfield';
import type { TimingRing } from './timings';

/** A metric value a subsystem reports beside its timings. */
export type MetricValue = number | string | boolean;

/**
 * What a system reads of the world it runs in; the Sandbox is one. Systems name this rather than the
 * Sandbox so that they need nothing of the scene file or of the sandbox's own machinery.
 */
export interface World {
  readonly terrain: TerrainMesh;
  /** The terrain's 4-way BVH; null until built. */
  readonly bvh: BVH | null;
  /** Seconds simulated so far. */
  readonly time: number;
  readonly timings: TimingRing;
  readonly systems: readonly SimSystem[];
}

/**
 * A part of the world that advances each step (actors, broad-phase, particles, wind…). The sandbox
 * times each system's step under its own phase name and collects its metrics for the HUD and the
 * headless report. Systems read the world; rendering never writes back.
 */
export interface SimSystem {
  readonly name: string;
  step(dt: number, world: World): void;
  metrics(): Record<string, MetricValue>;
  /** Called when the terrain is replaced, so systems can rebuild what depends on it. */
  terrainChanged?(world: World): void;
  /** Called when the terrain's BVH arrives (it may be built after the terrain, off the main thread). */
  bvhChanged?(world: World): void;
  /**
   * A deep copy of everything the next steps depend on (positions, velocities, random state…), for
   * stepping back and restarting. A system without it cannot be rewound: the sandbox says so
   * (Sandbox.rewindable) instead of rewinding the others alone.
   */
  saveState?(): unknown;
  /** Puts back a state saveState returned (the system may ignore one that no longer fits). */
  loadState?(state: unknown): void;
}
