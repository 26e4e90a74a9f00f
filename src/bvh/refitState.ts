import { ColliderscopeError } from '../errors';
import type { BVH } from './buildBVH';
import { CHILD_INDEX_MASK, CHILD_TYPE_NODE, childLeafCount } from './childWord';
import { QUANTIZED_NODE_U16, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, type QuantizedNodes } from './quantizedLayout';
import { QUANT_STEP_SCALE } from './quantize';
import { FLOAT_NODE_WORDS } from './floatLayout';

/**
 * What a refit keeps beside a BVH between calls (made on the first refit: about 320 bytes a node, most
 * of them the exact boxes at 6 float64 a slot, 8 a leaf slot, 8 a triangle reference and 4 a distinct
 * vertex of each leaf slot; it also sizes the tree's detached-frame storage, 48 bytes a node):
 *
 *   - the packed tree's topology read backwards: each node's parent slot (two for a shared node), and
 *     for every leaf reference the slot whose range holds it, so a moved triangle finds its leaves and
 *     their ancestors without a search;
 *   - the exact box of every slot in float64 (6 per slot: what the slot must contain — its triangles'
 *     boxes for a leaf range, the union of the child's slots that it bounds for a node), from which
 *     the quantized bounds are re-encoded and the SAH cost is summed;
 *   - the frame of every node (min xyz, max xyz) exactly as the traversal derives it, so a slot is
 *     re-encoded without walking down from the root.
 *
 * A shared node (shareLeaves.ts) has two parents, each bounding only its half: `ownedSlots` says which
 * of the child's slots a node slot bounds (a 4-bit set; 15 for an ordinary child). Which parent owns
 * which half does not matter for correctness, only that every half stays inside one parent's box, so
 * the halves are paired with the parents whose boxes are nearest at the first refit and kept so.
 */
export interface RefitState {
  readonly nodeCount: number;
  readonly firstShared: number;
  readonly parentSlot: Int32Array;
  readonly secondParentSlot: Int32Array;
  readonly ownedSlots: Uint8Array;
  /** Leaf slots holding triangle t: triangleSlots[triangleSlotStart[t] .. triangleSlotStart[t + 1]). */
  readonly triangleSlotStart: Uint32Array;
  readonly triangleSlots: Int32Array;
  readonly leafSlots: Int32Array;
  /** Distinct vertices of each slot's triangles (none for node and empty slots):
   *  slotVertices[slotVertexStart[slot] .. slotVertexStart[slot + 1]). */
  readonly slotVertexStart: Uint32Array;
  readonly slotVertices: Uint32Array;
  readonly box: Float64Array;
  readonly frame: Float64Array;
  /** How many times each node's box (the root: its frame) has been widened since the build because its
   *  content escaped it (refit.ts escalatedSlack). */
  readonly widenings: Uint8Array;
  /** Per-call marks: a slot's box recomputed / changed, a node gathered / changed / re-encoded. */
  readonly slotSeen: Int32Array;
  readonly slotChanged: Int32Array;
  readonly nodeSeen: Int32Array;
  readonly nodeChanged: Int32Array;
  readonly nodeWritten: Int32Array;
  epoch: number;
  /**
   * The next refit must be a full one: the packed boxes do not all contain the exact boxes (a spatial
   * split's clipped references: a leaf's box covers only its part of a triangle, while the refit's leaf
   * box covers the whole triangle). Set by prepareRefit; the partial path assumes every slot's exact
   * box lies inside its decoded box.
   */
  fullRefitPending: boolean;
  /** Σ weight · inflated half area over used slots (stats.ts: 1 for a node, triangles · cost ratio for
   *  a leaf), kept up to date slot by slot; the SAH cost is 1 + this / the root box's area. */
  weightedArea: number;
  readonly builtSahCost: number;
  /** Nodes gathered by a partial refit (reused between calls). */
  work: Int32Array;
  /** The last refit's change list (revision.ts GeometryChange), reused between calls. */
  changedNodes: Int32Array;
  changedLeaves: Int32Array;
  changedTriangles: Uint32Array;
}

const states = new WeakMap<BVH, RefitState>();

export function existingRefitState(bvh: BVH): RefitState | undefined {
  return states.get(bvh);
}

/** Drops the bookkeeping (after a refit found bad input half-way): the next refit rebuilds it. */
export function forgetRefitState(bvh: BVH): void {
  states.delete(bvh);
}

/**
 * Attaches bookkeeping made elsewhere (prepareRefit in a worker, over the same tree, then posted) to
 * this BVH; false, changing nothing, when the BVH has its own already (a refit ran meanwhile: its boxes
 * are newer). Throws when the state does not describe this tree's shape, so one from another build is
 * never used.
 */
export function adoptRefitState(bvh: BVH, state: RefitState): boolean {
  if (states.has(bvh)) return false;
  const nodes = bvh.quantized;
  const slots = 4 * state.nodeCount;
  const fits =
    nodes !== null &&
    state.nodeCount === nodes.nodeCount &&
    state.firstShared === nodes.firstShared &&
    state.parentSlot.length === state.nodeCount &&
    state.ownedSlots.length === slots &&
    state.box.length === 6 * slots &&
    state.frame.length === 6 * state.nodeCount &&
    state.widenings.length === state.nodeCount &&
    typeof state.fullRefitPending === 'boolean' &&
    state.triangleSlotStart.length === bvh.triangleCount + 1 &&
    state.slotVertexStart.length === slots + 1;
  if (!fits) throw new ColliderscopeError('internal: a refit state made for another tree');
  makeRoomForOwnFrames(nodes);
  states.set(bvh, state);
  return true;
}

export function createRefitState(bvh: BVH, nodes: QuantizedNodes): RefitState {
  const { nodeCount, firstShared, u16, u32 } = nodes;
  const parentSlot = new Int32Array(nodeCount).fill(-1);
  const secondParentSlot = new Int32Array(nodeCount).fill(-1);
  const ownedSlots = new Uint8Array(4 * nodeCount);
  const order = bvh.triangleOrder;
  const references = order === null ? bvh.triangleCount : order.length;
  const perTriangle = new Uint32Array(bvh.triangleCount + 1);
  const slotCount = 4 * nodeCount;
  const wordAt = (slot: number): number => u32[QUANTIZED_NODE_U32 * (slot >> 2) + QUANTIZED_WORDS_U32 + (slot & 3)]!;
  // Typed arrays sized by a counting pass: this runs once per tree, on hundreds of thousands of slots.
  let leafSlotCount = 0;
  let cornerCount = 0;
  for (let slot = 0; slot < slotCount; slot++) {
    const word = wordAt(slot);
    const type = (word >>> 24) & 15;
    const index = word & CHILD_INDEX_MASK;
    if (type === CHILD_TYPE_NODE) {
      ownedSlots[slot] = 15;
      if (parentSlot[index] === -1) parentSlot[index] = slot;
      else secondParentSlot[index] = slot;
    } else if (type > 1) {
      leafSlotCount++;
      const count = childLeafCount(word);
      cornerCount += 3 * count;
      for (let j = 0; j < count; j++) perTriangle[(order === null ? index + j : order[index + j]!) + 1]!++;
    }
  }
  const leafSlots = new Int32Array(leafSlotCount);
  for (let slot = 0, next = 0; slot < slotCount; slot++) if (((wordAt(slot) >>> 24) & 15) > 1) leafSlots[next++] = slot;
  for (let t = 0; t < bvh.triangleCount; t++) perTriangle[t + 1]! += perTriangle[t]!;
  const triangleSlots = new Int32Array(references);
  const fill = perTriangle.slice(0, bvh.triangleCount);
  for (let i = 0; i < leafSlotCount; i++) {
    const slot = leafSlots[i]!;
    const word = wordAt(slot);
    const index = word & CHILD_INDEX_MASK;
    const count = childLeafCount(word);
    for (let j = 0; j < count; j++) triangleSlots[fill[order === null ? index + j : order[index + j]!]!++] = slot;
  }

  // Each leaf slot's distinct vertices: a terrain leaf of n triangles has about n + 2 of its 3n
  // corners distinct, so its box reads a third of the coordinates, without the order and index lookups.
  const slotVertexStart = new Uint32Array(slotCount + 1);
  const vertexSeen = new Int32Array(bvh.positions.length / 3).fill(-1);
  const corners = new Uint32Array(cornerCount);
  const meshIndices = bvh.indices;
  let vertexCount = 0;
  for (let slot = 0; slot < slotCount; slot++) {
    slotVertexStart[slot] = vertexCount;
    const word = wordAt(slot);
    const index = word & CHILD_INDEX_MASK;
    const count = childLeafCount(word);
    for (let j = 0; j < count; j++) {
      const t = order === null ? index + j : order[index + j]!;
      for (let c = 0; c < 3; c++) {
        const v = meshIndices[3 * t + c]!;
        if (vertexSeen[v] === slot) continue;
        vertexSeen[v] = slot;
        corners[vertexCount++] = v;
      }
    }
  }
  slotVertexStart[slotCount] = vertexCount;

  const frame = decodeFrameBounds(nodes);
  // Pair each shared node's halves (slots 0–1, 2–3) with its two parents, nearest box centres first.
  const centre = (box: Float64Array, k: number): number => box[k]! + box[k + 3]!;
  const slotBox = new Float64Array(6);
  const halfBox = new Float64Array(12);
  const parentBox = new Float64Array(12);
  for (let node = firstShared; node < nodeCount; node++) {
    const first = parentSlot[node]!;
    const second = secondParentSlot[node]!;
    if (first < 0 || second < 0) continue;
    halfBox.fill(Infinity, 0, 3).fill(-Infinity, 3, 6).fill(Infinity, 6, 9).fill(-Infinity, 9, 12);
    for (let s = 0; s < 4; s++) {
      decodeSlot(u16, frame, node, s, slotBox);
      const h = s < 2 ? 0 : 6;
      for (let k = 0; k < 3; k++) {
        halfBox[h + k] = Math.min(halfBox[h + k]!, slotBox[k]!);
        halfBox[h + k + 3] = Math.max(halfBox[h + k + 3]!, slotBox[k + 3]!);
      }
    }
    decodeSlot(u16, frame, first >> 2, first & 3, slotBox);
    parentBox.set(slotBox, 0);
    decodeSlot(u16, frame, second >> 2, second & 3, slotBox);
    parentBox.set(slotBox, 6);
    let straight = 0;
    let crossed = 0;
    for (let k = 0; k < 3; k++) {
      straight += Math.abs(centre(parentBox, k) - centre(halfBox, k)) + Math.abs(centre(parentBox, 6 + k) - centre(halfBox, 6 + k));
      crossed += Math.abs(centre(parentBox, k) - centre(halfBox, 6 + k)) + Math.abs(centre(parentBox, 6 + k) - centre(halfBox, k));
    }
    ownedSlots[first] = straight <= crossed ? 0b0011 : 0b1100;
    ownedSlots[second] = straight <= crossed ? 0b1100 : 0b0011;
  }

  const slots = slotCount;
  const box = new Float64Array(6 * slots);
  for (let at = 0; at < 6 * slots; at += 6) {
    box[at] = box[at + 1] = box[at + 2] = Infinity;
    box[at + 3] = box[at + 4] = box[at + 5] = -Infinity;
  }
  makeRoomForOwnFrames(nodes);
  const state: RefitState = {
    nodeCount,
    firstShared,
    parentSlot,
    secondParentSlot,
    ownedSlots,
    triangleSlotStart: perTriangle,
    triangleSlots,
    leafSlots,
    slotVertexStart,
    slotVertices: corners.slice(0, vertexCount),
    box,
    frame,
    widenings: new Uint8Array(nodeCount),
    slotSeen: new Int32Array(slots),
    slotChanged: new Int32Array(slots),
    nodeSeen: new Int32Array(nodeCount),
    nodeChanged: new Int32Array(nodeCount),
    nodeWritten: new Int32Array(nodeCount),
    epoch: 0,
    fullRefitPending: false,
    weightedArea: 0,
    builtSahCost: bvh.stats.sahCost,
    // Sized for the largest partial refit (every node, every leaf slot), so a first large edit grows no
    // array inside the edit's optimised code; the triangle list grows in refitBVH for a very large edit.
    work: new Int32Array(nodeCount),
    changedNodes: new Int32Array(nodeCount),
    changedLeaves: new Int32Array(leafSlotCount),
    changedTriangles: new Uint32Array(Math.min(bvh.triangleCount, 1 << 16)),
  };
  states.set(bvh, state);
  return state;
}

/**
 * Sizes the tree's detached-frame storage (quantizedLayout.ts ownFrames) with the refit's bookkeeping, so
 * a refit that detaches a node never allocates (and the optimised edit code meets no path it has not run).
 */
function makeRoomForOwnFrames(nodes: QuantizedNodes): void {
  if (nodes.ownFrames.length !== 6 * nodes.nodeCount) nodes.ownFrames = new Float64Array(6 * nodes.nodeCount);
}

/** Whether some slot's exact box is not inside the box its encoding decodes to. */
export function someSlotEscapes(state: RefitState, u16: Uint16Array, u32: Uint32Array): boolean {
  const { box, frame } = state;
  const decoded = new Float64Array(6);
  for (let slot = 0; slot < 4 * state.nodeCount; slot++) {
    if (((u32[QUANTIZED_NODE_U32 * (slot >> 2) + QUANTIZED_WORDS_U32 + (slot & 3)]! >>> 24) & 15) === 1) continue;
    decodeSlot(u16, frame, slot >> 2, slot & 3, decoded);
    const o = 6 * slot;
    for (let k = 0; k < 3; k++) if (box[o + k]! < decoded[k]! || box[o + k + 3]! > decoded[k + 3]!) return true;
  }
  return false;
}

/** Each node's frame as min xyz, max xyz (decodeFrames in nodeRecords.ts keeps min and step instead). */
function decodeFrameBounds(nodes: QuantizedNodes): Float64Array {
  const { nodeCount, firstShared, sharedFrames, u16, u32 } = nodes;
  const frame = new Float64Array(6 * nodeCount);
  if (nodeCount > 0) frame.set(nodes.rootFrame, 0);
  frame.set(sharedFrames, 6 * firstShared);
  for (let node = 0; node < firstShared; node++)
    if (nodes.ownsFrame[node] === 1) frame.set(nodes.ownFrames.subarray(6 * node, 6 * node + 6), 6 * node);
  const decoded = new Float64Array(6);
  for (let node = 0; node < nodeCount; node++) {
    for (let s = 0; s < 4; s++) {
      const word = u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s]!;
      const child = word & CHILD_INDEX_MASK;
      if (((word >>> 24) & 15) !== CHILD_TYPE_NODE || child >= firstShared || nodes.ownsFrame[child] === 1) continue;
      decodeSlot(u16, frame, node, s, decoded);
      frame.set(decoded, 6 * child);
    }
  }
  return frame;
}

const NODE_U16 = QUANTIZED_NODE_U16;
const STEP_SCALE = QUANT_STEP_SCALE;
const FLOAT_WORDS = FLOAT_NODE_WORDS;

/** out := the box slot s of node n decodes to in the node's frame, as the traversal computes it. */
export function decodeSlot(u16: Uint16Array, frame: Float64Array, node: number, s: number, out: Float64Array): void {
  const f = 6 * node;
  const b = NODE_U16 * node + s;
  for (let k = 0; k < 3; k++) {
    const min = frame[f + k]!;
    const step = (frame[f + k + 3]! - min) * STEP_SCALE;
    out[k] = min + u16[b + 4 * k]! * step;
    out[k + 3] = min + u16[b + 4 * (k + 3)]! * step;
  }
}

/** Writes a slot's exact box into the float layout (exact boxes are unions of float32 coordinates, so
 *  they are float32 values already: no outward rounding needed). */
export function writeFloatSlot(f32: Float32Array, box: Float64Array, slot: number): void {
  const base = FLOAT_WORDS * (slot >> 2) + (slot & 3);
  const o = 6 * slot;
  for (let k = 0; k < 6; k++) f32[base + 4 * k] = box[o + k]!;
}
