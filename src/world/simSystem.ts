import type { BVH } from '../bvh/buildBVH';
import type { StateHasher } from '../math/hash';
import type { TerrainMesh } from '../terrain/heightfield';
import type { TimingRing } from './timings';

/** A metric value a subsystem reports beside its timings. */
export type MetricValue = number | string | boolean;

/** Anything that gives the wind velocity at float4 points (the wind system's field does). */
export interface WindSampler {
  /** Sets the field's clock (effects that pulse or travel read it). */
  setTime(seconds: number): void;
  sample(points: Float32Array, wind: Float32Array, count: number): void;
  /** Reach boxes of the enabled effects, by effect id (min xyz, max xyz), so sleepers can be woken. */
  readonly effects: readonly { readonly id: number; readonly enabled: boolean; readonly bounds: Float64Array }[];
}

/**
 * What a system sees of the world it runs in: the terrain and its BVH, the clock, the timings, the
 * scene's seed and the wind, if a wind system blows. Systems read it; only the sandbox changes it.
 */
export interface World {
  readonly terrain: TerrainMesh;
  /** The terrain's 4-way BVH; null until built (it may be built after the terrain, off the main thread). */
  readonly bvh: BVH | null;
  readonly timings: TimingRing;
  /** Seeds everything random in the run. */
  readonly seed: number;
  /** Simulated seconds since frame 0. */
  readonly time: number;
  readonly frame: number;
  /** The world's wind; null for still air. */
  readonly wind: WindSampler | null;
}

/**
 * A part of the world that advances each step (actors, broad-phase, particles, wind, probes…). The
 * sandbox times each system's step under its own phase name and collects its metrics for the HUD, the
 * recorder and the headless report. Rendering reads systems and never writes them.
 */
export interface SimSystem {
  /** The system's name in the catalog, its scene section and its phase prefix. */
  readonly name: string;
  step(dt: number, world: World): void;
  metrics(): Record<string, MetricValue>;
  /** Called when the terrain is replaced, so systems can rebuild what depends on it. */
  terrainChanged?(world: World): void;
  /** Called when the terrain's BVH arrives. */
  bvhChanged?(world: World): void;
  /**
   * Called when an edit (a crater, a sculpt stroke, or undoing one) moved terrain vertices, after the BVH
   * was refitted: `area` is the changed ground's minX, minZ, maxX, maxZ; `triangles` the triangles that
   * moved. Drop or refresh whatever was cached about that ground; bodies resting there should wake.
   */
  terrainDeformed?(world: World, area: Float64Array, triangles: Uint32Array): void;
  /**
   * A deep copy of everything the next steps depend on (positions, velocities, random state…), for
   * stepping back and restarting. A system without it cannot be rewound: the sandbox says which.
   */
  saveState?(): unknown;
  /** Puts back a state saveState returned (the system may ignore one that no longer fits). */
  loadState?(state: unknown): void;
  /** Feeds everything the next steps depend on into the hasher, for the determinism hash. */
  hash(hasher: StateHasher): void;
  /** The system's current settings as its scene section (plain JSON): saving a scene writes this. */
  section(): object;
  /** The wind the system blows, for the systems stepped after it (only the wind system has one). */
  readonly providedWind?: WindSampler;
}

/** What a system is made with: the world it will run in and the library of wind-field programs. */
export interface SystemContext {
  readonly world: World;
  /** The source of a field program by name (`scenes/fields/NAME.vf`); throws when there is none. */
  readField(name: string): string;
}
