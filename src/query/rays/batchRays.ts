import type { BinaryBVH } from '../../bvh/binaryBVH';
import type { BVH } from '../../bvh/buildBVH';
import { octantOf } from '../../bvh/octantOrder';
import { RAY_DATA_LENGTH } from '../rayTriangle/rayData';
import type { RayTriangleKernel } from '../rayTriangle/registry';
import { triangleMasked } from '../walk/maskFilter';
import { VOTE_DIRECTIONS, VOTE_NONE, VOTE_OCTANTS, type BatchItems } from '../batch/batchItems';
import { MODE_ANY } from './rayTypes';
import { traverseBinaryFloat, traverseBinaryQuantized } from './binaryTraverse';
import type { StrategyWorkspace } from './strategyWorkspace';
import { EXIT_SLACK } from './traverseQuantized';
import { traverseWideFloat, traverseWideQuantized } from './wideTraverse';

/**
 * Per-ray box-test record, one cache line: origin xyz, inverse direction xyz, current tMax, and
 * slot·8 + octant. Records move physically (the write-up's Swap(rays[Offset], rays[Last])), so the rays
 * at a node always sit in one contiguous run, read in order however large the batch; what only the
 * triangle tests need stays put, indexed by slot.
 */
const RECORD = 8;
/** A finished any-hit ray's tMax: every box test fails (enter ≥ 0) and leaves skip it. */
const FINISHED = -1;

/**
 * Rays as batch items: closest or any hit.
 *
 * cull: the slab test of each surviving ray against one decoded box, passing rays moved to the front.
 * A batch holds either only rays without a zero direction component (plain min/max slab, no NaN can
 * arise) or only rays with one (the NaN-aware test of traverseQuantized: a ray lying in a face plane
 * counts as inside); the strategy walks (castRaysWith.ts) keep the two kinds in separate batches.
 * testLeaf: each triangle of the leaf is fetched once and tested against every surviving ray (unless
 * the collision filter rejects it); a ray shrinks on a hit, and an any-hit ray leaves the batch for good
 * (its tMax becomes −1). The walk cuts filtered subtrees; the rays walking alone filter as castRays does.
 */
export class RayBatchItems implements BatchItems {
  readonly capacity: number;
  readonly record: Float64Array;
  /** Per slot: direction xyz (for direction votes). */
  readonly directions: Float64Array;
  /** Per slot: the triangle kernels' ray constants, one view each into one buffer. */
  readonly rayData: Float64Array[];
  readonly bestTriangle: Int32Array;
  /** Per slot: hit distance (filled by finish()). */
  readonly hitT: Float64Array;
  /** Per slot: the caller's index of the ray. */
  readonly rayIndex: Int32Array;
  readonly octantVotes = new Int32Array(8);
  readonly directionSum = new Float64Array(3);
  voteMode = VOTE_NONE;
  count = 0;
  regular = true;
  trianglesTested = 0;
  trianglesMasked = 0;
  /** The collision filter: with `filtering`, a leaf triangle whose mask misses `filter` is not tested. */
  filtering = false;
  filter = 0xffffffff;
  materialIds: Uint8Array = new Uint8Array(0);
  materialMasks: Uint32Array = new Uint32Array(0);
  // Set per cast.
  positions: Float32Array = new Float32Array(0);
  indices: Uint32Array = new Uint32Array(0);
  triangleOrder: Uint32Array | null = null;
  /** The tree's triangles in leaf order (packLeafTriangles), or null to read the indexed mesh. */
  leafTriangles: Float32Array | null = null;
  kernel: RayTriangleKernel | null = null;
  mode = 0;
  doubleSided = false;
  // For rays that finish a subtree alone: the trees, the sorting code and the single-ray scratch.
  aloneBelow = 0;
  binary: BinaryBVH | null = null;
  bvh: BVH | null = null;
  quantized = true;
  sorting = 0;
  permutations: Uint8Array | null = null;
  workspace: StrategyWorkspace | null = null;
  private readonly frame = new Float64Array(6);

  constructor(capacity: number) {
    this.capacity = capacity;
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
    record[o + 7] = 8 * j + octantOf(dx, dy, dz);
    this.directions[3 * j] = dx;
    this.directions[3 * j + 1] = dy;
    this.directions[3 * j + 2] = dz;
    this.kernel!.prepareRay(ox, oy, oz, dx, dy, dz, this.rayData[j]!);
    this.bestTriangle[j] = -1;
    this.rayIndex[j] = rayIndex;
  }

  /** After the walk: each slot's hit distance into hitT (Infinity on a miss). */
  finish(): void {
    const record = this.record;
    for (let i = 0; i < this.count; i++) {
      const slot = record[RECORD * i + 7]! >>> 3;
      if (this.bestTriangle[slot]! < 0) this.hitT[slot] = Infinity;
      else if (this.mode !== MODE_ANY) this.hitT[slot] = record[RECORD * i + 6]!;
    }
  }

  cull(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, count: number): number {
    const record = this.record;
    const directions = this.directions;
    const voteMode = this.voteMode;
    const votes = this.octantVotes;
    let sumX = 0,
      sumY = 0,
      sumZ = 0;
    if (voteMode === VOTE_OCTANTS) votes.fill(0);
    let i = 0;
    let last = count;
    if (this.regular) {
      while (i < last) {
        const o = RECORD * i;
        const ox = record[o]!,
          oy = record[o + 1]!,
          oz = record[o + 2]!;
        const ix = record[o + 3]!,
          iy = record[o + 4]!,
          iz = record[o + 5]!;
        const x0 = (minX - ox) * ix,
          x1 = (maxX - ox) * ix;
        const y0 = (minY - oy) * iy,
          y1 = (maxY - oy) * iy;
        const z0 = (minZ - oz) * iz,
          z1 = (maxZ - oz) * iz;
        const enter = Math.max(0, Math.min(x0, x1), Math.min(y0, y1), Math.min(z0, z1));
        let exit = Math.min(Math.max(x0, x1), Math.max(y0, y1), Math.max(z0, z1));
        exit += Math.abs(exit) * EXIT_SLACK;
        if (enter <= exit && enter <= record[o + 6]!) {
          if (voteMode !== VOTE_NONE) {
            if (voteMode === VOTE_OCTANTS) votes[record[o + 7]! & 7]!++;
            else {
              const d = 3 * (record[o + 7]! >>> 3);
              sumX += directions[d]!;
              sumY += directions[d + 1]!;
              sumZ += directions[d + 2]!;
            }
          }
          i++;
        } else {
          last--;
          swapRecords(record, o, RECORD * last);
        }
      }
    } else {
      while (i < last) {
        const o = RECORD * i;
        const ox = record[o]!,
          oy = record[o + 1]!,
          oz = record[o + 2]!;
        const ix = record[o + 3]!,
          iy = record[o + 4]!,
          iz = record[o + 5]!;
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
            if (voteMode === VOTE_OCTANTS) votes[record[o + 7]! & 7]!++;
            else {
              const d = 3 * (record[o + 7]! >>> 3);
              sumX += directions[d]!;
              sumY += directions[d + 1]!;
              sumZ += directions[d + 2]!;
            }
          }
          i++;
        } else {
          last--;
          swapRecords(record, o, RECORD * last);
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

  aloneBinary(count: number, node: number): void {
    const binary = this.binary!;
    const traverse = this.quantized ? traverseBinaryQuantized : traverseBinaryFloat;
    for (let i = 0; i < count; i++) {
      const o = RECORD * i;
      const tMax = this.record[o + 6]!;
      if (tMax < 0) continue;
      const slot = this.record[o + 7]! >>> 3;
      const d = 3 * slot;
      const workspace = this.workspace!;
      traverse(
        binary,
        this.kernel!,
        this.rayData[slot]!,
        this.leafTriangles,
        workspace,
        this.record[o]!,
        this.record[o + 1]!,
        this.record[o + 2]!,
        this.directions[d]!,
        this.directions[d + 1]!,
        this.directions[d + 2]!,
        tMax,
        this.mode,
        this.doubleSided,
        this.sorting,
        node,
      );
      this.takeAloneResult(o, slot, workspace);
    }
  }

  aloneWide(count: number, node: number, minX: number, minY: number, minZ: number, stepX: number, stepY: number, stepZ: number): void {
    const bvh = this.bvh!;
    const frame = this.frame;
    frame[0] = minX;
    frame[1] = minY;
    frame[2] = minZ;
    frame[3] = stepX;
    frame[4] = stepY;
    frame[5] = stepZ;
    for (let i = 0; i < count; i++) {
      const o = RECORD * i;
      const tMax = this.record[o + 6]!;
      if (tMax < 0) continue;
      const slot = this.record[o + 7]! >>> 3;
      const d = 3 * slot;
      const workspace = this.workspace!;
      const ox = this.record[o]!,
        oy = this.record[o + 1]!,
        oz = this.record[o + 2]!;
      const dx = this.directions[d]!,
        dy = this.directions[d + 1]!,
        dz = this.directions[d + 2]!;
      if (this.quantized)
        traverseWideQuantized(
          bvh,
          bvh.quantized!,
          this.permutations,
          this.kernel!,
          this.rayData[slot]!,
          this.leafTriangles,
          workspace,
          ox,
          oy,
          oz,
          dx,
          dy,
          dz,
          tMax,
          this.mode,
          this.doubleSided,
          this.sorting,
          node,
          frame,
        );
      else
        traverseWideFloat(
          bvh,
          bvh.float!,
          this.permutations,
          this.kernel!,
          this.rayData[slot]!,
          this.leafTriangles,
          workspace,
          ox,
          oy,
          oz,
          dx,
          dy,
          dz,
          tMax,
          this.mode,
          this.doubleSided,
          this.sorting,
          node,
        );
      this.takeAloneResult(o, slot, workspace);
    }
  }

  private takeAloneResult(o: number, slot: number, workspace: StrategyWorkspace): void {
    if (workspace.bestTriangle < 0) return;
    this.bestTriangle[slot] = workspace.bestTriangle;
    if (this.mode === MODE_ANY) {
      this.hitT[slot] = workspace.bestT;
      this.record[o + 6] = FINISHED;
    } else this.record[o + 6] = workspace.bestT;
  }

  testLeaf(first: number, references: number, count: number): void {
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
    const filtering = this.filtering;
    const filter = this.filter;
    const materialIds = this.materialIds;
    const materialMasks = this.materialMasks;
    let tested = 0;
    let masked = 0;
    const leafTriangles = this.leafTriangles;
    const vertices = leafTriangles ?? positions;
    const end = first + references;
    for (let k = first; k < end; k++) {
      const triangle = ordered ? order[k]! : k;
      if (filtering && triangleMasked(materialIds, materialMasks, triangle, filter)) {
        masked++;
        continue;
      }
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
        const o = RECORD * i + 6;
        const tMax = record[o]!;
        if (tMax < 0) continue; // a finished any-hit ray
        const r = record[o + 1]! >>> 3;
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
    this.trianglesMasked += masked;
  }
}

function swapRecords(record: Float64Array, a: number, b: number): void {
  for (let k = 0; k < RECORD; k++) {
    const value = record[a + k]!;
    record[a + k] = record[b + k]!;
    record[b + k] = value;
  }
}
