import { ColliderscopeError } from '../errors';
import { sharedKernel } from '../platform/loadWasm';
import type { BuildTree } from './buildTree';
import { MAX_BVH_TRIANGLES, validateMesh } from './meshInput';
import type { BuildOptions } from './options';
import { QUANTIZED_NODE_BYTES } from './layoutSpec';
import type { WideTree } from './wideTree';

/** The exports of the compiled builder (src/platform/assembly/bvhBuild/buildWide.ts). */
interface BuilderExports {
  readonly memory: WebAssembly.Memory;
  plan(vertexCount: number, triangleCount: number): number;
  buildTree(
    triangleCount: number,
    bins: number,
    maxLeafSize: number,
    traversalCost: number,
    triangleCost: number,
    sweptRadius: number,
    bigLittle: number,
    wastedSlotPenalty: number,
    wastedSlotFadeDepth: number,
    shareLeaves: number,
  ): number;
  packNodes(): number;
  meshIsValid(vertexCount: number, triangleCount: number): number;
  binaryNodeCount(): number;
  wideNodeCount(): number;
  firstSharedNode(): number;
  positionsAt(): number;
  indicesAt(): number;
  triangleOrderAt(): number;
  nodeBoxesAt(): number;
  leftAt(): number;
  rightAt(): number;
  leafStartAt(): number;
  leafCountAt(): number;
  leavesBelowAt(): number;
  wideKindAt(): number;
  wideRefAt(): number;
  wideSourceAt(): number;
  wideDepthAt(): number;
  sharedFramesAt(): number;
  maskIndexAt(): number;
  quantizedAt(): number;
  rootFrameAt(): number;
}

/** The trees of one WebAssembly build, copied out of the module, and the step that packs their nodes. */
export interface WasmBuiltTrees {
  readonly tree: BuildTree;
  readonly wide: WideTree;
  /** Packs the quantized nodes with each wide node's mask index (collisionMasks.ts). */
  pack(nodeMaskIndex: Uint8Array): { buffer: ArrayBuffer; rootFrame: Float64Array; sharedFrames: Float64Array };
}

/**
 * The WebAssembly SIMD builder's TypeScript face: copies the mesh into the module, runs the binned SAH
 * build, collapse and leaf sharing there, and copies the trees out as the same BuildTree / WideTree the
 * TypeScript builder produces, so the collision masks, stats and float layout are computed as for any
 * tree. The module lays out its own memory (arena.ts); one build at a time, and the memory only grows.
 */
export class WasmBVHBuilder {
  private readonly exports: BuilderExports;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as BuilderExports;
  }

  /** Bytes of module memory in use (it grows to the largest mesh built, never shrinks). */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /**
   * Builds the trees; null when the module's memory could not grow to hold them. Throws
   * InvalidParameterError for a malformed mesh (the module checks it; validateMesh names the fault).
   */
  build(positions: Float32Array, indices: Uint32Array, options: BuildOptions): WasmBuiltTrees | null {
    const x = this.exports;
    // The shapes first (whole triangles, typed arrays), before anything is copied.
    if (!(positions instanceof Float32Array) || !(indices instanceof Uint32Array) || positions.length % 3 !== 0 || indices.length % 3 !== 0)
      validateMesh(positions, indices);
    const triangleCount = indices.length / 3;
    if (triangleCount > MAX_BVH_TRIANGLES) validateMesh(positions, indices);
    let ok: boolean;
    try {
      ok = x.plan(positions.length / 3, triangleCount) !== 0;
    } catch {
      ok = false;
    }
    if (!ok) return null;
    new Float32Array(x.memory.buffer, x.positionsAt(), positions.length).set(positions);
    new Uint32Array(x.memory.buffer, x.indicesAt(), indices.length).set(indices);
    if (x.meshIsValid(positions.length / 3, triangleCount) !== 1) {
      validateMesh(positions, indices);
      throw new ColliderscopeError('internal: the WebAssembly builder rejected a mesh that validateMesh accepts');
    }
    const status = x.buildTree(
      triangleCount,
      options.bins,
      options.maxLeafSize,
      options.traversalCost,
      options.triangleCost,
      options.sweptRadius,
      options.bigLittleSplit ? 1 : 0,
      options.wastedSlotPenalty,
      options.wastedSlotFadeDepth,
      options.shareHalfFullLeaves ? 1 : 0,
    );
    if (status !== 0) return null;
    const buffer = x.memory.buffer;
    const nodeCount = x.binaryNodeCount();
    const boxes = new Float32Array(buffer, x.nodeBoxesAt(), 8 * nodeCount);
    const bounds = new Float64Array(6 * nodeCount);
    for (let node = 0; node < nodeCount; node++) {
      const from = 8 * node;
      const to = 6 * node;
      bounds[to] = boxes[from]!;
      bounds[to + 1] = boxes[from + 1]!;
      bounds[to + 2] = boxes[from + 2]!;
      bounds[to + 3] = boxes[from + 4]!;
      bounds[to + 4] = boxes[from + 5]!;
      bounds[to + 5] = boxes[from + 6]!;
    }
    const copyInt32 = (at: number, length: number): Int32Array => new Int32Array(buffer, at, length).slice();
    const tree: BuildTree = {
      nodeCount,
      bounds,
      left: copyInt32(x.leftAt(), nodeCount),
      right: copyInt32(x.rightAt(), nodeCount),
      leafStart: copyInt32(x.leafStartAt(), nodeCount),
      leafCount: copyInt32(x.leafCountAt(), nodeCount),
      leavesBelow: copyInt32(x.leavesBelowAt(), nodeCount),
      triangleOrder: new Uint32Array(buffer, x.triangleOrderAt(), triangleCount).slice(),
      referenceCount: triangleCount,
      triangleCount,
      spatialSplitCount: 0,
    };
    const wideCount = x.wideNodeCount();
    const firstShared = x.firstSharedNode();
    const sharedFrames = new Float64Array(buffer, x.sharedFramesAt(), 6 * (wideCount - firstShared)).slice();
    const wide: WideTree = {
      nodeCount: wideCount,
      kind: new Uint8Array(buffer, x.wideKindAt(), 4 * wideCount).slice(),
      ref: copyInt32(x.wideRefAt(), 4 * wideCount),
      source: copyInt32(x.wideSourceAt(), 4 * wideCount),
      depth: copyInt32(x.wideDepthAt(), wideCount),
      firstShared,
      sharedFrames,
    };
    const pack = (nodeMaskIndex: Uint8Array): { buffer: ArrayBuffer; rootFrame: Float64Array; sharedFrames: Float64Array } => {
      new Uint8Array(x.memory.buffer, x.maskIndexAt(), wideCount).set(nodeMaskIndex.subarray(0, wideCount));
      const failed = x.packNodes();
      if (failed !== 0) throw new ColliderscopeError(`internal: quantized box of node ${failed - 1} does not contain its child`);
      const memory = x.memory.buffer;
      const nodes = new Uint8Array(memory, x.quantizedAt(), QUANTIZED_NODE_BYTES * wideCount).slice().buffer;
      return {
        buffer: nodes,
        rootFrame: new Float64Array(memory, x.rootFrameAt(), 6).slice(),
        sharedFrames: new Float64Array(memory, x.sharedFramesAt(), 6 * (wideCount - firstShared)).slice(),
      };
    };
    return { tree, wide, pack };
  }
}

const KERNEL_URL = new URL('../platform/generated/bvhBuild.wasm', import.meta.url);
const shared = sharedKernel(KERNEL_URL, (instance) => new WasmBVHBuilder(instance));

/** Loads the WebAssembly builder once; null (see wasmBuilderUnavailableReason) where it cannot run. */
export const loadWasmBuilder = (): Promise<WasmBVHBuilder | null> => shared.load();
/** The builder once loaded, else null: buildBVH then falls back to the TypeScript builder. */
export const currentWasmBuilder = (): WasmBVHBuilder | null => shared.current();
export const wasmBuilderUnavailableReason = (): string => shared.unavailableReason() || 'the WebAssembly builder was not loaded (loadWasmBuilder)';
