import { simdFieldPointBuffers } from '../field/evaluate';
import type { SimdPointBuffers } from '../field/simd-memory';
import { Random } from '../math/random';
import { sampleTerrainHeight } from '../terrain/heightfield';
import type { SimSystem, World } from './simSystem';
import type { WindField } from './windField';

/**
 * Light tracer particles (dust, leaves) carried by the wind: each relaxes towards the local wind
 * velocity, falls slowly, and is respawned above the terrain when it lands, leaves the world or ages
 * out. Positions are float4 so the field VM reads them as they are. Where WebAssembly SIMD runs,
 * positions and wind live in its module memory, so the SIMD back ends read and write them in place
 * (the TypeScript ones read any Float32Array); the getters hand out views that stay valid after the
 * memory grows.
 */
interface WindTracerState {
  count: number;
  positions: Float32Array;
  velocities: Float32Array;
  ages: Float32Array;
  random: number;
  respawned: number;
}

export class WindTracers implements SimSystem {
  readonly name = 'wind';
  count: number;
  velocities: Float32Array;
  ages: Float32Array;
  /** 1/s: how fast a tracer takes on the wind's velocity. */
  responsiveness = 2.5;
  /** m/s² of fall through still air. */
  settling = 1.5;
  lifetime = 12;
  private random: Random;
  private respawned = 0;
  private lastSampleMs = 0;
  private points: SimdPointBuffers | { readonly positions: Float32Array; readonly wind: Float32Array; dispose(): void };

  constructor(
    readonly field: WindField,
    count: number,
    seed = 1,
  ) {
    this.count = count;
    this.random = new Random(seed);
    this.points = allocatePoints(count);
    this.velocities = new Float32Array(count * 3);
    this.ages = new Float32Array(count);
  }

  /** float4 per tracer (w = 0). */
  get positions(): Float32Array {
    return this.points.positions;
  }

  /** The wind at each tracer from the last step, float4. */
  get wind(): Float32Array {
    return this.points.wind;
  }

  resize(count: number, sandbox: World): void {
    this.count = count;
    this.points.dispose();
    this.points = allocatePoints(count);
    this.velocities = new Float32Array(count * 3);
    this.ages = new Float32Array(count);
    this.terrainChanged(sandbox);
  }

  terrainChanged(sandbox: World): void {
    for (let i = 0; i < this.count; i++) this.spawn(i, sandbox, true);
  }

  step(dt: number, sandbox: World): void {
    const start = performance.now();
    this.field.setTime(sandbox.time);
    this.field.sample(this.positions, this.wind, this.count);
    this.lastSampleMs = performance.now() - start;
    const p = this.positions;
    const v = this.velocities;
    const w = this.wind;
    const blend = 1 - Math.exp(-this.responsiveness * dt);
    const fall = this.settling * dt;
    const half = sandbox.terrain.params.worldSize / 2;
    const lifetime = this.lifetime;
    const terrain = sandbox.terrain;
    const ceiling = terrain.maxHeight + half;
    for (let i = 0; i < this.count; i++) {
      let vx = v[3 * i]!;
      let vy = v[3 * i + 1]!;
      let vz = v[3 * i + 2]!;
      vx += (w[4 * i]! - vx) * blend;
      vy += (w[4 * i + 1]! - vy) * blend - fall;
      vz += (w[4 * i + 2]! - vz) * blend;
      v[3 * i] = vx;
      v[3 * i + 1] = vy;
      v[3 * i + 2] = vz;
      const x = (p[4 * i] = p[4 * i]! + vx * dt);
      const y = (p[4 * i + 1] = p[4 * i + 1]! + vy * dt);
      const z = (p[4 * i + 2] = p[4 * i + 2]! + vz * dt);
      const age = (this.ages[i] = this.ages[i]! + dt);
      if (age > lifetime || x < -half || x > half || z < -half || z > half || y > ceiling || !(y > sampleTerrainHeight(terrain, x, z))) {
        this.spawn(i, sandbox, false);
      }
    }
  }

  metrics(): Record<string, number> {
    return {
      tracers: this.count,
      effects: this.field.effects.filter((e) => e.enabled).length,
      fieldMs: Math.round(this.lastSampleMs * 1000) / 1000,
      respawned: this.respawned,
    };
  }

  saveState(): WindTracerState {
    return {
      count: this.count,
      positions: this.positions.slice(),
      velocities: this.velocities.slice(),
      ages: this.ages.slice(),
      random: this.random.saveState(),
      respawned: this.respawned,
    };
  }

  loadState(state: unknown): void {
    const s = state as WindTracerState;
    if (s.count !== this.count) return; // the tracer count changed since: the snapshot no longer fits
    this.positions.set(s.positions);
    this.velocities.set(s.velocities);
    this.ages.set(s.ages);
    this.random.loadState(s.random);
    this.respawned = s.respawned;
  }

  private spawn(i: number, sandbox: World, initial: boolean): void {
    const r = this.random;
    const terrain = sandbox.terrain;
    const half = terrain.params.worldSize / 2;
    const x = r.range(-half, half);
    const z = r.range(-half, half);
    const ground = sampleTerrainHeight(terrain, x, z);
    this.positions[4 * i] = x;
    this.positions[4 * i + 1] = ground + r.range(0.5, 12);
    this.positions[4 * i + 2] = z;
    this.positions[4 * i + 3] = 0;
    this.velocities[3 * i] = this.velocities[3 * i + 1] = this.velocities[3 * i + 2] = 0;
    // Staggered ages on the first spawn, so tracers do not all expire in the same frame.
    this.ages[i] = initial ? r.range(0, this.lifetime) : 0;
    if (!initial) this.respawned++;
  }
}

function allocatePoints(count: number): SimdPointBuffers | { readonly positions: Float32Array; readonly wind: Float32Array; dispose(): void } {
  return simdFieldPointBuffers(count) ?? { positions: new Float32Array(count * 4), wind: new Float32Array(count * 4), dispose: () => undefined };
}
