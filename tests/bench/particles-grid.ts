/**
 * Particle fall-through over a grid of terrains: every terrain kind, a few seeds each, and the extremes
 * of height scale (20, 150), world size (128, 4096) and cells (128, 1024), with the showcase effects
 * (100,000 particles, 1,000 raycasts a frame, the system's defaults). Each terrain runs SETTLE frames to
 * steady state, then FRAMES measured frames of 1/60 s; fell through = lives that were ever below the true
 * surface by more than their radius. Prints one row per terrain and the worst case. A quality report, not
 * a timed one: no peer, no pairs; its rows go to bench-results/particles-grid.json (_report.ts).
 *
 *   npx tsx tests/bench/particles-grid.ts             the grid (a few minutes)
 *   npx tsx tests/bench/particles-grid.ts --quick     smoke run (one seed, 64 cells, 10k particles)
 *   options: --kinds ridged,fbm  --seeds 1337,777  --heights 20,150  --sizes 128,4096  --cells 128,1024
 *            --particles N  --budget N  --frames N  --settle N
 */
import { TERRAIN_KINDS, loadSimdParticles, loadSimdRays, type ParticleMode, type TerrainKind } from '../../src/core';
import { BUDGET, DT, PARTICLES, TARGET_FELL, list, numbers, option, particleWorld, quick } from './_particleBench';
import { BenchReport } from './_report';

const KINDS = list('kinds', TERRAIN_KINDS.join(',')) as TerrainKind[];
const SEEDS = numbers('seeds', quick ? '1337' : '1337,777,5');
const HEIGHTS = numbers('heights', '20,150');
const SIZES = numbers('sizes', '128,4096');
const CELLS = numbers('cells', quick ? '64' : '128,1024');
const SETTLE = Number(option('settle', quick ? '60' : '240'));
const FRAMES = Number(option('frames', quick ? '60' : '360'));
const MODE = option('mode', 'budget') as ParticleMode;
/** --net off: the planes alone, without the heightfield net under them. */
const NET = option('net', 'on') !== 'off';

interface Row {
  kind: TerrainKind;
  seed: number;
  heightScale: number;
  worldSize: number;
  cells: number;
  lives: number;
  fell: number;
  /** Share of particle-frames the heightfield net put back on the ground. */
  caught: number;
}

function run(kind: TerrainKind, seed: number, heightScale: number, worldSize: number, cells: number): Row {
  const { sandbox, system } = particleWorld('particles-grid', { kind, seed, heightScale, worldSize, cells }, { mode: MODE, heightfieldNet: NET });
  for (let frame = 0; frame < SETTLE; frame++) sandbox.step(DT);
  system.resetTotals();
  for (let frame = 0; frame < FRAMES; frame++) sandbox.step(DT);
  const t = system.totals;
  return {
    kind,
    seed,
    heightScale,
    worldSize,
    cells,
    lives: t.lives,
    fell: t.lives > 0 ? t.fellThroughLives / t.lives : 0,
    caught: t.particleFrames > 0 ? t.caught / t.particleFrames : 0,
  };
}

async function main(): Promise<void> {
  await loadSimdRays();
  await loadSimdParticles();
  console.log(
    `particle fall-through grid (heightfield net ${NET ? 'on' : 'off'}): showcase effects, ${PARTICLES.toLocaleString('en')} particles, ${BUDGET.toLocaleString('en')} rays a frame, ${SETTLE} frames to settle, ${FRAMES} measured (1/60 s)`,
  );
  const widths = [8, 11, 7, 7, 6, 10, 10, 9];
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ');
  console.log(line(['kind', 'seed', 'height', 'size', 'cells', 'lives', 'fell', 'caught']));
  const rows: Row[] = [];
  const report = new BenchReport(import.meta.url, {
    kinds: KINDS,
    seeds: SEEDS,
    heights: HEIGHTS,
    sizes: SIZES,
    cells: CELLS,
    particles: PARTICLES,
    budget: BUDGET,
    settle: SETTLE,
    frames: FRAMES,
    mode: MODE,
    heightfieldNet: NET,
  });
  const started = performance.now();
  // Seeds outermost: a run cut short has seen every kind.
  for (const seed of SEEDS)
    for (const kind of KINDS)
      for (const cells of CELLS)
        for (const worldSize of SIZES)
          for (const heightScale of HEIGHTS) {
            const row = run(kind, seed, heightScale, worldSize, cells);
            rows.push(row);
            report.addQuality({ name: `${kind} seed ${seed} h${heightScale} ${worldSize} m ${cells} cells`, ...row });
            console.log(
              line([
                kind,
                String(seed),
                String(heightScale),
                String(worldSize),
                String(cells),
                row.lives.toLocaleString('en'),
                `${(100 * row.fell).toFixed(3)}%`,
                `${(100 * row.caught).toFixed(3)}%`,
              ]),
            );
          }
  const worst = rows.reduce((a, b) => (b.fell > a.fell ? b : a));
  const mean = rows.reduce((sum, r) => sum + r.fell, 0) / rows.length;
  console.log('');
  console.log(
    `worst: ${(100 * worst.fell).toFixed(3)}% (${worst.kind}, seed ${worst.seed}, height ${worst.heightScale}, size ${worst.worldSize}, ${worst.cells} cells); mean ${(100 * mean).toFixed(3)}% over ${rows.length} terrains in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const verdict = `target ≤ ${(100 * TARGET_FELL).toFixed(1)}% on every terrain: ${worst.fell <= TARGET_FELL ? 'met' : 'NOT met'} (worst ${(100 * worst.fell).toFixed(3)}%)`;
  console.log(verdict);
  report.note(verdict);
  report.finish();
}

void main();
