import { InvalidParameterError } from '../errors';
import type { TerrainMesh } from './heightfield';
import { writeHeightfieldNormals } from './normals';
import type { TerrainParams } from './params';

/**
 * Edits that deform a generated terrain in place: a blast crater and the sculpt brush's raise, lower and
 * smooth. Only + − × ÷ and √ shape them (no Math.exp or Math.sin, whose last bits differ between engines),
 * so the page and the headless runner deform the same terrain to the same bits.
 */
export const TERRAIN_EDIT_KINDS = ['crater', 'raise', 'lower', 'smooth'] as const;
export type TerrainEditKind = (typeof TERRAIN_EDIT_KINDS)[number];

export interface TerrainEdit {
  /** Applied before step `frame` runs (and at once when made on the frame on screen). */
  frame: number;
  kind: TerrainEditKind;
  /** World x and z of the centre. */
  at: readonly [number, number];
  /** World units; the crater's rim reaches CRATER_RIM_REACH × radius. */
  radius: number;
  /**
   * crater: depth at the centre; raise, lower: height added or removed at the centre (world units);
   * smooth: how far each vertex moves towards its neighbours' mean at the centre, (0, 1].
   */
  amount: number;
}

/** How far past its radius a crater's thrown-up rim reaches. */
export const CRATER_RIM_REACH = 1.35;
/** The rim's height as a share of the crater's depth. */
const CRATER_RIM_HEIGHT = 0.2;
/** Largest height change one edit may make, in multiples of the world size (a guard against typos, not physics). */
const MAX_AMOUNT_PER_WORLD = 4;

/** What an applied edit changed, and what undoing it restores. */
export interface AppliedTerrainEdit {
  readonly edit: TerrainEdit;
  /** The vertex rectangle whose heights changed, inclusive. */
  readonly col0: number;
  readonly row0: number;
  readonly col1: number;
  readonly row1: number;
  /** The rectangle's heights before the edit, row-major. */
  readonly before: Float32Array;
  readonly minHeightBefore: number;
  readonly maxHeightBefore: number;
  /** Triangles with a moved vertex (the BVH refits these). */
  readonly triangles: Uint32Array;
  /** minX, minZ, maxX, maxZ of the changed area, world units: what systems with cached terrain data drop. */
  readonly area: Float64Array;
}

/** The edit's reach: how far from its centre heights change. */
export function editReach(edit: Pick<TerrainEdit, 'kind' | 'radius'>): number {
  return edit.kind === 'crater' ? edit.radius * CRATER_RIM_REACH : edit.radius;
}

/**
 * Checks an edit against a terrain's parameters: a clear InvalidParameterError naming the field for a
 * radius that is not positive and finite, a centre that is not finite or whose reach misses the
 * terrain, an amount out of its domain, a frame that is not a whole number ≥ 0.
 */
export function validateTerrainEdit(edit: TerrainEdit, params: Pick<TerrainParams, 'worldSize'>, field = 'edit', file?: string): void {
  const { worldSize } = params;
  if (!Number.isInteger(edit.frame) || edit.frame < 0) throw new InvalidParameterError(`${field}.frame`, 'a whole number ≥ 0', edit.frame, file);
  if (!(TERRAIN_EDIT_KINDS as readonly string[]).includes(edit.kind)) {
    throw new InvalidParameterError(`${field}.kind`, `one of ${TERRAIN_EDIT_KINDS.join(', ')}`, edit.kind, file);
  }
  if (!(edit.radius > 0) || !(edit.radius <= worldSize)) {
    throw new InvalidParameterError(`${field}.radius`, `a number in (0, ${worldSize}] (the world size)`, edit.radius, file);
  }
  const [x, z] = edit.at;
  if (!Number.isFinite(x) || !Number.isFinite(z))
    throw new InvalidParameterError(`${field}.at`, 'two finite numbers [x, z]', Number.isFinite(x) ? z : x, file);
  const half = worldSize / 2;
  const reach = editReach(edit);
  // The nearest point of the terrain's square to the centre must lie within the reach.
  const dx = Math.max(Math.abs(x) - half, 0);
  const dz = Math.max(Math.abs(z) - half, 0);
  if (dx * dx + dz * dz >= reach * reach) {
    throw new InvalidParameterError(`${field}.at`, `a point whose reach (${reach}) touches the terrain [−${half}, ${half}]²`, `[${x}, ${z}]`, file);
  }
  const amountMax = edit.kind === 'smooth' ? 1 : MAX_AMOUNT_PER_WORLD * worldSize;
  if (!(edit.amount > 0) || !(edit.amount <= amountMax)) {
    throw new InvalidParameterError(`${field}.amount`, `a number in (0, ${amountMax}] for a ${edit.kind}`, edit.amount, file);
  }
}

/** The brush's weight at squared distance s² (in radii): 1 at the centre, 0 with zero slope at the rim. */
const falloff = (s2: number): number => (s2 < 1 ? (1 - s2) * (1 - s2) : 0);

/**
 * Applies a validated edit to the terrain in place: heights, positions' y, the normals around the
 * change, and the height range. Returns what it changed (for the BVH refit, the systems and undo), or
 * null when no vertex moved.
 */
export function applyTerrainEdit(terrain: TerrainMesh, edit: TerrainEdit): AppliedTerrainEdit | null {
  const { cells, worldSize } = terrain.params;
  const side = cells + 1;
  const spacing = worldSize / cells;
  const half = worldSize / 2;
  const reach = editReach(edit);
  const [cx, cz] = edit.at;
  const col0 = Math.max(0, Math.ceil((cx - reach + half) / spacing));
  const col1 = Math.min(cells, Math.floor((cx + reach + half) / spacing));
  const row0 = Math.max(0, Math.ceil((cz - reach + half) / spacing));
  const row1 = Math.min(cells, Math.floor((cz + reach + half) / spacing));
  if (col0 > col1 || row0 > row1) return null;

  const heights = terrain.heights;
  const width = col1 - col0 + 1;
  const before = new Float32Array(width * (row1 - row0 + 1));
  for (let row = row0; row <= row1; row++) before.set(heights.subarray(row * side + col0, row * side + col1 + 1), (row - row0) * width);

  const inverseRadius2 = 1 / (edit.radius * edit.radius);
  const amount = edit.amount;
  let moved = false;
  let lowest = terrain.minHeight;
  let highest = terrain.maxHeight;
  for (let row = row0; row <= row1; row++) {
    const dz = row * spacing - half - cz;
    for (let col = col0; col <= col1; col++) {
      const dx = col * spacing - half - cx;
      const s2 = (dx * dx + dz * dz) * inverseRadius2;
      const v = row * side + col;
      const h = before[(row - row0) * width + (col - col0)]!;
      let next = h;
      switch (edit.kind) {
        case 'crater': {
          // A bowl, and a rim of thrown-up ground peaking at the radius.
          const t = (Math.sqrt(s2) - 1) / (CRATER_RIM_REACH - 1);
          next = h - amount * falloff(s2) + CRATER_RIM_HEIGHT * amount * falloff(t * t);
          break;
        }
        case 'raise':
          next = h + amount * falloff(s2);
          break;
        case 'lower':
          next = h - amount * falloff(s2);
          break;
        case 'smooth': {
          const weight = amount * falloff(s2);
          if (weight > 0) next = h + (neighbourMean(before, heights, side, width, col0, row0, col1, row1, col, row) - h) * weight;
          break;
        }
      }
      const stored = Math.fround(next);
      if (stored !== h) moved = true;
      heights[v] = stored;
      terrain.positions[3 * v + 1] = stored;
      if (stored < lowest) lowest = stored;
      if (stored > highest) highest = stored;
    }
  }
  if (!moved) return null;
  const minHeightBefore = terrain.minHeight;
  const maxHeightBefore = terrain.maxHeight;
  terrain.minHeight = lowest;
  terrain.maxHeight = highest;
  writeHeightfieldNormals(
    heights,
    side,
    spacing,
    terrain.normals,
    Math.max(0, col0 - 1),
    Math.max(0, row0 - 1),
    Math.min(cells, col1 + 1),
    Math.min(cells, row1 + 1),
  );
  return {
    edit,
    col0,
    row0,
    col1,
    row1,
    before,
    minHeightBefore,
    maxHeightBefore,
    triangles: trianglesAround(cells, col0, row0, col1, row1),
    area: new Float64Array([
      Math.max(col0 - 1, 0) * spacing - half,
      Math.max(row0 - 1, 0) * spacing - half,
      Math.min(col1 + 1, cells) * spacing - half,
      Math.min(row1 + 1, cells) * spacing - half,
    ]),
  };
}

/** Puts back the heights, positions, normals and height range an applied edit changed (the last applied first). */
export function undoTerrainEdit(terrain: TerrainMesh, applied: AppliedTerrainEdit): void {
  const { cells, worldSize } = terrain.params;
  const side = cells + 1;
  const { col0, row0, col1, row1, before } = applied;
  const width = col1 - col0 + 1;
  for (let row = row0; row <= row1; row++) {
    for (let col = col0; col <= col1; col++) {
      const v = row * side + col;
      const h = before[(row - row0) * width + (col - col0)]!;
      terrain.heights[v] = h;
      terrain.positions[3 * v + 1] = h;
    }
  }
  terrain.minHeight = applied.minHeightBefore;
  terrain.maxHeight = applied.maxHeightBefore;
  writeHeightfieldNormals(
    terrain.heights,
    side,
    worldSize / cells,
    terrain.normals,
    Math.max(0, col0 - 1),
    Math.max(0, row0 - 1),
    Math.min(cells, col1 + 1),
    Math.min(cells, row1 + 1),
  );
}

/** Mean height of the up-to-8 neighbours, read from the heights before the edit (so the order of the sweep does not matter). */
function neighbourMean(
  before: Float32Array,
  heights: Float32Array,
  side: number,
  width: number,
  col0: number,
  row0: number,
  col1: number,
  row1: number,
  col: number,
  row: number,
): number {
  let sum = 0;
  let count = 0;
  for (let r = row - 1; r <= row + 1; r++) {
    if (r < 0 || r >= side) continue;
    for (let c = col - 1; c <= col + 1; c++) {
      if (c < 0 || c >= side || (r === row && c === col)) continue;
      // Outside the rectangle nothing has changed yet, so the live heights are the heights before.
      sum += r >= row0 && r <= row1 && c >= col0 && c <= col1 ? before[(r - row0) * width + (c - col0)]! : heights[r * side + c]!;
      count++;
    }
  }
  return sum / count;
}

/** Ids of the triangles of every cell with a corner in the vertex rectangle (two per cell, in the mesh's order). */
function trianglesAround(cells: number, col0: number, row0: number, col1: number, row1: number): Uint32Array {
  const c0 = Math.max(col0 - 1, 0);
  const c1 = Math.min(col1, cells - 1);
  const r0 = Math.max(row0 - 1, 0);
  const r1 = Math.min(row1, cells - 1);
  const triangles = new Uint32Array(2 * (c1 - c0 + 1) * (r1 - r0 + 1));
  let n = 0;
  for (let row = r0; row <= r1; row++) {
    for (let col = c0; col <= c1; col++) {
      const cell = row * cells + col;
      triangles[n++] = 2 * cell;
      triangles[n++] = 2 * cell + 1;
    }
  }
  return triangles;
}
