import { KIND_STATIC, type BroadPhase } from './broadPhase';

/**
 * A moving set of boxes for the broad-phases: one definition serves the tests, the benchmark, the
 * headless runner and the sandbox. Box i has id i; `advance` moves some of them and lists which.
 */
export interface BroadPhaseScene {
  readonly name: string;
  readonly count: number;
  /** minX, minY, minZ, maxX, maxY, maxZ per box. */
  readonly boxes: Float64Array;
  /** KIND_STATIC or KIND_DYNAMIC per box. */
  readonly kinds: Uint8Array;
  /** Ids moved by the last `advance`, in `moved[0..movedCount)`. */
  readonly moved: Int32Array;
  readonly movedCount: number;
  /** Moves the scene one frame, `dt` frames' worth of motion (1 = the scene's own speed). */
  advance(dt?: number): void;
}

/** Inserts every box of the scene. */
export function populateBroadPhase(broadPhase: BroadPhase, scene: BroadPhaseScene): void {
  for (let i = 0; i < scene.count; i++) broadPhase.insert(i, scene.boxes, scene.kinds[i] === KIND_STATIC ? 'static' : 'dynamic', 6 * i);
}

/** Updates the boxes the last `advance` moved. */
export function applySceneMoves(broadPhase: BroadPhase, scene: BroadPhaseScene): void {
  const moved = scene.moved;
  for (let k = 0; k < scene.movedCount; k++) {
    const id = moved[k]!;
    broadPhase.update(id, scene.boxes, 6 * id);
  }
}
