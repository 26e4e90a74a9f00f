import type { ParticleEffectParams } from './effectParams';

/** What fitting an effect to a terrain reads of it: the heightfield's extent and grid. */
export interface TerrainScale {
  worldSize: number;
  cells: number;
}

/**
 * Plane-cache columns per terrain cell, across. A column holds one plane, so it should lie mostly
 * within one triangle; four per cell side (0.25 m on the 1 m cells of the 512-cell showcase) keeps a
 * column's plane within a quarter cell of its triangle's.
 */
const COLUMNS_PER_CELL = 4;

/**
 * Cache cell height in column sides. Surface entries sit in the band of their plane's height and the
 * band above, so a particle finds its surface's entry from up to a band above it; eight sides (2 m on
 * the showcase) keep that well above the drop across a column.
 */
const BAND_IN_SIDES = 8;

/**
 * How far gravity may bend the arc below a raycast's chord, in terrain cells: the chord of T seconds
 * sags g·T²/8 below the arc's middle, and a third of a cell (0.5 s on the showcase's 1 m cells) keeps
 * the triangle the chord hits the one the arc meets, or its neighbour.
 */
const SAG_IN_CELLS = 0.3066;

/** Frames a band must hold of a particle's fall: it finds the surface's entry this many frames early. */
const BAND_FRAMES = 4;

/** The step the bands are sized for (the sandbox's fixed step). */
const NOMINAL_DT = 1 / 60;

/** Shortest and longest look-ahead, seconds: a few frames at least, and well inside a life. */
const MIN_LOOKAHEAD = 4 * NOMINAL_DT;
const MAX_LOOKAHEAD = 1;

/**
 * The effect's plane-cache cell and raycast look-ahead sized for the terrain under it (the other fields
 * unchanged). A terrain's detail is its cell, worldSize / cells: a cell size or look-ahead that fits
 * 1 m cells is too coarse for 12 cm ones and needlessly fine for 32 m ones.
 * - lookahead: the time over which gravity bends the arc a third of a cell below its chord,
 *   √(8 · 0.31 · cell / g), within [4 frames, 1 s] (without gravity the effect's own). On 12 cm cells
 *   (128 m, 1024 cells) 0.18 s instead of 0.5 s takes the sparks from 7.8% to 0.44% fallen through;
 *   the slower fountain and debris lose some (0.9% → 2.1%, 0.5% → 1.0%), which this rule does not see;
 * - cellSide: a quarter of the terrain's cell, but no finer than the effect's own cell (the presets'
 *   0.25 m): a cache of the presets' size holds columns that fine over where the effects' particles
 *   land, and finer ones over small triangles only turn lookups into misses (on 12 cm cells, 3 cm
 *   columns let 17% of the sparks through, and 8 cm ones 12% of the debris, against 1.5% and 1.1%
 *   with 25 cm ones);
 * - cellHeight: eight cell sides (and no less than the effect's own), and at least four frames of the
 *   fastest fall the effect reaches over a look-ahead (launch speed plus g · lookahead), so a falling
 *   particle meets its surface's band a few frames before the surface.
 */
export function fitEffectToTerrain(params: ParticleEffectParams, terrain: TerrainScale, gravity: number): ParticleEffectParams {
  const cell = terrain.worldSize / terrain.cells;
  const lookahead = gravity > 0 ? Math.min(MAX_LOOKAHEAD, Math.max(MIN_LOOKAHEAD, Math.sqrt((8 * SAG_IN_CELLS * cell) / gravity))) : params.lookahead;
  const cellSide = Math.max(cell / COLUMNS_PER_CELL, params.cellSide);
  const fastest = params.speed + gravity * lookahead;
  const cellHeight = Math.max(BAND_IN_SIDES * cellSide, params.cellHeight, BAND_FRAMES * NOMINAL_DT * fastest);
  return { ...params, cellSide, cellHeight, lookahead };
}
