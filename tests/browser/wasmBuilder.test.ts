import { describe, expect, it } from 'vitest';
import type { TerrainRequest, TerrainWorkerMessage } from '../../src/app/terrainWorker';
import { LIGHT_TERRAIN, openPage, useHarness, waitForBvh } from './harness';

const harness = useHarness('dev');

interface WorkerBuild {
  builder: string;
  fallback: string;
  buildMs: number;
  nodes: number;
  error: string;
}

describe('the WebAssembly BVH builder in the page’s terrain worker', () => {
  it('loads through Vite inside the worker and builds the terrain’s tree there', async () => {
    const { page, errors } = await openPage(harness, LIGHT_TERRAIN);
    await waitForBvh(page);
    // A second terrain worker, asked for the WebAssembly builder, as the page's would be.
    const request: TerrainRequest = { id: 1, params: { cells: 64, seed: 5 } as TerrainRequest['params'], builder: 'wasm' };
    const result = await page.evaluate(
      (message) =>
        new Promise<WorkerBuild>((resolve) => {
          const worker = new Worker('/src/app/terrainWorker.ts', { type: 'module' });
          worker.onmessage = (event: MessageEvent<TerrainWorkerMessage>) => {
            const reply = event.data;
            if (reply.kind === 'bvh') {
              const { builder, builderFallback, buildMs, nodes } = reply.bvh.stats;
              resolve({ builder, fallback: builderFallback, buildMs, nodes, error: '' });
              worker.terminate();
            } else if (reply.kind === 'error') resolve({ builder: '', fallback: '', buildMs: 0, nodes: 0, error: reply.message });
          };
          worker.postMessage(message);
        }),
      request,
    );
    expect(result.error).toBe('');
    expect(result.fallback).toBe('');
    expect(result.builder).toBe('wasm');
    expect(result.nodes).toBeGreaterThan(100);
    expect(errors).toEqual([]);
  });
});
