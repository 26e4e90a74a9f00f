import { createRayData } from '../rayTriangle/rayData';

/**
 * Scratch for the single-ray traversals of castRaysWith (binary and 4-way, every node sorting), sized
 * once per tree so a cast allocates nothing. Results and counters of the last traversal are fields.
 */
export class StrategyWorkspace {
  /** Binary traversal: one node per entry (a level pops one node and pushes one). */
  readonly binaryStack: Int32Array;
  /** 4-way traversal: node, entry distance and quantized frame (min xyz, step xyz) per entry. */
  readonly stackNode: Int32Array;
  readonly stackNear: Float64Array;
  readonly stackFrame: Float64Array;
  readonly rayData = createRayData();
  readonly hitSlot = new Int32Array(4);
  readonly hitNear = new Float64Array(4);
  readonly hitFar = new Float64Array(4);
  readonly sorted = new Int32Array(4);
  bestT = Infinity;
  bestTriangle = -1;
  nodesVisited = 0;
  boxesTested = 0;
  trianglesTested = 0;
  subtreesMasked = 0;
  trianglesMasked = 0;
  /**
   * The collision filter of the cast (walk/maskFilter.ts): with `filtering` false every check is
   * skipped. materialIds / materialMasks are the BVH's; binaryNodeMasks holds the union of the masks
   * below each binary node (castRaysWith.ts builds it on the first filtered cast over the binary tree).
   */
  filtering = false;
  filter = 0xffffffff;
  materialIds: Uint8Array = new Uint8Array(0);
  materialMasks: Uint32Array = new Uint32Array(0);
  binaryNodeMasks: Uint32Array = new Uint32Array(0);

  constructor(binaryDepth: number, wideDepth: number) {
    this.binaryStack = new Int32Array(binaryDepth + 2);
    const capacity = 3 * wideDepth + 8;
    this.stackNode = new Int32Array(capacity);
    this.stackNear = new Float64Array(capacity);
    this.stackFrame = new Float64Array(6 * capacity);
  }

  resetCounters(): void {
    this.nodesVisited = 0;
    this.boxesTested = 0;
    this.trianglesTested = 0;
    this.subtreesMasked = 0;
    this.trianglesMasked = 0;
  }
}
