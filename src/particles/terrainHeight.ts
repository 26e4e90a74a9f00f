import { bit } from './bit';
import type { TerrainMesh } from '../terrain/heightfield';

/**
 * The terrain's exact surface height, for checking 100k particles a frame: the same formula as
 * sampleTerrainHeight with the mesh's fields hoisted once. Outside the grid it returns NaN (there is
 * no surface there to fall through).
 */
export class TerrainHeightSampler {
  private readonly heights: Float32Array;
  private readonly cells: number;
  private readonly side: number;
  private readonly half: number;
  private readonly inverseSpacing: number;

  constructor(terrain: TerrainMesh) {
    const { cells, worldSize } = terrain.params;
    this.heights = terrain.heights;
    this.cells = cells;
    this.side = cells + 1;
    this.half = worldSize / 2;
    this.inverseSpacing = cells / worldSize;
  }

  heightAt(x: number, z: number): number {
    const cells = this.cells;
    const gx = (x + this.half) * this.inverseSpacing;
    const gz = (z + this.half) * this.inverseSpacing;
    if (!(gx >= 0 && gx <= cells && gz >= 0 && gz <= cells)) return NaN;
    const col = Math.min(Math.floor(gx), cells - 1);
    const row = Math.min(Math.floor(gz), cells - 1);
    const u = gx - col;
    const v = gz - row;
    const h = this.heights;
    const side = this.side;
    const i = row * side + col;
    const ha = h[i]!;
    const hb = h[i + 1]!;
    const hc = h[i + side]!;
    const hd = h[i + side + 1]!;
    // Triangle (a, c, b) covers u + v ≤ 1, (b, c, d) the rest; both are evaluated and one is kept
    // arithmetically, since which one applies is a coin toss per particle.
    const upper = bit(u + v > 1);
    const lowerHeight = ha + u * (hb - ha) + v * (hc - ha);
    const upperHeight = hd + (1 - u) * (hc - hd) + (1 - v) * (hb - hd);
    return lowerHeight + upper * (upperHeight - lowerHeight);
  }
}
