import type { BVH } from '../bvh/buildBVH';
import * as ChildWord from '../bvh/childWord';
import { MASK_ALL, checkFilter } from '../bvh/collisionMasks';
import * as Quantize from '../bvh/quantize';
import * as Layout from '../bvh/quantizedLayout';
import type { QuantizedNodes } from '../bvh/quantizedLayout';
import { InvalidParameterError } from '../errors';
import { createQueryCounters, resetQueryCounters, type QueryCounters } from '../query/counters';
import * as Frames from '../query/walk/frames';
import * as MaskFilter from '../query/walk/maskFilter';

// Module-local copies: the walk reads plain bindings, not imported ones (which some module loaders turn
// into property getters, measurably slower in a loop this tight).
const CHILD_INDEX_MASK = ChildWord.CHILD_INDEX_MASK;
const QUANT_STEP_SCALE = Quantize.QUANT_STEP_SCALE;
const QUANTIZED_NODE_U16 = Layout.QUANTIZED_NODE_U16;
const QUANTIZED_NODE_U32 = Layout.QUANTIZED_NODE_U32;
const QUANTIZED_WORDS_U32 = Layout.QUANTIZED_WORDS_U32;
const writeRootFrame = Frames.writeRootFrame;
const writeChildFrame = Frames.writeChildFrame;
const subtreeMasked = MaskFilter.subtreeMasked;
const triangleMasked = MaskFilter.triangleMasked;
const filterRejectsSome = MaskFilter.filterRejectsSome;

/**
 * The triangles near a query box (closed: touching counts), found by walking the quantized 4-way BVH —
 * the box-query twin of the ray walk in query/rays/traverseQuantized.ts, with the same decoding of a
 * node's slot bounds against the frame the stack carries for it. Leaf triangles are then tested with
 * their own float bounds. The answer:
 * - holds every triangle that intersects the box, and only triangles whose bounding box overlaps it;
 * - is exactly "bounding box overlaps" on a BVH built without spatial splits. With them a leaf bounds
 *   only its clipped piece of a big triangle, so a triangle whose bounding box grazes the query box
 *   far from the triangle itself may be left out — it could not touch anything in the box anyway;
 * - names each triangle once: a shared node (two parents) is entered once per query, and a triangle
 *   that spatial splits put in several leaves is reported once;
 * - holds only triangles whose material mask shares a bit with `filter` (bvh.masks): a subtree whose
 *   combined mask misses it is cut, its other triangles skipped. With a filter that keeps every material
 *   of the mesh (MASK_ALL by default) neither check is made.
 *
 * One query object per BVH; it owns its stack and result list and allocates only when the result list
 * has to grow.
 */
export class TriangleBoxQuery {
  readonly bvh: BVH;
  /** Triangle ids of the last query, `count` of them, in tree order. */
  triangles = new Uint32Array(64);
  count = 0;
  /** Work of all queries since the last resetCounters() (trianglesTested: bounding-box tests; invalid:
   *  boxes with a NaN bound or min > max; hits: triangles reported). */
  readonly counters: QueryCounters = createQueryCounters();
  private filterValue = MASK_ALL;
  private filtering = false;
  private readonly nodes: QuantizedNodes;
  private readonly stackNode: Int32Array;
  private readonly stackFrame: Float64Array;
  /** Per triangle, the last query that reported it (only when the BVH has duplicate references). */
  private readonly stamp: Uint32Array | null;
  /** Per shared node, the last query that entered it. */
  private readonly sharedStamp: Uint32Array;
  private query = 0;

  constructor(bvh: BVH) {
    if (bvh.quantized === null) throw new InvalidParameterError('bvh.layouts', "a BVH built with the 'quantized' layout", bvh.options.layouts);
    this.bvh = bvh;
    this.nodes = bvh.quantized;
    // Depth-first: each pop pushes at most four, so 3 per level plus the root bounds the stack.
    const depth = 3 * (bvh.maxDepth + 2) + 1;
    this.stackNode = new Int32Array(depth);
    this.stackFrame = new Float64Array(6 * depth);
    this.stamp = bvh.hasDuplicateReferences ? new Uint32Array(bvh.triangleCount) : null;
    this.sharedStamp = new Uint32Array(Math.max(0, this.nodes.nodeCount - this.nodes.firstShared));
  }

  resetCounters(): void {
    resetQueryCounters(this.counters);
  }

  /** The collision filter of the next queries (32-bit; an InvalidParameterError names a bad one). */
  get filter(): number {
    return this.filterValue;
  }

  set filter(value: number) {
    this.filterValue = checkFilter(value);
    this.filtering = filterRejectsSome(this.bvh.masks, value);
  }

  /** Finds the triangles overlapping [min, max]; returns their count (ids in `triangles`). A box with a
   *  NaN bound or min > max on an axis overlaps nothing. */
  run(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number {
    this.count = 0;
    const counters = this.counters;
    counters.queries++;
    const nodes = this.nodes;
    if (!(minX <= maxX && minY <= maxY && minZ <= maxZ)) {
      counters.invalid++;
      return 0;
    }
    if (nodes.nodeCount === 0) return 0;
    const filtering = this.filtering;
    const filter = this.filterValue;
    if (filtering && subtreeMasked(nodes.u32, QUANTIZED_WORDS_U32, this.bvh.masks.nodeMasks, filter)) {
      counters.subtreesMasked++;
      return 0;
    }
    const u16 = nodes.u16;
    const u32 = nodes.u32;
    const firstShared = nodes.firstShared;
    const sharedFrames = nodes.sharedFrames;
    const ownsFrame = nodes.ownsFrame;
    const ownFrames = nodes.ownFrames;
    const bvh = this.bvh;
    const order = bvh.triangleOrder;
    const indices = bvh.indices;
    const positions = bvh.positions;
    const stackNode = this.stackNode;
    const stackFrame = this.stackFrame;
    const stamp = this.stamp;
    const sharedStamp = this.sharedStamp;
    const { materialIds, materialMasks, nodeMasks } = this.bvh.masks;
    let mark = ++this.query;
    if (mark === 0xffffffff) {
      stamp?.fill(0);
      sharedStamp.fill(0);
      mark = this.query = 1;
    }
    let out = this.triangles;
    let count = 0;
    let visited = 0;
    let boxes = 0;
    let leaves = 0;
    let tested = 0;
    let subtreesCut = 0;
    let trianglesSkipped = 0;

    stackNode[0] = 0;
    writeRootFrame(nodes, stackFrame, 0);
    let top = 1;
    while (top > 0) {
      top--;
      const node = stackNode[top]!;
      const f = 6 * top;
      const fx = stackFrame[f]!,
        fy = stackFrame[f + 1]!,
        fz = stackFrame[f + 2]!;
      const stepX = stackFrame[f + 3]!,
        stepY = stackFrame[f + 4]!,
        stepZ = stackFrame[f + 5]!;
      visited++;
      const b = QUANTIZED_NODE_U16 * node;
      const w = QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32;
      for (let s = 0; s < 4; s++) {
        const word = u32[w + s]!;
        const type = (word >>> 24) & 15;
        if (type === 1) continue; // empty slot
        boxes++;
        const loX = fx + u16[b + s]! * stepX;
        const loY = fy + u16[b + 4 + s]! * stepY;
        const loZ = fz + u16[b + 8 + s]! * stepZ;
        const hiX = fx + u16[b + 12 + s]! * stepX;
        const hiY = fy + u16[b + 16 + s]! * stepY;
        const hiZ = fz + u16[b + 20 + s]! * stepZ;
        if (loX > maxX || hiX < minX || loY > maxY || hiY < minY || loZ > maxZ || hiZ < minZ) continue;
        const index = word & CHILD_INDEX_MASK;
        if (type === 0) {
          if (filtering && subtreeMasked(u32, QUANTIZED_NODE_U32 * index + QUANTIZED_WORDS_U32, nodeMasks, filter)) {
            subtreesCut++;
            continue;
          }
          if (index >= firstShared) {
            if (sharedStamp[index - firstShared] === mark) continue;
            sharedStamp[index - firstShared] = mark;
          }
          stackNode[top] = index;
          // The common frame inline (a call here, not inlined by V8, cost ~40%); shared and detached nodes through frames.ts.
          if (index >= firstShared || ownsFrame[index] === 1)
            writeChildFrame(stackFrame, 6 * top, index, firstShared, sharedFrames, ownsFrame, ownFrames, loX, loY, loZ, hiX, hiY, hiZ);
          else {
            const o = 6 * top;
            stackFrame[o] = loX;
            stackFrame[o + 1] = loY;
            stackFrame[o + 2] = loZ;
            stackFrame[o + 3] = (hiX - loX) * QUANT_STEP_SCALE;
            stackFrame[o + 4] = (hiY - loY) * QUANT_STEP_SCALE;
            stackFrame[o + 5] = (hiZ - loZ) * QUANT_STEP_SCALE;
          }
          top++;
          continue;
        }
        leaves++;
        const last = index + type - 1;
        for (let k = index; k < last; k++) {
          const triangle = order !== null ? order[k]! : k;
          if (filtering && triangleMasked(materialIds, materialMasks, triangle, filter)) {
            trianglesSkipped++;
            continue;
          }
          tested++;
          const i3 = 3 * triangle;
          const a = 3 * indices[i3]!,
            c = 3 * indices[i3 + 1]!,
            d = 3 * indices[i3 + 2]!;
          const ax = positions[a]!,
            cx = positions[c]!,
            dx = positions[d]!;
          if (Math.min(ax, cx, dx) > maxX || Math.max(ax, cx, dx) < minX) continue;
          const ay = positions[a + 1]!,
            cy = positions[c + 1]!,
            dy = positions[d + 1]!;
          if (Math.min(ay, cy, dy) > maxY || Math.max(ay, cy, dy) < minY) continue;
          const az = positions[a + 2]!,
            cz = positions[c + 2]!,
            dz = positions[d + 2]!;
          if (Math.min(az, cz, dz) > maxZ || Math.max(az, cz, dz) < minZ) continue;
          if (stamp !== null) {
            if (stamp[triangle] === mark) continue;
            stamp[triangle] = mark;
          }
          if (count === out.length) {
            const grown = new Uint32Array(out.length * 2);
            grown.set(out);
            out = this.triangles = grown;
          }
          out[count++] = triangle;
        }
      }
    }
    counters.nodesVisited += visited;
    counters.boxesTested += boxes;
    counters.leavesVisited += leaves;
    counters.trianglesTested += tested;
    counters.hits += count;
    counters.subtreesMasked += subtreesCut;
    counters.trianglesMasked += trianglesSkipped;
    this.count = count;
    return count;
  }
}
