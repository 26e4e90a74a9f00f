import { fieldPointPlanes, type FieldPointPlanes } from '../field/evaluate';
import { Random } from '../math/random';
import { sampleTerrainHeight } from '../terrain/heightfield';
import type { StateHasher } from '../math/hash';
import type { SimSystem, World } from '../world/simSystem';
import type { WindField } from './windField';

/**
 * Light tracer particles (dust, leaves) carried by the wind: each relaxes towards the local wind
 * velocity, falls slowly, and is respawned above the terrain when it lands, leaves the world or ages
 * out. Positions and wind are component planes (fieldPointPlanes: x of every tracer, then y, then z,
 * `stride` apart). Where WebAssembly SIMD runs they live in its module memory, so the SIMD JIT reads
 * and writes them in place with no transposes; the getters hand out views that stay valid after the
 * memory grows.
 */
interface WindTracerState {
  count: number;
  /** float4 per tracer (w = 0): the state's format whatever the layout in memory. */
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
  private points: FieldPointPlanes;

  constructor(
    readonly field: WindField,
    count: number,
    seed = 1,
  ) {
    this.count = count;
    this.random = new Random(seed);
    this.points = fieldPointPlanes(count);
    this.velocities = new Float32Array(count * 3);
    this.ages = new Float32Array(count);
  }

  /** Three planes of `stride` floats: x of every tracer, then y, then z. */
  get positions(): Float32Array {
    return this.points.positions;
  }

  /** The wind at each tracer from the last step, planes like `positions`. */
  get wind(): Float32Array {
    return this.points.wind;
  }

  /** Floats from one plane of `positions` or `wind` to the next. */
  get stride(): number {
    return this.points.stride;
  }

  resize(count: number, world: World): void {
    this.count = count;
    this.points.dispose();
    this.points = fieldPointPlanes(count);
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
    this.field.samplePlanes(this.points, this.count);
    this.sampleMs = performance.now() - start;
    const p = this.positions;
    const v = this.velocities;
    const w = this.wind;
    const stride = this.points.stride;
    const y0 = stride;
    const z0 = 2 * stride;
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
      vx += (w[i]! - vx) * blend;
      vy += (w[y0 + i]! - vy) * blend - fall;
      vz += (w[z0 + i]! - vz) * blend;
      v[3 * i] = vx;
      v[3 * i + 1] = vy;
      v[3 * i + 2] = vz;
      const x = (p[i] = p[i]! + vx * dt);
      const y = (p[y0 + i] = p[y0 + i]! + vy * dt);
      const z = (p[z0 + i] = p[z0 + i]! + vz * dt);
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
      positions: this.positionRows(),
      velocities: this.velocities.slice(),
      ages: this.ages.slice(),
      random: this.random.saveState(),
      respawned: this.respawned,
    };
  }

  loadState(state: unknown): void {
    const s = state as WindTracerState;
    if (s.count !== this.count) return; // the tracer count changed since: the snapshot no longer fits
    const p = this.positions;
    const stride = this.points.stride;
    for (let i = 0; i < this.count; i++) for (let k = 0; k < 3; k++) p[k * stride + i] = s.positions[4 * i + k]!;
    this.velocities.set(s.velocities);
    this.ages.set(s.ages);
    this.random.loadState(s.random);
    this.respawned = s.respawned;
  }

  private positionRows(): Float32Array {
    const rows = new Float32Array(this.count * 4);
    const p = this.positions;
    const stride = this.points.stride;
    for (let i = 0; i < this.count; i++) for (let k = 0; k < 3; k++) rows[4 * i + k] = p[k * stride + i]!;
    return rows;
  }

  private spawn(i: number, world: World, initial: boolean): void {
    const r = this.random;
    const terrain = world.terrain;
    const half = terrain.params.worldSize / 2;
    const x = r.range(-half, half);
    const z = r.range(-half, half);
    const ground = sampleTerrainHeight(terrain, x, z);
    const p = this.positions;
    const stride = this.points.stride;
    p[i] = x;
    p[stride + i] = ground + r.range(0.5, 12);
    p[2 * stride + i] = z;
    this.velocities[3 * i] = this.velocities[3 * i + 1] = this.velocities[3 * i + 2] = 0;
    // Staggered ages on the first spawn, so tracers do not all expire in the same frame.
    this.ages[i] = initial ? r.range(0, this.lifetime) : 0;
    if (!initial) this.respawned++;
  }
}
