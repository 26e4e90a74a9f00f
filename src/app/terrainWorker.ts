/// <reference lib="webworker" />
import { generateTerrain, type TerrainParams } from '../core';

/**
 * Builds terrain off the main thread so a 2M-triangle mesh never freezes the page. Progress is posted
 * as it goes; the finished arrays are transferred, not copied.
 */
export interface TerrainRequest {
  id: number;
  params: TerrainParams;
}

export type TerrainWorkerMessage =
  | { id: number; kind: 'progress'; fraction: number; stage: string }
  | { id: number; kind: 'done'; mesh: ReturnType<typeof generateTerrain> }
  | { id: number; kind: 'error'; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<TerrainRequest>) => {
  const { id, params } = event.data;
  try {
    let lastPosted = -1;
    const mesh = generateTerrain(params, (fraction, stage) => {
      // Posting every row would flood the channel; whole percents are plenty for a progress bar.
      const percent = Math.floor(fraction * 100);
      if (percent === lastPosted) return;
      lastPosted = percent;
      scope.postMessage({ id, kind: 'progress', fraction, stage } satisfies TerrainWorkerMessage);
    });
    scope.postMessage({ id, kind: 'done', mesh } satisfies TerrainWorkerMessage, [mesh.positions.buffer, mesh.indices.buffer, mesh.normals.buffer, mesh.heights.buffer]);
  } catch (error) {
    scope.postMessage({ id, kind: 'error', message: error instanceof Error ? error.message : String(error) } satisfies TerrainWorkerMessage);
  }
};
