/**
 * A worker of the capsule pool (capsulePool.ts), in a page or a Node worker thread: the pool worker's
 * loop (src/platform/poolWorkerLoop.ts) over the shared-memory capsule kernel.
 */

import { servePoolWorker } from '../../platform/poolWorkerLoop';
import { capsuleChunkRunner, type CapsuleChunkJob, type SharedCapsuleExports } from './capsuleChunks';

await servePoolWorker<SharedCapsuleExports, CapsuleChunkJob>(capsuleChunkRunner);
