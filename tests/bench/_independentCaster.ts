/**
 * A worker thread for the pool benchmarks' ceiling rows (pool-rays.ts, pool-capsules.ts,
 * pool-particles.ts): builds its own copy of the benchmark's terrain, tree and batch (rays, capsule
 * sweeps, or a particle world stepped to steady state) and its own single-thread SIMD kernel (nothing
 * shared with the main thread but two signal words), then runs the whole batch (for particles: `block`
 * steps) each time the main thread raises the go word, and says when done.
 * Words of the shared signal buffer: [0] go count (raised by the main thread), [1] done count (raised here).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildBVH } from '../../src/bvh/index';
import { ParticleSystem, Sandbox, loadSimdParticles, parseScene, showcaseEffects } from '../../src/core';
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
  particles = { budget: 0, block: 0, settle: 0 },
} = workerData as {
  signals: SharedArrayBuffer;
  cells: number;
  /** Rays, capsule sweeps, or particles alive on average. */
  rays: number;
  seed: number;
  kind?: 'rays' | 'capsules' | 'particles';
  particles?: { budget: number; block: number; settle: number };
};
const words = new Int32Array(signals);
let run: () => void;
if (kind === 'particles') {
  await loadSimdParticles();
  await loadSimdRays();
  const scene = parseScene({ name: 'pool-particles', seed, terrain: { cells } });
  const sandbox = new Sandbox(scene, undefined, 8);
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  const system = new ParticleSystem(
    showcaseEffects(sandbox.terrain, { particles: count, budget: particles.budget }),
    { seed, checkFallThrough: false },
    false,
  );
  sandbox.addSystem(system);
  for (let step = 0; step < particles.settle; step++) sandbox.step(1 / 60);
  run = () => {
    for (let step = 0; step < particles.block; step++) sandbox.step(1 / 60);
  };
} else if (kind === 'capsules') {
  const { mesh, bvh } = ground();
  const kernel = (await loadSimdCapsules())!;
  const batch = benchSweeps(mesh, count, new Random(seed + cells));
  const hits = createCapsuleHits(count);
  kernel.prepare(bvh);
  run = () => kernel.sweep(bvh, batch, hits);
} else {
  const { mesh, bvh } = ground();
  const kernel = (await loadSimdRays())!;
  const rays = incoherentRays(mesh, count, new Random(seed + cells));
  const hits = { t: new Float32Array(count), triangle: new Int32Array(count) };
  kernel.upload(bvh);
  run = () => kernel.cast(bvh, rays, hits);
}
/** The benchmark's terrain and tree. */
function ground(): { mesh: ReturnType<typeof generateTerrain>; bvh: ReturnType<typeof buildBVH> } {
  const mesh = generateTerrain({ cells, seed });
  return { mesh, bvh: buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] }) };
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
