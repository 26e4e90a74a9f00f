/**
 * What the heightfield net costs: the particle step with the net (the default) against the same step
 * without it (the planes alone, the step as it was before the net), 100,000 particles of the showcase
 * effects, 1,000 raycasts a frame, fall-through check off (it is only for measuring).
 *
 * Per terrain, one world is run to steady state and snapshotted; two worlds restored from it (each its
 * own terrain, tree and particles) step side by side, one with the net, one without: CPU time
 * (process.cpuUsage) of BLOCK frames each, back to back, the order alternating (_pairedCpu.ts), each
 * from its own timing loop. Rows: each side's CPU ms per step (median, least–most over the pairs) and
 * the median of the pairs' with / without ratios with their spread; then the medians of the net's own
 * phase and of the rest of the step (wall ms, from the system's phase times) over MEASURED frames. Terrains: the showcase (512 cells,
 * the ≤ 4 ms target) and the worst of the fall-through grid (hetero, seed 1337, height 150, 128 m, 1024
 * cells), where the planes let the most through and the net catches the most.
 *
 *   npx tsx tests/bench/particles-net.ts            full run (a few minutes)
 *   npx tsx tests/bench/particles-net.ts --quick    smoke run (128 cells, 10k particles)
 */
import { loadSimdParticles, loadSimdRays, type TerrainKind } from '../../src/core';
import { pairedCpu, timed } from './_pairedCpu';
import { BUDGET, DT, PARTICLES, TARGET_MS, particleWorld, quick, type ParticleWorld } from './_particleBench';
import { BenchReport, formatSpread, pairedRow } from './_report';

const SETTLE = quick ? 60 : 300;
const WARM = quick ? 10 : 30;
const PAIRS = quick ? 6 : 40;
const BLOCK = 5;
/** Frames after the pairs whose phase times (wall) give the net's share of the step. */
const MEASURED = quick ? 10 : 60;

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

interface Terrain {
  name: string;
  terrain: { kind?: TerrainKind; seed?: number; heightScale?: number; worldSize?: number; cells: number };
}

const TERRAINS: Terrain[] = quick
  ? [{ name: 'showcase 128 cells', terrain: { cells: 128 } }]
  : [
      { name: 'showcase 512 cells', terrain: { cells: 512 } },
      { name: 'hetero 1337 h150 128 m 1024 cells', terrain: { kind: 'hetero', seed: 1337, heightScale: 150, worldSize: 128, cells: 1024 } },
    ];

function makeWorld(terrain: Terrain['terrain'], net: boolean): ParticleWorld {
  return particleWorld('particles-net', terrain, { heightfieldNet: net });
}

async function main(): Promise<void> {
  await loadSimdRays();
  await loadSimdParticles();
  const report = new BenchReport(import.meta.url, { particles: PARTICLES, budget: BUDGET, settle: SETTLE, warm: WARM, pairs: PAIRS, block: BLOCK });
  console.log(
    `heightfield net: ${PARTICLES.toLocaleString('en')} particles, ${BUDGET.toLocaleString('en')} rays a frame, ${PAIRS} pairs of ${BLOCK} steps`,
  );
  const header = [
    'terrain',
    'with net ms',
    'least–most',
    'without ms',
    'least–most',
    'with/without',
    'spread',
    'caught/frame',
    'net wall ms',
    'rest wall ms',
  ];
  const widths = [34, 12, 13, 11, 13, 13, 30, 13, 12, 13];
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ');
  console.log(line(header));
  let worstMs = 0;
  for (const t of TERRAINS) {
    const settled = makeWorld(t.terrain, true);
    for (let frame = 0; frame < SETTLE; frame++) settled.sandbox.step(DT);
    const snapshot = settled.system.snapshot();
    const withNet = settled;
    const without = makeWorld(t.terrain, false);
    for (const world of [withNet, without]) {
      world.system.restore(snapshot);
      world.system.options.checkFallThrough = false;
      for (let frame = 0; frame < WARM; frame++) world.sandbox.step(DT);
    }
    withNet.system.resetTotals();
    const times = pairedCpu(
      timed(`with net, ${t.name}`, () => withNet.sandbox.step(DT)),
      timed(`without net, ${t.name}`, () => without.sandbox.step(DT)),
      { pairs: PAIRS, repeats: BLOCK, warmUp: false },
    );
    const row = report.add(pairedRow(t.name, 'with net', 'without net', times, { unit: 'one step of 1/60 s, check off', ratioOf: 'ours/peer' }));
    const caught = withNet.system.totals.caught / Math.max(1, withNet.system.totals.frames);
    // The net's own phase (wall ms) beside the rest of the step, over a few more frames with the net.
    const ground: number[] = [];
    const rest: number[] = [];
    for (let frame = 0; frame < MEASURED; frame++) {
      withNet.sandbox.step(DT);
      const ms = withNet.system.phaseMs;
      ground.push(ms.ground);
      rest.push(ms.spawn + ms.wind + ms.move + ms.cache + ms.rays);
    }
    worstMs = Math.max(worstMs, t.terrain.cells === 512 ? row.ourMs : 0);
    console.log(
      line([
        t.name,
        row.ourMs.toFixed(2),
        `${Math.min(...times.oursMs).toFixed(2)}–${Math.max(...times.oursMs).toFixed(2)}`,
        row.peerMs.toFixed(2),
        `${Math.min(...times.peerMs).toFixed(2)}–${Math.max(...times.peerMs).toFixed(2)}`,
        `× ${row.ratio.toFixed(3)}`,
        formatSpread(row.spread, 3),
        caught.toFixed(0),
        median(ground).toFixed(2),
        median(rest).toFixed(2),
      ]),
    );
  }
  if (!quick) {
    const verdict = `step with the net on the 512-cell showcase ${worstMs.toFixed(2)} ms CPU: target ≤ ${TARGET_MS} ms ${worstMs <= TARGET_MS ? 'met' : 'NOT met'}`;
    console.log(verdict);
    report.note(verdict);
  }
  report.finish();
}

void main();
