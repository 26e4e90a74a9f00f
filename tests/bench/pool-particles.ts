/**
 * The particle step with its WebAssembly phases on the worker pool (ParticlePool, shared memory)
 * against the same step on the single-thread kernel (SimdParticleKernel), at 1 thread (the pool's
 * path on the calling thread alone) and 2 (the caller and one worker) by default, on the showcase
 * effects over the 512 terrain: 100,000 and 1,000,000 particles, 1,000 rays a frame.
 *
 * Two worlds are made alike (same scene, seed and effects) and stepped to steady state together; the
 * pool's world then runs its move, cache lookups and net scan on the pool (ParticleSystem.usePool),
 * the other on one thread. Both step the same frames from the same state, so each block of steps does
 * the same work in both; their particles are compared (state hash) after the timing. The spawn and the
 * raycasts stay on the calling thread in both (the rays have their own pool: pool-rays.ts).
 *
 * Timing: back-to-back pairs of BLOCK steps, the order alternating (single, pool, then pool, single…),
 * each world from its own call site, after a discarded warm-up block each. Wall time (performance.now)
 * and CPU time (process.cpuUsage: every thread of the process, so the worker's time counts) per step;
 * per thread count the median of the pair ratios (single / pool: how many times faster the pool's step
 * is) and their spread (min–max, p10–p90 from 10 pairs). "pooled phases" is the wall time of the three
 * phases the pool runs (move + cache + ground, the system's phase timers), the part threads can shorten;
 * "caller" is the calling thread's share of the chunks. The ceiling row steps two single-thread worlds at
 * once, this thread's and a worker thread's own copy, against one alone (ceilingRow). Results go to
 * bench-results/pool-particles.json.
 *
 *   npx tsx tests/bench/pool-particles.ts            full run (100k and 1M particles, 1 and 2 threads, 11 pairs)
 *   npx tsx tests/bench/pool-particles.ts --quick    smoke run (128 terrain, 10k particles, 3 pairs)
 *   options: --cells N  --sizes N,N  --pairs N  --threads 1,2,…  --block N
 */
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  ParticlePool,
  ParticleSystem,
  PARTICLE_PHASES,
  StateHasher,
  loadSimdParticles,
  loadSimdRays,
  simdParticlesUnavailableReason,
} from '../../src/core';
import { cpuMs, median, type PairTimes } from './_pairedCpu';
import { SCENE_SEED, particleWorld, type ParticleWorld } from './_particleBench';
import { BenchReport, formatSpread, pairedRow } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = Number(option('--cells') ?? (quick ? 128 : 512));
const SIZES = (option('--sizes') ?? (quick ? '10000' : '100000,1000000')).split(',').map(Number);
const PAIRS = Number(option('--pairs') ?? (quick ? 3 : 11));
const BLOCK = Number(option('--block') ?? (quick ? 3 : 10));
const THREADS = (option('--threads') ?? '1,2').split(',').map(Number);
const BUDGET = quick ? 100 : 1000;
const SETTLE = quick ? 60 : 300;
const DT = 1 / 60;
const HARDWARE_THREADS = cpus().length;
/** The issue's targets: a step of 100,000 particles in 2 ms and of 1,000,000 in 12 ms on 2 threads. */
const TARGET_MS: Record<number, number> = { 100000: 2, 1000000: 12 };

if ((await loadSimdParticles()) === null) {
  console.error(`WebAssembly SIMD particles unavailable: ${simdParticlesUnavailableReason()}`);
  process.exit(1);
}
await loadSimdRays();

/** ParticleWorlds made one after another on one terrain share its mesh and tree (particleParticleWorld says why). */
const world = (particles: number): ParticleWorld =>
  particleWorld('pool-particles', { cells: CELLS }, { checkFallThrough: false }, { particles, budget: BUDGET });
const hashOf = (system: ParticleSystem): string => {
  const hasher = new StateHasher();
  system.hash(hasher);
  return hasher.digest();
};

interface Block {
  wallMs: number;
  cpuMs: number;
  /** Wall ms of the phases the pool runs (move + cache + ground), summed over the block. */
  pooledMs: number;
}
const POOLED_PHASES = ['move', 'cache', 'ground'] as const;
function stepBlock(w: ParticleWorld): Block {
  let pooledMs = 0;
  const wall = performance.now();
  const cpu = cpuMs();
  for (let i = 0; i < BLOCK; i++) {
    w.sandbox.step(DT);
    for (const phase of POOLED_PHASES) pooledMs += w.system.phaseMs[phase];
  }
  return { wallMs: (performance.now() - wall) / BLOCK, cpuMs: (cpuMs() - cpu) / BLOCK, pooledMs: pooledMs / BLOCK };
}
// Each contender from its own call site.
const stepSingle = (w: ParticleWorld): Block => stepBlock(w);
const stepPooled = (w: ParticleWorld): Block => stepBlock(w);

/**
 * The ceiling: two single-thread worlds stepped at once, this one and a worker thread's own copy
 * (_independentCaster.ts: its own terrain, tree, particles and kernels, nothing shared), against this
 * one alone, in alternating pairs of BLOCK steps. What two copies gain over one (per step, the pair's
 * time halved) is the most any split of this step across two threads could gain on this machine at
 * this moment: the cores the process gets, and what two steps cost each other (caches, memory bandwidth).
 */
async function ceilingRow(single: ParticleWorld, particles: number): Promise<string> {
  const signals = new Int32Array(new SharedArrayBuffer(8));
  const url = new URL('./_independentCaster.ts', import.meta.url).href;
  const copy = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`, {
    eval: true,
    workerData: {
      signals: signals.buffer,
      cells: CELLS,
      rays: particles,
      seed: SCENE_SEED,
      kind: 'particles',
      particles: { budget: BUDGET, block: BLOCK, settle: SETTLE },
    },
  });
  await new Promise((resolve, reject) => {
    copy.once('message', resolve);
    copy.once('error', reject);
  });
  let go = 0;
  const twoAtOnce = (): Block => {
    Atomics.store(signals, 0, ++go);
    Atomics.notify(signals, 0);
    const block = stepBlock(single);
    const wall = performance.now();
    while (Atomics.load(signals, 1) !== go) Atomics.wait(signals, 1, go - 1, 1000);
    // The block's own wall time, plus any wait for the copy to finish its block.
    return { ...block, wallMs: block.wallMs + (performance.now() - wall) / BLOCK };
  };
  twoAtOnce();
  const alone: Block[] = [];
  const both: Block[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    if (pair % 2 === 0) {
      alone.push(stepSingle(single));
      both.push(twoAtOnce());
    } else {
      both.push(twoAtOnce());
      alone.push(stepSingle(single));
    }
  }
  Atomics.store(signals, 0, -1);
  Atomics.notify(signals, 0);
  await copy.terminate();
  // Two steps' work per step of wall time: the pair's wall halved reads as the pool's step would.
  const halved = (blocks: Block[]): number[] => blocks.map((block) => block.wallMs / 2);
  const label = `${(particles / 1000).toLocaleString('en')}k particles, ceiling: 2 copies`;
  const wall = report.add(
    pairedRow(
      `${label}: step wall`,
      'two copies',
      'single-thread SIMD',
      { oursMs: halved(both), peerMs: alone.map((b) => b.wallMs), repeats: BLOCK },
      {
        unit: 'particle step',
        extra: { particles, threads: 2, clock: 'wall', ceiling: true },
      },
    ),
  );
  return `${label.padEnd(28)} ${wall.peerMs.toFixed(2).padStart(7)} ${wall.ourMs.toFixed(2).padStart(7)}  ${(wall.ratio.toFixed(2) + ' (' + formatSpread(wall.spread) + ')').padStart(30)}`;
}

const report = new BenchReport(import.meta.url, {
  cells: CELLS,
  sizes: SIZES,
  pairs: PAIRS,
  block: BLOCK,
  threads: THREADS,
  budget: BUDGET,
  settle: SETTLE,
});
console.log(
  `terrain ${CELLS}; showcase effects, ${BUDGET.toLocaleString('en')} rays a frame; ${HARDWARE_THREADS} hardware threads; ` +
    `${PAIRS} alternating pairs of ${BLOCK} steps per thread count after ${SETTLE} steps together and a warm-up block; ` +
    `load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
const pool = await ParticlePool.create({ workers: 0, stragglerWaitMs: 60_000 });
const lines: string[] = [];
let failed = false;
for (const particles of SIZES) {
  const single = world(particles);
  const pooled = world(particles);
  pooled.system.usePool(pool);
  for (let i = 0; i < SETTLE; i++) {
    single.sandbox.step(DT);
    pooled.sandbox.step(DT);
  }
  const alive = single.system.frame.alive;
  for (const threads of THREADS) {
    await pool.setWorkers(threads - 1);
    stepSingle(single);
    stepPooled(pooled);
    pool.resetWork();
    const a: Block[] = [];
    const b: Block[] = [];
    const phases: Record<string, number[]> = {};
    for (let pair = 0; pair < PAIRS; pair++) {
      if (pair % 2 === 0) {
        a.push(stepSingle(single));
        b.push(stepPooled(pooled));
      } else {
        b.push(stepPooled(pooled));
        a.push(stepSingle(single));
      }
      for (const phase of PARTICLE_PHASES) (phases[phase] ??= []).push(pooled.system.phaseMs[phase]);
    }
    const label = `${(particles / 1000).toLocaleString('en')}k particles, ${threads} thread${threads === 1 ? '' : 's'}`;
    const pick = (blocks: Block[], key: keyof Block): number[] => blocks.map((block) => block[key]);
    const unit = 'particle step';
    const times = (key: keyof Block): PairTimes => ({ oursMs: pick(b, key), peerMs: pick(a, key), repeats: BLOCK });
    const wall = report.add(
      pairedRow(`${label}: step wall`, 'pool', 'single-thread SIMD', times('wallMs'), { unit, extra: { particles, threads, clock: 'wall' } }),
    );
    const cpu = report.add(
      pairedRow(`${label}: step CPU`, 'pool', 'single-thread SIMD', times('cpuMs'), { unit, extra: { particles, threads, clock: 'cpu' } }),
    );
    const phased = report.add(
      pairedRow(`${label}: pooled phases wall`, 'pool', 'single-thread SIMD', times('pooledMs'), {
        unit: 'move + cache + ground',
        extra: { particles, threads },
      }),
    );
    const work = pool.work;
    const callerShare = work.chunks > 0 ? work.chunksOnCaller / work.chunks : 1;
    report.addQuality({ name: label, particles, alive, threads, callerShare, jobsAlone: work.jobsAlone, target: TARGET_MS[particles] ?? null });
    lines.push(
      `${label.padEnd(28)} ${wall.peerMs.toFixed(2).padStart(7)} ${wall.ourMs.toFixed(2).padStart(7)}  ${(wall.ratio.toFixed(2) + ' (' + formatSpread(wall.spread) + ')').padStart(30)}` +
        `  ${(cpu.ratio.toFixed(2) + ' (' + formatSpread(cpu.spread) + ')').padStart(30)}  ${phased.peerMs.toFixed(2).padStart(6)} ${phased.ourMs.toFixed(2).padStart(6)}  ${(phased.ratio.toFixed(2) + ' (' + formatSpread(phased.spread) + ')').padStart(30)}` +
        `  ${(100 * callerShare).toFixed(0).padStart(4)}%  ${PARTICLE_PHASES.filter((p) => p !== 'verify')
          .map((p) => `${p} ${median(phases[p]!).toFixed(2)}`)
          .join(' ')}`,
    );
    // Correctness after the timing: the same particles in both worlds.
    if (hashOf(single.system) !== hashOf(pooled.system)) {
      console.error(`${label}: the pool's particles differ from the single-thread kernel's`);
      failed = true;
    }
  }
  lines.push(await ceilingRow(single, particles));
  console.log(`${particles.toLocaleString('en')} particles: ${alive.toLocaleString('en')} alive at steady state`);
  pooled.system.usePool(null);
}
await pool.close();
console.log(
  `\n${'contenders'.padEnd(28)} ${'single'.padStart(7)} ${'pool'.padStart(7)}  ${'step wall ×'.padStart(30)}  ${'step CPU ×'.padStart(30)}  ${'phases'.padStart(6)} ${'pool'.padStart(6)}  ${'pooled phases wall ×'.padStart(30)}  caller  pool's phase medians (ms)`,
);
for (const line of lines) console.log(line);
console.log('ms per step (medians); × = single / pool, median of the pairs (min–max)');
report.finish({ loadavgEnd: loadavg() });
if (failed) process.exit(1);
