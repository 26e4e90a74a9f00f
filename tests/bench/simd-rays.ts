/**
 * WebAssembly SIMD rays against our TypeScript paths and three-mesh-bvh, in one run, on the same
 * terrain, the same rays and the same work (closest hit, front faces, watertight) on the 512 terrain of
 * bvh-rays.ts (seed 20170302), for three ray sets (_raySets.ts): 100k incoherent rays (origins above
 * the terrain, random downward directions), a camera grid of about as many rays, and 20-unit segments
 * from just above the surface.
 *
 * Contenders: castRays (TypeScript, one ray at a time, the default path), the fastest of a few
 * castRays batching strategies (TypeScript best batching; every candidate is printed), the SIMD
 * kernel one ray at a time (castRays, kernel 'wasm-simd') and batched (batch 4 … all: its batched walk);
 * the peer: three-mesh-bvh's raycastFirst.
 * Timing (_pairedCpu.ts): CPU time in back-to-back pairs of each contender with three-mesh-bvh, the
 * order alternating, every contender from its own timing loop, after one discarded warm-up of each;
 * per row the median of the pairs' three-mesh-bvh / ours ratios (× three-mesh-bvh) and their spread.
 * "× TS one-at-a-time" divides medians. Only after the timing, hit agreement with castRays: the SIMD
 * single-ray walk must give the same triangle and the same float32 t for every ray; the batched walk
 * the same t for every ray, and the same triangle except at exact ties (shown); three-mesh-bvh: t
 * within 1e-4 relative (its own triangle test rounds differently).
 *
 *   npx tsx tests/bench/simd-rays.ts                full run (512 terrain, 100k rays, 11 pairs, all sets)
 *   npx tsx tests/bench/simd-rays.ts --quick        smoke run (64 terrain, 5k rays, 2 pairs)
 *   options: --cells N  --rays N  --pairs N  --sets incoherent,camera,segments  --batches 4,16,64,256,1024,all
 */
import * as THREE from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { castRays, type CastOptions, type RayBatch, type RayHits } from '../../src/query/rays/index';
import { prepareRayStrategies } from '../../src/query/rays/strategies';
import { loadSimdRays, simdRaysUnavailableReason } from '../../src/query/rays/simdRays';
import { generateTerrain } from '../../src/terrain/index';
import { pairedCpuMany, timed } from './_pairedCpu';
import { cameraGridRays, incoherentRays, surfaceSegments } from './_raySets';
import { BenchReport, formatSpread, pairedRow, type PairedRow } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = Number(option('--cells') ?? (quick ? 64 : 512));
const RAYS = Number(option('--rays') ?? (quick ? 5_000 : 100_000));
const PAIRS = Number(option('--pairs') ?? option('--rounds') ?? (quick ? 2 : 11));
const SETS = (option('--sets') ?? 'incoherent,camera,segments').split(',');
const SIMD_BATCHES = (option('--batches') ?? (quick ? '16,256,all' : '4,16,64,256,1024,all'))
  .split(',')
  .map((b) => (b === 'all' ? Infinity : Number(b)));
const SEED = 20170302;

const kernel = await loadSimdRays();
if (kernel === null) {
  console.error(`WebAssembly SIMD rays unavailable: ${simdRaysUnavailableReason()}`);
  process.exit(1);
}

const mesh = generateTerrain({ cells: CELLS, seed: SEED });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized', 'float'] });
prepareRayStrategies(bvh);
const geometry = new THREE.BufferGeometry();
geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
geometry.setIndex(new THREE.BufferAttribute(mesh.indices.slice(), 1));
const three = new MeshBVH(geometry, { strategy: SAH });
const uploadStart = performance.now();
kernel.upload(bvh);
const uploadMs = performance.now() - uploadStart;

const threeRay = new THREE.Ray();
function castThree(rays: RayBatch, hits: RayHits): void {
  for (let i = 0; i < rays.count; i++) {
    threeRay.origin.set(rays.origins[3 * i]!, rays.origins[3 * i + 1]!, rays.origins[3 * i + 2]);
    threeRay.direction.set(rays.directions[3 * i]!, rays.directions[3 * i + 1]!, rays.directions[3 * i + 2]);
    const hit = three.raycastFirst(threeRay, THREE.FrontSide, 0, rays.tMax[i]);
    hits.t[i] = hit === null ? Infinity : hit.distance;
    hits.triangle[i] = hit === null ? -1 : (hit.faceIndex ?? -1);
  }
}

interface Contender {
  name: string;
  kind: 'three' | 'single' | 'batching' | 'simd' | 'simd-batched';
  run(rays: RayBatch, hits: RayHits): void;
}

/** The strongest TypeScript strategies of sorting-batching.ts on incoherent rays, one at a time and batched. */
const BATCHING_CANDIDATES: Partial<CastOptions>[] = [
  { tree: '4-way', layout: 'quantized', sorting: 'tmax', batchSize: 0 },
  { tree: 'binary', layout: 'quantized', sorting: 'precomputed', batchSize: 0 },
  { tree: '4-way', layout: 'quantized', sorting: 'tmax', batchSize: 64 },
  { tree: '4-way', layout: 'quantized', sorting: 'precomputed', batchSize: 256 },
  { tree: '4-way', layout: 'float', sorting: 'precomputed', batchSize: 256 },
  { tree: 'binary', layout: 'quantized', sorting: 'precomputed', batchSize: 64 },
  { tree: 'binary', layout: 'quantized', sorting: 'precomputed', batchSize: 256 },
];
const strategyName = (s: Partial<CastOptions>): string =>
  `castRays ${s.tree} ${s.layout} ${s.sorting} ${s.batchSize === 0 ? 'one at a time, packed' : `batch ${s.batchSize}`}`;

/** The SIMD kernel through castRays; throws should TypeScript run instead (the table would lie). */
function castSimd(rays: RayBatch, hits: RayHits, batchSize: number): void {
  const report = castRays(bvh, rays, hits, { kernel: 'wasm-simd', batchSize });
  if (report.kernel !== 'wasm-simd') throw new Error(`castRays ran ${report.kernel}: ${report.fallbackReason ?? ''}`);
}

const contenders: Contender[] = [
  { name: 'three-mesh-bvh raycastFirst', kind: 'three', run: castThree },
  { name: 'TypeScript castRays (one ray at a time)', kind: 'single', run: (rays, hits) => void castRays(bvh, rays, hits) },
  ...BATCHING_CANDIDATES.map((strategy): Contender => ({
    name: strategyName(strategy),
    kind: 'batching',
    run: (rays, hits) => void castRays(bvh, rays, hits, { triangles: 'packed', ...strategy }),
  })),
  { name: "WebAssembly SIMD castRays 'wasm-simd' (one ray at a time)", kind: 'simd', run: (rays, hits) => void castSimd(rays, hits, 0) },
  ...SIMD_BATCHES.map((batch): Contender => ({
    name: `WebAssembly SIMD castRays 'wasm-simd' batch ${batch === Infinity ? 'all' : batch}`,
    kind: 'simd-batched',
    run: (rays, hits) => void castSimd(rays, hits, batch),
  })),
];

console.log(
  `terrain ${CELLS}: ${mesh.triangleCount.toLocaleString('en')} triangles; ${RAYS.toLocaleString('en')} rays per set; ${PAIRS} CPU-time pairs with three-mesh-bvh per contender; ` +
    `SIMD module memory ${(kernel.memoryBytes / 1048576).toFixed(1)} MiB, BVH copied in once in ${uploadMs.toFixed(0)} ms`,
);

const random = new Random(SEED + CELLS);
const sets: [string, RayBatch][] = [];
if (SETS.includes('incoherent')) sets.push(['incoherent', incoherentRays(mesh, RAYS, random)]);
if (SETS.includes('camera')) {
  const side = Math.round(Math.sqrt(RAYS));
  sets.push([`camera grid ${side}×${side}`, cameraGridRays(mesh, side)]);
}
if (SETS.includes('segments')) sets.push(['20-unit segments', surfaceSegments(mesh, RAYS, random)]);

const report = new BenchReport(import.meta.url, {
  cells: CELLS,
  rays: RAYS,
  pairs: PAIRS,
  sets: SETS,
  simdBatches: SIMD_BATCHES.map(String),
  seed: SEED,
});
let failed = false;
for (const [setName, rays] of sets) {
  const hits: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  const peerHits: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  const peer = timed(`three-mesh-bvh ${setName}`, () => castThree(rays, peerHits));
  const ours = contenders.filter((c) => c.kind !== 'three');
  const times = pairedCpuMany(
    ours.map((c) => [timed(`${c.name} ${setName}`, () => c.run(rays, hits)), peer] as const),
    { pairs: PAIRS, minChunkMs: quick ? 20 : 150 },
  );
  const rows: PairedRow[] = ours.map((c, i) =>
    pairedRow(`${setName}: ${c.name}`, c.name, 'three-mesh-bvh raycastFirst', times[i]!, {
      unit: `pass over ${rays.count.toLocaleString('en')} rays (${setName})`,
      extra: { kind: c.kind, set: setName },
    }),
  );

  // Correctness after timing: per contender, the share of rays with castRays' t, and of those with its triangle too.
  const reference: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  castRays(bvh, rays, reference);
  const agreement = contenders.map((contender) => {
    contender.run(rays, hits);
    let sameT = 0;
    let sameTriangle = 0;
    for (let i = 0; i < rays.count; i++) {
      const a = hits.t[i]!,
        b = reference.t[i]!;
      let same: boolean;
      if (contender.kind === 'three') same = a === b || Math.abs(a - b) <= 1e-4 * Math.max(1, Math.abs(b));
      else if (contender.kind === 'batching') same = a === b || Math.abs(a - b) <= 1e-5 * Math.abs(b);
      else same = Object.is(a, b);
      if (same) sameT++;
      if (same && hits.triangle[i] === reference.triangle[i]) sameTriangle++;
    }
    return { t: sameT / rays.count, triangle: sameTriangle / rays.count };
  });

  // Rows: the peer first (its median over all its pairs), then every contender of ours.
  const peerMs = [...rows.map((row) => row.peerMs)].sort((a, b) => a - b)[rows.length >> 1]!;
  const ms = contenders.map((c) => (c.kind === 'three' ? peerMs : rows[ours.indexOf(c)]!.ourMs));
  const versusThree = contenders.map((c) => (c.kind === 'three' ? 1 : rows[ours.indexOf(c)]!.ratio));
  const rate = ms.map((m) => rays.count / (m / 1000));
  const index = (kind: Contender['kind']): number => {
    let found = -1;
    contenders.forEach((c, i) => {
      if (c.kind === kind && (found < 0 || versusThree[i]! > versusThree[found]!)) found = i;
    });
    return found;
  };
  const threeIndex = index('three'),
    singleIndex = index('single'),
    batchIndex = index('batching'),
    simdIndex = index('simd'),
    simdBatchedIndex = index('simd-batched');

  console.log(`\n${setName} (${rays.count.toLocaleString('en')} rays, closest hit; every row, then the summary)`);
  const header = ['contender', 'CPU ms', 'M rays/s', '× three-mesh-bvh', 'spread', '× TS one-at-a-time', 'hits agree with castRays'];
  const percent = (share: number): string => (100 * share).toFixed(2) + ' %';
  const lines = contenders.map((c, i) => [
    c.name,
    ms[i]!.toFixed(1),
    (rate[i]! / 1e6).toFixed(3),
    versusThree[i]!.toFixed(2),
    c.kind === 'three' ? '' : formatSpread(rows[ours.indexOf(c)]!.spread),
    (ms[singleIndex]! / ms[i]!).toFixed(2),
    c.kind === 'three'
      ? `${percent(agreement[i]!.t)} (t ±1e-4)`
      : c.kind === 'batching'
        ? `${percent(agreement[i]!.t)} (t ±1e-5)`
        : `${percent(agreement[i]!.t)} same t, ${percent(agreement[i]!.triangle)} same triangle`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((line) => line[c]!.length)));
  const format = (line: string[]): string => line.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));

  const summary: [string, number][] = [
    ['TypeScript single-ray', singleIndex],
    [`TypeScript best batching (${contenders[batchIndex]!.name.replace('castRays ', '')})`, batchIndex],
    ['WebAssembly SIMD one ray at a time', simdIndex],
    [`WebAssembly SIMD best batch (${contenders[simdBatchedIndex]!.name.replace("WebAssembly SIMD castRays 'wasm-simd' ", '')})`, simdBatchedIndex],
  ];
  console.log('\nsummary (× three-mesh-bvh: median of the pair ratios, spread min–max)');
  console.log(`  ${'three-mesh-bvh'.padEnd(80)} ${(rate[threeIndex]! / 1e6).toFixed(3)} M rays/s`);
  for (const [name, i] of summary) {
    const row = rows[ours.indexOf(contenders[i]!)]!;
    console.log(
      `  ${name.padEnd(80)} ${(rate[i]! / 1e6).toFixed(3)} M rays/s  ${row.ratio.toFixed(2)}× three-mesh-bvh (${formatSpread(row.spread)})`,
    );
  }
  const fastest = versusThree[simdBatchedIndex]! > versusThree[simdIndex]! ? simdBatchedIndex : simdIndex;
  const simdVsThree = versusThree[fastest]!;
  const verdict =
    `${setName}: SIMD batched = ${(ms[simdIndex]! / ms[simdBatchedIndex]!).toFixed(2)}× SIMD one ray at a time; fastest SIMD = ${(ms[singleIndex]! / ms[fastest]!).toFixed(2)}× TypeScript single-ray, ` +
    `${(ms[batchIndex]! / ms[fastest]!).toFixed(2)}× TypeScript best batching, ${simdVsThree.toFixed(2)}× three-mesh-bvh (target ≥ 5×: ${simdVsThree >= 5 ? 'met' : 'missed'})`;
  console.log(`  ${verdict}`);
  report.note(verdict);
  for (const row of rows) report.add(row);
  contenders.forEach((c, i) => {
    const exact = c.kind === 'simd' ? agreement[i]!.triangle : c.kind === 'simd-batched' ? agreement[i]!.t : 1;
    if (exact < 1) {
      console.error(`${c.name}: hits differ from castRays on ${((1 - exact) * rays.count).toFixed(0)} rays`);
      failed = true;
    }
  });
  report.addQuality({ name: `${setName}: hit agreement with castRays`, ...Object.fromEntries(contenders.map((c, i) => [c.name, agreement[i]])) });
}
report.finish();
process.exit(failed ? 1 : 0);
