/// <reference lib="webworker" />
import { buildBVH, generateTerrain, loadWasmBuilder, terrainMaterialInput, type BVH, type BVHBuilderName, type TerrainParams } from '../core';

/**
 * Builds terrain and then its BVH off the main thread, so a 2M-triangle mesh never freezes the page.
 * The terrain is posted as soon as it exists (copied: the worker still needs it for the BVH); the BVH
 * follows with its node buffers transferred and without the mesh arrays, which the page already has.
 */
export interface TerrainRequest {
  id: number;
  params: TerrainParams;
  /** A mesh to build the BVH over instead of generating the terrain (a rebuild after edits): copies, the worker keeps them. */
  mesh?: { positions: Float32Array; indices: Uint32Array; materials: Uint8Array };
  /** Which BVH builder runs (default 'typescript'); 'wasm' loads the module in this worker first and
   *  falls back to TypeScript where it cannot load (bvh.stats.builderFallback says why). */
  builder?: BVHBuilderName;
}

export type TerrainWorkerMessage =
  | { id: number; kind: 'progress'; fraction: number; stage: string }
  | { id: number; kind: 'terrain'; mesh: ReturnType<typeof generateTerrain> }
  | { id: number; kind: 'bvh'; bvh: BVH }
  | { id: number; kind: 'error'; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (event: MessageEvent<TerrainRequest>) => {
  const { id, params, builder = 'typescript', mesh: given } = event.data;
  const post = (message: TerrainWorkerMessage, transfer: Transferable[] = []): void => scope.postMessage(message, transfer);
  try {
    let mesh: { positions: Float32Array; indices: Uint32Array; materials: Uint8Array };
    if (given !== undefined) mesh = given;
    else {
      let lastPosted = -1;
      const terrain = generateTerrain(params, (fraction, stage) => {
        // Posting every row would flood the channel; whole percents are plenty for a progress bar.
        const percent = Math.floor(fraction * 100);
        if (percent === lastPosted) return;
        lastPosted = percent;
        post({ id, kind: 'progress', fraction, stage });
      });
      post({ id, kind: 'terrain', mesh: terrain });
      post({ id, kind: 'progress', fraction: -1, stage: `BVH over ${terrain.triangleCount.toLocaleString('en')} triangles` });
      mesh = terrain;
    }
    if (builder === 'wasm') await loadWasmBuilder();
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder }, terrainMaterialInput(mesh));
    const transfer: Transferable[] = [];
    if (bvh.quantized !== null) transfer.push(bvh.quantized.buffer);
    if (bvh.float !== null) transfer.push(bvh.float.buffer);
    if (bvh.triangleOrder !== null) transfer.push(bvh.triangleOrder.buffer);
    post({ id, kind: 'bvh', bvh: { ...bvh, positions: new Float32Array(0), indices: new Uint32Array(0) } }, transfer);
  } catch (error) {
    post({ id, kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
