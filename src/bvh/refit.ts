import { ColliderscopeError, InvalidParameterError } from '../errors';
import { DEFAULT_KERNEL, KERNELS, type Kernel } from '../platform/kernels';
import type { BVH } from './buildBVH';
import * as layout from './layoutSpec';
import { makeFrameSafe, widenFrame, type QuantizedNodes } from './quantizedLayout';
import { createRefitState, decodeSlot, existingRefitState, forgetRefitState, someSlotEscapes, writeFloatSlot, type RefitState } from './refitState';
import { bvhRevision, markGeometryChanged } from './revision';
import { currentWasmRefit, wasmRefitUnavailableReason, type WasmRefitKernel } from './wasmRefit';

export { bvhRevision, positionsRevision } from './revision';

export interface RefitReport {
  /** Whole tree refit. */
  full: boolean;
  /** Triangles named. */
  triangles: number;
  /** Leaf slots whose box was recomputed. */
  leavesRefit: number;
  /** 64-byte nodes rewritten. */
  nodesReencoded: number;
  /** Wall time. */
  ms: number;
  /** The tree's SAH cost now (stats.ts' formula over the exact boxes, kept up to date slot by slot). */
  sahCost: number;
  /** Its SAH cost when built. */
  builtSahCost: number;
  /** sahCost / builtSahCost. */
  degradation: number;
  /** Nodes given a new frame (the root's or a detached node's widened, or a slot box re-encoded whose
   *  child takes it as its frame): each is re-encoded whole and detaches its node children. */
  framesMoved: number;
  /** Nodes detached by this refit (quantizedLayout.ts ownsFrame): they keep their frames. */
  nodesDetached: number;
  /** Whether the root frame moved (its four slots re-encoded, its node children detached). */
  rootFrameChanged: boolean;
  /** The kernel that ran, and why it is not the one asked for ('' when it is). */
  kernel: Kernel;
  kernelFallback: string;
}

export interface RefitOptions {
  /**
   * When a partial refit must widen a node's box (its content escaped the decoded box), the escaped
   * sides move out by this fraction of the box's extent on that axis beyond what the content needs,
   * so the next edit nearby (a crater dug deeper, a brush stroke) fits without another re-encode.
   */
  widenSlack: number;
  /** The same for the root frame; a full refit also leaves this much headroom on every side of the root
   *  frame (free: see setOwnFrame). */
  rootSlack: number;
  /**
   * A partial refit narrows a node's box (moving the child's frame) only when the decoded box's area is
   * more than this factor above its content's; smaller losses stay until the next full refit.
   */
  narrowRatio: number;
  /** The code that runs a full refit's leaf boxes (kernels.ts): 'wasm-simd' (after loadWasmRefit) gives
   *  the same tree bit for bit; partial refits always run in TypeScript (too little work to pay for
   *  copying the positions in). The report says which ran, and why not the one asked for. */
  kernel: Kernel;
}

/*
 * Defaults measured on the 256- and 512-cell terrains (tests/bench/bvh-refit.ts): with no slack, a
 * crater digging below a node's box re-encodes it on every stroke; a quarter of the extent absorbs the
 * following strokes of a deepening crater while costing a few percent of SAH in the widened boxes only.
 * narrowRatio 1.5 stays above what the slack itself adds (a box widened by a quarter of its extent on
 * one side grows its area by at most 1.25×), so a widened box is not narrowed back at the next stroke.
 */
export const DEFAULT_REFIT_OPTIONS: Readonly<RefitOptions> = Object.freeze({
  widenSlack: 0.25,
  rootSlack: layout.ROOT_FRAME_HEADROOM,
  narrowRatio: 1.5,
  kernel: DEFAULT_KERNEL,
});

/**
 * SAH degradation past which a caller should rebuild rather than keep refitting. Measured on the 256
 * terrain (131k triangles) against a fresh build of the edited mesh, 20k downward rays: jitter of ±0.1
 * cell on every vertex 1.03 (node visits 1.00× the rebuilt tree's), 40 craters 1.004 (1.00×), a 32-cell
 * square raised 30 units 0.95 (1.00×: the root box grew, which lowers every ratio), a 32-cell square
 * dragged 150 units sideways 1.12 (1.16×), a 64-cell one dragged 300 units 1.18 (1.28×). Terrain edits
 * stay far below 1.15 and geometry moved across the tree goes past it while the rays' work grows
 * by more than that, which a rebuild in the background (a few hundred ms) repays within seconds.
 */
export const REFIT_REBUILD_DEGRADATION = 1.15;

/** Most doublings of a node's widening slack (escalatedSlack). */
const MAX_SLACK_DOUBLINGS = 4;

function resolveRefitOptions(options: Partial<RefitOptions>): RefitOptions {
  const resolved = { ...DEFAULT_REFIT_OPTIONS, ...options };
  const check = (name: keyof RefitOptions, min: number, max: number): void => {
    const value = resolved[name];
    if (!(typeof value === 'number' && value >= min && value <= max)) throw new InvalidParameterError(name, `a number in [${min}, ${max}]`, value);
  };
  check('widenSlack', 0, 16);
  check('rootSlack', 0, 16);
  check('narrowRatio', 1, Infinity);
  if (!(KERNELS as readonly unknown[]).includes(resolved.kernel)) throw new InvalidParameterError('kernel', KERNELS.join(' or '), resolved.kernel);
  return resolved;
}

/**
 * Updates a BVH after its triangles moved. The caller has already changed bvh.positions in place (the
 * same array the BVH references; indices and topology unchanged). `triangles`: the ids (index into
 * `indices` / 3) of every triangle that uses a moved vertex, the first `count` of them (duplicates are
 * harmless); null refits the whole tree. Throws InvalidParameterError, leaving the tree untouched, for
 * an id out of range or a non-finite coordinate on a named triangle (any vertex, for a full refit).
 *
 * A partial refit recomputes the named triangles' leaf boxes and their ancestors' exact boxes only,
 * re-encodes every leaf slot whose box changed (a leaf's encoding is local), and re-encodes a node slot
 * only when its content escaped the decoded box (widened with slack, see RefitOptions) or the box has
 * become much too loose. That changes the child's frame, so the child is re-encoded against it, and its
 * own node children are detached: they keep their frames as frames of their own (quantizedLayout.ts
 * ownsFrame), so nothing below them changes. The first refit of a BVH builds the refit's bookkeeping
 * (refitState.ts) and refits the whole tree; a full refit re-attaches every node.
 *
 * The float layout, when built, is updated slot by slot with the exact boxes. Afterwards bvhRevision
 * has moved, which makes every cache derived from the geometry remake itself on its next use.
 */
export function refitBVH(bvh: BVH, triangles: Uint32Array | null, count?: number, options: Partial<RefitOptions> = {}): RefitReport {
  const start = performance.now();
  const resolved = resolveRefitOptions(options);
  const nodes = bvh.quantized;
  if (nodes === null) throw new InvalidParameterError('bvh', "a BVH built with the 'quantized' layout", bvh.options.layouts.join(', '));
  let named = 0;
  if (triangles !== null) {
    if (!(triangles instanceof Uint32Array)) throw new InvalidParameterError('triangles', 'a Uint32Array of triangle ids, or null', triangles);
    named = count ?? triangles.length;
    if (!(Number.isInteger(named) && named >= 0 && named <= triangles.length))
      throw new InvalidParameterError('count', `a whole number in [0, ${triangles.length}]`, count);
    checkNamedTriangles(bvh, triangles, named);
  }
  let state = existingRefitState(bvh);
  const full = triangles === null || state === undefined || state.fullRefitPending;
  if (state === undefined) state = createRefitState(bvh, nodes);
  let kernel: Kernel = 'typescript';
  let kernelFallback = '';
  if (resolved.kernel === 'wasm-simd') {
    if (!full) kernelFallback = 'a partial refit runs in TypeScript';
    else if (currentWasmRefit() === null) kernelFallback = wasmRefitUnavailableReason();
    else kernel = 'wasm-simd';
  }
  const pass = new RefitPass(bvh, nodes, state, resolved);
  if (!full) pass.refitTriangles(triangles, named);
  else if (!pass.refitAll(kernel === 'wasm-simd' ? currentWasmRefit() : null)) {
    // A coordinate is not finite: the packed tree is untouched, the exact boxes are not.
    forgetRefitState(bvh);
    checkAllPositions(bvh);
    throw new ColliderscopeError('internal: a non-finite coordinate that the position check did not find');
  }
  state.fullRefitPending = false;
  if (state.changedTriangles.length < named) state.changedTriangles = new Uint32Array(Math.max(named, 2 * state.changedTriangles.length));
  if (!full) state.changedTriangles.set(triangles.subarray(0, named));
  markGeometryChanged(bvh, {
    fromRevision: bvhRevision(bvh),
    wholeTree: full,
    nodes: state.changedNodes,
    nodeCount: full ? 0 : pass.nodesReencoded,
    leafSlots: state.changedLeaves,
    leafSlotCount: full ? 0 : pass.leavesRefit,
    triangles: state.changedTriangles,
    triangleCount: full ? 0 : named,
    frames: state.frame,
  });
  const sahCost = pass.sahCost();
  const builtSahCost = state.builtSahCost;
  return {
    full,
    triangles: named,
    leavesRefit: full ? state.leafSlots.length : pass.leavesRefit,
    nodesReencoded: pass.nodesReencoded,
    ms: performance.now() - start,
    sahCost,
    builtSahCost,
    degradation: builtSahCost > 0 ? sahCost / builtSahCost : 1,
    framesMoved: pass.framesMoved,
    nodesDetached: pass.detached,
    rootFrameChanged: pass.rootFrameChanged,
    kernel,
    kernelFallback,
  };
}

/** Whether the BVH has its refit bookkeeping (prepared, adopted, or made by a refit). */
export function refitPrepared(bvh: BVH): boolean {
  return existingRefitState(bvh) !== undefined;
}

/**
 * Makes the refit's bookkeeping for a BVH without changing the tree: topology, every slot's exact box
 * and the SAH sum, with the frames the packed nodes already have. The next refit of named triangles is
 * then a partial one, instead of the full refit that otherwise sets this up (tens of milliseconds on a
 * large terrain: the page's terrain worker prepares it beside the build, where it costs no frame).
 * Returns the state (plain typed arrays: it can be posted to another thread and given to adoptRefitState).
 * Throws InvalidParameterError, leaving nothing behind, for a non-finite coordinate.
 */
export function prepareRefit(bvh: BVH, options: Partial<Pick<RefitOptions, 'kernel'>> = {}): RefitState {
  const nodes = bvh.quantized;
  if (nodes === null) throw new InvalidParameterError('bvh', "a BVH built with the 'quantized' layout", bvh.options.layouts.join(', '));
  const existing = existingRefitState(bvh);
  if (existing !== undefined) return existing;
  const resolved = resolveRefitOptions(options);
  const state = createRefitState(bvh, nodes);
  const wasm = resolved.kernel === 'wasm-simd' ? currentWasmRefit() : null;
  // The float layout already holds the builder's exact boxes: only the quantized side needs them.
  if (!new RefitPass(bvh, nodes, state, resolved).computeExactBoxes(wasm, null)) {
    forgetRefitState(bvh);
    checkAllPositions(bvh);
    throw new ColliderscopeError('internal: a non-finite coordinate that the position check did not find');
  }
  state.fullRefitPending = someSlotEscapes(state, nodes.u16, nodes.u32);
  return state;
}

/**
 * The BVH's current SAH cost and its degradation, without refitting (0 and 1 before its first refit,
 * when stats.sahCost is the cost).
 */
export function refitSahCost(bvh: BVH): { sahCost: number; degradation: number } {
  const state = existingRefitState(bvh);
  if (state === undefined || bvh.quantized === null) return { sahCost: bvh.stats.sahCost, degradation: 1 };
  const sahCost = new RefitPass(bvh, bvh.quantized, state, DEFAULT_REFIT_OPTIONS).sahCost();
  return { sahCost, degradation: state.builtSahCost > 0 ? sahCost / state.builtSahCost : 1 };
}

function checkAllPositions(bvh: BVH): void {
  const positions = bvh.positions;
  for (let i = 0; i < positions.length; i++) {
    const value = positions[i]!;
    if (!(Math.abs(value) < Infinity)) throw new InvalidParameterError(`positions[${i}]`, 'a finite coordinate', value);
  }
}

function checkNamedTriangles(bvh: BVH, triangles: Uint32Array, count: number): void {
  const { positions, indices, triangleCount } = bvh;
  for (let i = 0; i < count; i++) {
    const t = triangles[i]!;
    if (t >= triangleCount) throw new InvalidParameterError(`triangles[${i}]`, `a triangle id below ${triangleCount}`, t);
    for (let c = 0; c < 3; c++) {
      const v = 3 * indices[3 * t + c]!;
      for (let k = 0; k < 3; k++) {
        const value = positions[v + k]!;
        if (!(Math.abs(value) < Infinity))
          throw new InvalidParameterError(`positions[${v + k}] (a vertex of triangle ${t})`, 'a finite coordinate', value);
      }
    }
  }
}

// Module-local copies: imported bindings are read through accessors in some module loaders, which
// costs more than the arithmetic in these loops.
const CHILD_INDEX_MASK = layout.CHILD_INDEX_MASK;
const CHILD_TYPE_NODE = layout.CHILD_TYPE_NODE;
const QUANT_MAX = layout.QUANT_MAX;
const QUANT_STEP_SCALE = layout.QUANT_STEP_SCALE;
const QUANTIZED_NODE_U16 = layout.QUANTIZED_NODE_BYTES / 2;
const QUANTIZED_NODE_U32 = layout.QUANTIZED_NODE_BYTES / 4;
const QUANTIZED_WORDS_U32 = layout.QUANTIZED_WORDS_BYTES / 4;

/** quantizeDown (quantize.ts), the same operations with the local constants. */
function quantizeMin(value: number, frameMin: number, step: number): number {
  if (!(step > 0)) return 0;
  let q = Math.floor((value - frameMin) / step);
  if (q < 0) q = 0;
  if (q > QUANT_MAX) q = QUANT_MAX;
  while (q > 0 && frameMin + q * step > value) q--;
  return q;
}

/** quantizeUp (quantize.ts), the same operations with the local constants. */
function quantizeMax(value: number, frameMin: number, step: number): number {
  if (!(step > 0)) return 0;
  let q = Math.ceil((value - frameMin) / step);
  if (q < 0) q = 0;
  if (q > QUANT_MAX) q = QUANT_MAX;
  while (q < QUANT_MAX && frameMin + q * step < value) q++;
  return q;
}

/** frameIsSafe (quantize.ts), the same operations with the local constants. */
function frameSafe(frameMin: number, frameMax: number): boolean {
  const extent = frameMax - frameMin;
  if (extent === 0) return true;
  return extent >= 2 ** -22 * (Math.abs(frameMin) + Math.abs(frameMax)) && frameMin + QUANT_MAX * (extent * QUANT_STEP_SCALE) >= frameMax;
}

/** inflatedHalfArea (surfaceArea.ts). */
function halfArea(extentX: number, extentY: number, extentZ: number, radius: number): number {
  const x = extentX + 2 * radius;
  const y = extentY + 2 * radius;
  const z = extentZ + 2 * radius;
  return x * y + y * z + z * x;
}
const decodeSlotBox = decodeSlot;
const writeFloatBox = writeFloatSlot;

const slotType = (u32: Uint32Array, slot: number): number => (u32[QUANTIZED_NODE_U32 * (slot >> 2) + QUANTIZED_WORDS_U32 + (slot & 3)]! >>> 24) & 15;

/** One refit call: the shared steps of the partial and the full refit over one BVH's state. */
class RefitPass {
  leavesRefit = 0;
  nodesReencoded = 0;
  framesMoved = 0;
  detached = 0;
  rootFrameChanged = false;
  private readonly u16: Uint16Array;
  private readonly u32: Uint32Array;
  private readonly f32: Float32Array | null;
  private readonly box: Float64Array;
  private readonly frame: Float64Array;
  private readonly epoch: number;
  private readonly radius: number;
  private readonly triangleRatio: number;
  private readonly decoded = new Float64Array(6);
  private readonly target = new Float64Array(6);
  private readonly union = new Float64Array(6);

  constructor(
    private readonly bvh: BVH,
    private readonly nodes: QuantizedNodes,
    private readonly state: RefitState,
    private readonly options: RefitOptions,
  ) {
    this.u16 = nodes.u16;
    this.u32 = nodes.u32;
    this.f32 = bvh.float?.f32 ?? null;
    this.box = state.box;
    this.frame = state.frame;
    this.epoch = ++state.epoch;
    this.radius = bvh.options.sweptRadius;
    this.triangleRatio = bvh.options.triangleCost / Math.max(1e-9, bvh.options.traversalCost);
  }

  /** SAH cost from the exact boxes (stats.ts): 1 + Σ weight · area / root area. */
  sahCost(): number {
    const state = this.state;
    if (state.nodeCount === 0) return 0;
    this.unionOfSlots(0, 15, this.union);
    const u = this.union;
    const rootArea = halfArea(u[3]! - u[0]!, u[4]! - u[1]!, u[5]! - u[2]!, this.radius);
    return 1 + (rootArea > 0 ? state.weightedArea / rootArea : 0);
  }

  /**
   * Refits the whole tree: every leaf box from its vertices, node boxes bottom-up, tight root and shared
   * frames, every slot re-encoded top-down. Returns false, having changed nothing in the packed tree,
   * when a coordinate is not finite (the caller then names it and forgets the exact boxes).
   */
  refitAll(wasm: WasmRefitKernel | null): boolean {
    if (!this.computeExactBoxes(wasm, this.f32)) return false;
    if (this.state.nodeCount === 0) return true;
    // 3. Tight frames: the root's and the shared nodes' are their content made safe, every other one the
    //    decoded slot box in its parent (detached nodes attached again), in one ascending pass as the
    //    packer does.
    this.rootFrameChanged = this.setOwnFrame(0, 0, this.options.rootSlack);
    for (let node = this.state.firstShared; node < this.state.nodeCount; node++) this.setOwnFrame(node, 0);
    this.nodes.ownsFrame.fill(0);
    this.encodeAll();
    return true;
  }

  /**
   * Every slot's exact box (leaves from their vertices, nodes bottom-up) and the SAH sum, written to the
   * float layout `f32` when given; the packed tree is left as it is. False when a coordinate is not finite.
   */
  computeExactBoxes(wasm: WasmRefitKernel | null, f32: Float32Array | null): boolean {
    const { state, box, u32 } = this;
    const nodeCount = state.nodeCount;
    if (nodeCount === 0) return true;
    const positions = this.bvh.positions;
    const { leafSlots, slotVertexStart, slotVertices, ownedSlots } = state;
    // 1. Leaf boxes over their distinct vertices. x − x is 0 for a finite x and NaN otherwise, so one
    //    sum checks every coordinate read on the way.
    let check = 0;
    if (wasm !== null && !wasm.leafBoxes(positions, state)) return false;
    for (let i = 0; i < (wasm === null ? leafSlots.length : 0); i++) {
      const slot = leafSlots[i]!;
      let minX = Infinity,
        minY = Infinity,
        minZ = Infinity,
        maxX = -Infinity,
        maxY = -Infinity,
        maxZ = -Infinity;
      const end = slotVertexStart[slot + 1]!;
      for (let j = slotVertexStart[slot]!; j < end; j++) {
        const v = 3 * slotVertices[j]!;
        const x = positions[v]!,
          y = positions[v + 1]!,
          z = positions[v + 2]!;
        check += x - x + (y - y) + (z - z);
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
        if (z < minZ) minZ = z;
        if (z > maxZ) maxZ = z;
      }
      const o = 6 * slot;
      box[o] = minX;
      box[o + 1] = minY;
      box[o + 2] = minZ;
      box[o + 3] = maxX;
      box[o + 4] = maxY;
      box[o + 5] = maxZ;
    }
    if (check !== 0) return false;
    // 2. Node slots bottom-up (children have larger indices than their parents), with the SAH sum and
    //    the float layout on the way.
    const radius = this.radius;
    const triangleRatio = this.triangleRatio;
    let weightedArea = 0;
    for (let node = nodeCount - 1; node >= 0; node--) {
      for (let s = 0; s < 4; s++) {
        const slot = 4 * node + s;
        const word = u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s]!;
        const type = (word >>> 24) & 15;
        if (type === 1) continue;
        const o = 6 * slot;
        let weight = (type - 1) * triangleRatio;
        if (type === CHILD_TYPE_NODE) {
          weight = 1;
          const child = word & CHILD_INDEX_MASK;
          const owned = ownedSlots[slot]!;
          let minX = Infinity,
            minY = Infinity,
            minZ = Infinity,
            maxX = -Infinity,
            maxY = -Infinity,
            maxZ = -Infinity;
          for (let c = 0; c < 4; c++) {
            if (((owned >> c) & 1) === 0 || ((u32[QUANTIZED_NODE_U32 * child + QUANTIZED_WORDS_U32 + c]! >>> 24) & 15) === 1) continue;
            const q = 24 * child + 6 * c;
            if (box[q]! < minX) minX = box[q]!;
            if (box[q + 1]! < minY) minY = box[q + 1]!;
            if (box[q + 2]! < minZ) minZ = box[q + 2]!;
            if (box[q + 3]! > maxX) maxX = box[q + 3]!;
            if (box[q + 4]! > maxY) maxY = box[q + 4]!;
            if (box[q + 5]! > maxZ) maxZ = box[q + 5]!;
          }
          box[o] = minX;
          box[o + 1] = minY;
          box[o + 2] = minZ;
          box[o + 3] = maxX;
          box[o + 4] = maxY;
          box[o + 5] = maxZ;
        }
        if (f32 !== null) writeFloatBox(f32, box, slot);
        weightedArea += weight * halfArea(box[o + 3]! - box[o]!, box[o + 4]! - box[o + 1]!, box[o + 5]! - box[o + 2]!, radius);
      }
    }
    state.weightedArea = weightedArea;
    return true;
  }

  /** Every slot quantized against its node's frame, parents first. */
  private encodeAll(): void {
    const nodeCount = this.state.nodeCount;
    for (let node = 0; node < nodeCount; node++) this.encodeWhole(node, false);
    this.nodesReencoded = nodeCount;
  }

  /**
   * Every slot of `node` quantized against its frame (encodeSlot's operations, unrolled), giving each
   * node child that takes its frame from the slot its new frame. With `detach` (the node's frame moved,
   * in a partial refit) those children are detached instead (ownsFrame, quantizedLayout.ts): each keeps
   * the frame its own children are quantized against, so the move stops here rather than re-encoding
   * their subtrees, and its slot becomes its content's box; the node is recorded as rewritten.
   */
  private encodeWhole(node: number, detach: boolean): void {
    const { state, u16, u32, box, frame } = this;
    const firstShared = state.firstShared;
    const ownsFrame = this.nodes.ownsFrame;
    const f = 6 * node;
    const minX = frame[f]!,
      minY = frame[f + 1]!,
      minZ = frame[f + 2]!;
    const stepX = (frame[f + 3]! - minX) * QUANT_STEP_SCALE,
      stepY = (frame[f + 4]! - minY) * QUANT_STEP_SCALE,
      stepZ = (frame[f + 5]! - minZ) * QUANT_STEP_SCALE;
    for (let s = 0; s < 4; s++) {
      const word = u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s]!;
      const type = (word >>> 24) & 15;
      if (type === 1) continue;
      const child = word & CHILD_INDEX_MASK;
      let derivesFrame = type === CHILD_TYPE_NODE && child < firstShared && ownsFrame[child] !== 1;
      if (derivesFrame && detach) {
        this.detach(child);
        derivesFrame = false;
      }
      const o = 6 * (4 * node + s);
      const base = QUANTIZED_NODE_U16 * node + s;
      for (let k = 0; k < 3; k++) {
        const frameMin = k === 0 ? minX : k === 1 ? minY : minZ;
        const step = k === 0 ? stepX : k === 1 ? stepY : stepZ;
        const low = box[o + k]!;
        const high = box[o + k + 3]!;
        let qMin = quantizeMin(low, frameMin, step);
        let qMax = quantizeMax(high, frameMin, step);
        let lo = frameMin + qMin * step;
        let hi = frameMin + qMax * step;
        if (derivesFrame && !frameSafe(lo, hi)) {
          qMin = 0;
          qMax = QUANT_MAX;
          lo = frameMin;
          hi = frameMin + QUANT_MAX * step;
        }
        if (!(lo <= low && hi >= high))
          throw new ColliderscopeError(`internal: refit box of node ${node} slot ${s} does not contain its content on axis ${k}`);
        u16[base + 4 * k] = qMin;
        u16[base + 4 * (k + 3)] = qMax;
        if (derivesFrame) {
          frame[6 * child + k] = lo;
          frame[6 * child + k + 3] = hi;
        }
      }
    }
    if (detach && state.nodeWritten[node] !== this.epoch) {
      state.nodeWritten[node] = this.epoch;
      if (this.nodesReencoded === state.changedNodes.length) state.changedNodes = growInt32(state.changedNodes);
      state.changedNodes[this.nodesReencoded++] = node;
    }
  }

  /** Gives `node` its current frame as a frame of its own (see encodeWhole; the state sized ownFrames). */
  private detach(node: number): void {
    const { frame, nodes } = this;
    const ownFrames = nodes.ownFrames;
    const f = 6 * node;
    for (let k = 0; k < 6; k++) ownFrames[f + k] = frame[f + k]!;
    nodes.ownsFrame[node] = 1;
    this.detached++;
  }

  refitTriangles(triangles: Uint32Array, count: number): void {
    const { state, epoch } = this;
    const { triangleSlotStart, triangleSlots, slotSeen, slotChanged, nodeSeen, nodeChanged, parentSlot, secondParentSlot } = state;
    // 1. The named triangles' leaf slots, each recomputed once; the nodes holding changed ones.
    let work = state.work;
    let length = 0;
    for (let i = 0; i < count; i++) {
      const t = triangles[i]!;
      for (let r = triangleSlotStart[t]!; r < triangleSlotStart[t + 1]!; r++) {
        const slot = triangleSlots[r]!;
        if (slotSeen[slot] === epoch) continue;
        slotSeen[slot] = epoch;
        if (this.leavesRefit === state.changedLeaves.length) state.changedLeaves = growInt32(state.changedLeaves);
        state.changedLeaves[this.leavesRefit++] = slot;
        this.leafBox(slot, this.union);
        if (!this.storeBox(slot, this.union)) continue;
        slotChanged[slot] = epoch;
        const node = slot >> 2;
        nodeChanged[node] = epoch;
        if (nodeSeen[node] === epoch) continue;
        nodeSeen[node] = epoch;
        if (length === work.length) work = state.work = growInt32(work);
        work[length++] = node;
      }
    }
    // 2. Their ancestors (a shared node has two parents).
    for (let i = 0; i < length; i++) {
      const node = work[i]!;
      for (let p = 0; p < 2; p++) {
        const slot = p === 0 ? parentSlot[node]! : secondParentSlot[node]!;
        if (slot < 0 || nodeSeen[slot >> 2] === epoch) continue;
        nodeSeen[slot >> 2] = epoch;
        if (length === work.length) work = state.work = growInt32(work);
        work[length++] = slot >> 2;
      }
    }
    const gathered = work.subarray(0, length).sort();
    // 3. Exact boxes upwards, in descending order so every child is final before its parents.
    for (let i = length - 1; i >= 0; i--) {
      const node = gathered[i]!;
      if (nodeChanged[node] !== epoch) continue;
      for (let p = 0; p < 2; p++) {
        const slot = p === 0 ? parentSlot[node]! : secondParentSlot[node]!;
        if (slot < 0) continue;
        this.unionOfSlots(node, state.ownedSlots[slot]!, this.union);
        if (!this.storeBox(slot, this.union)) continue;
        slotChanged[slot] = epoch;
        nodeChanged[slot >> 2] = epoch;
      }
    }
    // 4. Encodings downwards: changed slots, and the whole node where its frame moved.
    const ownsFrame = this.nodes.ownsFrame;
    for (let i = 0; i < length; i++) {
      const node = gathered[i]!;
      if (nodeChanged[node] !== epoch || state.nodeWritten[node] === epoch) continue;
      let frameChanged = false;
      if (node === 0) frameChanged = this.setOwnFrame(0, this.options.rootSlack);
      else if (node >= state.firstShared) frameChanged = this.setOwnFrame(node, 0);
      else if (ownsFrame[node] === 1) frameChanged = this.setOwnFrame(node, this.options.widenSlack);
      if (frameChanged && node === 0) this.rootFrameChanged = true;
      if (frameChanged) {
        this.framesMoved++;
        this.encodeWhole(node, true);
      } else this.encodeChangedSlots(node);
    }
  }

  /**
   * Re-encodes the slots of `node` (whose frame is unchanged) that need it: the leaf slots whose box
   * changed, and the node slots whose box escaped (widened with slack) or became too loose. A node
   * child that takes its frame from such a slot is then re-encoded whole against it (encodeWhole,
   * detaching its node children); a shared or detached child keeps its frame.
   */
  private encodeChangedSlots(node: number): void {
    const { state, u32, box, decoded, target, frame, epoch } = this;
    const slotChanged = state.slotChanged;
    for (let s = 0; s < 4; s++) {
      const slot = 4 * node + s;
      if (slotChanged[slot] !== epoch) continue;
      const word = u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + s]!;
      const type = (word >>> 24) & 15;
      const o = 6 * slot;
      if (type !== CHILD_TYPE_NODE) {
        this.encodeSlot(node, s, box, o, false);
        continue;
      }
      const child = word & CHILD_INDEX_MASK;
      decodeSlotBox(this.u16, frame, node, s, decoded);
      let escapes = false;
      for (let k = 0; k < 3; k++) if (box[o + k]! < decoded[k]! || box[o + k + 3]! > decoded[k + 3]!) escapes = true;
      if (!escapes) {
        const loose = halfArea(decoded[3]! - decoded[0]!, decoded[4]! - decoded[1]!, decoded[5]! - decoded[2]!, this.radius);
        if (!(loose > this.options.narrowRatio * this.area(slot))) continue;
      }
      for (let k = 0; k < 6; k++) target[k] = box[o + k]!;
      if (escapes) {
        // Move only the escaped sides out, by the slack on top of what the content needs.
        const slack = this.escalatedSlack(this.options.widenSlack, child);
        for (let k = 0; k < 3; k++) {
          const pad = slack * (box[o + k + 3]! - box[o + k]!);
          if (box[o + k]! < decoded[k]!) target[k] = box[o + k]! - pad;
          if (box[o + k + 3]! > decoded[k + 3]!) target[k + 3] = box[o + k + 3]! + pad;
        }
      }
      const derivesFrame = child < state.firstShared && this.nodes.ownsFrame[child] !== 1;
      this.encodeSlot(node, s, target, 0, derivesFrame, box, o);
      if (!derivesFrame) continue;
      const c = 6 * child;
      let moved = false;
      for (let k = 0; k < 6; k++) if (frame[c + k] !== decoded[k]) moved = true;
      if (!moved) continue;
      frame.set(decoded, c);
      this.framesMoved++;
      // encodeWhole uses none of this loop's scratch (decoded, target).
      this.encodeWhole(child, true);
    }
  }

  /**
   * The slack of a widening of `node`'s box (the root: its frame): `slack`, doubled for each widening of
   * that node since the build, at most 2^MAX_SLACK_DOUBLINGS times. A crater dug deeper stroke by stroke
   * escapes the same boxes again and again, and each escape rewrites the boxes' nodes (and every kernel
   * patches them); doubling bounds those escapes to the logarithm of the depth dug. Only boxes that keep
   * escaping grow loose.
   */
  private escalatedSlack(slack: number, node: number): number {
    const widenings = this.state.widenings;
    const count = widenings[node]!;
    if (count < MAX_SLACK_DOUBLINGS) widenings[node] = count + 1;
    return slack * 2 ** count;
  }

  /**
   * Quantizes source[so..so + 5] into slot s of node n against the node's frame, exactly as the packer
   * does (quantizedLayout.ts), leaving the decoded box in `decoded` and checking that it contains the
   * slot's exact box (exact[eo..]; the source itself by default).
   */
  private encodeSlot(node: number, s: number, source: Float64Array, so: number, derivesFrame: boolean, exact = source, eo = so): void {
    const { u16, frame, decoded, state } = this;
    const f = 6 * node;
    const base = QUANTIZED_NODE_U16 * node + s;
    for (let k = 0; k < 3; k++) {
      const frameMin = frame[f + k]!;
      const step = (frame[f + k + 3]! - frameMin) * QUANT_STEP_SCALE;
      let qMin = quantizeMin(source[so + k]!, frameMin, step);
      let qMax = quantizeMax(source[so + k + 3]!, frameMin, step);
      let lo = frameMin + qMin * step;
      let hi = frameMin + qMax * step;
      if (derivesFrame && !frameSafe(lo, hi)) {
        qMin = 0;
        qMax = QUANT_MAX;
        lo = frameMin;
        hi = frameMin + QUANT_MAX * step;
      }
      if (!(lo <= exact[eo + k]! && hi >= exact[eo + k + 3]!)) {
        throw new ColliderscopeError(`internal: refit box of node ${node} slot ${s} does not contain its content on axis ${k}`);
      }
      u16[base + 4 * k] = qMin;
      u16[base + 4 * (k + 3)] = qMax;
      decoded[k] = lo;
      decoded[k + 3] = hi;
    }
    if (state.nodeWritten[node] !== this.epoch) {
      state.nodeWritten[node] = this.epoch;
      if (this.nodesReencoded === state.changedNodes.length) state.changedNodes = growInt32(state.changedNodes);
      state.changedNodes[this.nodesReencoded++] = node;
    }
  }

  /**
   * A root, shared or detached node's own frame := its content, made safe (quantizedLayout.ts), widened
   * by `slack` (escalatedSlack: doubled per earlier widening) of the extent on the sides where the
   * content escaped the old frame, or with slack 0 set to the content widened by `headroom` of its
   * extent on every side. Returns whether it changed; with slack > 0 it changes only when the content
   * escaped.
   */
  private setOwnFrame(node: number, slack: number, headroom = 0): boolean {
    const { frame, union, target } = this;
    this.unionOfSlots(node, 15, union);
    const f = 6 * node;
    if (slack > 0) {
      let escapes = false;
      for (let k = 0; k < 3; k++) if (union[k]! < frame[f + k]! || union[k + 3]! > frame[f + k + 3]!) escapes = true;
      if (!escapes) return false;
      slack = this.escalatedSlack(slack, node);
      for (let k = 0; k < 3; k++) {
        const pad = slack * (union[k + 3]! - union[k]!);
        target[k] = union[k]! < frame[f + k]! ? union[k]! - pad : Math.min(union[k]!, frame[f + k]!);
        target[k + 3] = union[k + 3]! > frame[f + k + 3]! ? union[k + 3]! + pad : Math.max(union[k + 3]!, frame[f + k + 3]!);
      }
    } else {
      target.set(union);
      // The full refit's root: the packer's headroom (layoutSpec.ts ROOT_FRAME_HEADROOM).
      widenFrame(target, headroom);
    }
    makeFrameSafe(target, 0);
    let moved = false;
    for (let k = 0; k < 6; k++) if (frame[f + k] !== target[k]) moved = true;
    if (!moved) return false;
    frame.set(target, f);
    if (node === 0) this.nodes.rootFrame.set(target);
    else if (node >= this.state.firstShared) this.nodes.sharedFrames.set(target, 6 * (node - this.state.firstShared));
    else this.nodes.ownFrames.set(target, 6 * node);
    return true;
  }

  /** out := the union of the exact boxes of `node`'s slots in the 4-bit set `owned`. */
  private unionOfSlots(node: number, owned: number, out: Float64Array): void {
    const { box, u32 } = this;
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    for (let s = 0; s < 4; s++) {
      if (((owned >> s) & 1) === 0 || slotType(u32, 4 * node + s) === 1) continue;
      const o = 24 * node + 6 * s;
      minX = Math.min(minX, box[o]!);
      minY = Math.min(minY, box[o + 1]!);
      minZ = Math.min(minZ, box[o + 2]!);
      maxX = Math.max(maxX, box[o + 3]!);
      maxY = Math.max(maxY, box[o + 4]!);
      maxZ = Math.max(maxZ, box[o + 5]!);
    }
    out[0] = minX;
    out[1] = minY;
    out[2] = minZ;
    out[3] = maxX;
    out[4] = maxY;
    out[5] = maxZ;
  }

  /** out := the box of a leaf slot's triangles (over their distinct vertices). */
  private leafBox(slot: number, out: Float64Array): void {
    const positions = this.bvh.positions;
    const { slotVertexStart, slotVertices } = this.state;
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    const end = slotVertexStart[slot + 1]!;
    for (let i = slotVertexStart[slot]!; i < end; i++) {
      const v = 3 * slotVertices[i]!;
      const x = positions[v]!,
        y = positions[v + 1]!,
        z = positions[v + 2]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
    out[0] = minX;
    out[1] = minY;
    out[2] = minZ;
    out[3] = maxX;
    out[4] = maxY;
    out[5] = maxZ;
  }

  /** Stores a slot's new exact box when it differs (SAH sum and float layout follow); returns whether it did. */
  private storeBox(slot: number, value: Float64Array): boolean {
    const box = this.box;
    const o = 6 * slot;
    if (
      box[o] === value[0] &&
      box[o + 1] === value[1] &&
      box[o + 2] === value[2] &&
      box[o + 3] === value[3] &&
      box[o + 4] === value[4] &&
      box[o + 5] === value[5]
    )
      return false;
    const weight = this.weight(slot);
    this.state.weightedArea -= weight * this.area(slot);
    box.set(value, o);
    this.state.weightedArea += weight * this.area(slot);
    if (this.f32 !== null) writeFloatBox(this.f32, box, slot);
    return true;
  }

  private area(slot: number): number {
    const box = this.box;
    const o = 6 * slot;
    return halfArea(box[o + 3]! - box[o]!, box[o + 4]! - box[o + 1]!, box[o + 5]! - box[o + 2]!, this.radius);
  }

  /** stats.ts' weight of a slot: 1 for a node, triangles · (triangle cost / traversal cost) for a leaf. */
  private weight(slot: number): number {
    const type = slotType(this.u32, slot);
    return type === CHILD_TYPE_NODE ? 1 : (type - 1) * this.triangleRatio;
  }
}

function growInt32(array: Int32Array): Int32Array {
  const grown = new Int32Array(2 * array.length);
  grown.set(array);
  return grown;
}
