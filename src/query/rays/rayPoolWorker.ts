/**
 * A worker of the ray pool (rayPool.ts), in a page or a Node worker thread: the pool worker's loop
 * (src/platform/poolWorkerLoop.ts) over the shared-memory ray kernel.
 */

import { servePoolWorker } from '../../platform/poolWorkerLoop';
import { rayChunkRunner, type RayChunkJob, type SharedRayExports } from './rayChunks';

await servePoolWorker<SharedRayExports, RayChunkJob>(rayChunkRunner);
