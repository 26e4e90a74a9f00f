import { sharedKernel } from '../platform/loadWasm';
import { alignTo, growMemoryTo } from '../platform/moduleMemory';
import type { RefitState } from './refitState';

/** The exports of the compiled kernel (src/platform/assembly/bvhRefit/leafBoxes.ts). */
interface RefitKernelExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  leafBoxes(positions: number, slotVertexStart: number, slotVertices: number, leafSlots: number, leafCount: number, boxes: number): number;
}

/** Addresses inside the module's memory: the resident refit state's topology and the boxes. */
interface Layout {
  state: RefitState;
  positions: number;
  positionsLength: number;
  vertexStart: number;
  vertices: number;
  leafSlots: number;
  boxes: number;
}

/**
 * The WebAssembly SIMD leaf-box pass of the full refit (refit.ts): the same boxes, bit for bit, as the
 * TypeScript loop. Memory: heapBase → positions (f32, copied in on every call, 16 bytes of padding) |
 * slotVertexStart | slotVertices | leafSlots (the refit state's, copied once per state) | the leaf boxes
 * (6 × f64 per slot, copied back into the state's exact boxes). One state resident at a time; the
 * memory only grows.
 */
export class WasmRefitKernel {
  private readonly exports: RefitKernelExports;
  private layout: Layout | null = null;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as RefitKernelExports;
  }

  /** Bytes of module memory in use. */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** state.box := every leaf slot's box over `positions`; false (boxes unspecified) when a coordinate read is not finite. */
  leafBoxes(positions: Float32Array, state: RefitState): boolean {
    let layout = this.layout;
    if (layout === null || layout.state !== state || layout.positionsLength !== positions.length) layout = this.place(positions, state);
    const buffer = this.exports.memory.buffer;
    new Float32Array(buffer, layout.positions, positions.length).set(positions);
    const { leafSlots } = state;
    const check = this.exports.leafBoxes(layout.positions, layout.vertexStart, layout.vertices, layout.leafSlots, leafSlots.length, layout.boxes);
    if (check !== 0) return false;
    const boxes = new Float64Array(buffer, layout.boxes, state.box.length);
    const box = state.box;
    for (let i = 0; i < leafSlots.length; i++) {
      const o = 6 * leafSlots[i]!;
      box[o] = boxes[o]!;
      box[o + 1] = boxes[o + 1]!;
      box[o + 2] = boxes[o + 2]!;
      box[o + 3] = boxes[o + 3]!;
      box[o + 4] = boxes[o + 4]!;
      box[o + 5] = boxes[o + 5]!;
    }
    return true;
  }

  private place(positions: Float32Array, state: RefitState): Layout {
    const start = alignTo(this.exports.heapBase(), 16);
    const vertexStart = alignTo(start + 4 * positions.length + 16, 16);
    const vertices = alignTo(vertexStart + state.slotVertexStart.byteLength, 16);
    const leafSlots = alignTo(vertices + state.slotVertices.byteLength, 16);
    const boxes = alignTo(leafSlots + state.leafSlots.byteLength, 16);
    growMemoryTo(this.exports.memory, boxes + state.box.byteLength);
    const buffer = this.exports.memory.buffer;
    new Uint8Array(buffer, start + 4 * positions.length, 16).fill(0);
    new Uint32Array(buffer, vertexStart, state.slotVertexStart.length).set(state.slotVertexStart);
    new Uint32Array(buffer, vertices, state.slotVertices.length).set(state.slotVertices);
    new Int32Array(buffer, leafSlots, state.leafSlots.length).set(state.leafSlots);
    this.layout = { state, positions: start, positionsLength: positions.length, vertexStart, vertices, leafSlots, boxes };
    return this.layout;
  }
}

const KERNEL_URL = new URL('../platform/generated/bvhRefit.wasm', import.meta.url);
const shared = sharedKernel(KERNEL_URL, (instance) => new WasmRefitKernel(instance));

/** Loads the refit kernel once; null (see wasmRefitUnavailableReason) where it cannot run. */
export const loadWasmRefit = (): Promise<WasmRefitKernel | null> => shared.load();
/** The kernel once loaded, else null: refitBVH then runs its TypeScript loop. */
export const currentWasmRefit = (): WasmRefitKernel | null => shared.current();
export const wasmRefitUnavailableReason = (): string => shared.unavailableReason() || 'the WebAssembly refit kernel was not loaded (loadWasmRefit)';
