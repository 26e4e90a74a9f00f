import type { BVH } from '../../bvh/buildBVH';
import { MAX_LEAF_SIZE } from '../../bvh/options';

/**
 * Scratch for box queries, kept per BVH and grown with the batch, so queries allocate nothing in the
 * steady state. Boxes are copied in once per query:
 *   kernelBox  6 float64 per box, the box as the box-triangle tests read it (cx, cy, cz, hx, hy, hz; an
 *              oriented box is centred at 0 in its own frame)
 *   rotation   9 float64 per box, the oriented box's axes as rows (identity rows unused for AABBs)
 *   lo*, hi*   the box's world bounds, padded outward, for the node tests (structure of arrays)
 *   active     the batch's box ids; a node's survivors are moved to the front of its parent's prefix
 * The traversal stack holds per entry the node, the next slot to visit, the node's survivor count and
 * its frame (min xyz, step xyz).
 */
export class BoxWorkspace {
  boxCapacity = 0;
  kernelBox = new Float64Array(0);
  center = new Float64Array(0);
  rotation = new Float64Array(0);
  oriented = new Uint8Array(0);
  loX = new Float64Array(0);
  loY = new Float64Array(0);
  loZ = new Float64Array(0);
  hiX = new Float64Array(0);
  hiY = new Float64Array(0);
  hiZ = new Float64Array(0);
  active = new Int32Array(0);

  readonly stackNode: Int32Array;
  readonly stackSlot: Int32Array;
  readonly stackCount: Int32Array;
  readonly stackFrame: Float64Array;

  /** A leaf's exits for one box, and its triangles moved into an oriented box's frame. */
  readonly leafExits = new Uint8Array(MAX_LEAF_SIZE);
  readonly localPositions = new Float32Array(9 * MAX_LEAF_SIZE);
  readonly localIndices = Uint32Array.from({ length: 3 * MAX_LEAF_SIZE }, (_, i) => i);
  /** A leaf's triangle ids that the query's filter keeps (filtered queries only). */
  readonly keptTriangles = new Uint32Array(MAX_LEAF_SIZE);

  /** Triangles that appear in more than one leaf (spatial splits), or null when none does. */
  duplicated: Uint8Array | null = null;
  /** Open-addressing set, valid for one query, of the (box, triangle) pairs reported for duplicated
   *  triangles and of the (box, shared node) entries. */
  pairKeys = new Float64Array(1024);
  pairStamp = new Int32Array(1024);
  pairCount = 0;
  generation = 0;

  constructor(bvh: Pick<BVH, 'maxDepth' | 'triangleOrder' | 'triangleCount' | 'hasDuplicateReferences'>) {
    const capacity = bvh.maxDepth + 4;
    this.stackNode = new Int32Array(capacity);
    this.stackSlot = new Int32Array(capacity);
    this.stackCount = new Int32Array(capacity);
    this.stackFrame = new Float64Array(6 * capacity);
    const order = bvh.triangleOrder;
    if (bvh.hasDuplicateReferences && order !== null) {
      const seen = new Uint8Array(bvh.triangleCount);
      const duplicated = new Uint8Array(bvh.triangleCount);
      for (let k = 0; k < order.length; k++) {
        const triangle = order[k]!;
        if (seen[triangle]) duplicated[triangle] = 1;
        seen[triangle] = 1;
      }
      this.duplicated = duplicated;
    }
  }

  ensureBoxes(count: number): void {
    if (count <= this.boxCapacity) return;
    const capacity = Math.max(count, 2 * this.boxCapacity, 16);
    this.boxCapacity = capacity;
    this.kernelBox = new Float64Array(6 * capacity);
    this.center = new Float64Array(3 * capacity);
    this.rotation = new Float64Array(9 * capacity);
    this.oriented = new Uint8Array(capacity);
    this.loX = new Float64Array(capacity);
    this.loY = new Float64Array(capacity);
    this.loZ = new Float64Array(capacity);
    this.hiX = new Float64Array(capacity);
    this.hiY = new Float64Array(capacity);
    this.hiZ = new Float64Array(capacity);
    this.active = new Int32Array(capacity);
  }

  /** Starts a query: forgets the pairs reported by the previous one. */
  beginQuery(): void {
    this.generation++;
    this.pairCount = 0;
  }

  /** Adds the (box, triangle) pair; false when it was already reported in this query. */
  addPair(box: number, triangle: number): boolean {
    return this.addKey(box * 16777216 + triangle, box, triangle); // triangle < 2^24 (MAX_BVH_TRIANGLES)
  }

  /** Records that the box enters shared node number `shared`; false when it already did in this query. */
  enterShared(box: number, shared: number): boolean {
    return this.addKey(-1 - (box * 16777216 + shared), box, ~shared);
  }

  private addKey(key: number, box: number, item: number): boolean {
    if (2 * (this.pairCount + 1) > this.pairKeys.length) this.growPairs();
    const mask = this.pairKeys.length - 1;
    let slot = (Math.imul(box, 0x9e3779b1) ^ Math.imul(item, 0x85ebca6b)) & mask;
    for (;;) {
      if (this.pairStamp[slot] !== this.generation) {
        this.pairStamp[slot] = this.generation;
        this.pairKeys[slot] = key;
        this.pairCount++;
        return true;
      }
      if (this.pairKeys[slot] === key) return false;
      slot = (slot + 1) & mask;
    }
  }

  private growPairs(): void {
    const oldKeys = this.pairKeys;
    const oldStamp = this.pairStamp;
    this.pairKeys = new Float64Array(2 * oldKeys.length);
    this.pairStamp = new Int32Array(2 * oldKeys.length);
    this.pairCount = 0;
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldStamp[i] !== this.generation) continue;
      const key = oldKeys[i]!;
      const shared = key < 0;
      const packed = shared ? -1 - key : key;
      const box = Math.floor(packed / 16777216);
      const rest = packed - box * 16777216;
      this.addKey(key, box, shared ? ~rest : rest);
    }
  }
}

const workspaces = new WeakMap<BVH, BoxWorkspace>();

export function boxWorkspaceFor(bvh: BVH): BoxWorkspace {
  let workspace = workspaces.get(bvh);
  if (workspace === undefined) {
    workspace = new BoxWorkspace(bvh);
    workspaces.set(bvh, workspace);
  }
  return workspace;
}
