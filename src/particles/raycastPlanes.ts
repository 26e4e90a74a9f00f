import type { BVH } from '../bvh/buildBVH';
import type { Random } from '../math/random';
import { createQueryCounters, resetQueryCounters, type QueryCounters } from '../query/counters';
import { castRays } from '../query/rays/castRays';
import type { RayBatch, RayHits } from '../query/rays/rayTypes';
import { PLANE_FAR, PLANE_NONE, PLANE_RAY, type ParticleBuffers } from './particleBuffers';
import type { ParticleEffect } from './particleEffect';
import { ADOPT_RADIUS, ADOPT_REACH, adoptPlane } from './adoptPlane';
import { directionCode, type CacheKeying } from './cacheKey';
import { planeFromTriangle } from './planeFromTriangle';
import { HIT, HIT_LENGTH } from './surfaceStores';

/**
 * How far behind a particle its ray starts: two frames of its motion plus its radius, so a particle
 * that slipped into the surface during the last frame still finds it in front of the ray.
 */
export function lookBehind(radius: number, speed: number, dt: number): number {
  return 2 * radius + 2 * speed * dt + 0.01;
}

/**
 * Reorders list[from, to) so the particles with no plane (PLANE_NONE) come first; returns where they
 * end. Stable enough for the picks (which shuffle) and deterministic: a two-finger swap.
 */
export function partitionPlaneless(list: Int32Array, from: number, to: number, sources: Uint8Array): number {
  let front = from;
  for (let k = from; k < to; k++) {
    const i = list[k]!;
    if (sources[i] !== PLANE_NONE) continue;
    list[k] = list[front]!;
    list[front] = i;
    front++;
  }
  return front;
}

/** How many look-ahead chords a ray reaches (the first one precise, the rest a rough guess). */
const FAR_REACH = 4;

/** How budget rays choose their particles. */
export const RAY_PICKS = ['needy', 'uniform'] as const;
/**
 * 'uniform': any live particle of the effect, at random. 'needy': at random among the particles whose
 * plane is only a guess and that are about to meet it within a few frames, then among those planeless
 * and falling, then among those meeting it within the look-ahead or sliding, then uniform picks for
 * what is left. (Planeless particles go before the look-ahead's: on terrain finer than the cache's
 * columns the cache misses most landings, and a spark that lands with no plane falls through.)
 */
export type RayPick = (typeof RAY_PICKS)[number];

/**
 * The raycast phase: chooses this frame's particles, casts the chord of each one's next `lookahead`
 * seconds in one castRays batch for all effects, and gives each plane found to its particle and to its
 * effect's cache (keyed as `keying` says).
 */
export class PlaneRaycaster {
  rays: RayBatch = { count: 0, origins: new Float32Array(0), directions: new Float32Array(0), tMax: new Float32Array(0) };
  hits: RayHits = { t: new Float32Array(0), triangle: new Int32Array(0) };
  /** The particle of each ray; effect e's rays are [end[e−1], end[e]). */
  particle = new Int32Array(0);
  private end = new Int32Array(0);
  private granted = new Int32Array(0);
  hitCount = 0;
  /** The last cast's work. */
  counters: QueryCounters = createQueryCounters();
  private readonly plane = new Float32Array(4);
  /** The radius and reach for adoptPlane. */
  private readonly adoptLengths = new Float64Array(2);
  /** A hit and its plane for SurfaceStores.store. */
  private readonly hit = new Float64Array(HIT_LENGTH);

  /** Rays for this frame: every live particle (reference), else each effect's budget (its carry grows by `budget`). */
  pick(
    effects: readonly ParticleEffect[],
    reference: boolean,
    pick: RayPick,
    live: Int32Array,
    needy: Int32Array,
    urgentEnd: Int32Array,
    laterStart: Int32Array,
    sources: Uint8Array,
    random: Random,
  ): number {
    if (this.end.length < effects.length) {
      this.end = new Int32Array(effects.length);
      this.granted = new Int32Array(effects.length);
    }
    const granted = this.granted;
    let wanted = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      let n = effect.alive;
      if (!reference) {
        effect.budgetCarry += effect.params.budget;
        const whole = Math.floor(effect.budgetCarry);
        effect.budgetCarry -= whole;
        // Never more rays than live particles; the carry keeps only the fraction.
        n = Math.min(whole, effect.alive);
      }
      granted[e] = n;
      wanted += n;
    }
    this.ensure(wanted);
    const particle = this.particle;
    let count = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      const start = effect.start;
      const end = start + effect.capacity;
      const target = count + granted[e]!;
      if (reference) {
        for (let k = start; k < start + effect.alive; k++) particle[count++] = live[k]!;
      } else {
        if (pick === 'needy') {
          count = this.pickFrom(needy, start, urgentEnd[e]!, target, count, random);
          if (count < target) {
            // Of the others, the planeless (falling with nothing to stop them) before those sliding
            // or meeting a guessed plane within the look-ahead.
            const planelessEnd = partitionPlaneless(needy, laterStart[e]!, end, sources);
            count = this.pickFrom(needy, laterStart[e]!, planelessEnd, target, count, random);
            count = this.pickFrom(needy, planelessEnd, end, target, count, random);
          }
        }
        // Uniform picks among the live for the rest (granted ≤ alive, so this always fills up).
        while (count < target) particle[count++] = live[start + random.int(effect.alive)]!;
      }
      this.end[e] = count;
    }
    this.rays.count = count;
    return count;
  }

  /** Distinct random picks from list[from, to) until `target` rays: a partial Fisher–Yates shuffle in place. */
  private pickFrom(list: Int32Array, from: number, to: number, target: number, count: number, random: Random): number {
    const available = to - from;
    const take = Math.min(available, target - count);
    const particle = this.particle;
    for (let k = 0; k < take; k++) {
      const j = from + k + random.int(available - k);
      const chosen = list[j]!;
      list[j] = list[from + k]!;
      list[from + k] = chosen;
      particle[count++] = chosen;
    }
    return count;
  }

  /** The chord of each picked particle's arc, started a little behind it so a grazing particle still finds the surface. */
  build(effects: readonly ParticleEffect[], b: ParticleBuffers, gravity: number, dt: number): void {
    const positions = b.positions;
    const velocities = b.velocities;
    const { origins, directions, tMax } = this.rays;
    const particle = this.particle;
    let r = 0;
    for (let e = 0; e < effects.length; e++) {
      const p = effects[e]!.params;
      const seconds = p.lookahead;
      const drop = 0.5 * gravity * seconds * seconds;
      const end = this.end[e]!;
      for (; r < end; r++) {
        const i4 = 4 * particle[r]!;
        const cx = velocities[i4]! * seconds;
        const cy = velocities[i4 + 1]! * seconds - drop;
        const cz = velocities[i4 + 2]! * seconds;
        const length = Math.sqrt(cx * cx + cy * cy + cz * cz);
        const back = lookBehind(p.radius, Math.sqrt(velocities[i4]! ** 2 + velocities[i4 + 1]! ** 2 + velocities[i4 + 2]! ** 2), dt);
        const backT = length > 0 ? back / length : 0;
        const r3 = 3 * r;
        origins[r3] = positions[i4]! - cx * backT;
        origins[r3 + 1] = positions[i4 + 1]! - cy * backT;
        origins[r3 + 2] = positions[i4 + 2]! - cz * backT;
        directions[r3] = cx;
        directions[r3 + 1] = cy;
        directions[r3 + 2] = cz;
        // Past the chord the ray goes on along it, up to FAR_REACH chords: a hit out there is only a
        // rough guess of where the arc lands, but better than no plane. A zero chord (no gravity, at
        // rest) is an invalid ray: castRays flags it and it is skipped.
        tMax[r] = FAR_REACH + backT;
      }
    }
  }

  /** Casts the picked rays past the triangles `filter` rejects (bvh.masks); `simd` takes the WebAssembly kernel when it is loaded (same hits). */
  cast(bvh: BVH, simd: boolean, filter: number): void {
    if (this.rays.count === 0) {
      resetQueryCounters(this.counters);
      return;
    }
    this.counters = castRays(bvh, this.rays, this.hits, { kernel: simd ? 'wasm-simd' : 'typescript', filter });
  }

  /**
   * Planes from the hits into their particles and, with `cacheResults` (not in the reference mode, where
   * every particle casts its own ray each frame), their effects' caches; returns the hits used.
   */
  apply(
    effects: readonly ParticleEffect[],
    b: ParticleBuffers,
    bvh: BVH,
    gravity: number,
    keying: CacheKeying,
    footprints: boolean,
    cacheResults: boolean,
  ): number {
    const positions = b.positions;
    const velocities = b.velocities;
    const sources = b.planeSources;
    const { origins, directions, tMax } = this.rays;
    const plane = this.plane;
    const hitTriangle = this.hits.triangle;
    const hitT = this.hits.t;
    const particle = this.particle;
    const hit = this.hit;
    const lengths = this.adoptLengths;
    const meshPositions = bvh.positions;
    const meshIndices = bvh.indices;
    let hitCount = 0;
    let r = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      const cache = effect.cache;
      const halfDrop = 0.5 * gravity * effect.params.lookahead;
      const radius = effect.params.radius;
      lengths[ADOPT_RADIUS] = radius;
      const end = this.end[e]!;
      for (; r < end; r++) {
        const triangle = hitTriangle[r]!;
        if (triangle < 0) continue;
        const i = particle[r]!;
        const i4 = 4 * i;
        const r3 = 3 * r;
        if (!planeFromTriangle(meshPositions, meshIndices, triangle, directions, r3, plane, 0)) continue;
        const dx = velocities[i4]!,
          dy = velocities[i4 + 1]! - halfDrop,
          dz = velocities[i4 + 2]!;
        // The ray starts `back` behind the particle, so the surface can be at most that far behind it.
        const length = Math.sqrt(directions[r3]! ** 2 + directions[r3 + 1]! ** 2 + directions[r3 + 2]! ** 2);
        const backT = tMax[r]! - FAR_REACH;
        lengths[ADOPT_REACH] = backT * length + radius;
        if (!adoptPlane(b, i, plane, 0, lengths)) continue;
        hitCount++;
        sources[i] = hitT[r]! <= 1 + backT ? PLANE_RAY : PLANE_FAR;
        const nx = plane[0]!,
          ny = plane[1]!,
          nz = plane[2]!,
          d = plane[3]!;
        if (!cacheResults) continue;
        if (keying === 'trajectory') {
          cache.store(positions[i4]!, positions[i4 + 1]!, positions[i4 + 2]!, directionCode(dx, dy, dz), nx, ny, nz, d);
        } else {
          const t = hitT[r]!;
          hit[HIT.x] = origins[r3]! + t * directions[r3]!;
          hit[HIT.y] = origins[r3 + 1]! + t * directions[r3 + 1]!;
          hit[HIT.z] = origins[r3 + 2]! + t * directions[r3 + 2]!;
          hit[HIT.nx] = nx;
          hit[HIT.ny] = ny;
          hit[HIT.nz] = nz;
          hit[HIT.d] = d;
          effect.surfaceStores.store(cache, meshPositions, meshIndices, triangle, hit, footprints);
        }
      }
    }
    this.hitCount = hitCount;
    return hitCount;
  }

  private ensure(count: number): void {
    if (this.particle.length >= count) return;
    const size = Math.max(count, 2 * this.particle.length, 64);
    this.rays = { count: 0, origins: new Float32Array(3 * size), directions: new Float32Array(3 * size), tMax: new Float32Array(size) };
    this.hits = { t: new Float32Array(size), triangle: new Int32Array(size) };
    this.particle = new Int32Array(size);
  }
}
