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
 * and the lists one step's move fills for the later phases (see MoveLists), a slot index each:
 *   live, askers, needy  Int32
 *
 * All of them are views on one block of memory: a fresh ArrayBuffer, or a region of a WebAssembly
 * module's memory so that the SIMD move kernel works on them in place (ParticleStorage).
 */
export class ParticleBuffers {
  readonly capacity: number;
  readonly positions: Float32Array;
  readonly velocities: Float32Array;
  readonly planes: Float32Array;
  readonly wind: Float32Array;
  readonly ages: Float32Array;
  readonly lifetimes: Float32Array;
  readonly cellStamps: Int32Array;
  readonly live: Int32Array;
  readonly askers: Int32Array;
  readonly needy: Int32Array;
  readonly colours: Uint8Array;
  readonly planeSources: Uint8Array;
  readonly fellThrough: Uint8Array;
  readonly touching: Uint8Array;
  readonly codes: Uint8Array;
  /** Where the block starts in its buffer, and where each array starts in the block (bytes). */
  readonly byteOffset: number;
  readonly layout: ParticleLayout;

  constructor(capacity: number, storage?: ParticleStorage) {
    this.capacity = capacity;
    const layout = particleLayout(capacity);
    const buffer = storage?.buffer ?? new ArrayBuffer(layout.bytes);
    const base = storage?.byteOffset ?? 0;
    if (buffer.byteLength < base + layout.bytes)
      throw new RangeError(`particle storage holds ${buffer.byteLength - base} bytes; ${layout.bytes} needed for ${capacity} slots`);
    this.byteOffset = base;
    this.layout = layout;
    const f32 = (at: number, per: number): Float32Array => new Float32Array(buffer, base + at, per * capacity);
    const i32 = (at: number): Int32Array => new Int32Array(buffer, base + at, capacity);
    const u8 = (at: number, per: number): Uint8Array => new Uint8Array(buffer, base + at, per * capacity);
    this.positions = f32(layout.positions, 4);
    this.velocities = f32(layout.velocities, 4);
    this.planes = f32(layout.planes, 4);
    this.wind = f32(layout.wind, 4);
    this.ages = f32(layout.ages, 1);
    this.lifetimes = f32(layout.lifetimes, 1);
    this.cellStamps = i32(layout.cellStamps);
    this.live = i32(layout.live);
    this.askers = i32(layout.askers);
    this.needy = i32(layout.needy);
    this.colours = u8(layout.colours, 4);
    this.planeSources = u8(layout.planeSources, 1);
    this.fellThrough = u8(layout.fellThrough, 1);
    this.touching = u8(layout.touching, 1);
    this.codes = u8(layout.codes, 1);
  }

  /** Copies every particle (not the step's lists) from buffers of the same capacity. */
  copyFrom(other: ParticleBuffers): void {
    this.restore(other);
  }

  /** Copies of every array, for snapshots. */
  snapshot(): Record<
    'positions' | 'velocities' | 'planes' | 'colours' | 'ages' | 'lifetimes' | 'planeSources' | 'fellThrough' | 'touching' | 'cellStamps' | 'codes',
    Float32Array | Uint8Array | Int32Array
  > {
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

  /** Puts back a snapshot (or copies another set of buffers of the same capacity). */
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

/**
 * A stamp of a cache cell, only to notice that a particle moved to another one: three multiplies and
 * two xors instead of the cache's full hash (a collision merely skips one lookup).
 */
export function cellStamp(ix: number, iy: number, iz: number): number {
  return Math.imul(ix, 0x9e3779b1) ^ Math.imul(iy, 0x85ebca77) ^ Math.imul(iz, 0xc2b2ae3d);
}

/** The plane a particle has before anything was found: far below everything, so it never collides. */
export const NO_PLANE_OFFSET = -1e9;

export const PLANE_NONE = 0;
export const PLANE_RAY = 1;
export const PLANE_CACHE = 2;
/** The plane last touched, kept after a bounce or while sliding on: a guess until something better comes. */
export const PLANE_CONTACT = 3;
/** Found by a raycast beyond the look-ahead: roughly where the arc lands, a guess like the others. */
export const PLANE_FAR = 4;

/** A block of memory for ParticleBuffers: `buffer` from `byteOffset` on (16-byte aligned). */
export interface ParticleStorage {
  buffer: ArrayBufferLike;
  byteOffset: number;
}

/** Byte offsets of each array inside a ParticleBuffers block, and the block's size. */
export interface ParticleLayout {
  positions: number;
  velocities: number;
  planes: number;
  wind: number;
  ages: number;
  lifetimes: number;
  cellStamps: number;
  live: number;
  askers: number;
  needy: number;
  colours: number;
  planeSources: number;
  fellThrough: number;
  touching: number;
  codes: number;
  bytes: number;
}

/**
 * Where each array of `capacity` slots goes: 16-byte aligned, widest first, and 64 spare bytes at the
 * end because the SIMD move reads particles four at a time (the last quad may read up to three absent ones).
 */
export function particleLayout(capacity: number): ParticleLayout {
  let at = 0;
  const take = (bytesPerSlot: number): number => {
    const start = at;
    at += Math.ceil((bytesPerSlot * capacity) / 16) * 16;
    return start;
  };
  const layout = {
    positions: take(16),
    velocities: take(16),
    planes: take(16),
    wind: take(16),
    ages: take(4),
    lifetimes: take(4),
    cellStamps: take(4),
    live: take(4),
    askers: take(4),
    needy: take(4),
    colours: take(4),
    planeSources: take(1),
    fellThrough: take(1),
    touching: take(1),
    codes: take(1),
    bytes: 0,
  };
  layout.bytes = at + 64;
  return layout;
}
