import { ColliderscopeError, type TerrainMesh, type TerrainParams } from '../core';
import type { TerrainRequest, TerrainWorkerMessage } from './terrainWorker';

export type BuildProgress = (fraction: number, stage: string) => void;

/**
 * The main thread's handle on the terrain worker. Only the newest request matters: an older build
 * still running is abandoned (its worker is replaced), so dragging a slider never queues up builds.
 */
export class TerrainBuilder {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending: { id: number; resolve: (mesh: TerrainMesh) => void; reject: (error: Error) => void; progress: BuildProgress } | null = null;

  build(params: TerrainParams, progress: BuildProgress): Promise<TerrainMesh> {
    if (this.pending !== null) {
      // Stop the stale build outright; a fresh worker starts in a few milliseconds.
      this.worker?.terminate();
      this.worker = null;
      this.pending.reject(new BuildSuperseded());
      this.pending = null;
    }
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<TerrainMesh>((resolve, reject) => {
      this.pending = { id, resolve, reject, progress };
      worker.postMessage({ id, params } satisfies TerrainRequest);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(new URL('./terrainWorker.ts', import.meta.url), { type: 'module', name: 'terrain' });
    worker.onmessage = (event: MessageEvent<TerrainWorkerMessage>) => {
      const message = event.data;
      const pending = this.pending;
      if (pending === null || pending.id !== message.id) return;
      if (message.kind === 'progress') {
        pending.progress(message.fraction, message.stage);
      } else if (message.kind === 'done') {
        this.pending = null;
        pending.resolve(message.mesh);
      } else {
        this.pending = null;
        pending.reject(new ColliderscopeError(message.message));
      }
    };
    worker.onerror = (event) => {
      const pending = this.pending;
      this.pending = null;
      this.worker = null;
      pending?.reject(new ColliderscopeError(`terrain worker failed: ${event.message}`));
    };
    this.worker = worker;
    return worker;
  }
}

/** The rejection of a build that a newer request replaced; callers ignore it. */
export class BuildSuperseded extends Error {
  constructor() {
    super('terrain build superseded by a newer one');
    this.name = 'BuildSuperseded';
  }
}
