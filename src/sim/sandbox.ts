import type { BVH } from '../bvh/buildBVH';
import type { SceneDefinition } from '../scene/scene';
import type { TerrainMesh } from '../terrain/heightfield';
import { generateTerrain } from '../terrain/heightfield';
import { TimingRing } from './timings';

/** A metric value a subsystem reports beside its timings. */
export type MetricValue = number | string | boolean;

/**
 * A part of the world that advances each step (actors, broad-phase, particles, wind…). The sandbox
 * times each system's step under its own phase name and collects its metrics for the HUD and the
 * headless report. Systems read the sandbox; rendering never writes back.
 */
export interface SimSystem {
  readonly name: string;
  step(dt: number, sandbox: Sandbox): void;
  metrics(): Record<string, MetricValue>;
  /** Called when the terrain is replaced, so systems can rebuild what depends on it. */
  terrainChanged?(sandbox: Sandbox): void;
  /** Called when the terrain's BVH arrives (it may be built after the terrain, off the main thread). */
  bvhChanged?(sandbox: Sandbox): void;
}

export interface SandboxReport {
  frame: number;
  time: number;
  metrics: Record<string, Record<string, MetricValue>>;
}

/** The world: the scene, its terrain, the systems that run on it and their timings. */
export class Sandbox {
  scene: SceneDefinition;
  terrain: TerrainMesh;
  /** The terrain's 4-way BVH; null until built (queries that need it wait for it). */
  bvh: BVH | null = null;
  readonly timings: TimingRing;
  readonly systems: SimSystem[] = [];
  frame = 0;
  time = 0;

  constructor(scene: SceneDefinition, terrain?: TerrainMesh, timingWindow = 120) {
    this.scene = scene;
    this.timings = new TimingRing(timingWindow);
    this.terrain = terrain ?? this.timings.time('terrain.generate', () => generateTerrain(scene.terrain));
    if (terrain !== undefined) this.timings.record('terrain.generate', terrain.generationMs);
  }

  addSystem(system: SimSystem): void {
    this.systems.push(system);
    system.terrainChanged?.(this);
  }

  /** Replaces the terrain (built elsewhere, e.g. in a worker) and tells every system. */
  setTerrain(terrain: TerrainMesh): void {
    this.terrain = terrain;
    this.bvh = null;
    this.timings.record('terrain.generate', terrain.generationMs);
    for (const system of this.systems) system.terrainChanged?.(this);
  }

  /** Installs the BVH of the current terrain and tells every system. */
  setBvh(bvh: BVH): void {
    if (bvh.positions !== this.terrain.positions || bvh.indices !== this.terrain.indices) {
      throw new RangeError('setBvh: the BVH was built over another mesh than the current terrain');
    }
    this.bvh = bvh;
    this.timings.record('bvh.build', bvh.stats.buildMs);
    for (const system of this.systems) system.bvhChanged?.(this);
  }

  /** Advances every system by `dt` seconds; each system's time goes to the phase `step.<name>`. */
  step(dt: number): void {
    if (!(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`step: dt must be a finite number ≥ 0, got ${dt}`);
    const timings = this.timings;
    const start = performance.now();
    for (const system of this.systems) {
      const systemStart = performance.now();
      system.step(dt, this);
      timings.record(`step.${system.name}`, performance.now() - systemStart);
    }
    timings.record('step', performance.now() - start);
    this.frame++;
    this.time += dt;
  }

  report(): SandboxReport {
    const metrics: Record<string, Record<string, MetricValue>> = {
      terrain: {
        cells: this.terrain.params.cells,
        vertices: this.terrain.vertexCount,
        triangles: this.terrain.triangleCount,
        generationMs: round(this.terrain.generationMs, 3),
      },
    };
    const bvh = this.bvh;
    if (bvh !== null) {
      const s = bvh.stats;
      metrics.bvh = {
        nodes: s.nodes,
        bytes: s.bytes,
        bytesPerTriangle: round(s.bytesPerTriangle, 2),
        depthMin: s.depthMin,
        depthMax: s.depthMax,
        leafFillRate: round(s.leafFillRate, 3),
        sahCost: round(s.sahCost, 2),
        buildMs: round(s.buildMs, 1),
      };
    }
    for (const system of this.systems) metrics[system.name] = system.metrics();
    return { frame: this.frame, time: this.time, metrics };
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
