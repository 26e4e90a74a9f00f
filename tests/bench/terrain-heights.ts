/**
 * Terrain heights: the WebAssembly SIMD multifractal kernel (two columns per f64x2) against the
 * TypeScript loop generateTerrain runs without it, over the same grid, seed and settings; every kind
 * at 256 cells (131k triangles), ridged at 1024 (2.1M). Then, for the live-terrain targets, what the
 * page's worker does per slider step: generateTerrain (heights by the kernel) plus the grid BVH build,
 * CPU ms per run (not paired: there is no peer for the sum).
 *
 * Timing (_pairedCpu.ts): CPU time of back-to-back pairs, the order alternating, each side from its own
 * timing loop; table and JSON from _report.ts. Only after the timing, the correctness sweep: the kernel's
 * heights equal the TypeScript loop's bit for bit on every row.
 *
 *   npx tsx tests/bench/terrain-heights.ts            full run (9 pairs)
 *   npx tsx tests/bench/terrain-heights.ts --quick    smoke run (64 and 128 cells, 2 pairs)
 */
import { buildBVH } from '../../src/bvh/index';
import { generateTerrain, terrainMaterialInput, resolveTerrainParams, TERRAIN_KINDS, type TerrainKind } from '../../src/terrain/index';
import { multifractal, planMultifractal, type MultifractalPlan } from '../../src/terrain/multifractal';
import { createGradientNoise } from '../../src/terrain/noise';
import { loadWasmHeights, wasmHeightsUnavailableReason } from '../../src/terrain/wasmHeights';
import { cpuMs, median, pairedCpu, timed } from './_pairedCpu';
import { BenchReport, pairedRow } from './_report';

const quick = process.argv.includes('--quick');
const PAIRS = quick ? 2 : 9;
const SEED = 20170302;
const LATTICE_OFFSET = 0.318309886;
const rows: { kind: TerrainKind; cells: number }[] = quick
  ? [
      { kind: 'ridged', cells: 64 },
      { kind: 'fbm', cells: 128 },
    ]
  : [...TERRAIN_KINDS.map((kind) => ({ kind, cells: 256 })), { kind: 'ridged', cells: 1024 }];
const SUM_CELLS = quick ? [64] : [256, 1024];
const SUM_RUNS = quick ? 2 : 9;

const kernel = await loadWasmHeights();
if (kernel === null) throw new Error(`the terrain kernel cannot run here: ${wasmHeightsUnavailableReason()}`);

interface Grid {
  plan: MultifractalPlan;
  side: number;
  step: number;
}

function gridOf(kind: TerrainKind, cells: number): Grid {
  const params = resolveTerrainParams({ kind, cells, seed: SEED });
  return { plan: planMultifractal(createGradientNoise(SEED), params), side: cells + 1, step: params.baseFrequency / cells };
}

/** generateTerrain's TypeScript loop. */
function typeScriptHeights({ plan, side, step }: Grid, out: Float64Array): void {
  for (let row = 0; row < side; row++) {
    const y = row * step + LATTICE_OFFSET;
    for (let col = 0; col < side; col++) out[row * side + col] = multifractal(plan, col * step + LATTICE_OFFSET, y);
  }
}

const report = new BenchReport(import.meta.url, { seed: SEED, pairs: PAIRS, rows, sumCells: SUM_CELLS, sumRuns: SUM_RUNS });
const grids = rows.map((row) => ({ ...row, grid: gridOf(row.kind, row.cells) }));
for (const { kind, cells, grid } of grids) {
  const ours = new Float64Array(grid.side * grid.side);
  const theirs = new Float64Array(grid.side * grid.side);
  const times = pairedCpu(
    timed('wasm heights', () => kernel.fill(grid.plan, grid.side, grid.step, LATTICE_OFFSET, ours)),
    timed('typescript heights', () => typeScriptHeights(grid, theirs)),
    { pairs: PAIRS, minChunkMs: quick ? 20 : 150 },
  );
  report.add(pairedRow(`${kind} ${cells} cells`, 'wasm-simd heights', 'TypeScript loop', times, { unit: `heights of a ${grid.side}² grid` }));
}

// What one slider step costs the page's worker: generation (kernel heights) plus the grid build.
const sums: Record<string, { generateMs: number; buildMs: number }> = {};
for (const cells of SUM_CELLS) {
  const generate: number[] = [];
  const build: number[] = [];
  for (let run = 0; run <= SUM_RUNS; run++) {
    const start = cpuMs();
    const mesh = generateTerrain({ cells, seed: SEED + run });
    const generated = cpuMs();
    buildBVH(mesh.positions, mesh.indices, { builder: 'grid' }, terrainMaterialInput(mesh));
    const built = cpuMs();
    // The first run is cold (JIT, memory growth): reported apart.
    if (run === 0)
      console.log(`${cells} cells, first (cold) run: generate ${(generated - start).toFixed(1)} + build ${(built - generated).toFixed(1)} ms CPU`);
    else {
      generate.push(generated - start);
      build.push(built - generated);
    }
  }
  sums[cells] = { generateMs: median(generate), buildMs: median(build) };
  console.log(
    `${cells} cells (${2 * cells * cells} triangles), median of ${SUM_RUNS} warm runs: generate ${median(generate).toFixed(1)} + grid build ${median(build).toFixed(1)} = ${(median(generate) + median(build)).toFixed(1)} ms CPU`,
  );
}
report.finish({ generateAndBuild: sums });

// Correctness, after all timing: bit-identical heights on every row.
for (const { kind, cells, grid } of grids) {
  const ours = new Float64Array(grid.side * grid.side);
  const theirs = new Float64Array(grid.side * grid.side);
  kernel.fill(grid.plan, grid.side, grid.step, LATTICE_OFFSET, ours);
  typeScriptHeights(grid, theirs);
  for (let i = 0; i < ours.length; i++)
    if (!Object.is(ours[i], theirs[i])) throw new Error(`${kind} ${cells} cells: vertex ${i} differs (${ours[i]} against ${theirs[i]})`);
}
console.log('correctness: the kernel heights equal the TypeScript loop bit for bit on every row');
