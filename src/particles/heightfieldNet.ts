import type { TerrainMesh } from '../terrain/heightfield';
import { PLANE_CONTACT, type ParticleBuffers } from './particleBuffers';

/** The triangle under a point of the grid: its cell, which half, its height there and its rises per grid step in x and z. */
interface GroundCell {
  col: number;
  row: number;
  upper: boolean;
  ground: number;
  slopeX: number;
  slopeZ: number;
}

/**
 * The exact backstop under the planes, for a terrain that is a heightfield: each live particle's x, z
 * is looked up in the grid (two triangles per cell, split as the mesh splits them) and a particle
 * whose centre ended below its triangle is put back on it — lifted straight up to `radius` in front of
 * it, its inward normal speed removed, and the triangle's plane made its own (a
 * contact plane, so the ray and cache phases go on refining it). The planes stay the collision model;
 * this only catches what one plane per particle lets through: a plane from another part of the
 * terrain extrapolated under the particle (a cache column wider than the terrain's cells on steep
 * ground), or the far face of a V the particle slid or flew into.
 *
 * The scan is a grid lookup per particle, read-only unless the particle is under the ground; it has a
 * WebAssembly twin over a copy of the heights in the particle kernel's memory (the same particles
 * found), and the few found are put back here for both. Triangles whose material the raycasts' filter
 * drops (e.g. water) catch nothing, as they give no planes. Mesh terrains (`source` set) have no exact
 * heightfield, and the system does not make a net for them.
 */
export class HeightfieldNet {
  private readonly heights: Float32Array;
  private readonly materials: Uint8Array;
  /** The grid: cells a side, half the world's size, cells per metre (the WebAssembly scan reads them too). */
  readonly cells: number;
  private readonly side: number;
  readonly half: number;
  readonly inverseSpacing: number;
  /** 1 for each material id (0–255) whose triangles catch particles. */
  private readonly kept = new Uint8Array(256).fill(1);
  /** groundAt's answer, reused (the scan calls it for every live particle). */
  private readonly cell: GroundCell = { col: 0, row: 0, upper: false, ground: 0, slopeX: 0, slopeZ: 0 };

  constructor(terrain: TerrainMesh) {
    const { cells, worldSize } = terrain.params;
    this.heights = terrain.heights;
    this.materials = terrain.materials;
    this.cells = cells;
    this.side = cells + 1;
    this.half = worldSize / 2;
    this.inverseSpacing = cells / worldSize;
  }

  /** Which material ids catch particles (the raycasts' filter applied to the material masks); all by default. */
  keepMaterials(kept: (material: number) => boolean): void {
    for (let m = 0; m < 256; m++) this.kept[m] = kept(m) ? 1 : 0;
  }

  /**
   * The ground under grid coordinates gx, gz (in [0, cells]) into this.cell: the triangle's height there
   * and which triangle of the cell it is. The WebAssembly scan (findUnder) mirrors this arithmetic, in
   * float64, operation for operation.
   */
  private groundAt(gx: number, gz: number): GroundCell {
    const h = this.heights;
    const cells = this.cells;
    const side = this.side;
    // gx, gz ∈ [0, cells]: truncation is the floor.
    const col = Math.min(gx | 0, cells - 1);
    const row = Math.min(gz | 0, cells - 1);
    const u = gx - col;
    const v = gz - row;
    const a = row * side + col;
    const ha = h[a]!,
      hb = h[a + 1]!,
      hc = h[a + side]!,
      hd = h[a + side + 1]!;
    const cell = this.cell;
    cell.col = col;
    cell.row = row;
    // Triangle (a, c, b) covers u + v ≤ 1, (b, c, d) the rest (as TerrainHeightSampler); ∂h/∂x, ∂h/∂z per grid step.
    cell.upper = u + v > 1;
    if (cell.upper) {
      cell.ground = hd + (1 - u) * (hc - hd) + (1 - v) * (hb - hd);
      cell.slopeX = hd - hc;
      cell.slopeZ = hd - hb;
    } else {
      cell.ground = ha + u * (hb - ha) + v * (hc - ha);
      cell.slopeX = hb - ha;
      cell.slopeZ = hc - ha;
    }
    return cell;
  }

  /** A world x or z as a grid coordinate (cells from the grid's edge; its floor is the cell in [0, cells]). */
  private toGrid(x: number): number {
    return (x + this.half) * this.inverseSpacing;
  }

  /**
   * Catches the live particles of slots [start, end) that are under the ground; returns how many. The
   * scan is the WebAssembly twin's (findUnder, src/platform/assembly/particles/findUnder.ts) to the
   * bit; each particle found is then caught by catchOne, as the twin's list is by catchListed.
   */
  catch(b: ParticleBuffers, start: number, end: number, radius: number): number {
    const positions = b.positions;
    const lifetimes = b.lifetimes;
    const cells = this.cells;
    let caught = 0;
    for (let i = start; i < end; i++) {
      if (lifetimes[i] === 0) continue;
      const i4 = 4 * i;
      const gx = this.toGrid(positions[i4]!);
      const gz = this.toGrid(positions[i4 + 2]!);
      if (!(gx >= 0 && gx <= cells && gz >= 0 && gz <= cells)) continue;
      if (positions[i4 + 1]! < this.groundAt(gx, gz).ground) caught += this.catchOne(b, i, radius);
    }
    return caught;
  }

  /** Catches the particles of list[from, to) (slots the scan found under the ground); returns how many. */
  catchListed(b: ParticleBuffers, list: Int32Array, from: number, to: number, radius: number): number {
    let caught = 0;
    for (let k = from; k < to; k++) caught += this.catchOne(b, list[k]!, radius);
    return caught;
  }

  /** Puts particle i, found under the ground, back on its triangle unless the triangle's material is not kept; 1 if it did. */
  private catchOne(b: ParticleBuffers, i: number, radius: number): number {
    const positions = b.positions;
    const i4 = 4 * i;
    const x = positions[i4]!;
    const z = positions[i4 + 2]!;
    const cell = this.groundAt(this.toGrid(x), this.toGrid(z));
    if (this.kept[this.materials[2 * (cell.row * this.cells + cell.col) + (cell.upper ? 1 : 0)]!] === 0) return 0;
    const inverseSpacing = this.inverseSpacing;
    this.putBack(b, i4, x, z, cell.ground, cell.slopeX * inverseSpacing, cell.slopeZ * inverseSpacing, radius);
    b.planeSources[i] = PLANE_CONTACT;
    b.touching[i] = 1;
    return 1;
  }

  /** The particle at x, z onto its triangle, of height `ground` there and slopes ∂h/∂x, ∂h/∂z. */
  private putBack(b: ParticleBuffers, i4: number, x: number, z: number, ground: number, slopeX: number, slopeZ: number, radius: number): void {
    const inverseLength = 1 / Math.sqrt(slopeX * slopeX + 1 + slopeZ * slopeZ);
    const nx = -slopeX * inverseLength,
      ny = inverseLength,
      nz = -slopeZ * inverseLength;
    // Straight up, to `radius` from the triangle's plane: the ground is a function of x, z, so the point
    // above stays over the same triangle and above the ground. (Along the normal, the shift in x, z on
    // steep ground can cross into a neighbour that rises higher: a V's other face.)
    b.positions[i4 + 1] = ground + radius / ny;
    const velocities = b.velocities;
    const vx = velocities[i4]!,
      vy = velocities[i4 + 1]!,
      vz = velocities[i4 + 2]!;
    const vn = vx * nx + vy * ny + vz * nz;
    if (vn < 0) {
      velocities[i4] = vx - vn * nx;
      velocities[i4 + 1] = vy - vn * ny;
      velocities[i4 + 2] = vz - vn * nz;
    }
    const planes = b.planes;
    planes[i4] = nx;
    planes[i4 + 1] = ny;
    planes[i4 + 2] = nz;
    planes[i4 + 3] = nx * x + ny * ground + nz * z;
  }
}
