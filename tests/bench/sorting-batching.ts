/**
 * Node sorting × batching × tree layout for closest-hit rays on one terrain, against three-mesh-bvh in
 * the same run on the same rays: incoherent rays, a camera grid and 20-unit segments (see _raySets.ts).
 * Every strategy of castRays (binary / 4-way, quantized / float, each sorting, one at a time or in
 * batches of 1, 4, 16, 64, 256 or all), castRays (the 4-way default path) and three-mesh-bvh's
 * raycastFirst; watertight triangle test, front faces, triangles packed in leaf order unless a row says
 * 'indexed'. Batched rows hand a ray that is alone among fewer than 4 below a node over to the
 * single-ray traversal (aloneBelow, the default) unless the row says 'pure'.
 *
 * Timing (_pairedCpu.ts): one discarded warm-up of each row, then CPU-time pairs of every row with
 * three-mesh-bvh (the peer), the order alternating, pair after pair across all rows, each row from its
 * own timing loop; "× three" is the median of the pairs' three-mesh-bvh / row ratios (spread in the
 * JSON, bench-results/sorting-batching.json). Only after the timing, one more pass per row for its
 * counters and "same t": rays whose t agrees with castRays within 1e-5 relative.
 *
 *   npx tsx tests/bench/sorting-batching.ts                 full run (512 terrain, 30k rays per set)
 *   npx tsx tests/bench/sorting-batching.ts --quick         smoke run (64 terrain, 2k rays)
 *   options: --cells N  --rays N  --pairs N  --only TEXT (rows whose name contains TEXT)  --sets incoherent,camera,segments
 */
import * as THREE from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { castRays, type CastOptions, type RayBatch, type QueryCounters, type RayHits } from '../../src/query/rays/index';
import {
  BINARY_SORTINGS,
  RAY_BATCH_SIZES,
  WIDE_SORTINGS,
  leafTrianglesFor,
  octantPermutationsFor,
  prepareRayStrategies,
  binaryBVHFor,
} from '../../src/query/rays/strategies';
import { generateTerrain } from '../../src/terrain/index';
import { median, pairedCpuMany, timed } from './_pairedCpu';
import { cameraGridRays, incoherentRays, surfaceSegments } from './_raySets';
import { BenchReport, pairedRow } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = Number(option('--cells') ?? (quick ? 64 : 512));
const RAYS = Number(option('--rays') ?? (quick ? 2000 : 30_000));
const PAIRS = Number(option('--pairs') ?? option('--rounds') ?? (quick ? 2 : 5));
const ONLY = option('--only');
const SETS = (option('--sets') ?? 'incoherent,camera,segments').split(',');
const SEED = 20170302;

interface Row {
  name: string;
  strategy: Partial<CastOptions> | null;
  run(rays: RayBatch, hits: RayHits): QueryCounters | null;
}

const batchLabel = (size: number): string => (size === 0 ? 'one at a time' : size === Infinity ? 'all' : `batch ${size}`);
const strategyName = (s: Partial<CastOptions>): string =>
  `${s.tree} ${s.layout} ${s.sorting} ${batchLabel(s.batchSize ?? 0)}${s.aloneBelow === 0 ? ' pure' : ''}${s.triangles === 'indexed' ? ' indexed' : ''}`;

const mesh = generateTerrain({ cells: CELLS, seed: SEED });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized', 'float'] });
const prepareMs = prepareRayStrategies(bvh);
const binary = binaryBVHFor(bvh);
const geometry = new THREE.BufferGeometry();
geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
geometry.setIndex(new THREE.BufferAttribute(mesh.indices.slice(), 1));
const three = new MeshBVH(geometry, { strategy: SAH });

const threeRay = new THREE.Ray();
function castThree(rays: RayBatch, hits: RayHits): null {
  for (let i = 0; i < rays.count; i++) {
    threeRay.origin.set(rays.origins[3 * i]!, rays.origins[3 * i + 1]!, rays.origins[3 * i + 2]);
    threeRay.direction.set(rays.directions[3 * i]!, rays.directions[3 * i + 1]!, rays.directions[3 * i + 2]);
    const hit = three.raycastFirst(threeRay, THREE.FrontSide, 0, rays.tMax[i]);
    hits.t[i] = hit === null ? Infinity : hit.distance;
    hits.triangle[i] = hit === null ? -1 : (hit.faceIndex ?? -1);
  }
  return null;
}

const rows: Row[] = [
  { name: 'three-mesh-bvh raycastFirst', strategy: null, run: castThree },
  { name: 'castRays (4-way quantized tmax)', strategy: null, run: (rays, hits) => castRays(bvh, rays, hits) },
];
for (const tree of ['binary', '4-way'] as const) {
  for (const layout of ['quantized', 'float'] as const) {
    for (const sorting of tree === 'binary' ? BINARY_SORTINGS : WIDE_SORTINGS) {
      for (const batchSize of RAY_BATCH_SIZES) {
        const strategy: Partial<CastOptions> = { tree, layout, sorting, batchSize };
        rows.push({ name: strategyName(strategy), strategy, run: (rays, hits) => castRays(bvh, rays, hits, { triangles: 'packed', ...strategy }) });
      }
    }
  }
}
for (const strategy of [
  { tree: 'binary', layout: 'quantized', sorting: 'precomputed', batchSize: 0, triangles: 'indexed' },
  { tree: '4-way', layout: 'quantized', sorting: 'tmax', batchSize: 0, triangles: 'indexed' },
  { tree: '4-way', layout: 'quantized', sorting: 'precomputed', batchSize: 256, triangles: 'indexed' },
  { tree: 'binary', layout: 'quantized', sorting: 'precomputed', batchSize: 256, aloneBelow: 0 },
  { tree: 'binary', layout: 'quantized', sorting: 'precomputed', batchSize: Infinity, aloneBelow: 0 },
  { tree: '4-way', layout: 'quantized', sorting: 'precomputed', batchSize: 256, aloneBelow: 0 },
  { tree: '4-way', layout: 'quantized', sorting: 'precomputed', batchSize: Infinity, aloneBelow: 0 },
] as Partial<CastOptions>[]) {
  rows.push({ name: strategyName(strategy), strategy, run: (rays, hits) => castRays(bvh, rays, hits, { triangles: 'packed', ...strategy }) });
}
const selected = rows.filter((row, i) => i < 2 || ONLY === undefined || row.name.includes(ONLY));

const random = new Random(SEED + CELLS);
const side = Math.round(Math.sqrt(RAYS));
const sets: [string, RayBatch][] = [];
if (SETS.includes('incoherent')) sets.push(['incoherent', incoherentRays(mesh, RAYS, random)]);
if (SETS.includes('camera')) sets.push([`camera grid ${side}×${side}`, cameraGridRays(mesh, side)]);
if (SETS.includes('segments')) sets.push(['20-unit segments', surfaceSegments(mesh, RAYS, random)]);

interface Result {
  row: Row;
  raysPerSecond: number;
  /** Median of the pairs' three-mesh-bvh / row ratios. */
  versusThree: number;
  counters: QueryCounters | null;
  agree: number;
}

const MB = 1048576;
console.log(
  `terrain ${CELLS}: ${mesh.triangleCount.toLocaleString('en')} triangles; ${RAYS.toLocaleString('en')} rays per set; ${PAIRS} CPU-time pairs of every row with three-mesh-bvh after a warm-up`,
);
console.log(
  `memory: 4-way quantized ${(bvh.quantized!.bytes / MB).toFixed(2)} MiB, 4-way float ${(bvh.float!.bytes / MB).toFixed(2)} MiB, ` +
    `binary quantized ${(binary.nodes.quantizedBytes / MB).toFixed(2)} MiB, binary float ${(binary.nodes.floatBytes / MB).toFixed(2)} MiB, ` +
    `4-way permutations ${(octantPermutationsFor(bvh).byteLength / MB).toFixed(2)} MiB, packed triangles ${(leafTrianglesFor(bvh, '4-way').byteLength / MB).toFixed(2)} MiB, ` +
    `triangle order ${((bvh.triangleOrder?.byteLength ?? 0) / MB).toFixed(2)} MiB; binary build + permutations + packing ${prepareMs.toFixed(0)} ms`,
);

const report = new BenchReport(import.meta.url, { cells: CELLS, rays: RAYS, pairs: PAIRS, sets: SETS, only: ONLY ?? null, seed: SEED });
const summaries: string[] = [];
for (const [setName, rays] of sets) {
  const hits: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  const threeHits: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  const peer = timed(`three-mesh-bvh ${setName}`, () => castThree(rays, threeHits));
  const paired = pairedCpuMany(
    selected.slice(1).map((row) => [timed(`${row.name} ${setName}`, () => row.run(rays, hits)), peer] as const),
    { pairs: PAIRS, minChunkMs: quick ? 10 : 100 },
  );
  const pairedRows = paired.map((times, i) =>
    report.add(
      pairedRow(`${setName}: ${selected[i + 1]!.name}`, selected[i + 1]!.name, 'three-mesh-bvh raycastFirst', times, {
        unit: `${rays.count} rays (${setName})`,
      }),
    ),
  );
  // After the timing: counters and agreement, one pass per row.
  const reference: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  castRays(bvh, rays, reference);
  const results: Result[] = selected.map((row) => {
    const counters = row.run(rays, hits);
    let agree = 0;
    for (let i = 0; i < rays.count; i++) {
      const a = hits.t[i]!,
        b = reference.t[i]!;
      if (a === b || Math.abs(a - b) <= 1e-5 * Math.abs(b)) agree++;
    }
    return { row, raysPerSecond: 0, versusThree: 1, counters, agree: agree / rays.count };
  });
  const threeMs = median(paired.flatMap((p) => p.peerMs));
  results.forEach((result, i) => {
    result.raysPerSecond = rays.count / ((i === 0 ? threeMs : pairedRows[i - 1]!.ourMs) / 1000);
    if (i > 0) result.versusThree = pairedRows[i - 1]!.ratio;
  });
  const oneAtATime = new Map<string, number>();
  for (const r of results)
    if (
      r.row.strategy !== null &&
      r.row.strategy.batchSize === 0 &&
      r.row.strategy.triangles === undefined &&
      r.row.strategy.aloneBelow === undefined
    )
      oneAtATime.set(`${r.row.strategy.tree} ${r.row.strategy.layout} ${r.row.strategy.sorting}`, r.raysPerSecond);

  const header = ['strategy', 'M rays/s', 'nodes/ray', 'boxes/ray', 'tris/ray', '× three', '× one-at-a-time', 'same t'];
  const table = results.map((r) => {
    const s = r.row.strategy;
    const single = s !== null ? oneAtATime.get(`${s.tree} ${s.layout} ${s.sorting}`) : undefined;
    const per = (value: number | undefined): string => (r.counters === null || value === undefined ? '—' : (value / rays.count).toFixed(1));
    return [
      r.row.name,
      (r.raysPerSecond / 1e6).toFixed(3),
      per(r.counters?.nodesVisited),
      per(r.counters?.boxesTested),
      per(r.counters?.trianglesTested),
      r.versusThree.toFixed(2),
      single !== undefined && s!.batchSize !== 0 ? (r.raysPerSecond / single).toFixed(2) : '',
      (100 * r.agree).toFixed(2) + '%',
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...table.map((line) => line[c]!.length)));
  const format = (line: string[]): string => line.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  console.log(`\n${setName} (${rays.count.toLocaleString('en')} rays, closest hit)`);
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of table) console.log(format(line));

  // The targets, read off this set's rows.
  const find = (name: string): Result | undefined => results.find((r) => r.row.name === name);
  for (const layout of ['quantized', 'float']) {
    const pre = find(`binary ${layout} precomputed one at a time`);
    const dist = find(`binary ${layout} distance one at a time`);
    if (pre !== undefined && dist !== undefined && pre.counters !== null && dist.counters !== null) {
      summaries.push(
        `${setName}, binary ${layout}: precomputed ${(pre.counters.nodesVisited / rays.count).toFixed(2)} nodes/ray vs distance ${(dist.counters.nodesVisited / rays.count).toFixed(2)}; ` +
          `speed ${(pre.raysPerSecond / dist.raysPerSecond).toFixed(2)}×`,
      );
    }
  }
  if (setName === 'incoherent') {
    for (const tree of ['binary', '4-way']) {
      for (const layout of ['quantized', 'float']) {
        const candidates = results.filter(
          (r) => r.row.strategy?.tree === tree && r.row.strategy.layout === layout && r.row.strategy.triangles === undefined,
        );
        const pure = candidates.filter((r) => r.row.strategy!.batchSize === 256 && r.row.strategy!.aloneBelow === 0)[0];
        const bestSingle = candidates.filter((r) => r.row.strategy!.batchSize === 0).sort((a, b) => b.raysPerSecond - a.raysPerSecond)[0];
        const best256 = candidates.filter((r) => r.row.strategy!.batchSize === 256).sort((a, b) => b.raysPerSecond - a.raysPerSecond)[0];
        if (bestSingle !== undefined && best256 !== undefined) {
          summaries.push(
            `incoherent, ${tree} ${layout}: best batch-256 (${best256.row.strategy!.sorting}${best256.row.strategy!.aloneBelow === 0 ? ', pure' : ''}) ${(best256.raysPerSecond / bestSingle.raysPerSecond).toFixed(2)}× best one-at-a-time (${bestSingle.row.strategy!.sorting})` +
              (pure !== undefined
                ? `; pure batch-256 ${pure.row.strategy!.sorting} ${(pure.raysPerSecond / bestSingle.raysPerSecond).toFixed(2)}×`
                : ''),
          );
        }
      }
    }
    const best = results.filter((r) => r.row.strategy !== null).sort((a, b) => b.raysPerSecond - a.raysPerSecond)[0];
    if (best !== undefined) summaries.push(`incoherent: best combination ${best.row.name}, ${best.versusThree.toFixed(2)}× three-mesh-bvh`);
  }
}
console.log('\nTargets');
for (const line of summaries) console.log('  ' + line);
for (const line of summaries) report.note(line);
report.finish();
