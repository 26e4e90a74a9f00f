import { octantOf } from '../../bvh/octantOrder';
import { RAY_DATA_LENGTH } from '../rayTriangle/rayData';
import type { RayTriangleKernel } from '../rayTriangle/registry';
import { VOTE_DIRECTIONS, VOTE_NONE, VOTE_OCTANTS, type BatchItems } from '../batch/batchItems';
import { MODE_ANY } from './rayTypes';
import { EXIT_SLACK } from './traverseQuantized';

/** Per-ray box-test record, one cache line: origin xyz, inverse direction xyz, current tMax, octant. */
const RECORD = 8;
/** A finished any-hit ray's tMax: every box test fails (enter ≥ 0) and leaves skip it. */
const FINISHED = -1;

/**
 * Rays as batch items: closest or any hit. Slot j of the batch holds one ray; active[] holds slots.
 *
 * cull: the slab test of each surviving ray against one decoded box, passing rays moved to the front.
 * A batch holds either only rays without a zero direction component (plain min/max slab, no NaN can
 * arise) or only rays with one (the NaN-aware test of traverseQuantized: a ray lying in a face plane
 * counts as inside); castRaysWith keeps the two kinds in separate batches.
 * testLeaf: each triangle of the leaf is fetched once and tested against every surviving ray; a ray
 * shrinks on a hit, and an any-hit ray leaves the batch for good (its tMax becomes −1).
 */
export class RayBatchItems implements BatchItems {
  readonly capacity: number;
  readonly active: Int32Array;
  readonly record: Float64Array;
  readonly directions: Float64Array;
  /** The triangle kernels' per-ray constants, one view per slot into one buffer. */
  readonly rayData: Float64Array[];
  readonly bestTriangle: Int32Array;
  /** Hit distance of finished any-hit rays (closest-hit rays keep theirs as tMax). */
  readonly hitT: Float64Array;
  /** The caller's index of the ray in each slot. */
  readonly rayIndex: Int32Array;
  readonly octantVotes = new Int32Array(8);
  readonly directionSum = new Float64Array(3);
  voteMode = VOTE_NONE;
  count = 0;
  regular = true;
  trianglesTested = 0;
  // Set per cast.
  positions: Float32Array = new Float32Array(0);
  indices: Uint32Array = new Uint32Array(0);
  triangleOrder: Uint32Array | null = null;
  /** The tree's triangles in leaf order (packLeafTriangles), or null to read the indexed mesh. */
  leafTriangles: Float32Array | null = null;
  kernel: RayTriangleKernel | null = null;
  mode = 0;
  doubleSided = false;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.active = new Int32Array(capacity);
    this.record = new Float64Array(RECORD * capacity);
    this.directions = new Float64Array(3 * capacity);
    const kernelData = new Float64Array(RAY_DATA_LENGTH * capacity);
    this.rayData = [];
    for (let j = 0; j < capacity; j++) this.rayData.push(kernelData.subarray(RAY_DATA_LENGTH * j, RAY_DATA_LENGTH * (j + 1)));
    this.bestTriangle = new Int32Array(capacity);
    this.hitT = new Float64Array(capacity);
    this.rayIndex = new Int32Array(capacity);
  }

  /** Empties the batch; `regular`: whether the rays to come have no zero direction component. */
  clear(regular: boolean): void {
    this.count = 0;
    this.regular = regular;
  }

  /** Adds a valid ray (the caller checked it) as the next slot. */
  add(rayIndex: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMax: number): void {
    const j = this.count++;
    const o = RECORD * j;
    const record = this.record;
    record[o] = ox;
    record[o + 1] = oy;
    record[o + 2] = oz;
    record[o + 3] = 1 / (dx + 0);
    record[o + 4] = 1 / (dy + 0);
    record[o + 5] = 1 / (dz + 0);
    record[o + 6] = tMax;
    record[o + 7] = octantOf(dx, dy, dz);
    this.directions[3 * j] = dx;
    this.directions[3 * j + 1] = dy;
    this.directions[3 * j + 2] = dz;
    this.kernel!.prepareRay(ox, oy, oz, dx, dy, dz, this.rayData[j]!);
    this.active[j] = j;
    this.bestTriangle[j] = -1;
    this.rayIndex[j] = rayIndex;
  }

  /** Result of slot j: distance (Infinity on a miss). */
  resultT(j: number): number {
    if (this.bestTriangle[j]! < 0) return Infinity;
    return this.mode === MODE_ANY ? this.hitT[j]! : this.record[RECORD * j + 6]!;
  }

  cull(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, count: number): number {
    const active = this.active;
    const record = this.record;
    const voteMode = this.voteMode;
    const votes = this.octantVotes;
    let sumX = 0, sumY = 0, sumZ = 0;
    if (voteMode === VOTE_OCTANTS) votes.fill(0);
    let i = 0;
    let last = count;
    if (this.regular) {
      while (i < last) {
        const r = active[i]!;
        const o = RECORD * r;
        const ox = record[o]!, oy = record[o + 1]!, oz = record[o + 2]!;
        const ix = record[o + 3]!, iy = record[o + 4]!, iz = record[o + 5]!;
        const x0 = (minX - ox) * ix, x1 = (maxX - ox) * ix;
        const y0 = (minY - oy) * iy, y1 = (maxY - oy) * iy;
        const z0 = (minZ - oz) * iz, z1 = (maxZ - oz) * iz;
        const enter = Math.max(0, Math.min(x0, x1), Math.min(y0, y1), Math.min(z0, z1));
        let exit = Math.min(Math.max(x0, x1), Math.max(y0, y1), Math.max(z0, z1));
        exit += Math.abs(exit) * EXIT_SLACK;
        if (enter <= exit && enter <= record[o + 6]!) {
          if (voteMode !== VOTE_NONE) {
            if (voteMode === VOTE_OCTANTS) votes[record[o + 7]!]!++;
            else {
              sumX += this.directions[3 * r]!;
              sumY += this.directions[3 * r + 1]!;
              sumZ += this.directions[3 * r + 2]!;
            }
          }
          i++;
        } else {
          last--;
          active[i] = active[last]!;
          active[last] = r;
        }
      }
    } else {
      while (i < last) {
        const r = active[i]!;
        const o = RECORD * r;
        const ox = record[o]!, oy = record[o + 1]!, oz = record[o + 2]!;
        const ix = record[o + 3]!, iy = record[o + 4]!, iz = record[o + 5]!;
        // Near and far planes by the sign of each inverse (+0 directions give +∞), NaN ignored.
        let enter = 0;
        let exit = Infinity;
        let t = ((ix >= 0 ? minX : maxX) - ox) * ix;
        if (t > enter) enter = t;
        t = ((iy >= 0 ? minY : maxY) - oy) * iy;
        if (t > enter) enter = t;
        t = ((iz >= 0 ? minZ : maxZ) - oz) * iz;
        if (t > enter) enter = t;
        t = ((ix >= 0 ? maxX : minX) - ox) * ix;
        if (t < exit) exit = t;
        t = ((iy >= 0 ? maxY : minY) - oy) * iy;
        if (t < exit) exit = t;
        t = ((iz >= 0 ? maxZ : minZ) - oz) * iz;
        if (t < exit) exit = t;
        exit += Math.abs(exit) * EXIT_SLACK;
        if (enter <= exit && enter <= record[o + 6]!) {
          if (voteMode !== VOTE_NONE) {
            if (voteMode === VOTE_OCTANTS) votes[record[o + 7]!]!++;
            else {
              sumX += this.directions[3 * r]!;
              sumY += this.directions[3 * r + 1]!;
              sumZ += this.directions[3 * r + 2]!;
            }
          }
          i++;
        } else {
          last--;
          active[i] = active[last]!;
          active[last] = r;
        }
      }
    }
    if (voteMode === VOTE_DIRECTIONS) {
      this.directionSum[0] = sumX;
      this.directionSum[1] = sumY;
      this.directionSum[2] = sumZ;
    }
    return i;
  }

  testLeaf(first: number, references: number, count: number): void {
    const active = this.active;
    const record = this.record;
    const rayData = this.rayData;
    const best = this.bestTriangle;
    const order = this.triangleOrder;
    const ordered = order !== null;
    const indices = this.indices;
    const positions = this.positions;
    const intersect = this.kernel!.intersect;
    const doubleSided = this.doubleSided;
    const any = this.mode === MODE_ANY;
    let tested = 0;
    const leafTriangles = this.leafTriangles;
    const vertices = leafTriangles ?? positions;
    const end = first + references;
    for (let k = first; k < end; k++) {
      const triangle = ordered ? order[k]! : k;
      let a: number, b: number, c: number;
      if (leafTriangles !== null) {
        a = 3 * k;
        b = a + 1;
        c = a + 2;
      } else {
        const i3 = 3 * triangle;
        a = indices[i3]!;
        b = indices[i3 + 1]!;
        c = indices[i3 + 2]!;
      }
      for (let i = 0; i < count; i++) {
        const r = active[i]!;
        const o = RECORD * r + 6;
        const tMax = record[o]!;
        if (tMax < 0) continue; // a finished any-hit ray
        tested++;
        const t = intersect(rayData[r]!, vertices, a, b, c, tMax, doubleSided);
        if (t >= 0 && (best[r]! < 0 || t < tMax)) {
          best[r] = triangle;
          if (any) {
            this.hitT[r] = t;
            record[o] = FINISHED;
          } else record[o] = t;
        }
      }
    }
    this.trianglesTested += tested;
  }
}
