import { InvalidParameterError } from '../../errors';
import { Random } from '../../math/random';

/**
 * Rays aimed exactly through the shared edges and vertices of a terrain grid, for the crack explorer.
 *
 * Grid layout (as generateTerrain builds it): vertex (col i, row j) is j·(cells+1) + i; cell (i, j) holds
 * triangle 2k = (a, c, b) and 2k+1 = (b, c, d), k = j·cells + i, with a = (i, j), b = (i+1, j),
 * c = (i, j+1), d = (i+1, j+1). The triangles' vertex order is read from the mesh's indices.
 *
 * Each ray is short and steep enough that counting hits on the few triangles around its target (its
 * patch) gives exactly the whole-mesh answer, and that an exact test must hit:
 * - the origin lies over the patch (the hexagon of the six triangles around a vertex, the two triangles
 *   on either side of an edge), and the ray stops a hair (1e-5 of its length) past the target; both
 *   patch shapes are convex, so the segment's ground projection stays inside the patch, and a heightfield
 *   triangle can only be met above its own footprint: no triangle outside the patch can be hit;
 * - the ray descends faster than the steepest patch triangle rises, so its height above the surface
 *   falls strictly along the segment, from positive at the origin to negative at the end: it crosses
 *   the surface once, at the target, and a miss is a crack, not a grazing ray that passed over a ridge.
 */

export const CRACK_TARGET_KINDS = ['vertex', 'edge-x', 'edge-z', 'diagonal'] as const;
export type CrackTargetKind = (typeof CRACK_TARGET_KINDS)[number];
export const CRACK_TARGET_VERTEX = 0;
export const CRACK_TARGET_EDGE_X = 1;
export const CRACK_TARGET_EDGE_Z = 2;
export const CRACK_TARGET_DIAGONAL = 3;

/** Up to six triangles around a vertex, two around an edge; unused slots hold −1. */
export const CRACK_PATCH_SIZE = 6;

/** The target sits at t = 1; the segment ends just past it so the hit is inside [0, tMax]. */
export const CRACK_RAY_T_MAX = 1 + 1e-5;

/** The part of a terrain mesh the crack explorer reads. */
export interface GridMesh {
  positions: Float32Array;
  indices: Uint32Array;
  params: { cells: number };
}

/** Rays in structure-of-arrays form, with what each one aims at. */
export interface CrackRays {
  count: number;
  /** xyz per ray. */
  origins: Float64Array;
  /** xyz per ray; origin + direction is the target, so t = 1 there. */
  directions: Float64Array;
  /** CRACK_TARGET_* per ray. */
  targetKinds: Uint8Array;
  /** CRACK_PATCH_SIZE triangle indices per ray, −1 padded. */
  patches: Int32Array;
}

export interface CrackRayOptions {
  seed: number;
  /** Share of rays aimed at vertices; the rest go through edges (along x, along z, diagonals equally). */
  vertexFraction?: number;
  /**
   * 'float64' (default): origin and direction exactly as computed, so the ray passes within rounding of
   * the target: the harshest case. 'float32': both rounded to float32, as a BVH ray batch stores them.
   */
  rayPrecision?: 'float64' | 'float32';
}

/** Where along an edge targets may fall, as a fraction from either end; keeps the overshoot in the patch. */
const EDGE_END_MARGIN = 1e-3;
/** Origins are pulled towards the target by this factor, off the patch border. */
const ORIGIN_SHRINK = 0.9;
/** Share of rays that come straight down. */
const VERTICAL_SHARE = 1 / 16;

export function generateCrackRays(mesh: GridMesh, count: number, options: CrackRayOptions): CrackRays {
  const cells = mesh.params.cells;
  if (!Number.isInteger(cells) || cells < 2) throw new InvalidParameterError('mesh.params.cells', 'an integer ≥ 2', cells);
  if (!Number.isInteger(count) || count < 0) throw new InvalidParameterError('count', 'a non-negative integer', count);
  const vertexFraction = options.vertexFraction ?? 0.5;
  if (!(vertexFraction >= 0 && vertexFraction <= 1)) throw new InvalidParameterError('vertexFraction', 'a number in [0, 1]', vertexFraction);
  const roundToFloat32 = (options.rayPrecision ?? 'float64') === 'float32';

  const positions = mesh.positions;
  const indices = mesh.indices;
  const side = cells + 1;
  const random = new Random(options.seed);
  const rays: CrackRays = {
    count,
    origins: new Float64Array(3 * count),
    directions: new Float64Array(3 * count),
    targetKinds: new Uint8Array(count),
    patches: new Int32Array(CRACK_PATCH_SIZE * count).fill(-1),
  };
  const { origins, directions, targetKinds, patches } = rays;

  for (let ray = 0; ray < count; ray++) {
    const patch = CRACK_PATCH_SIZE * ray;
    let targetX: number;
    let targetY: number;
    let targetZ: number;
    let patchSize: number;
    if (random.next() < vertexFraction) {
      targetKinds[ray] = CRACK_TARGET_VERTEX;
      const i = 1 + random.int(cells - 1);
      const j = 1 + random.int(cells - 1);
      const v = 3 * (j * side + i);
      targetX = positions[v]!;
      targetY = positions[v + 1]!;
      targetZ = positions[v + 2]!;
      const here = j * cells + i;
      const west = here - 1;
      const south = here - cells;
      const southWest = south - 1;
      patches[patch] = 2 * here;
      patches[patch + 1] = 2 * west;
      patches[patch + 2] = 2 * west + 1;
      patches[patch + 3] = 2 * south;
      patches[patch + 4] = 2 * south + 1;
      patches[patch + 5] = 2 * southWest + 1;
      patchSize = 6;
    } else {
      const kind = 1 + random.int(3);
      targetKinds[ray] = kind;
      let from: number;
      let to: number;
      if (kind === CRACK_TARGET_EDGE_X) {
        const i = random.int(cells);
        const j = 1 + random.int(cells - 1);
        from = j * side + i;
        to = from + 1;
        patches[patch] = 2 * (j * cells + i);
        patches[patch + 1] = 2 * ((j - 1) * cells + i) + 1;
      } else if (kind === CRACK_TARGET_EDGE_Z) {
        const i = 1 + random.int(cells - 1);
        const j = random.int(cells);
        from = j * side + i;
        to = from + side;
        patches[patch] = 2 * (j * cells + i);
        patches[patch + 1] = 2 * (j * cells + i - 1) + 1;
      } else {
        const i = random.int(cells);
        const j = random.int(cells);
        from = j * side + i + 1;
        to = (j + 1) * side + i;
        patches[patch] = 2 * (j * cells + i);
        patches[patch + 1] = 2 * (j * cells + i) + 1;
      }
      const s = random.range(EDGE_END_MARGIN, 1 - EDGE_END_MARGIN);
      const f = 3 * from;
      const g = 3 * to;
      targetX = positions[f]! + s * (positions[g]! - positions[f]!);
      targetY = positions[f + 1]! + s * (positions[g + 1]! - positions[f + 1]!);
      targetZ = positions[f + 2]! + s * (positions[g + 2]! - positions[f + 2]!);
      patchSize = 2;
    }

    // Steepest rise of any patch triangle, and one patch triangle's footprint to place the origin over.
    const pick = random.int(patchSize);
    let steepest = 0;
    let pickA = 0;
    let pickB = 0;
    let pickC = 0;
    for (let k = 0; k < patchSize; k++) {
      const triangle = 3 * patches[patch + k]!;
      const a = 3 * indices[triangle]!;
      const b = 3 * indices[triangle + 1]!;
      const c = 3 * indices[triangle + 2]!;
      const e1x = positions[b]! - positions[a]!;
      const e1y = positions[b + 1]! - positions[a + 1]!;
      const e1z = positions[b + 2]! - positions[a + 2]!;
      const e2x = positions[c]! - positions[a]!;
      const e2y = positions[c + 1]! - positions[a + 1]!;
      const e2z = positions[c + 2]! - positions[a + 2]!;
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      const slope = Math.sqrt(nx * nx + nz * nz) / Math.abs(ny);
      if (slope > steepest) steepest = slope;
      if (k === pick) {
        pickA = a;
        pickB = b;
        pickC = c;
      }
    }

    let originX = targetX;
    let originZ = targetZ;
    let originY: number;
    if (random.next() < VERTICAL_SHARE) {
      const cellSize = Math.abs(positions[3]! - positions[0]!);
      originY = targetY + cellSize * logUniform(random, 0.1, 10);
    } else {
      // A uniform point of the picked footprint, pulled towards the target.
      let wb = random.next();
      let wc = random.next();
      if (wb + wc > 1) {
        wb = 1 - wb;
        wc = 1 - wc;
      }
      const pointX = positions[pickA]! + wb * (positions[pickB]! - positions[pickA]!) + wc * (positions[pickC]! - positions[pickA]!);
      const pointZ =
        positions[pickA + 2]! + wb * (positions[pickB + 2]! - positions[pickA + 2]!) + wc * (positions[pickC + 2]! - positions[pickA + 2]!);
      originX = targetX + ORIGIN_SHRINK * (pointX - targetX);
      originZ = targetZ + ORIGIN_SHRINK * (pointZ - targetZ);
      const reach = Math.hypot(originX - targetX, originZ - targetZ);
      const descent = (steepest + 0.1) * logUniform(random, 1.5, 100);
      originY = targetY + reach * descent;
    }
    if (roundToFloat32) {
      originX = Math.fround(originX);
      originY = Math.fround(originY);
      originZ = Math.fround(originZ);
    }
    let directionX = targetX - originX;
    let directionY = targetY - originY;
    let directionZ = targetZ - originZ;
    if (roundToFloat32) {
      directionX = Math.fround(directionX);
      directionY = Math.fround(directionY);
      directionZ = Math.fround(directionZ);
    }
    const r3 = 3 * ray;
    origins[r3] = originX;
    origins[r3 + 1] = originY;
    origins[r3 + 2] = originZ;
    directions[r3] = directionX;
    directions[r3 + 1] = directionY;
    directions[r3 + 2] = directionZ;
  }
  return rays;
}

function logUniform(random: Random, min: number, max: number): number {
  return min * Math.pow(max / min, random.next());
}
