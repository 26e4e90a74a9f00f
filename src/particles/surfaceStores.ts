import { SURFACE_CODE } from './cacheKey';
import { planeIndexOf, type PlaneCache } from './planeCache';

/** Columns at most this far (in cells) from the hit's column take the plane: bounds one hit's stores. */
const REACH = 4;

/** Below this |ny| a plane is too steep to give heights across a column: only the hit's column takes it. */
const STEEP_NY = 0.2;

/** How far (metres) one plane must be below the other to count as a crease rather than rounding. */
const CREASE = 1e-4;

/** Where SurfaceStores.store reads a hit: its point x, y, z and the plane n·p = d. */
export const HIT = { x: 0, y: 1, z: 2, nx: 3, ny: 4, nz: 5, d: 6 } as const;
export const HIT_LENGTH = 7;

/**
 * Puts raycast hits into a surface-keyed plane cache.
 *
 * A hit stores its triangle's plane as the surface of the cache column (a cell in x and z) it hit, and,
 * the first time that triangle is hit, of every column whose centre lies under it: one raycast describes
 * the whole triangle, not only the spot it hit. Each column gets the band (cell in y) its plane height
 * falls in and the band above, so a particle up to a cell height above the surface there is in one of
 * them. A steep triangle (|ny| < 0.2) only stores the hit's column: its height changes too fast across a
 * column to be any other column's surface.
 *
 * A column that straddles a fold of the surface holds one plane for two triangles, and a particle in it
 * sinks wherever that plane is below the other triangle:
 * - a triangle's footprint keeps, of the two planes, the one whose worst sinking over the column (the
 *   most it is below the other at the column's corners: the difference of two planes is linear) is
 *   smaller;
 * - the hit's column takes the new plane (the latest hit is where particles are arriving), except across
 *   a crease (the plane it held passes under the new triangle, so the surface there is the higher of the
 *   two): then it takes the plane that sinks less, raised until it is nowhere below the other over the
 *   column. Particles resting there float at most that much instead of sinking.
 *
 * Most hits land on triangles already stored: each triangle remembers the cache's insertion ordinal
 * just before its footprint was stored, and is skipped while nothing of that age or younger has been
 * evicted (the cache evicts oldest first), so the footprint's new entries are all still there. (A
 * footprint column that already held an older entry may be evicted before them; it comes back with the
 * next hit there or the next full store.)
 */
export class SurfaceStores {
  /**
   * Per triangle: 1 + the cache's insertedSinceClear before its footprint was stored, counted from
   * `base`; 0 = not stored. 32 bits (4 bytes a triangle, per effect) with a restart before they run out.
   */
  private stamps = new Int32Array(0);
  private base = 0;
  private indices: Uint32Array | null = null;
  private cache: PlaneCache | null = null;
  private generation = -1;

  /** `restartAfter`: insertions counted by one set of stamps before they start again (well inside 32 bits). */
  constructor(private readonly restartAfter = 2 ** 30) {}

  /**
   * A hit on `triangle` of the mesh: `hit` holds its point and the triangle's plane facing the ray, n·p =
   * d, at the HIT offsets (a typed array, as float arguments to a call the engine does not inline are
   * allocated; 1,000 hits a frame). Without `footprint`, only the hit's column takes the plane.
   */
  store(cache: PlaneCache, meshPositions: Float32Array, meshIndices: Uint32Array, triangle: number, hit: Float64Array, footprint = true): void {
    if (this.indices !== meshIndices || this.cache !== cache) {
      // Another mesh (triangle numbers mean other triangles) or another cache.
      this.indices = meshIndices;
      this.cache = cache;
      this.stamps = new Int32Array(meshIndices.length / 3);
      this.generation = cache.generation;
      this.base = 0;
    } else if (this.generation !== cache.generation || cache.insertedSinceClear - this.base >= this.restartAfter) {
      // The cache was emptied or replaced by a snapshot (nothing stored is known to be there), or the
      // stamps are about to overflow: start again from what the cache holds now.
      this.stamps.fill(0);
      this.generation = cache.generation;
      this.base = cache.insertedSinceClear;
    }
    // The column hit is the one place known exactly: it takes this plane at every hit.
    const hitX = cache.cellX(hit[HIT.x]!),
      hitY = cache.cellY(hit[HIT.y]!),
      hitZ = cache.cellX(hit[HIT.z]!);
    offerHit(cache, hitX, hitY, hitZ, hit);
    offerHit(cache, hitX, hitY + 1, hitZ, hit);
    const stamp = this.stamps[triangle]!;
    if (!footprint || (stamp > 0 && this.base + stamp - 1 >= cache.evictedSinceClear) || !(Math.abs(hit[HIT.ny]!) >= STEEP_NY)) return;
    const first = cache.insertedSinceClear - this.base;
    storeColumns(cache, meshPositions, meshIndices, triangle, hitX, hitZ, hit);
    this.stamps[triangle] = first + 1;
  }
}

/** Offers the plane to the columns whose centres the triangle covers (but the hit's own). */
function storeColumns(
  cache: PlaneCache,
  meshPositions: Float32Array,
  meshIndices: Uint32Array,
  triangle: number,
  hitX: number,
  hitZ: number,
  hit: Float64Array,
): void {
  const nx = hit[HIT.nx]!,
    ny = hit[HIT.ny]!,
    nz = hit[HIT.nz]!,
    d = hit[HIT.d]!;
  const a = 3 * meshIndices[3 * triangle]!;
  const b = 3 * meshIndices[3 * triangle + 1]!;
  const c = 3 * meshIndices[3 * triangle + 2]!;
  const ax = meshPositions[a]!,
    az = meshPositions[a + 2]!;
  const bx = meshPositions[b]!,
    bz = meshPositions[b + 2]!;
  const cx = meshPositions[c]!,
    cz = meshPositions[c + 2]!;
  const area = (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
  if (!(area !== 0)) return;
  const sign = area > 0 ? 1 : -1;
  const side = cache.cellSide;
  const inverseSide = 1 / side;
  const fromX = Math.max(hitX - REACH, Math.floor(Math.min(ax, bx, cx) * inverseSide));
  const toX = Math.min(hitX + REACH, Math.floor(Math.max(ax, bx, cx) * inverseSide));
  const fromZ = Math.max(hitZ - REACH, Math.floor(Math.min(az, bz, cz) * inverseSide));
  const toZ = Math.min(hitZ + REACH, Math.floor(Math.max(az, bz, cz) * inverseSide));
  const inverseNy = 1 / ny;
  for (let iz = fromZ; iz <= toZ; iz++) {
    const pz = (iz + 0.5) * side;
    for (let ix = fromX; ix <= toX; ix++) {
      if (ix === hitX && iz === hitZ) continue;
      const px = (ix + 0.5) * side;
      // Under the triangle: on the inner side of all three edges (a centre on an edge counts for both).
      const e0 = sign * ((bx - ax) * (pz - az) - (bz - az) * (px - ax));
      const e1 = sign * ((cx - bx) * (pz - bz) - (cz - bz) * (px - bx));
      const e2 = sign * ((ax - cx) * (pz - cz) - (az - cz) * (px - cx));
      if (e0 < 0 || e1 < 0 || e2 < 0) continue;
      const iy = cache.cellY((d - nx * px - nz * pz) * inverseNy);
      offerFootprint(cache, ix, iy, iz, hit);
      offerFootprint(cache, ix, iy + 1, iz, hit);
    }
  }
}

/**
 * How far each of two planes is below the other, at worst, over column (ix, iz): sinking.old for the
 * plane held at planes[p ..], sinking.offered for the hit's. Both −Infinity when either plane is steep.
 */
const sinking = new Float64Array(2);
const OLD = 0;
const OFFERED = 1;
function worstSinking(planes: Float32Array, p: number, side: number, ix: number, iz: number, hit: Float64Array): void {
  const nx = hit[HIT.nx]!,
    ny = hit[HIT.ny]!,
    nz = hit[HIT.nz]!,
    d = hit[HIT.d]!;
  const ox = planes[p]!,
    oy = planes[p + 1]!,
    oz = planes[p + 2]!,
    od = planes[p + 3]!;
  let oldBelow = -Infinity,
    offeredBelow = -Infinity;
  if (Math.abs(oy) >= STEEP_NY && Math.abs(ny) >= STEEP_NY) {
    for (let corner = 0; corner < 4; corner++) {
      const x = (ix + (corner & 1)) * side;
      const z = (iz + (corner >> 1)) * side;
      const difference = (d - nx * x - nz * z) / ny - (od - ox * x - oz * z) / oy;
      oldBelow = Math.max(oldBelow, difference);
      offeredBelow = Math.max(offeredBelow, -difference);
    }
  }
  sinking[OLD] = oldBelow;
  sinking[OFFERED] = offeredBelow;
}

/** The hit's plane into planes[p ..], with the offset `d`. */
function write(planes: Float32Array, p: number, hit: Float64Array, d: number): void {
  planes[p] = hit[HIT.nx]!;
  planes[p + 1] = hit[HIT.ny]!;
  planes[p + 2] = hit[HIT.nz]!;
  planes[p + 3] = d;
}

/** A footprint column keeps the plane that sinks particles less over it. */
function offerFootprint(cache: PlaneCache, ix: number, iy: number, iz: number, hit: Float64Array): void {
  const slot = cache.claimCell(ix, iy, iz, SURFACE_CODE);
  if (slot < 0) return;
  const planes = cache.planes;
  const p = planeIndexOf(slot);
  if (!cache.claimedNew) {
    worstSinking(planes, p, cache.cellSide, ix, iz, hit);
    if (!(sinking[OFFERED]! < sinking[OLD]!)) return;
  }
  write(planes, p, hit, hit[HIT.d]!);
}

/** The hit's column takes the plane, or across a crease the envelope of both (see SurfaceStores). */
function offerHit(cache: PlaneCache, ix: number, iy: number, iz: number, hit: Float64Array): void {
  const slot = cache.claimCell(ix, iy, iz, SURFACE_CODE);
  if (slot < 0) return;
  const planes = cache.planes;
  const p = planeIndexOf(slot);
  const oy = planes[p + 1]!;
  const nx = hit[HIT.nx]!,
    ny = hit[HIT.ny]!,
    nz = hit[HIT.nz]!,
    d = hit[HIT.d]!;
  let offset = d;
  if (!cache.claimedNew && Math.abs(oy) >= STEEP_NY && Math.abs(ny) >= STEEP_NY) {
    const hx = hit[HIT.x]!,
      hz = hit[HIT.z]!;
    const heldAtHit = (planes[p + 3]! - planes[p]! * hx - planes[p + 2]! * hz) / oy;
    if (heldAtHit < (d - nx * hx - nz * hz) / ny - CREASE) {
      worstSinking(planes, p, cache.cellSide, ix, iz, hit);
      if (sinking[OLD]! < sinking[OFFERED]!) {
        planes[p + 3] = planes[p + 3]! + oy * Math.max(0, sinking[OLD]!);
        return;
      }
      offset = d + ny * Math.max(0, sinking[OFFERED]!);
    }
  }
  write(planes, p, hit, offset);
}
