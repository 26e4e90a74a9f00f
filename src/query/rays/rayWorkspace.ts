import type { BVH } from '../../bvh/buildBVH';
import type { QueryCounters } from '../counters';
import { createRayData } from '../rayTriangle/rayData';

/**
 * Scratch for one traversal, kept per BVH so casts allocate nothing. The stack holds, per entry, the
 * node, the distance at which the ray enters it (to skip it once a closer hit is known) and, for the
 * quantized layout, the node's frame as min xyz and step xyz.
 */
export class RayWorkspace {
  readonly stackNode: Int32Array;
  readonly stackNear: Float64Array;
  readonly stackFrame: Float64Array;
  readonly rayData = createRayData();
  readonly hitSlot = new Int32Array(4);
  readonly hitNear = new Float64Array(4);
  readonly hitFar = new Float64Array(4);
  readonly sorted = new Int32Array(4);
  // Results and counters of the last traversal.
  bestT = Infinity;
  bestTriangle = -1;
  nodesVisited = 0;
  boxesTested = 0;
  leavesVisited = 0;
  trianglesTested = 0;
  subtreesMasked = 0;
  trianglesMasked = 0;
  logCount = 0;

  constructor(maxDepth: number) {
    // Each level pops one entry and pushes at most four: depth·3 + 1 entries at most, plus slack.
    const capacity = 3 * maxDepth + 8;
    this.stackNode = new Int32Array(capacity);
    this.stackNear = new Float64Array(capacity);
    this.stackFrame = new Float64Array(6 * capacity);
  }

  resetCounters(): void {
    this.nodesVisited = 0;
    this.boxesTested = 0;
    this.leavesVisited = 0;
    this.trianglesTested = 0;
    this.subtreesMasked = 0;
    this.trianglesMasked = 0;
  }

  /** The counters of the casts since resetCounters, as a query's counters. */
  counters(queries: number, invalid: number, hits: number): QueryCounters {
    return {
      queries,
      invalid,
      nodesVisited: this.nodesVisited,
      boxesTested: this.boxesTested,
      leavesVisited: this.leavesVisited,
      trianglesTested: this.trianglesTested,
      culled: 0,
      hits,
      subtreesMasked: this.subtreesMasked,
      trianglesMasked: this.trianglesMasked,
    };
  }
}

const workspaces = new WeakMap<BVH, RayWorkspace>();

export function workspaceFor(bvh: BVH): RayWorkspace {
  let workspace = workspaces.get(bvh);
  if (workspace === undefined) {
    workspace = new RayWorkspace(bvh.maxDepth);
    workspaces.set(bvh, workspace);
  }
  return workspace;
}
