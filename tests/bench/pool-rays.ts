/**
 * The SIMD ray kernel on the worker pool (RayPool, shared memory) against the single-thread SIMD kernel
 * (SimdRayKernel.cast, one ray at a time), for every thread count from 1 (the pool's path on the
 * calling thread alone) to the machine's hardware threads, on 100k incoherent rays (origins above the
 * terrain, random downward directions, _raySets.ts) over the 512 terrain (seed 20170302).
 *
 * Both wall time (performance.now) and CPU time (process.cpuUsage: every thread of the process, so the
 * workers' time counts) are reported. Rules: each contender from its own call site; one warm-up cast
 * each, discarded; then back-to-back pairs whose order alternates (single, pool, then pool, single…);
 * per thread count the median of the pair ratios and their spread (min–max). Speed-up = single wall /
 * pool wall; CPU cost = pool CPU / single CPU (1.00: no work added by the split); cores used = CPU / wall
 * (on a shared, busy machine this says how much of the speed-up the scheduler allowed). The hits are compared
 * (bit for bit) only after the timing.
 *
 *   npx tsx tests/bench/pool-rays.ts              full run (512 terrain, 100k rays, 9 pairs per thread count)
 *   npx tsx tests/bench/pool-rays.ts --quick      smoke run (64 terrain, 5k rays, 3 pairs)
 *   options: --cells N  --rays N  --pairs N  --threads 1,2,…
 */
import { cpus } from 'node:os';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import type { RayHits } from '../../src/query/rays/index';
import { RayPool } from '../../src/query/rays/rayPool';
import { loadSimdRays, simdRaysUnavailableReason } from '../../src/query/rays/simdRays';
import { generateTerrain } from '../../src/terrain/index';
import { cpuMs, median, quantile } from './_pairedCpu';
import { incoherentRays } from './_raySets';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = Number(option('--cells') ?? (quick ? 64 : 512));
const RAYS = Number(option('--rays') ?? (quick ? 5_000 : 100_000));
const PAIRS = Number(option('--pairs') ?? (quick ? 3 : 9));
const HARDWARE_THREADS = cpus().length;
const THREADS = (option('--threads') ?? Array.from({ length: HARDWARE_THREADS }, (_, i) => i + 1).join(',')).split(',').map(Number);
const SEED = 20170302;

const kernel = await loadSimdRays();
if (kernel === null) {
  console.error(`WebAssembly SIMD rays unavailable: ${simdRaysUnavailableReason()}`);
  process.exit(1);
}
const mesh = generateTerrain({ cells: CELLS, seed: SEED });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
const rays = incoherentRays(mesh, RAYS, new Random(SEED + CELLS));
const emptyHits = (): RayHits => ({ t: new Float32Array(RAYS), triangle: new Int32Array(RAYS) });
const singleHits = emptyHits();
const poolHits = emptyHits();

const pool = await RayPool.create({ workers: 0 });
kernel.upload(bvh);
const uploadStart = performance.now();
pool.upload(bvh);
const uploadMs = performance.now() - uploadStart;

interface Sample {
  wallMs: number;
  cpuMs: number;
}
function timeSingle(hitsOut: RayHits): Sample {
  const wall = performance.now();
  const cpu = cpuMs();
  kernel!.cast(bvh, rays, hitsOut);
  return { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
}
async function timePool(hitsOut: RayHits): Promise<Sample> {
  const wall = performance.now();
  const cpu = cpuMs();
  const result = await pool.cast(bvh, rays, hitsOut);
  const sample = { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
  if (result.notices.length > 0) throw new Error(`the pool lost a worker: ${result.notices.join('; ')}`);
  return sample;
}

console.log(
  `terrain ${CELLS}: ${mesh.triangleCount.toLocaleString('en')} triangles; ${RAYS.toLocaleString('en')} incoherent rays; ` +
    `${HARDWARE_THREADS} hardware threads; ${PAIRS} alternating pairs per thread count after a warm-up; ` +
    `shared memory ${(pool.memoryBytes / 1048576).toFixed(1)} MiB, BVH copied in once in ${uploadMs.toFixed(0)} ms`,
);
const spread = (values: number[]): string => `${median(values).toFixed(2)} (${quantile(values, 0).toFixed(2)}–${quantile(values, 1).toFixed(2)})`;
const rows: string[] = [];
let failed = false;
for (const threads of THREADS) {
  await pool.setWorkers(threads - 1);
  timeSingle(singleHits);
  await timePool(poolHits);
  const single: Sample[] = [];
  const pooled: Sample[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    if (pair % 2 === 0) {
      single.push(timeSingle(singleHits));
      pooled.push(await timePool(poolHits));
    } else {
      pooled.push(await timePool(poolHits));
      single.push(timeSingle(singleHits));
    }
  }
  const speedUp = single.map((s, i) => s.wallMs / pooled[i]!.wallMs);
  const cpuCost = single.map((s, i) => pooled[i]!.cpuMs / s.cpuMs);
  const rate = RAYS / (median(pooled.map((s) => s.wallMs)) / 1000);
  rows.push(
    `${String(threads).padStart(7)}  ${median(single.map((s) => s.wallMs))
      .toFixed(1)
      .padStart(9)}  ${median(single.map((s) => s.cpuMs))
      .toFixed(1)
      .padStart(9)}  ` +
      `${median(pooled.map((s) => s.wallMs))
        .toFixed(1)
        .padStart(9)}  ${median(pooled.map((s) => s.cpuMs))
        .toFixed(1)
        .padStart(9)}  ` +
      `${spread(speedUp).padStart(18)}  ${spread(cpuCost).padStart(18)}  ${(rate / 1e6).toFixed(3).padStart(9)}  ` +
      `${median(single.map((s) => s.cpuMs / s.wallMs))
        .toFixed(2)
        .padStart(6)}  ${median(pooled.map((s) => s.cpuMs / s.wallMs))
        .toFixed(2)
        .padStart(6)}`,
  );
  // Correctness after the timing: the pool's hits are the single-thread kernel's, bit for bit.
  let differ = 0;
  for (let i = 0; i < RAYS; i++) if (singleHits.triangle[i] !== poolHits.triangle[i] || !Object.is(singleHits.t[i], poolHits.t[i])) differ++;
  if (differ > 0) {
    console.error(`${threads} threads: ${differ} rays differ from the single-thread kernel`);
    failed = true;
  }
}
await pool.close();
console.log('\nthreads  single ms  single CPU  pool ms  pool CPU   speed-up (wall)      CPU cost       M rays/s  cores used: single  pool');
for (const row of rows) console.log(row);
console.log(
  '(ms: medians per cast; speed-up and CPU cost: median of the pair ratios (min–max); M rays/s: the pool, from its median wall time;\n' +
    ' cores used: CPU ms / wall ms, the cores the process actually got: below the thread count, the machine was busy with others)',
);
process.exit(failed ? 1 : 0);
