/**
 * A worker thread for the pool benchmarks' ceiling rows (pool-rays.ts, pool-capsules.ts): builds its
 * own copy of the benchmark's terrain, tree and batch (rays, or capsule sweeps) and its own
 * single-thread SIMD kernel (nothing shared with the main thread but two signal words), then runs the
 * whole batch each time the main thread raises the go word, and says when done.
 * Words of the shared signal buffer: [0] go count (raised by the main thread), [1] done count (raised here).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { createCapsuleHits } from '../../src/query/capsule/index';
import { loadSimdCapsules } from '../../src/query/capsule/simdCapsules';
import { loadSimdRays } from '../../src/query/rays/simdRays';
import { generateTerrain } from '../../src/terrain/index';
import { benchSweeps } from './_capsuleSets';
import { incoherentRays } from './_raySets';

const {
  signals,
  cells,
  rays: count,
  seed,
  kind = 'rays',
} = workerData as { signals: SharedArrayBuffer; cells: number; rays: number; seed: number; kind?: 'rays' | 'capsules' };
const words = new Int32Array(signals);
const mesh = generateTerrain({ cells, seed });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
let run: () => void;
if (kind === 'capsules') {
  const kernel = (await loadSimdCapsules())!;
  const batch = benchSweeps(mesh, count, new Random(seed + cells));
  const hits = createCapsuleHits(count);
  kernel.prepare(bvh);
  run = () => kernel.sweep(bvh, batch, hits);
} else {
  const kernel = (await loadSimdRays())!;
  const rays = incoherentRays(mesh, count, new Random(seed + cells));
  const hits = { t: new Float32Array(count), triangle: new Int32Array(count) };
  kernel.upload(bvh);
  run = () => kernel.cast(bvh, rays, hits);
}
run();
parentPort!.postMessage('ready');
for (let done = 0; ;) {
  Atomics.wait(words, 0, done);
  const go = Atomics.load(words, 0);
  if (go < 0) break;
  for (; done < go; done++) run();
  Atomics.store(words, 1, done);
  Atomics.notify(words, 1);
}
