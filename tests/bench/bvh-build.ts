/**
 * BVH build time: the WebAssembly SIMD builder (buildBVH, builder 'wasm') against three-mesh-bvh's SAH
 * build (MeshBVH, strategy SAH) in the same process, on the ridged terrain (seed 20170302) at 128, 256
 * and 512 cells (32k, 131k and 524k triangles), with our TypeScript builder (default options, spatial
 * splits on: today's tree) for reference; then castRays' SIMD kernel on 100k incoherent rays
 * (_raySets.ts) over the WebAssembly-built tree against the TypeScript-built one. Then the grid builder
 * (builder 'grid', what the page and the runner build terrain with) against three-mesh-bvh and the
 * WebAssembly builder, and rays on its tree against the WebAssembly-built one.
 *
 * Work: our builders make the quantized 4-way tree with the terrain's collision materials, as the
 * page's terrain worker does; three-mesh-bvh builds its own tree (its index buffer, which it reorders,
 * is a fresh copy made outside the timing).
 * Timing (_pairedCpu.ts): CPU time (process.cpuUsage) of back-to-back pairs, the order inside a pair
 * alternating (ours, peer, then peer, ours…) so drift hits both alike, each contender from its own timing
 * loop, after one discarded warm-up of each; table and JSON from _report.ts. Per row:
 * the median time of each side, the median of the pairs' ratios and their spread (lowest–highest).
 * The ray kernel keeps one tree resident, so each tree is uploaded before its timed run, untimed.
 * Only after the timing, the correctness sweep: every ray's hit t on the WebAssembly-built tree must
 * equal the ones on the TypeScript-built and the grid-built trees.
 *
 *   npx tsx tests/bench/bvh-build.ts              full run (128, 256, 512 cells, 7 pairs, 100k rays)
 *   npx tsx tests/bench/bvh-build.ts --quick      smoke run (32, 64 cells, 2 pairs, 5k rays)
 *   options: --cells 128,256,512  --pairs N  --rays N
 */
import * as THREE from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import { buildBVH, loadWasmBuilder, wasmBuilderUnavailableReason, type BVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { castRays, type RayBatch, type RayHits } from '../../src/query/rays/index';
import { loadSimdRays, simdRaysUnavailableReason } from '../../src/query/rays/simdRays';
import { generateTerrain, terrainMaterialInput, type TerrainMesh } from '../../src/terrain/index';
import { collectGarbage, median, pairedCpu, timed, type PairTimes } from './_pairedCpu';
import { incoherentRays } from './_raySets';
import { BenchReport, pairedRow } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = (option('--cells') ?? (quick ? '32,64' : '128,256,512')).split(',').map(Number);
const PAIRS = Number(option('--pairs') ?? (quick ? 2 : 7));
const RAYS = Number(option('--rays') ?? (quick ? 5_000 : 100_000));
const SEED = 20170302;

if ((await loadWasmBuilder()) === null) {
  console.error(`WebAssembly builder unavailable: ${wasmBuilderUnavailableReason()}`);
  process.exit(1);
}
const rayKernel = await loadSimdRays();
if (rayKernel === null) {
  console.error(`WebAssembly SIMD rays unavailable: ${simdRaysUnavailableReason()}`);
  process.exit(1);
}

interface Pairs {
  oursMs: number;
  peerMs: number;
  /** peer / ours per pair: above 1, ours is faster. */
  ratios: number[];
  times: PairTimes;
}

/**
 * `prepareOurs` / `preparePeer` run untimed before each timed run of that side (fresh inputs, uploads),
 * followed by a full collection, so neither side is billed for a collection of the other's garbage.
 */
function pairs(ours: () => void, peer: () => void, prepareOurs: () => void = () => {}, preparePeer: () => void = prepareOurs): Pairs {
  const beforeOurs = (): void => {
    prepareOurs();
    collectGarbage();
  };
  const beforePeer = (): void => {
    preparePeer();
    collectGarbage();
  };
  const times = pairedCpu(timed(ours.name, ours), timed(peer.name, peer), { pairs: PAIRS, beforeOurs, beforePeer });
  return { oursMs: median(times.oursMs), peerMs: median(times.peerMs), ratios: times.oursMs.map((o, k) => times.peerMs[k]! / o), times };
}

const spread = (ratios: number[]): string => `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;

// Each contender from its own call site.
let mesh: TerrainMesh;
let materials: ReturnType<typeof terrainMaterialInput>;
let threeIndices: Uint32Array = new Uint32Array(0);
const geometry = new THREE.BufferGeometry();
let wasmTree: BVH | null = null;
let typescriptTree: BVH | null = null;
function buildWasm(): void {
  wasmTree = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm', layouts: ['quantized'] }, materials);
}
let gridTree: BVH | null = null;
function buildGrid(): void {
  gridTree = buildBVH(mesh.positions, mesh.indices, { builder: 'grid', layouts: ['quantized'] }, materials);
}
function buildTypeScript(): void {
  typescriptTree = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] }, materials);
}
function buildThree(): void {
  geometry.setIndex(new THREE.BufferAttribute(threeIndices, 1));
  new MeshBVH(geometry, { strategy: SAH });
}
function freshThreeIndices(): void {
  threeIndices = mesh.indices.slice();
}

let rays: RayBatch;
const hitsOf = (): RayHits => ({ t: new Float32Array(RAYS), triangle: new Int32Array(RAYS) });
const wasmTreeHits = hitsOf();
const typescriptTreeHits = hitsOf();
function raysOnWasmTree(): void {
  castRays(wasmTree!, rays, wasmTreeHits, { kernel: 'wasm-simd' });
}
const gridTreeHits = hitsOf();
function raysOnGridTree(): void {
  castRays(gridTree!, rays, gridTreeHits, { kernel: 'wasm-simd' });
}
function raysOnTypeScriptTree(): void {
  castRays(typescriptTree!, rays, typescriptTreeHits, { kernel: 'wasm-simd' });
}

interface Row {
  cells: number;
  triangles: number;
  versusThree: Pairs;
  versusTypeScript: Pairs;
  rays: Pairs;
  sah: [number, number];
  mismatches: number;
  grid: { versusThree: Pairs; versusWasm: Pairs; rays: Pairs; sah: number; mismatches: number };
}

console.log(`ridged terrain, seed ${SEED}; ${PAIRS} pairs; ${RAYS} incoherent rays; CPU time`);
const rows: Row[] = [];
for (const cells of CELLS) {
  mesh = generateTerrain({ cells, seed: SEED });
  materials = terrainMaterialInput(mesh);
  geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
  const versusThree = pairs(buildWasm, buildThree, freshThreeIndices);
  const versusTypeScript = pairs(buildWasm, buildTypeScript);
  if (wasmTree!.stats.builder !== 'wasm') throw new Error(`the WebAssembly builder did not run: ${wasmTree!.stats.builderFallback}`);
  rays = incoherentRays(mesh, RAYS, new Random(SEED));
  // Ratio typescript-tree time / wasm-tree time: above 1, rays run faster on the WebAssembly-built tree.
  // The kernel keeps one tree resident: each side's upload happens before its timed run.
  const rayPairs = pairs(
    raysOnWasmTree,
    raysOnTypeScriptTree,
    () => rayKernel.upload(wasmTree!),
    () => rayKernel.upload(typescriptTree!),
  );
  // The grid builder (terrain's own): against three-mesh-bvh and the WebAssembly builder, and rays on its tree.
  const gridVersusThree = pairs(buildGrid, buildThree, freshThreeIndices);
  const gridVersusWasm = pairs(buildGrid, buildWasm);
  if (gridTree!.stats.builder !== 'grid') throw new Error(`the grid builder did not run: ${gridTree!.stats.builderFallback}`);
  const gridRays = pairs(
    raysOnGridTree,
    raysOnWasmTree,
    () => rayKernel.upload(gridTree!),
    () => rayKernel.upload(wasmTree!),
  );
  raysOnWasmTree();
  raysOnTypeScriptTree();
  raysOnGridTree();
  let mismatches = 0;
  let gridMismatches = 0;
  for (let i = 0; i < RAYS; i++) {
    if (!Object.is(wasmTreeHits.t[i], typescriptTreeHits.t[i])) mismatches++;
    if (!Object.is(wasmTreeHits.t[i], gridTreeHits.t[i])) gridMismatches++;
  }
  const row = {
    cells,
    triangles: mesh.triangleCount,
    versusThree,
    versusTypeScript,
    rays: rayPairs,
    sah: [wasmTree!.stats.sahCost, typescriptTree!.stats.sahCost] as [number, number],
    mismatches,
    grid: { versusThree: gridVersusThree, versusWasm: gridVersusWasm, rays: gridRays, sah: gridTree!.stats.sahCost, mismatches: gridMismatches },
  };
  rows.push(row);
  console.log(
    `${cells} cells: wasm ${versusThree.oursMs.toFixed(0)} ms, three-mesh-bvh SAH ${versusThree.peerMs.toFixed(0)} ms, ` +
      `TypeScript ${versusTypeScript.peerMs.toFixed(0)} ms; rays ${rayPairs.oursMs.toFixed(0)} / ${rayPairs.peerMs.toFixed(0)} ms`,
  );
}

const pad = (text: string | number, width: number): string => String(text).padStart(width);
console.log('\nBuild (CPU ms, medians; ratio = peer / WebAssembly per pair: median, spread)');
console.log(
  `${pad('cells', 6)} ${pad('triangles', 10)} ${pad('wasm', 7)} ${pad('three SAH', 10)} ${pad('×three', 7)} ${pad('spread', 11)} ${pad('TS', 7)} ${pad('×TS', 6)} ${pad('spread', 11)}`,
);
for (const row of rows) {
  console.log(
    `${pad(row.cells, 6)} ${pad(row.triangles, 10)} ${pad(row.versusThree.oursMs.toFixed(0), 7)} ${pad(row.versusThree.peerMs.toFixed(0), 10)} ` +
      `${pad(median(row.versusThree.ratios).toFixed(2), 7)} ${pad(spread(row.versusThree.ratios), 11)} ${pad(row.versusTypeScript.peerMs.toFixed(0), 7)} ` +
      `${pad(median(row.versusTypeScript.ratios).toFixed(2), 6)} ${pad(spread(row.versusTypeScript.ratios), 11)}`,
  );
}
console.log(`\nRays: castRays SIMD, ${RAYS} incoherent rays (CPU ms, medians; ratio = TS-built tree / wasm-built tree per pair)`);
console.log(
  `${pad('cells', 6)} ${pad('wasm tree', 10)} ${pad('TS tree', 8)} ${pad('ratio', 6)} ${pad('spread', 11)} ${pad('SAH wasm', 9)} ${pad('SAH TS', 8)} ${pad('t mismatches', 13)}`,
);
for (const row of rows) {
  console.log(
    `${pad(row.cells, 6)} ${pad(row.rays.oursMs.toFixed(1), 10)} ${pad(row.rays.peerMs.toFixed(1), 8)} ${pad(median(row.rays.ratios).toFixed(3), 6)} ` +
      `${pad(spread(row.rays.ratios), 11)} ${pad(row.sah[0].toFixed(2), 9)} ${pad(row.sah[1].toFixed(2), 8)} ${pad(row.mismatches, 13)}`,
  );
}
console.log('\nThe grid builder (CPU ms, medians; ratios = peer / grid per pair: median, spread; rays: wasm-built tree / grid-built tree)');
console.log(
  `${pad('cells', 6)} ${pad('grid', 7)} ${pad('×three', 7)} ${pad('spread', 11)} ${pad('×wasm', 6)} ${pad('spread', 11)} ${pad('rays', 7)} ${pad('ratio', 6)} ${pad('spread', 11)} ${pad('SAH grid', 9)} ${pad('t mismatches', 13)}`,
);
for (const row of rows) {
  const g = row.grid;
  console.log(
    `${pad(row.cells, 6)} ${pad(g.versusThree.oursMs.toFixed(0), 7)} ${pad(median(g.versusThree.ratios).toFixed(2), 7)} ${pad(spread(g.versusThree.ratios), 11)} ` +
      `${pad(median(g.versusWasm.ratios).toFixed(2), 6)} ${pad(spread(g.versusWasm.ratios), 11)} ${pad(g.rays.oursMs.toFixed(1), 7)} ` +
      `${pad(median(g.rays.ratios).toFixed(3), 6)} ${pad(spread(g.rays.ratios), 11)} ${pad(g.sah.toFixed(2), 9)} ${pad(g.mismatches, 13)}`,
  );
}
console.log(
  '\nNative anchors on this machine (tinybvh 1.6.7, g++ -O3 -march=native, one thread, same terrain): 524k triangles,\n' +
    'binned SAH 414 ms scalar, 188 ms AVX (three-mesh-bvh SAH ≈ 1.5 s CPU in that sitting: 3.5× and 7.5× faster).',
);
const report = new BenchReport(import.meta.url, { cells: CELLS, pairs: PAIRS, rays: RAYS, seed: SEED });
for (const row of rows) {
  const unit = `build of ${row.triangles} triangles`;
  report.add(pairedRow(`${row.cells} cells build vs three`, 'buildBVH wasm', 'three-mesh-bvh SAH', row.versusThree.times, { unit }));
  report.add(pairedRow(`${row.cells} cells build vs TS`, 'buildBVH wasm', 'buildBVH typescript', row.versusTypeScript.times, { unit }));
  report.add(
    pairedRow(`${row.cells} cells rays`, 'SIMD rays, wasm-built tree', 'SIMD rays, TS-built tree', row.rays.times, {
      unit: `${RAYS} incoherent rays`,
      extra: { sahWasm: row.sah[0], sahTypeScript: row.sah[1], tMismatches: row.mismatches },
    }),
  );
}
for (const row of rows) {
  const unit = `build of ${row.triangles} triangles`;
  report.add(pairedRow(`${row.cells} cells grid build vs three`, 'buildBVH grid', 'three-mesh-bvh SAH', row.grid.versusThree.times, { unit }));
  report.add(pairedRow(`${row.cells} cells grid build vs wasm`, 'buildBVH grid', 'buildBVH wasm', row.grid.versusWasm.times, { unit }));
  report.add(
    pairedRow(`${row.cells} cells rays, grid tree`, 'SIMD rays, grid-built tree', 'SIMD rays, wasm-built tree', row.grid.rays.times, {
      unit: `${RAYS} incoherent rays`,
      extra: { sahGrid: row.grid.sah, sahWasm: row.sah[0], tMismatches: row.grid.mismatches },
    }),
  );
}
report.finish();
const failed = rows.some((row) => row.mismatches > 0 || row.grid.mismatches > 0);
if (failed) {
  console.error('rays disagree between the WebAssembly-built and TypeScript-built trees');
  process.exit(1);
}
