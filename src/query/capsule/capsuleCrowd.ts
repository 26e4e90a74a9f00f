import { cos, sin } from '../../math/trig';
import type { BVH } from '../../bvh/buildBVH';
import { MASK_ALL, checkFilter } from '../../bvh/collisionMasks';
import { InvalidParameterError } from '../../errors';
import { Random } from '../../math/random';
import { createCapsuleBatch, createCapsuleHits, type CapsuleBatch, type CapsuleHits, type CapsuleSweeper, type SweepCounters } from './capsuleTypes';
import { sweepCapsules } from './sweepCapsules';

export interface CrowdSettings {
  radius: number;
  halfHeight: number;
  /** Launch speed range, world units per second. */
  speed: number;
  gravity: number;
  /** Share of the normal speed kept on a bounce. */
  restitution: number;
  /** Share of the tangential speed kept on a bounce. */
  friction: number;
  /** Seconds a capsule may crawl (below restSpeed) before it is thrown again. */
  restTime: number;
  restSpeed: number;
  skin: number;
  /** Collision filter of the batch's sweeps (bvh.masks): triangles whose material mask misses it are
   *  not there for the crowd. */
  filter: number;
}

export const DEFAULT_CROWD_SETTINGS: Readonly<CrowdSettings> = Object.freeze({
  radius: 0.6,
  halfHeight: 1,
  speed: 25,
  gravity: 20,
  restitution: 0.45,
  friction: 0.8,
  restTime: 1.5,
  restSpeed: 1.5,
  skin: 0.01,
  filter: MASK_ALL,
});

/** A crowd's state at one step (CapsuleCrowd.saveState). */
export interface CrowdState {
  count: number;
  centres: Float64Array;
  axes: Float32Array;
  velocities: Float64Array;
  sinceHit: Float32Array;
  slowFor: Float32Array;
  random: number;
  respawns: number;
}

/**
 * Many capsules thrown over the terrain, all swept in one sweepCapsules batch per step: each moves by
 * its velocity (gravity included), stops `skin` short of its first contact and bounces off it; one that
 * started in contact steps out along the separating normal. Orientations are fixed per capsule.
 * Capsules that come to rest, or leave the terrain, are thrown again from a random place above it.
 */
export class CapsuleCrowd {
  readonly settings: CrowdSettings;
  count = 0;
  /** Centre xyz and unit axis xyz per capsule. */
  centres = new Float64Array(0);
  axes = new Float32Array(0);
  velocities = new Float64Array(0);
  /** Seconds since the last bounce (for colouring), and seconds spent slow. */
  sinceHit = new Float32Array(0);
  private slowFor = new Float32Array(0);
  private batch: CapsuleBatch = createCapsuleBatch(0);
  private hits: CapsuleHits = createCapsuleHits(0);
  private readonly random: Random;
  /** Work and time of the last step's batch. */
  lastCounters: SweepCounters | null = null;
  lastSweepMs = 0;
  respawns = 0;
  /** The sweep each step's batch goes through (swappable between steps: same contacts either way). */
  sweeper: CapsuleSweeper = sweepCapsules;
  private readonly sweepOptions: { filter: number };

  constructor(
    private readonly heightAt: (x: number, z: number) => number,
    private readonly halfSize: number,
    seed: number,
    settings: Partial<CrowdSettings> = {},
  ) {
    this.settings = { ...DEFAULT_CROWD_SETTINGS, ...settings };
    for (const [name, value] of Object.entries(this.settings)) {
      if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) throw new InvalidParameterError(name, 'a finite number ≥ 0', value);
    }
    checkFilter(this.settings.filter, 'filter');
    this.sweepOptions = { filter: this.settings.filter };
    this.random = new Random(seed);
  }

  /** The collision filter of the next steps (checked: a bad one throws and changes nothing). */
  get filter(): number {
    return this.sweepOptions.filter;
  }
  set filter(filter: number) {
    this.sweepOptions.filter = checkFilter(filter, 'filter');
  }

  /** Sets the number of capsules (new ones are thrown in; existing ones keep their state). */
  resize(count: number): void {
    if (!(Number.isInteger(count) && count >= 0 && count <= 100_000))
      throw new InvalidParameterError('count', 'a whole number from 0 to 100000', count);
    const old = this.count;
    const grow = <T extends Float64Array | Float32Array>(array: T, make: (n: number) => T, stride: number): T => {
      const next = make(stride * count);
      next.set(array.subarray(0, stride * Math.min(old, count)));
      return next;
    };
    this.centres = grow(this.centres, (n) => new Float64Array(n), 3);
    this.axes = grow(this.axes, (n) => new Float32Array(n), 3);
    this.velocities = grow(this.velocities, (n) => new Float64Array(n), 3);
    this.sinceHit = grow(this.sinceHit, (n) => new Float32Array(n), 1);
    this.slowFor = grow(this.slowFor, (n) => new Float32Array(n), 1);
    this.batch = createCapsuleBatch(count);
    this.hits = createCapsuleHits(count);
    this.count = count;
    for (let i = old; i < count; i++) this.throwIn(i);
  }

  /** A deep copy of everything the next steps depend on (for stepping back and restarting). */
  saveState(): CrowdState {
    return {
      count: this.count,
      centres: this.centres.slice(),
      axes: this.axes.slice(),
      velocities: this.velocities.slice(),
      sinceHit: this.sinceHit.slice(),
      slowFor: this.slowFor.slice(),
      random: this.random.saveState(),
      respawns: this.respawns,
    };
  }

  /** Puts back a state saveState returned; one of another size is ignored (the crowd was resized since). */
  loadState(state: CrowdState): void {
    if (state.count !== this.count) return;
    this.centres.set(state.centres);
    this.axes.set(state.axes);
    this.velocities.set(state.velocities);
    this.sinceHit.set(state.sinceHit);
    this.slowFor.set(state.slowFor);
    this.random.loadState(state.random);
    this.respawns = state.respawns;
  }

  /** A random place above the terrain, a random axis, a random launch velocity. */
  private throwIn(i: number): void {
    const s = this.settings;
    const r = this.random;
    const reach = s.halfHeight + s.radius;
    const x = r.range(-this.halfSize * 0.9, this.halfSize * 0.9);
    const z = r.range(-this.halfSize * 0.9, this.halfSize * 0.9);
    const i3 = 3 * i;
    this.centres[i3] = x;
    this.centres[i3 + 1] = this.heightAt(x, z) + reach + r.range(2, 30);
    this.centres[i3 + 2] = z;
    const y = r.range(-1, 1),
      angle = r.range(0, 2 * Math.PI),
      ring = Math.sqrt(1 - y * y);
    this.axes[i3] = ring * cos(angle);
    this.axes[i3 + 1] = y;
    this.axes[i3 + 2] = ring * sin(angle);
    const heading = r.range(0, 2 * Math.PI),
      speed = r.range(0.3, 1) * s.speed;
    this.velocities[i3] = cos(heading) * speed;
    this.velocities[i3 + 1] = r.range(-0.5, 0.5) * speed;
    this.velocities[i3 + 2] = sin(heading) * speed;
    this.sinceHit[i] = 10;
    this.slowFor[i] = 0;
    this.respawns++;
  }

  step(bvh: BVH, dt: number): void {
    if (!(dt > 0) || this.count === 0) return;
    dt = Math.min(dt, 0.05);
    const s = this.settings;
    const { centres, axes, velocities, batch, hits } = this;
    const n = this.count;
    for (let i = 0; i < n; i++) {
      const i3 = 3 * i;
      velocities[i3 + 1]! -= s.gravity * dt;
      for (let k = 0; k < 3; k++) {
        const c = centres[i3 + k]!,
          a = axes[i3 + k]! * s.halfHeight;
        batch.start[i3 + k] = c - a;
        batch.end[i3 + k] = c + a;
        batch.motion[i3 + k] = velocities[i3 + k]! * dt;
      }
      batch.radius[i] = s.radius;
    }
    const started = performance.now();
    this.lastCounters = this.sweeper(bvh, batch, hits, this.sweepOptions);
    this.lastSweepMs = performance.now() - started;
    for (let i = 0; i < n; i++) {
      const i3 = 3 * i;
      this.sinceHit[i]! += dt;
      if (hits.triangle[i]! < 0) {
        for (let k = 0; k < 3; k++) centres[i3 + k]! += velocities[i3 + k]! * dt;
      } else {
        const toi = hits.toi[i]!;
        const nx = hits.normal[i3]!,
          ny = hits.normal[i3 + 1]!,
          nz = hits.normal[i3 + 2]!;
        if (toi === 0) {
          // Started in contact: out along the separating normal.
          centres[i3]! += nx * s.skin;
          centres[i3 + 1]! += ny * s.skin;
          centres[i3 + 2]! += nz * s.skin;
        } else {
          const length = Math.hypot(batch.motion[i3]!, batch.motion[i3 + 1]!, batch.motion[i3 + 2]!);
          const t = Math.max(0, toi - s.skin / length);
          for (let k = 0; k < 3; k++) centres[i3 + k]! += batch.motion[i3 + k]! * t;
        }
        const vn = velocities[i3]! * nx + velocities[i3 + 1]! * ny + velocities[i3 + 2]! * nz;
        if (vn < 0) {
          const tx = velocities[i3]! - vn * nx,
            ty = velocities[i3 + 1]! - vn * ny,
            tz = velocities[i3 + 2]! - vn * nz;
          velocities[i3] = tx * s.friction - s.restitution * vn * nx;
          velocities[i3 + 1] = ty * s.friction - s.restitution * vn * ny;
          velocities[i3 + 2] = tz * s.friction - s.restitution * vn * nz;
        }
        this.sinceHit[i] = 0;
      }
      const speed = Math.hypot(velocities[i3]!, velocities[i3 + 1]!, velocities[i3 + 2]!);
      this.slowFor[i] = speed < s.restSpeed ? this.slowFor[i]! + dt : 0;
      const outside = Math.abs(centres[i3]!) > this.halfSize || Math.abs(centres[i3 + 2]!) > this.halfSize || centres[i3 + 1]! < -1e4;
      if (this.slowFor[i]! > s.restTime || outside) this.throwIn(i);
    }
  }
}
