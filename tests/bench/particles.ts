/**
 * Particle collision on a budget against one raycast per particle per frame, in one run, from the same
 * particles: 100,000 particles of the showcase effects (sparks, fountain, debris, one casing) on the
 * 512-cell terrain (524,288 triangles), 1,000 raycasts per frame for all effects together.
 *
 * The effects are first run to steady state once (on the budget); every mode then starts from that
 * snapshot with empty caches, runs WARM frames in its own mode (discarded) and is measured over FRAMES
 * frames of 1/60 s. Rows:
 *   budget      this system's defaults: surface-keyed cache, lookups on cell change, rays to the needy first,
 *               particles moved, caches asked and rays cast in WebAssembly (the move and the rays on SIMD)
 *   2 threads   the same with the move, the cache lookups and the net on a ParticlePool of the calling
 *               thread and one worker (the same bits, so the same particles; CPU counts both threads)
 *   TypeScript  the same with the move, the cache lookups and the rays in TypeScript (the same bits, so
 *               the same particles)
 *   hit cells   the same, but a raycast hit stores its plane only in the cache column it hit, not over its
 *               whole triangle (SurfaceStores' footprints off)
 *   original    the scheme as first described: trajectory keys, lookups at spawn and bounce, uniform picks
 *   reference   one raycast per live particle per frame (no cache needed)
 * Each mode first runs TIMED frames with the check off, timed in CPU (process.cpuUsage) in blocks of 5 frames,
 * paired (_pairedCpu.ts) with the reference stepping a world of its own restored from the same snapshot:
 * back-to-back blocks, the order alternating, each from its own timing loop; "cpu × ref" is the median of
 * the pairs' mode / reference step-time ratios (below 1: cheaper than the reference) with its spread
 * (table and JSON from _report.ts). The measured frames follow, on the mode's world.
 * "step" is the simulation (spawn, wind, move, rays, cache and the heightfield net's "ground"); "check"
 * is the fall-through check against the true surface, which only measuring needs. Fell through = lives
 * that were ever below the true surface by more than their radius; below = share of particle-frames
 * spent there.
 *
 *   npx tsx tests/bench/particles.ts            full run (≈ 1 min, half of it the reference mode)
 *   npx tsx tests/bench/particles.ts --quick    smoke run (128-cell terrain, 10k particles, a few seconds)
 */
import {
  PARTICLE_PHASES,
  ParticlePool,
  loadSimdParticles,
  loadSimdRays,
  simdParticlesUnavailableReason,
  simdRaysUnavailableReason,
  type ParticlePhaseMs,
  type ParticleSystemOptions,
  type ParticleSystemState,
} from '../../src/core';
import { pairedCpu, timed } from './_pairedCpu';
import { BUDGET, DT, PARTICLES, TARGET_FELL, TARGET_MS, particleWorld, quick, type ParticleWorld } from './_particleBench';
import { BenchReport, formatSpread, pairedRow, type PairedRow } from './_report';

const CELLS = quick ? 128 : 512;
const SETTLE = quick ? 120 : 420;
const WARM = quick ? 20 : 60;
const FRAMES = quick ? 60 : 600;
/** Frames timed for CPU, with the fall-through check off (it is only for measuring), before the measured ones. */
const TIMED = quick ? 30 : 300;
/** Frames per timed chunk: a pair is BLOCK frames of the mode and BLOCK of the reference (one frame alone is too short for process.cpuUsage). */
const BLOCK = 5;

interface Mode {
  name: string;
  options: Partial<ParticleSystemOptions>;
  /** Pool workers beside the calling thread for the move, cache lookups and net (ParticlePool); none: one thread. */
  workers?: number;
}

const MODES: Mode[] = [
  { name: `budget ${BUDGET.toLocaleString('en')}`, options: { mode: 'budget' } },
  { name: `budget, 2 threads`, options: { mode: 'budget' }, workers: 1 },
  { name: `budget, TypeScript`, options: { mode: 'budget', kernel: 'typescript' } },
  { name: `budget, hit cells only`, options: { mode: 'budget', footprints: false } },
  { name: `original ${BUDGET.toLocaleString('en')}`, options: { mode: 'budget', keying: 'trajectory', cellLookups: false, pick: 'uniform' } },
  { name: 'reference', options: { mode: 'reference' } },
];

interface Row {
  name: string;
  alive: number;
  stepMedian: number;
  stepP95: number;
  /** CPU ms of one step (check off), per block of BLOCK frames over TIMED frames: median, 5th and 95th percentiles, least and most. */
  cpu: { median: number; p5: number; p95: number; min: number; max: number };
  /** The TIMED frames paired with the reference's (null for the reference itself). */
  paired: PairedRow | null;
  checkMedian: number;
  cpuPerStep: number;
  phases: Record<keyof ParticlePhaseMs, number>;
  raysPerFrame: number;
  hitRate: number;
  lookupsPerFrame: number;
  fell: number;
  below: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
};
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

/** A fixed amount of arithmetic, timed: how fast this machine is right now (other work shares it). */
function calibrate(): number {
  const data = new Float32Array(1 << 16);
  for (let i = 0; i < data.length; i++) data[i] = i * 0.5;
  let best = Infinity;
  for (let round = 0; round < 20; round++) {
    const start = performance.now();
    let sum = 0;
    for (let k = 0; k < 16; k++) for (let i = 0; i < data.length; i++) sum += data[i]! * 1.0001;
    best = Math.min(best, performance.now() - start);
    if (sum < 0) console.log(sum);
  }
  return best;
}

/** Restores the snapshot into `world` in `mode`, empty caches, then WARM frames (discarded) and the check off. */
function start(world: ParticleWorld, snapshot: ParticleSystemState, mode: Mode): void {
  const { sandbox, system } = world;
  system.restore(snapshot);
  Object.assign(
    system.options,
    { mode: 'budget', keying: 'surface', footprints: true, cellLookups: true, pick: 'needy', kernel: 'wasm-simd' },
    mode.options,
  );
  for (const effect of system.effects) effect.cache.clear();
  for (let frame = 0; frame < WARM; frame++) sandbox.step(DT);
  system.options.checkFallThrough = false;
}

function measure(
  world: ParticleWorld,
  referenceWorld: ParticleWorld,
  snapshot: ParticleSystemState,
  mode: Mode,
  reference: Mode,
  pool: ParticlePool | null,
): Row {
  const { sandbox, system } = world;
  system.usePool(mode.workers === undefined ? null : pool);
  start(world, snapshot, mode);
  let cpuSteps: number[];
  let paired: PairedRow | null = null;
  if (mode === reference) {
    const step = timed(mode.name, () => sandbox.step(DT));
    cpuSteps = Array.from({ length: TIMED / BLOCK }, () => step.time(BLOCK));
  } else {
    start(referenceWorld, snapshot, reference);
    const times = pairedCpu(
      timed(mode.name, () => sandbox.step(DT)),
      timed(`${reference.name} beside ${mode.name}`, () => referenceWorld.sandbox.step(DT)),
      { pairs: TIMED / BLOCK, repeats: BLOCK, warmUp: false },
    );
    cpuSteps = times.oursMs;
    paired = pairedRow(mode.name, mode.name, reference.name, times, { unit: 'one step of 1/60 s, check off', ratioOf: 'ours/peer' });
  }
  system.options.checkFallThrough = true;
  system.resetTotals();
  const steps: number[] = [];
  const checks: number[] = [];
  const phases = Object.fromEntries(PARTICLE_PHASES.map((p) => [p, [] as number[]])) as unknown as Record<keyof ParticlePhaseMs, number[]>;
  let alive = 0,
    rays = 0,
    lookups = 0,
    hits = 0;
  const cpuStart = process.cpuUsage();
  for (let frame = 0; frame < FRAMES; frame++) {
    sandbox.step(DT);
    const ms = system.phaseMs;
    steps.push(ms.spawn + ms.wind + ms.move + ms.cache + ms.rays + ms.ground);
    checks.push(ms.verify);
    for (const p of PARTICLE_PHASES) phases[p].push(ms[p]);
    alive += system.frame.alive;
    rays += system.frame.raycasts;
    lookups += system.frame.cacheLookups;
    hits += system.frame.cacheHits;
  }
  const cpu = process.cpuUsage(cpuStart);
  system.usePool(null);
  const t = system.totals;
  return {
    name: mode.name,
    alive: alive / FRAMES,
    stepMedian: median(steps),
    stepP95: percentile(steps, 0.95),
    cpu: {
      median: median(cpuSteps),
      p5: percentile(cpuSteps, 0.05),
      p95: percentile(cpuSteps, 0.95),
      min: Math.min(...cpuSteps),
      max: Math.max(...cpuSteps),
    },
    paired,
    checkMedian: median(checks),
    cpuPerStep: (cpu.user + cpu.system) / 1000 / FRAMES,
    phases: Object.fromEntries(PARTICLE_PHASES.map((p) => [p, median(phases[p])])) as Record<keyof ParticlePhaseMs, number>,
    raysPerFrame: rays / FRAMES,
    hitRate: lookups > 0 ? hits / lookups : 0,
    lookupsPerFrame: lookups / FRAMES,
    fell: t.fellThroughLives / t.lives,
    below: t.belowFrames / t.particleFrames,
  };
}

async function main(): Promise<void> {
  // The move, the cache lookups and the rays run in WebAssembly (same bits as TypeScript) except in the 'TypeScript' row.
  if ((await loadSimdRays()) === null)
    console.log(`WebAssembly SIMD rays unavailable (${simdRaysUnavailableReason()}): every row casts in TypeScript`);
  if ((await loadSimdParticles()) === null)
    console.log(`WebAssembly SIMD move unavailable (${simdParticlesUnavailableReason()}): every row moves in TypeScript`);
  // Two worlds on one terrain and tree (particleWorld): each mode's, and the reference's beside it for the paired frames.
  const makeWorld = (): ParticleWorld => particleWorld('particles-bench', { cells: CELLS });
  const world = makeWorld();
  const { sandbox, system } = world;
  const referenceWorld = makeWorld();
  const report = new BenchReport(import.meta.url, {
    cells: CELLS,
    particles: PARTICLES,
    budget: BUDGET,
    settle: SETTLE,
    warm: WARM,
    timed: TIMED,
    frames: FRAMES,
  });
  const calibrationBefore = calibrate();
  for (let frame = 0; frame < SETTLE; frame++) sandbox.step(DT);
  const snapshot = system.snapshot();

  // The 2-thread row's pool: the calling thread and one worker (skipped where threads cannot share memory).
  const pool = await ParticlePool.create({ workers: 1, stragglerWaitMs: 60_000 }).catch((error: unknown) => {
    console.log(`no particle pool (${error instanceof Error ? error.message : String(error)}): the 2-thread row runs on one thread`);
    return null;
  });
  const rows = MODES.map((mode) => measure(world, referenceWorld, snapshot, mode, MODES[MODES.length - 1]!, pool));
  await pool?.close();
  const calibrationAfter = calibrate();

  const reference = rows[rows.length - 1]!;
  const pct = (v: number): string => `${(100 * v).toFixed(3)}%`;
  console.log(
    `particles: terrain ${CELLS} cells (${sandbox.terrain.triangleCount.toLocaleString('en')} triangles), showcase effects for ${PARTICLES.toLocaleString('en')} particles, ${FRAMES} frames of 1/60 s per mode`,
  );
  console.log(
    `machine: calibration loop ${calibrationBefore.toFixed(2)} → ${calibrationAfter.toFixed(2)} ms (lower is a faster machine; best of 20; load average in the JSON)`,
  );
  console.log('');
  const header = ['mode', 'live', 'step ms', 'p95', 'cpu ms', 'check ms', 'rays/frame', 'lookups', 'hit rate', 'fell through', 'below', 'step × ref'];
  const widths = [24, 8, 9, 8, 8, 9, 11, 9, 9, 13, 9, 11];
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ');
  console.log(line(header));
  for (const r of rows) {
    console.log(
      line([
        r.name,
        Math.round(r.alive).toLocaleString('en'),
        r.stepMedian.toFixed(2),
        r.stepP95.toFixed(2),
        r.cpuPerStep.toFixed(2),
        r.checkMedian.toFixed(2),
        Math.round(r.raysPerFrame).toLocaleString('en'),
        Math.round(r.lookupsPerFrame).toLocaleString('en'),
        pct(r.hitRate).replace(/\.\d+%/, '%'),
        pct(r.fell),
        pct(r.below),
        `${(r.stepMedian / reference.stepMedian).toFixed(3)}×`,
      ]),
    );
  }
  console.log('');
  console.log(`median ms per phase: ${PARTICLE_PHASES.join(' / ')}`);
  for (const r of rows) console.log(`  ${r.name.padEnd(24)} ${PARTICLE_PHASES.map((p) => r.phases[p].toFixed(2)).join(' / ')}`);
  const ours = rows[0]!;
  console.log('');
  console.log(
    `targets (${ours.name}): ≤ ${TARGET_MS} ms per step: ${ours.cpu.median <= TARGET_MS ? 'met' : 'NOT met'} (${ours.cpu.median.toFixed(2)} ms CPU median, ${ours.stepMedian.toFixed(2)} ms wall median, ${ours.cpuPerStep.toFixed(2)} ms CPU incl. check); ≤ ${pct(TARGET_FELL)} fall through: ${ours.fell <= TARGET_FELL ? 'met' : 'NOT met'} (${pct(ours.fell)})`,
  );
  console.log(
    `CPU ms per step, fall-through check off (${TIMED} frames each in blocks of ${BLOCK}, before the measured ones): median (p5–p95, min–max) of the blocks`,
  );
  for (const r of rows)
    console.log(
      `  ${r.name.padEnd(24)} ${r.cpu.median.toFixed(2)} (${r.cpu.p5.toFixed(2)}–${r.cpu.p95.toFixed(2)}, ${r.cpu.min.toFixed(2)}–${r.cpu.max.toFixed(2)})`,
    );
  console.log(`reference costs ${(reference.stepMedian / ours.stepMedian).toFixed(1)}× the budget's step for ${pct(reference.fell)} fall-through.`);
  console.log(`CPU per step (check off) against the reference, paired frames: median of the mode / reference ratios (spread)`);
  for (const r of rows)
    if (r.paired !== null) console.log(`  ${r.name.padEnd(24)} ${r.paired.ratio.toFixed(3)}× (${formatSpread(r.paired.spread, 3)})`);
  for (const r of rows) {
    if (r.paired !== null) report.add(r.paired);
    const quality: Record<string, unknown> = { ...r };
    delete quality.paired;
    report.addQuality({ ...quality, name: r.name });
  }
  report.note(`calibration loop ${calibrationBefore.toFixed(2)} → ${calibrationAfter.toFixed(2)} ms (best of 20)`);
  report.finish();
}

void main();
