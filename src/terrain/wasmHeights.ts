import { sharedKernel } from '../platform/loadWasm';
import { alignTo, growMemoryTo } from '../platform/moduleMemory';
import type { MultifractalPlan, TerrainKind } from './multifractal';

/** The exports of the compiled kernel (src/platform/assembly/terrain/multifractalRows.ts). */
interface HeightsKernelExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  multifractalRows(
    perm: number,
    weights: number,
    kind: number,
    wholeOctaves: number,
    remainder: number,
    lacunarity: number,
    offset: number,
    gain: number,
    side: number,
    rowStart: number,
    rowEnd: number,
    step: number,
    latticeOffset: number,
    out: number,
  ): void;
}

const KIND_CODES: Readonly<Record<TerrainKind, number>> = { fbm: 0, hybrid: 1, ridged: 2, hetero: 3 };

/**
 * The terrain's raw multifractal heights in WebAssembly: the same f64 operations in the same order as
 * multifractal.ts, so the values are bit-identical (a test compares every kind), without the
 * TypeScript loop's JIT warm-up on the first terrains a slider drag asks for. Memory: heapBase →
 * permutation (512 bytes) | weights (f64 per octave) | the heights (f64 per vertex); it only grows.
 */
export class WasmHeightsKernel {
  private readonly exports: HeightsKernelExports;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as HeightsKernelExports;
  }

  /**
   * raw[row · side + col] for every row of a side² grid, in slices of rows so `onRows(rowsDone)` can
   * report progress between them.
   */
  fill(plan: MultifractalPlan, side: number, step: number, latticeOffset: number, raw: Float64Array, onRows?: (rowsDone: number) => void): void {
    const { exports } = this;
    const perm = alignTo(exports.heapBase(), 16);
    const weights = alignTo(perm + plan.noise.permutation.byteLength, 16);
    const out = alignTo(weights + plan.weights.byteLength, 16);
    growMemoryTo(exports.memory, out + 8 * side * side);
    const buffer = exports.memory.buffer;
    new Uint8Array(buffer, perm, plan.noise.permutation.length).set(plan.noise.permutation);
    new Float64Array(buffer, weights, plan.weights.length).set(plan.weights);
    const kind = KIND_CODES[plan.kind];
    const slice = Math.max(1, Math.floor(side / 50));
    for (let row = 0; row < side; row += slice) {
      const end = Math.min(side, row + slice);
      exports.multifractalRows(
        perm,
        weights,
        kind,
        plan.wholeOctaves,
        plan.remainder,
        plan.lacunarity,
        plan.offset,
        plan.gain,
        side,
        row,
        end,
        step,
        latticeOffset,
        out,
      );
      onRows?.(end);
    }
    raw.set(new Float64Array(exports.memory.buffer, out, side * side));
  }
}

const KERNEL_URL = new URL('../platform/generated/terrain.wasm', import.meta.url);
const shared = sharedKernel(KERNEL_URL, (instance) => new WasmHeightsKernel(instance));

/** Loads the heights kernel once; null (see wasmHeightsUnavailableReason) where it cannot run. */
export const loadWasmHeights = (): Promise<WasmHeightsKernel | null> => shared.load();
/** The kernel once loaded, else null: generateTerrain then runs its TypeScript loop. */
export const currentWasmHeights = (): WasmHeightsKernel | null => shared.current();
export const wasmHeightsUnavailableReason = (): string =>
  shared.unavailableReason() || 'the WebAssembly terrain kernel was not loaded (loadWasmHeights)';
