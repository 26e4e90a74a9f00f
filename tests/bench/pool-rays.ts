/**
 * The SIMD ray kernel on the worker pool (RayPool, shared memory) against the single-thread SIMD kernel
 * (SimdRayKernel.cast, one ray at a time), sweeping the thread count from 1 (the pool's path on the
 * calling thread alone) to the machine's hardware threads, plus one more (oversubscribed), on 100k
 * incoherent rays (origins above the terrain, random downward directions, _raySets.ts) over the 512
 * terrain (seed 20170302): the same rays and the same tree for every contender.
 *
 * The pool is timed through castNow, the path the page's ray emitters take inside a step (the caller
 * casts with the workers and spins on the shared memory until they are done).
 *
 * Both wall time (performance.now) and CPU time (process.cpuUsage: every thread of the process, so the
 * workers' time counts) are taken around each call. Rules: each contender from its own call site; one
 * warm-up cast each, discarded; then back-to-back pairs whose order alternates (single, pool, then pool,
 * single…); per thread count the median of the pair ratios and their spread (min–max, p10–p90 from 10
 * pairs). Wall speed-up = single wall / pool wall; CPU speed-up = single CPU / pool CPU (1.00: the split
 * added no work; below 1: spinning, staging and chunk claims cost CPU); cores used = pool CPU / pool wall
 * (on a shared, busy machine this says how much of the speed-up the scheduler allowed); parallel
 * efficiency = the threads' busy time over threads × wall; serial = the caller's staging and putting the
 * hits back (RayPoolCast.stagingMs), the part no thread count shortens. The hits are compared (bit for bit) only after
 * the timing. Results go to bench-results/pool-rays.json with the load average at start and end.
 *
 *   npx tsx tests/bench/pool-rays.ts              full run (512 terrain, 100k rays, 9 pairs per thread count)
 *   npx tsx tests/bench/pool-rays.ts --quick      smoke run (64 terrain, 5k rays, 3 pairs)
 *   options: --cells N  --rays N  --pairs N  --threads 1,2,…
 */
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import type { RayHits } from '../../src/query/rays/index';
import { RayPool } from '../../src/query/rays/rayPool';
import { loadSimdRays, simdRaysUnavailableReason } from '../../src/query/rays/simdRays';
import { generateTerrain } from '../../src/terrain/index';
import { cpuMs, median, type PairTimes } from './_pairedCpu';
import { BenchReport, formatSpread, pairedRow } from './_report';
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
const THREADS = (option('--threads') ?? Array.from({ length: HARDWARE_THREADS + 1 }, (_, i) => i + 1).join(',')).split(',').map(Number);
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
  /** The pool only: each thread's busy ms, the caller's serial part (staging, hits back) and its wait for workers. */
  busyMs?: number[];
  stagingMs?: number;
  waitMs?: number;
}
function timeSingle(hitsOut: RayHits): Sample {
  const wall = performance.now();
  const cpu = cpuMs();
  kernel!.cast(bvh, rays, hitsOut);
  return { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
}
function timePool(hitsOut: RayHits): Sample {
  const wall = performance.now();
  const cpu = cpuMs();
  const result = pool.castNow(bvh, rays, hitsOut);
  const sample = { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
  if (result === null) throw new Error('the pool cast nothing: a worker of an earlier cast was still busy');
  if (result.notices.length > 0) throw new Error(`the pool lost a worker: ${result.notices.join('; ')}`);
  return { ...sample, busyMs: result.busyMs, stagingMs: result.stagingMs, waitMs: result.waitMs };
}

const report = new BenchReport(import.meta.url, { cells: CELLS, rays: RAYS, pairs: PAIRS, threads: THREADS, seed: SEED, path: 'castNow' });
const load = loadavg();
console.log(
  `terrain ${CELLS}: ${mesh.triangleCount.toLocaleString('en')} triangles; ${RAYS.toLocaleString('en')} incoherent rays; ` +
    `${HARDWARE_THREADS} hardware threads; ${PAIRS} alternating pairs per thread count after a warm-up; ` +
    `shared memory ${(pool.memoryBytes / 1048576).toFixed(1)} MiB, BVH copied in once in ${uploadMs.toFixed(0)} ms; ` +
    `load average at start ${load.map((l) => l.toFixed(2)).join(' ')}`,
);
const times = (samples: Sample[], key: 'wallMs' | 'cpuMs'): number[] => samples.map((s) => s[key]);
const rows: string[] = [];
let failed = false;
for (const threads of THREADS) {
  await pool.setWorkers(threads - 1);
  timeSingle(singleHits);
  timePool(poolHits);
  const single: Sample[] = [];
  const pooled: Sample[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    if (pair % 2 === 0) {
      single.push(timeSingle(singleHits));
      pooled.push(timePool(poolHits));
    } else {
      pooled.push(timePool(poolHits));
      single.push(timeSingle(singleHits));
    }
    // Workers' answers (ignored by castNow) are taken off the queue between pairs.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const label = `${threads} thread${threads === 1 ? '' : 's'}${threads > HARDWARE_THREADS ? ' (oversubscribed)' : ''}`;
  const wallTimes: PairTimes = { oursMs: times(pooled, 'wallMs'), peerMs: times(single, 'wallMs'), repeats: 1 };
  const cpuTimes: PairTimes = { oursMs: times(pooled, 'cpuMs'), peerMs: times(single, 'cpuMs'), repeats: 1 };
  const unit = `cast of ${RAYS.toLocaleString('en')} rays`;
  const efficiency = median(pooled.map((s) => s.busyMs!.reduce((a, b) => a + b, 0) / (s.busyMs!.length * s.wallMs)));
  const coresUsed = median(pooled.map((s) => s.cpuMs / s.wallMs));
  const stagingMs = median(pooled.map((s) => s.stagingMs!));
  const waitMs = median(pooled.map((s) => s.waitMs!));
  const wall = report.add(pairedRow(`pool, ${label}: wall`, 'pool', 'single-thread SIMD', wallTimes, { unit, extra: { clock: 'wall', threads } }));
  const cpu = report.add(pairedRow(`pool, ${label}: CPU`, 'pool', 'single-thread SIMD', cpuTimes, { unit, extra: { clock: 'cpu', threads } }));
  report.addQuality({
    name: `pool, ${label}`,
    threads,
    parallelEfficiency: efficiency,
    coresUsed,
    mRaysPerS: RAYS / (wall.ourMs / 1000) / 1e6,
    stagingMs,
    waitMs,
  });
  rows.push(
    `${label.padEnd(26)} ${wall.peerMs.toFixed(1).padStart(9)} ${wall.ourMs.toFixed(1).padStart(8)}  ${(wall.ratio.toFixed(2) + ' (' + formatSpread(wall.spread) + ')').padStart(32)}` +
      `  ${(cpu.ratio.toFixed(2) + ' (' + formatSpread(cpu.spread) + ')').padStart(32)}  ${(RAYS / (wall.ourMs / 1000) / 1e6).toFixed(3).padStart(8)}` +
      `  ${coresUsed.toFixed(2).padStart(5)}  ${(100 * efficiency).toFixed(0).padStart(4)}%  ${stagingMs.toFixed(1).padStart(7)}  ${waitMs.toFixed(2).padStart(6)}`,
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

// The ceiling: two single-thread kernels at once, each on its own copy of the terrain, tree and rays
// (nothing shared, no chunks, no staging to split), against one alone, in alternating pairs. What two
// copies gain over one is the most any split of this work across two threads could gain on this
// machine at this moment: the cores the process gets, and what two walks cost each other (caches,
// memory bandwidth, and hyperthreads where the machine's threads share a core).
const signals = new Int32Array(new SharedArrayBuffer(8));
const casterUrl = new URL('./_independentCaster.ts', import.meta.url).href;
const caster = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(casterUrl)}); });`, {
  eval: true,
  workerData: { signals: signals.buffer, cells: CELLS, rays: RAYS, seed: SEED },
});
await new Promise((resolve, reject) => {
  caster.once('message', resolve);
  caster.once('error', reject);
});
let go = 0;
function timeTwoCopies(): Sample {
  const wall = performance.now();
  const cpu = cpuMs();
  Atomics.store(signals, 0, ++go);
  Atomics.notify(signals, 0);
  kernel!.cast(bvh, rays, singleHits);
  while (Atomics.load(signals, 1) !== go) Atomics.wait(signals, 1, go - 1, 1000);
  return { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
}
timeTwoCopies();
const alone: Sample[] = [];
const twoCopies: Sample[] = [];
for (let pair = 0; pair < PAIRS; pair++) {
  if (pair % 2 === 0) {
    alone.push(timeSingle(singleHits));
    twoCopies.push(timeTwoCopies());
  } else {
    twoCopies.push(timeTwoCopies());
    alone.push(timeSingle(singleHits));
  }
}
Atomics.store(signals, 0, -1);
Atomics.notify(signals, 0);
await caster.terminate();
// Per cast: a pair of copies' ms halved, so that the ratios read as the pool's (single ms / ms per cast).
const halved = (samples: Sample[], key: 'wallMs' | 'cpuMs'): number[] => samples.map((s) => s[key] / 2);
const ceilingUnit = `cast of ${RAYS.toLocaleString('en')} rays`;
const ceilingWall = report.add(
  pairedRow(
    'two independent copies: wall per cast',
    'two copies',
    'single-thread SIMD',
    { oursMs: halved(twoCopies, 'wallMs'), peerMs: times(alone, 'wallMs'), repeats: 1 },
    {
      unit: ceilingUnit,
      extra: { clock: 'wall', threads: 2 },
    },
  ),
);
const ceilingCpu = report.add(
  pairedRow(
    'two independent copies: CPU per cast',
    'two copies',
    'single-thread SIMD',
    { oursMs: halved(twoCopies, 'cpuMs'), peerMs: times(alone, 'cpuMs'), repeats: 1 },
    {
      unit: ceilingUnit,
      extra: { clock: 'cpu', threads: 2 },
    },
  ),
);
const ceilingCores = median(twoCopies.map((s) => s.cpuMs / s.wallMs));
report.addQuality({
  name: 'two independent copies (ceiling)',
  threads: 2,
  coresUsed: ceilingCores,
  mRaysPerS: RAYS / (ceilingWall.ourMs / 1000) / 1e6,
});
rows.push(
  `${'ceiling: 2 copies'.padEnd(26)} ${ceilingWall.peerMs.toFixed(1).padStart(9)} ${ceilingWall.ourMs.toFixed(1).padStart(8)}  ${(ceilingWall.ratio.toFixed(2) + ' (' + formatSpread(ceilingWall.spread) + ')').padStart(32)}` +
    `  ${(ceilingCpu.ratio.toFixed(2) + ' (' + formatSpread(ceilingCpu.spread) + ')').padStart(32)}  ${(RAYS / (ceilingWall.ourMs / 1000) / 1e6).toFixed(3).padStart(8)}` +
    `  ${ceilingCores.toFixed(2).padStart(5)}`,
);
report.note(failed ? 'hits differ from the single-thread kernel' : 'hits bit for bit those of the single-thread kernel at every thread count');
console.log(
  `\n${'threads'.padEnd(26)} ${'single ms'.padStart(9)} ${'pool ms'.padStart(8)}  ${'wall speed-up (min–max)'.padStart(32)}  ${'CPU speed-up (min–max)'.padStart(32)}  ${'M rays/s'.padStart(8)}  cores   eff  serial  wait`,
);
for (const row of rows) console.log(row);
console.log(
  '(ms: median wall ms per cast; speed-ups: single / pool, median of the pair ratios (min–max[, p10–p90]); M rays/s: the pool, from its median wall;\n' +
    ' cores: pool CPU ms / wall ms, the cores the process actually got; eff: parallel efficiency, busy time over threads × wall;\n' +
    " serial: the caller's ms staging the rays and putting the hits back, which no thread count shortens; wait: its ms waiting for workers' last chunks;\n" +
    " ceiling: two single-thread kernels at once, each on its own copy; pool ms: their ms per cast (half a pair's), the most a split over 2 threads could gain here)",
);
console.log(
  `load average at end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
report.finish();
process.exit(failed ? 1 : 0);
