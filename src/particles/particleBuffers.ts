/**
 * Every particle of every effect, structure of arrays. An effect owns a contiguous range of slots.
 * A slot is alive while age < lifetime; a dead slot has lifetime 0 and alpha 0 (the renderer hides it).
 *
 *   positions   Float32 ×4  x, y, z, unused (float4, so the wind VM reads it as it is)
 *   velocities  Float32 ×4  x, y, z, unused
 *   planes      Float32 ×4  nx, ny, nz, d: the particle's collision plane n·p = d
 *   colours     Uint8   ×4  r, g, b, alpha (0 = dead)
 *   ages, lifetimes Float32: seconds
 *   planeSources Uint8: where the plane came from (PLANE_NONE, PLANE_RAY, PLANE_CACHE, PLANE_CONTACT, PLANE_FAR)
 *   fellThrough  Uint8: 1 once the particle was found below the true surface in this life
 *   touching     Uint8: 1 while the particle is in contact with its plane (landing = 0 → 1)
 *   wind        Float32 ×4: the field sampled at the positions (written only when wind is on)
 *   cellStamps  Int32: a cheap mix of the cache cell the particle was last in (to notice a change)
 *   codes       Uint8: the direction code (or SURFACE_CODE) it last asked the cache with
 */
export class ParticleBuffers {
  readonly capacity: number;
  readonly positions: Float32Array;
  readonly velocities: Float32Array;
  readonly planes: Float32Array;
  readonly colours: Uint8Array;
  readonly ages: Float32Array;
  readonly lifetimes: Float32Array;
  readonly planeSources: Uint8Array;
  readonly fellThrough: Uint8Array;
  readonly touching: Uint8Array;
  readonly wind: Float32Array;
  readonly cellStamps: Int32Array;
  readonly codes: Uint8Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.positions = new Float32Array(4 * capacity);
    this.velocities = new Float32Array(4 * capacity);
    this.planes = new Float32Array(4 * capacity);
    this.colours = new Uint8Array(4 * capacity);
    this.ages = new Float32Array(capacity);
    this.lifetimes = new Float32Array(capacity);
    this.planeSources = new Uint8Array(capacity);
    this.fellThrough = new Uint8Array(capacity);
    this.touching = new Uint8Array(capacity);
    this.wind = new Float32Array(4 * capacity);
    this.cellStamps = new Int32Array(capacity);
    this.codes = new Uint8Array(capacity);
  }

  /** Copies of every array, for snapshots. */
  snapshot(): Record<'positions' | 'velocities' | 'planes' | 'colours' | 'ages' | 'lifetimes' | 'planeSources' | 'fellThrough' | 'touching' | 'cellStamps' | 'codes', Float32Array | Uint8Array | Int32Array> {
    return {
      positions: this.positions.slice(),
      velocities: this.velocities.slice(),
      planes: this.planes.slice(),
      colours: this.colours.slice(),
      ages: this.ages.slice(),
      lifetimes: this.lifetimes.slice(),
      planeSources: this.planeSources.slice(),
      fellThrough: this.fellThrough.slice(),
      touching: this.touching.slice(),
      cellStamps: this.cellStamps.slice(),
      codes: this.codes.slice(),
    };
  }

  restore(snapshot: ReturnType<ParticleBuffers['snapshot']>): void {
    this.positions.set(snapshot.positions);
    this.velocities.set(snapshot.velocities);
    this.planes.set(snapshot.planes);
    this.colours.set(snapshot.colours);
    this.ages.set(snapshot.ages);
    this.lifetimes.set(snapshot.lifetimes);
    this.planeSources.set(snapshot.planeSources);
    this.fellThrough.set(snapshot.fellThrough);
    this.touching.set(snapshot.touching);
    this.cellStamps.set(snapshot.cellStamps);
    this.codes.set(snapshot.codes);
  }
}

/** The plane a particle has before anything was found: far below everything, so it never collides. */
/**
 * A stamp of a cache cell, only to notice that a particle moved to another one: three multiplies and
 * two xors instead of the cache's full hash (a collision merely skips one lookup).
 */
export function cellStamp(ix: number, iy: number, iz: number): number {
  return Math.imul(ix, 0x9e3779b1) ^ Math.imul(iy, 0x85ebca77) ^ Math.imul(iz, 0xc2b2ae3d);
}

export const NO_PLANE_OFFSET = -1e9;

export const PLANE_NONE = 0;
export const PLANE_RAY = 1;
export const PLANE_CACHE = 2;
/** The plane last touched, kept after a bounce or while sliding on: a guess until something better comes. */
export const PLANE_CONTACT = 3;
/** Found by a raycast beyond the look-ahead: roughly where the arc lands, a guess like the others. */
export const PLANE_FAR = 4;
