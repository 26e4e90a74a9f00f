/**
 * A worker of the particle pool (particlePool.ts), in a page or a Node worker thread: the pool worker's
 * loop (src/platform/poolWorkerLoop.ts) over the shared-memory particle kernel.
 */

import { servePoolWorker } from '../platform/poolWorkerLoop';
import { particleChunkRunner, type ParticleChunkJob, type SharedParticleExports } from './particleChunks';

await servePoolWorker<SharedParticleExports, ParticleChunkJob>(particleChunkRunner);
