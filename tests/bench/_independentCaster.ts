/**
 * A worker thread for pool-rays.ts's ceiling row: builds its own copy of the benchmark's terrain, tree
 * and rays and its own single-thread SIMD kernel (nothing shared with the main thread but two signal
 * words), then casts the whole batch each time the main thread raises the go word, and says when done.
 * Words of the shared signal buffer: [0] go count (raised by the main thread), [1] done count (raised here).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { loadSimdRays } from '../../src/query/rays/simdRays';
import { generateTerrain } from '../../src/terrain/index';
import { incoherentRays } from './_raySets';

const { signals, cells, rays: count, seed } = workerData as { signals: SharedArrayBuffer; cells: number; rays: number; seed: number };
const words = new Int32Array(signals);
const kernel = (await loadSimdRays())!;
const mesh = generateTerrain({ cells, seed });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
const rays = incoherentRays(mesh, count, new Random(seed + cells));
const hits = { t: new Float32Array(count), triangle: new Int32Array(count) };
kernel.upload(bvh);
kernel.cast(bvh, rays, hits);
parentPort!.postMessage('ready');
for (let done = 0; ;) {
  Atomics.wait(words, 0, done);
  const go = Atomics.load(words, 0);
  if (go < 0) break;
  for (; done < go; done++) kernel.cast(bvh, rays, hits);
  Atomics.store(words, 1, done);
  Atomics.notify(words, 1);
}
