import { simdFieldPointBuffers } from '../field/evaluate';
import type { SimdPointBuffers } from '../field/simd-memory';
import { Random } from '../math/random';
import { sampleTerrainHeight } from '../terrain/heightfield';
import type { StateHasher } from '../math/hash';
import type { SimSystem, World } from '../world/simSystem';
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

/**
 * The wind system (WindSystem) runs its tracers in its own field; on their own they are a system too,
 * for a library user with a field of their own.
 */
export class WindTracers implements SimSystem {
  readonly name = 'tracers';
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
  /** Milliseconds the field took at the tracers in the last step. */
  sampleMs = 0;
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

  resize(count: number, world: World): void {
    this.count = count;
    this.points.dispose();
    this.points = allocatePoints(count);
    this.velocities = new Float32Array(count * 3);
    this.ages = new Float32Array(count);
    this.terrainChanged(world);
  }

  terrainChanged(world: World): void {
    for (let i = 0; i < this.count; i++) this.spawn(i, world, true);
  }

  step(dt: number, world: World): void {
    const start = performance.now();
    this.field.setTime(world.time);
    this.field.sample(this.positions, this.wind, this.count);
    this.sampleMs = performance.now() - start;
    const p = this.positions;
    const v = this.velocities;
    const w = this.wind;
    const blend = 1 - Math.exp(-this.responsiveness * dt);
    const fall = this.settling * dt;
    const half = world.terrain.params.worldSize / 2;
    const lifetime = this.lifetime;
    const terrain = world.terrain;
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
        this.spawn(i, world, false);
      }
    }
  }

  metrics(): { tracers: number; effects: number; fieldMs: number; respawned: number } {
    return {
      tracers: this.count,
      effects: this.field.effects.filter((e) => e.enabled).length,
      fieldMs: Math.round(this.sampleMs * 1000) / 1000,
      respawned: this.respawned,
    };
  }

  hash(hasher: StateHasher): void {
    hasher.value(this.saveState());
  }

  section(): { tracers: number } {
    return { tracers: this.count };
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

  private spawn(i: number, world: World, initial: boolean): void {
    const r = this.random;
    const terrain = world.terrain;
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
