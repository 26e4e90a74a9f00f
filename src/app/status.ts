/**
 * What the page reports about itself as `window.colliderscope.status`, for the browser tests and the
 * curious. Tests rely on these names and meanings: add fields, do not rename them.
 */
export interface AppStatus {
  /** Frames drawn. */
  frames: number;
  /** Terrain builds finished, and whether one is running. */
  builds: number;
  building: boolean;
  /** BVH builds installed, whether one is running, and the last one's node count. */
  bvhBuilds: number;
  bvhBuilding: boolean;
  bvhNodes: number;
  /** Triangles the installed BVH is built over. */
  bvhTriangles: number;
  /** The mesh file the ground is ('' for a generated terrain). */
  meshFile: string;
  /** The scene on screen, its triangles and how long its terrain took to generate. */
  scene: string;
  triangles: number;
  generationMs: number;
  /** The last message shown to the user ('' while none was). */
  lastError: string;
  /** The simulation's own frame counter (pauses, steps back, restarts). */
  simFrame: number;
  paused: boolean;
  recording: boolean;
  recordedFrames: number;
  benchmarking: boolean;
  benchmarkResult: string;
  /** Threads of the thread sweep's benchmark under way (0: none), and the last sweep's table. */
  sweepThreads: number;
  sweepResult: string;
  presenting: boolean;
  /** The presenter's slide, -1 before presenter mode was first entered. */
  slide: number;
}

export function newStatus(): AppStatus {
  return {
    frames: 0,
    builds: 0,
    building: false,
    bvhBuilds: 0,
    bvhBuilding: false,
    bvhNodes: 0,
    bvhTriangles: 0,
    meshFile: '',
    scene: '',
    triangles: 0,
    generationMs: 0,
    lastError: '',
    simFrame: 0,
    paused: false,
    recording: false,
    recordedFrames: 0,
    benchmarking: false,
    benchmarkResult: '',
    sweepThreads: 0,
    sweepResult: '',
    presenting: false,
    slide: -1,
  };
}
