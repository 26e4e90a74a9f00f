import { ColliderscopeError, TERRAIN_BUILDER, adoptRefitState, type BVH, type RefitState, type TerrainMesh, type TerrainParams } from '../core';
import type { MeshFileRequest, TerrainRequest, TerrainWorkerMessage } from './terrainWorker';

export type BuildProgress = (fraction: number, stage: string) => void;

interface PendingBuild {
  id: number;
  resolve: (mesh: TerrainMesh) => void;
  reject: (error: Error) => void;
  progress: BuildProgress;
  mesh: TerrainMesh | null;
}

/**
 * The main thread's handle on the terrain worker. Only the newest request matters: an older build
 * still running is abandoned (its worker is replaced), so dragging a slider never queues up builds.
 * `build` resolves with the terrain; the terrain's BVH arrives later through `onBvh`.
 */
export class TerrainBuilder {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending: PendingBuild | null = null;
  /** The newest BVH handed to onBvh and its request: the refit's bookkeeping over it follows. */
  private delivered: { id: number; bvh: BVH } | null = null;

  /** Called with each finished BVH, re-linked to the mesh arrays of the terrain it was built over. */
  onBvh: (bvh: BVH, mesh: TerrainMesh) => void = () => {};
  onBvhError: (message: string) => void = () => {};

  build(params: TerrainParams, progress: BuildProgress): Promise<TerrainMesh> {
    return this.request({ params, builder: TERRAIN_BUILDER }, [], progress);
  }

  /**
   * Reads a mesh file in the worker and places it as the terrain (its bytes are transferred: the caller
   * gives them up). Resolves with the terrain, or rejects with the file's problem; its BVH follows through `onBvh`.
   */
  buildMesh(file: MeshFileRequest, params: TerrainParams, progress: BuildProgress): Promise<TerrainMesh> {
    const transfer = file.bytes.buffer instanceof ArrayBuffer ? [file.bytes.buffer] : [];
    return this.request({ params, builder: 'wasm', meshFile: file }, transfer, progress);
  }

  private request(request: Omit<TerrainRequest, 'id'>, transfer: Transferable[], progress: BuildProgress): Promise<TerrainMesh> {
    if (this.pending !== null) {
      // Stop the stale build outright; a fresh worker starts in a few milliseconds.
      this.worker?.terminate();
      this.worker = null;
      if (this.pending.mesh === null) this.pending.reject(new BuildSuperseded());
      this.pending = null;
    }
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<TerrainMesh>((resolve, reject) => {
      this.pending = { id, resolve, reject, progress, mesh: null };
      worker.postMessage({ id, ...request } satisfies TerrainRequest, transfer);
    });
  }

  /**
   * Builds a fresh BVH over the terrain as it is now (after edits degraded the refitted one), in the
   * worker from copies of its arrays; it arrives through `onBvh`. A terrain build asked for meanwhile
   * replaces it. Returns false (and does nothing) while another build runs.
   */
  rebuildBvh(mesh: TerrainMesh): boolean {
    if (this.pending !== null) return false;
    const worker = this.ensureWorker();
    const id = this.nextId++;
    this.pending = { id, resolve: () => {}, reject: () => {}, progress: () => {}, mesh };
    const copy = { positions: mesh.positions.slice(), indices: mesh.indices.slice(), materials: mesh.materials.slice() };
    worker.postMessage({ id, params: mesh.params, builder: TERRAIN_BUILDER, mesh: copy } satisfies TerrainRequest, [
      copy.positions.buffer,
      copy.indices.buffer,
      copy.materials.buffer,
    ]);
    return true;
  }

  /** Whether a build (terrain or BVH) is still running. */
  get busy(): boolean {
    return this.pending !== null;
  }

  private ensureWorker(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(new URL('./terrainWorker.ts', import.meta.url), { type: 'module', name: 'terrain' });
    worker.onmessage = (event: MessageEvent<TerrainWorkerMessage>) => {
      const message = event.data;
      if (message.kind === 'refit-state') {
        if (this.delivered?.id === message.id) adoptQuietly(this.delivered.bvh, message.refitState);
        return;
      }
      const pending = this.pending;
      if (pending === null || pending.id !== message.id) return;
      if (message.kind === 'progress') {
        pending.progress(message.fraction, message.stage);
      } else if (message.kind === 'terrain') {
        pending.mesh = message.mesh;
        pending.resolve(message.mesh);
      } else if (message.kind === 'bvh') {
        this.pending = null;
        const mesh = pending.mesh!;
        const bvh: BVH = { ...message.bvh, positions: mesh.positions, indices: mesh.indices };
        if (message.refitState !== null) adoptQuietly(bvh, message.refitState);
        this.delivered = { id: message.id, bvh };
        this.onBvh(bvh, mesh);
      } else {
        this.pending = null;
        if (pending.mesh === null) pending.reject(new ColliderscopeError(message.message));
        else this.onBvhError(message.message);
      }
    };
    worker.onerror = (event) => {
      const pending = this.pending;
      this.pending = null;
      this.worker = null;
      const error = new ColliderscopeError(`terrain worker failed: ${event.message}`);
      if (pending?.mesh === null) pending.reject(error);
      else if (pending !== null) this.onBvhError(error.message);
    };
    this.worker = worker;
    return worker;
  }
}

/** A worker's refit bookkeeping that does not fit is dropped: the first edit then makes its own. */
function adoptQuietly(bvh: BVH, state: RefitState): void {
  try {
    adoptRefitState(bvh, state);
  } catch {
    // Nothing lost: prepareRefit runs on the main thread before the first edit instead.
  }
}

/** The rejection of a build that a newer request replaced; callers ignore it. */
export class BuildSuperseded extends Error {
  constructor() {
    super('terrain build superseded by a newer one');
    this.name = 'BuildSuperseded';
  }
}
