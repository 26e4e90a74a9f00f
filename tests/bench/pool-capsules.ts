/**
 * The SIMD capsule sweep on the worker pool (CapsulePool, shared memory) against the single-thread SIMD
 * kernel (SimdCapsuleKernel.sweep), at 1 thread (the pool's path on the calling thread alone) and 2
 * (the caller and one worker) by default, on 10k capsule sweeps (capsule.ts's: random orientation, r 0.5,
 * half-height 1, 5 above the surface, moved 20 units in a direction uniform on the sphere, _capsuleSets.ts)
 * over the 512 terrain (seed 20170302): the same sweeps and the same tree for every contender.
 *
 * The pool is timed through sweepNow, the path the capsule crowd takes inside a step (the caller sweeps
 * with the workers and waits on the shared memory until they are done).
 *
 * Both wall time (performance.now) and CPU time (process.cpuUsage: every thread of the process, so the
 * workers' time counts) are taken around each call. Rules: each contender from its own call site; one
 * warm-up cast each, discarded; then back-to-back pairs whose order alternates (single, pool, then pool,
 * single…); per thread count the median of the pair ratios and their spread (min–max, p10–p90 from 10
 * pairs). Wall speed-up = single wall / pool wall; CPU speed-up = single CPU / pool CPU (1.00: the split
 * added no work; below 1: spinning, staging and chunk claims cost CPU); cores used = pool CPU / pool wall
 * (on a shared, busy machine this says how much of the speed-up the scheduler allowed); parallel
 * efficiency = the threads' busy time over threads × wall; serial = the caller's staging and putting the
 * contacts back (CapsulePoolSweep.stagingMs), the part no thread count shortens. The contacts and
 * counters are compared (bit for bit) only after the timing. The ceiling row runs two single-thread
 * kernels at once, each on its own copy (_independentCaster.ts). Results go to
 * bench-results/pool-capsules.json with the load average at start and end.
 *
 *   npx tsx tests/bench/pool-capsules.ts              full run (512 terrain, 10k sweeps, 9 pairs per thread count)
 *   npx tsx tests/bench/pool-capsules.ts --quick      smoke run (64 terrain, 1k sweeps, 3 pairs)
 *   options: --cells N  --sweeps N  --pairs N  --threads 1,2,…
 */
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { createCapsuleHits, type CapsuleHits, type SweepCounters } from '../../src/query/capsule/index';
import { CapsulePool } from '../../src/query/capsule/capsulePool';
import { loadSimdCapsules, simdCapsulesUnavailableReason } from '../../src/query/capsule/simdCapsules';
import { generateTerrain } from '../../src/terrain/index';
import { benchSweeps } from './_capsuleSets';
import { cpuMs, median, type PairTimes } from './_pairedCpu';
import { BenchReport, formatSpread, pairedRow } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = Number(option('--cells') ?? (quick ? 64 : 512));
const SWEEPS = Number(option('--sweeps') ?? (quick ? 1_000 : 10_000));
const PAIRS = Number(option('--pairs') ?? (quick ? 3 : 9));
const HARDWARE_THREADS = cpus().length;
const THREADS = (option('--threads') ?? '1,2').split(',').map(Number);
const SEED = 20170302;

const kernel = await loadSimdCapsules();
if (kernel === null) {
  console.error(`WebAssembly SIMD capsules unavailable: ${simdCapsulesUnavailableReason()}`);
  process.exit(1);
}
const mesh = generateTerrain({ cells: CELLS, seed: SEED });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
const batch = benchSweeps(mesh, SWEEPS, new Random(SEED + CELLS));
const singleHits = createCapsuleHits(SWEEPS);
const poolHits = createCapsuleHits(SWEEPS);
let singleCounters: SweepCounters | null = null;
let poolCounters: SweepCounters | null = null;

const pool = await CapsulePool.create({ workers: 0 });
kernel.prepare(bvh);
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
function timeSingle(hitsOut: CapsuleHits): Sample {
  const wall = performance.now();
  const cpu = cpuMs();
  singleCounters = kernel!.sweep(bvh, batch, hitsOut);
  return { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
}
function timePool(hitsOut: CapsuleHits): Sample {
  const wall = performance.now();
  const cpu = cpuMs();
  const result = pool.sweepNow(bvh, batch, hitsOut);
  const sample = { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
  if (result === null) throw new Error('the pool swept nothing: a worker of an earlier sweep was still busy');
  if (result.notices.length > 0) throw new Error(`the pool lost a worker: ${result.notices.join('; ')}`);
  poolCounters = result.counters;
  return { ...sample, busyMs: result.busyMs, stagingMs: result.stagingMs, waitMs: result.waitMs };
}

const report = new BenchReport(import.meta.url, { cells: CELLS, sweeps: SWEEPS, pairs: PAIRS, threads: THREADS, seed: SEED, path: 'sweepNow' });
const load = loadavg();
console.log(
  `terrain ${CELLS}: ${mesh.triangleCount.toLocaleString('en')} triangles; ${SWEEPS.toLocaleString('en')} capsule sweeps; ` +
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
    // Workers' answers (ignored by sweepNow) are taken off the queue between pairs.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const label = `${threads} thread${threads === 1 ? '' : 's'}${threads > HARDWARE_THREADS ? ' (oversubscribed)' : ''}`;
  const wallTimes: PairTimes = { oursMs: times(pooled, 'wallMs'), peerMs: times(single, 'wallMs'), repeats: 1 };
  const cpuTimes: PairTimes = { oursMs: times(pooled, 'cpuMs'), peerMs: times(single, 'cpuMs'), repeats: 1 };
  const unit = `sweep of ${SWEEPS.toLocaleString('en')} capsules`;
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
    mSweepsPerS: SWEEPS / (wall.ourMs / 1000) / 1e6,
    stagingMs,
    waitMs,
  });
  rows.push(
    `${label.padEnd(26)} ${wall.peerMs.toFixed(1).padStart(9)} ${wall.ourMs.toFixed(1).padStart(8)}  ${(wall.ratio.toFixed(2) + ' (' + formatSpread(wall.spread) + ')').padStart(32)}` +
      `  ${(cpu.ratio.toFixed(2) + ' (' + formatSpread(cpu.spread) + ')').padStart(32)}  ${(SWEEPS / (wall.ourMs / 1000) / 1e6).toFixed(3).padStart(8)}` +
      `  ${coresUsed.toFixed(2).padStart(5)}  ${(100 * efficiency).toFixed(0).padStart(4)}%  ${stagingMs.toFixed(1).padStart(7)}  ${waitMs.toFixed(2).padStart(6)}`,
  );
  // Correctness after the timing: the pool's contacts and counters are the single-thread kernel's, bit for bit.
  let differ = 0;
  for (let i = 0; i < SWEEPS; i++) {
    let same = singleHits.triangle[i] === poolHits.triangle[i] && Object.is(singleHits.toi[i], poolHits.toi[i]);
    for (let a = 0; a < 3 && same; a++)
      same = Object.is(singleHits.point[3 * i + a], poolHits.point[3 * i + a]) && Object.is(singleHits.normal[3 * i + a], poolHits.normal[3 * i + a]);
    if (!same) differ++;
  }
  if (differ > 0 || JSON.stringify(singleCounters) !== JSON.stringify(poolCounters)) {
    console.error(`${threads} threads: ${differ} contacts differ from the single-thread kernel, or the counters do`);
    failed = true;
  }
}
await pool.close();

// The ceiling: two single-thread kernels at once, each on its own copy of the terrain, tree and sweeps
// (nothing shared, no chunks, no staging to split), against one alone, in alternating pairs. What two
// copies gain over one is the most any split of this work across two threads could gain on this
// machine at this moment: the cores the process gets, and what two walks cost each other (caches,
// memory bandwidth, and hyperthreads where the machine's threads share a core).
const signals = new Int32Array(new SharedArrayBuffer(8));
const casterUrl = new URL('./_independentCaster.ts', import.meta.url).href;
const caster = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(casterUrl)}); });`, {
  eval: true,
  workerData: { signals: signals.buffer, cells: CELLS, rays: SWEEPS, seed: SEED, kind: 'capsules' },
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
  kernel!.sweep(bvh, batch, singleHits);
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
// Per sweep: a pair of copies' ms halved, so that the ratios read as the pool's (single ms / ms per sweep).
const halved = (samples: Sample[], key: 'wallMs' | 'cpuMs'): number[] => samples.map((s) => s[key] / 2);
const ceilingUnit = `sweep of ${SWEEPS.toLocaleString('en')} capsules`;
const ceilingWall = report.add(
  pairedRow(
    'two independent copies: wall per sweep',
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
    'two independent copies: CPU per sweep',
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
  mSweepsPerS: SWEEPS / (ceilingWall.ourMs / 1000) / 1e6,
});
rows.push(
  `${'ceiling: 2 copies'.padEnd(26)} ${ceilingWall.peerMs.toFixed(1).padStart(9)} ${ceilingWall.ourMs.toFixed(1).padStart(8)}  ${(ceilingWall.ratio.toFixed(2) + ' (' + formatSpread(ceilingWall.spread) + ')').padStart(32)}` +
    `  ${(ceilingCpu.ratio.toFixed(2) + ' (' + formatSpread(ceilingCpu.spread) + ')').padStart(32)}  ${(SWEEPS / (ceilingWall.ourMs / 1000) / 1e6).toFixed(3).padStart(8)}` +
    `  ${ceilingCores.toFixed(2).padStart(5)}`,
);
report.note(
  failed
    ? 'contacts differ from the single-thread kernel'
    : 'contacts and counters bit for bit those of the single-thread kernel at every thread count',
);
console.log(
  `\n${'threads'.padEnd(26)} ${'single ms'.padStart(9)} ${'pool ms'.padStart(8)}  ${'wall speed-up (min–max)'.padStart(32)}  ${'CPU speed-up (min–max)'.padStart(32)}  ${'M sw/s'.padStart(8)}  cores   eff  serial  wait`,
);
for (const row of rows) console.log(row);
console.log(
  '(ms: median wall ms per sweep of the batch; speed-ups: single / pool, median of the pair ratios (min–max[, p10–p90]); M sw/s: million capsule sweeps per s, the pool, from its median wall;\n' +
    ' cores: pool CPU ms / wall ms, the cores the process actually got; eff: parallel efficiency, busy time over threads × wall;\n' +
    " serial: the caller's ms staging the capsules and copying the contacts out, which no thread count shortens; wait: its ms waiting for workers' last chunks;\n" +
    " ceiling: two single-thread kernels at once, each on its own copy; pool ms: their ms per sweep (half a pair's), the most a split over 2 threads could gain here)",
);
console.log(
  `load average at end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
report.finish();
process.exit(failed ? 1 : 0);
