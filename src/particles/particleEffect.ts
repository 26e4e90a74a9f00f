import { cos, sinCos } from '../math/trig';
import type { Random } from '../math/random';
import { effectCapacity, type ParticleEffectParams } from './effectParams';
import { NO_PLANE_OFFSET, PLANE_CACHE, PLANE_NONE, cellStamp, type ParticleBuffers } from './particleBuffers';
import { SURFACE_CODE, cellCoordinate, directionCode } from './cacheKey';
import { PlaneCache, planeIndexOf } from './planeCache';
import { SurfaceStores } from './surfaceStores';

/** A spawn's random draws and the sin and cos of its azimuth (written here: nothing allocated per particle). */
const draws = new Float64Array(5);
const phiSinCos = new Float64Array(2);

/** What an effect carries from frame to frame besides its particles and cache. */
export interface EffectCursorState {
  spawnCarry: number;
  budgetCarry: number;
  cursor: number;
}

/**
 * An effect at run time: its parameters, its range of particle slots [start, start + capacity), its
 * plane cache, and the fractions of a spawn and of a raycast carried over to the next frame.
 */
export class ParticleEffect {
  params: ParticleEffectParams;
  readonly start: number;
  readonly capacity: number;
  cache: PlaneCache;
  /** How raycast hits go into a surface-keyed cache (remembers which triangles it holds). */
  readonly surfaceStores = new SurfaceStores();
  spawnCarry = 0;
  budgetCarry = 0;
  /** Next slot to spawn into, relative to start: slots are reused round-robin, oldest first. */
  cursor = 0;
  /** Alive after the last move. */
  alive = 0;

  constructor(params: ParticleEffectParams, start: number) {
    this.params = params;
    this.start = start;
    this.capacity = effectCapacity(params);
    this.cache = new PlaneCache(params.cacheSize, params.cellSide, params.cellHeight);
  }

  saveCursors(): EffectCursorState {
    return { spawnCarry: this.spawnCarry, budgetCarry: this.budgetCarry, cursor: this.cursor };
  }

  loadCursors(state: EffectCursorState): void {
    this.spawnCarry = state.spawnCarry;
    this.budgetCarry = state.budgetCarry;
    this.cursor = state.cursor;
  }

  /**
   * Spawns this frame's particles at the emitter, each looking its plane up in the cache (a miss
   * leaves the plane far below). Returns how many were spawned.
   */
  spawn(dt: number, buffers: ParticleBuffers, random: Random, gravity: number, surfaceKeys: boolean): number {
    const p = this.params;
    this.spawnCarry += p.rate * dt;
    const wanted = Math.floor(this.spawnCarry);
    this.spawnCarry -= wanted;
    const count = Math.min(wanted, this.capacity);
    if (count === 0) return 0;

    // An orthonormal frame (u, w, axis) around the emission axis, for sampling the cone.
    let ax = p.direction[0],
      ay = p.direction[1],
      az = p.direction[2];
    const axisLength = Math.sqrt(ax * ax + ay * ay + az * az);
    ax /= axisLength;
    ay /= axisLength;
    az /= axisLength;
    const helperX = Math.abs(ax) < 0.9 ? 1 : 0;
    const helperY = 1 - helperX;
    let ux = ay * 0 - az * helperY,
      uy = az * helperX - ax * 0,
      uz = ax * helperY - ay * helperX;
    const uLength = Math.sqrt(ux * ux + uy * uy + uz * uz);
    ux /= uLength;
    uy /= uLength;
    uz /= uLength;
    const wx = ay * uz - az * uy,
      wy = az * ux - ax * uz,
      wz = ax * uy - ay * ux;
    const cosSpread = cos((p.spread * Math.PI) / 180);

    const positions = buffers.positions;
    const velocities = buffers.velocities;
    const planes = buffers.planes;
    const colours = buffers.colours;
    const cache = this.cache;
    const cellStamps = buffers.cellStamps;
    const codes = buffers.codes;
    const inverseSide = 1 / p.cellSide;
    const inverseHeight = 1 / p.cellHeight;
    const halfDropPerSecond = 0.5 * gravity * p.lookahead;
    const [ex, ey, ez] = p.position;
    const [red, green, blue] = p.colour;
    for (let n = 0; n < count; n++) {
      const i = this.start + this.cursor;
      this.cursor = this.cursor + 1 === this.capacity ? 0 : this.cursor + 1;
      // A point in the emitter ball (rejection sampling, bounded so it always ends).
      let ox = 0,
        oy = 0,
        oz = 0;
      for (let attempt = 0; attempt < 8; attempt++) {
        random.fill(draws, 3);
        ox = 2 * draws[0]! - 1;
        oy = 2 * draws[1]! - 1;
        oz = 2 * draws[2]! - 1;
        if (ox * ox + oy * oy + oz * oz <= 1) break;
      }
      const x = ex + ox * p.emitterRadius;
      const y = ey + oy * p.emitterRadius;
      const z = ez + oz * p.emitterRadius;
      // A direction uniform over the spherical cap of half-angle `spread` around the axis.
      // The rest of the particle's draws, in the order they are used.
      random.fill(draws, 5);
      const cosTheta = 1 - draws[0]! * (1 - cosSpread);
      const sinTheta = Math.sqrt(Math.max(0, 1 - cosTheta * cosTheta));
      const phi = 2 * Math.PI * draws[1]!;
      sinCos(phi, phiSinCos);
      const cu = phiSinCos[1]! * sinTheta;
      const cw = phiSinCos[0]! * sinTheta;
      const speed = p.speed * (0.6 + 0.4 * draws[2]!);
      const vx = (ax * cosTheta + ux * cu + wx * cw) * speed;
      const vy = (ay * cosTheta + uy * cu + wy * cw) * speed;
      const vz = (az * cosTheta + uz * cu + wz * cw) * speed;
      const i4 = 4 * i;
      positions[i4] = x;
      positions[i4 + 1] = y;
      positions[i4 + 2] = z;
      velocities[i4] = vx;
      velocities[i4 + 1] = vy;
      velocities[i4 + 2] = vz;
      buffers.ages[i] = 0;
      buffers.lifetimes[i] = p.lifetime * (0.8 + 0.2 * draws[3]!);
      buffers.fellThrough[i] = 0;
      buffers.touching[i] = 0;
      const shade = 0.85 + 0.15 * draws[4]!;
      colours[i4] = red * shade;
      colours[i4 + 1] = green * shade;
      colours[i4 + 2] = blue * shade;
      colours[i4 + 3] = 255;
      // Trajectory keys use the direction of the coming arc (the raycast's chord), not the velocity.
      const ix = cellCoordinate(x, inverseSide),
        iy = cellCoordinate(y, inverseHeight),
        iz = cellCoordinate(z, inverseSide);
      const direction = surfaceKeys ? SURFACE_CODE : directionCode(vx, vy - halfDropPerSecond, vz);
      cellStamps[i] = cellStamp(ix, iy, iz);
      codes[i] = direction;
      const slot = cache.lookupCell(ix, iy, iz, direction);
      if (slot >= 0) {
        const at = planeIndexOf(slot);
        const cachePlanes = cache.planes;
        planes[i4] = cachePlanes[at]!;
        planes[i4 + 1] = cachePlanes[at + 1]!;
        planes[i4 + 2] = cachePlanes[at + 2]!;
        planes[i4 + 3] = cachePlanes[at + 3]!;
        buffers.planeSources[i] = PLANE_CACHE;
      } else {
        planes[i4] = 0;
        planes[i4 + 1] = 1;
        planes[i4 + 2] = 0;
        planes[i4 + 3] = NO_PLANE_OFFSET;
        buffers.planeSources[i] = PLANE_NONE;
      }
    }
    return count;
  }
}
