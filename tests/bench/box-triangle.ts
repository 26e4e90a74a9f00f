/**
 * Box-triangle overlap: Möller's "old" (v1) and "new, faster" (v2) tests against the optimized batched
 * test, in the four scenarios of the reference write-up, with its set-up: one box, 16384 triangles,
 * every variant tests every triangle against the box and counts the overlaps.
 *
 *   best    every triangle inside the box (the optimized test's extra first exit)
 *   worst   two corners outside beyond the box's max corner, one inside: every triangle touches the
 *           box without being inside, so no test exits early
 *   no hit  every triangle a thousand box-sizes away (all variants exit at their first box-axis test)
 *   mixed   corners on spheres of radius 10..30 around the box centre: some inside, some through, most apart
 * and two more rows that are not the reference's:
 *   crossing every triangle overlaps the box with all three corners outside it: the optimized test's own
 *            worst case (in "worst" one corner is inside, which lets it skip most edge tests)
 *   near     triangles around the box that v1 finds apart, so the exits spread over all 13 axes
 *
 * Calls: v1 and v2 once per triangle (box and vertices passed as arrays and indices, the C originals'
 * pointer arguments; the loop reads the vertex indices from the index buffer, as the optimized test
 * does); the optimized test once per scenario over the whole run (its batched form, as a
 * BVH leaf calls it), and, in the last column, once per triangle like the baselines, to show how much
 * of the gain is the batching and how much the test. Hit counts must agree, and so must the exits (the
 * optimized test's "contained" is v1's "overlap"; its edge exits are edge exits of v1 too).
 *
 * Rules: a warm-up over all scenarios is discarded; then (_pairedCpu.ts) every variant in back-to-back
 * CPU-time pairs with v1, the order alternating, each from its own timing loop; per variant the median of
 * the pairs' v1 / variant ratios and their spread (table and JSON from _report.ts). Hit counts and exits
 * are compared only after the timing, in a pass of their own.
 *
 * Triangle sets (--sets, default all three): "synthetic" makes the triangles above; "terrain" (the
 * triangles of a generated 64-cell terrain) and "bunny" (the Stanford bunny, a scanned mesh of 3,674
 * triangles) run the same six scenarios on real triangles, each defined for a mesh in _meshBoxScenarios.ts
 * (boxes placed on the mesh, every pair mapped onto the one box by a similarity). Every set is 16384
 * triangles against the one box, one call per contender, as above.
 *
 * Two more tables run the box query (overlapBoxes) over a BVH of the terrain (boxes of 1..12 cells resting on
 * the surface) and of the bunny (boxes of 1..12 mean edge lengths centred on its surface), in one batched
 * walk or one walk per box, with the optimized test, the WebAssembly SIMD test (its float32 rows in the
 * BVH's leaf order) or v1 at the leaves, each paired with v1 per box the same way.
 *
 *   npx tsx tests/bench/box-triangle.ts           full run
 *   npx tsx tests/bench/box-triangle.ts --quick   smoke run
 *   npx tsx tests/bench/box-triangle.ts --sets terrain,bunny   only those triangle sets
 *   npx tsx tests/bench/box-triangle.ts --no-query             without the box-query table
 */
import bunny from 'bunny';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { createBoxOverlapList, overlapBoxes, type BoxBatch, type BoxQueryCounters } from '../../src/query/boxes/index';
import { generateTerrain, sampleTerrainHeight } from '../../src/terrain/index';
import { EXIT_CONTAINED, EXIT_COUNT, EXIT_EDGE_FIRST, EXIT_NAMES, EXIT_OVERLAP, isOverlapExit } from '../../src/query/boxTriangle/exits';
import { mollerV1 } from '../../src/query/boxTriangle/mollerV1';
import { mollerV2 } from '../../src/query/boxTriangle/mollerV2';
import { overlapBoxWithTriangles } from '../../src/query/boxTriangle/optimized';
import { loadSimdBoxTriangles, simdBoxTrianglesUnavailableReason } from '../../src/query/boxTriangle/boxTriangleKernel';
import { pairedCpuMany, timed } from './_pairedCpu';
import { meshScenario, type Scenario, type SourceMesh } from './_meshBoxScenarios';
import { BenchReport, formatSpread, pairedRow, type PairedRow } from './_report';

// The WebAssembly SIMD twin (same answers as v1, two triangles at a time in f64x2), built by npm run build:wasm.
const simd = await loadSimdBoxTriangles();
if (simd === null) throw new Error(`WebAssembly SIMD box-triangle test unavailable: ${simdBoxTrianglesUnavailableReason()}`);

const quick = process.argv.includes('--quick');
const setsArgument = process.argv.indexOf('--sets');
type Origin = 'synthetic' | 'terrain' | 'bunny';
const ORIGINS: readonly Origin[] = ['synthetic', 'terrain', 'bunny'];
const origins = (setsArgument < 0 ? ORIGINS : process.argv[setsArgument + 1]!.split(',')) as Origin[];
for (const origin of origins) if (!ORIGINS.includes(origin)) throw new Error(`--sets: unknown set "${origin}" (known: ${ORIGINS.join(', ')})`);
const withQuery = !process.argv.includes('--no-query');
const TRIANGLES = 16384;
const PAIRS = quick ? 2 : 15;
const SEED = 20140320;

/** The one box: centre, then half-sizes. */
const BOX = Float64Array.of(3.25, -1.5, 7.75, 4.5, 2.75, 6.25);

const SCENARIOS: readonly Scenario[] = ['best', 'worst', 'no hit', 'mixed', 'crossing', 'near'];
const TARGETS: Partial<Record<Scenario, number>> = { best: 20, worst: 2, 'no hit': 2.9, mixed: 3.3 };

interface TestSet {
  name: Scenario;
  origin: Origin;
  /** A triangle soup: triangle t is vertices 3t, 3t+1, 3t+2. */
  positions: Float32Array;
  indices: Uint32Array;
}

function anyCornerInside(positions: Float32Array, t: number): boolean {
  for (let v = 0; v < 3; v++) {
    let inside = true;
    for (let axis = 0; axis < 3; axis++) if (!(Math.abs(positions[9 * t + 3 * v + axis]! - BOX[axis]!) <= BOX[axis + 3]!)) inside = false;
    if (inside) return true;
  }
  return false;
}

function makeSet(name: Scenario, random: Random): TestSet {
  const positions = new Float32Array(9 * TRIANGLES);
  const corner = (t: number, v: number, low: number, high: number): void => {
    for (let axis = 0; axis < 3; axis++) positions[9 * t + 3 * v + axis] = BOX[axis]! + BOX[axis + 3]! * random.range(low, high);
  };
  const onSphere = (t: number, v: number, radius: number): void => {
    const y = random.range(-1, 1);
    const angle = random.range(0, 2 * Math.PI);
    const ring = Math.sqrt(1 - y * y);
    positions[9 * t + 3 * v] = BOX[0]! + radius * ring * Math.cos(angle);
    positions[9 * t + 3 * v + 1] = BOX[1]! + radius * y;
    positions[9 * t + 3 * v + 2] = BOX[2]! + radius * ring * Math.sin(angle);
  };
  for (let t = 0; t < TRIANGLES; t++) {
    if (name === 'best') for (let v = 0; v < 3; v++) corner(t, v, -0.999, 0.999);
    else if (name === 'worst') {
      corner(t, 0, 1.05, 2);
      corner(t, 1, 1.05, 2);
      corner(t, 2, -0.999, 0.999);
    } else if (name === 'no hit') for (let v = 0; v < 3; v++) corner(t, v, 999, 1001);
    else if (name === 'mixed') {
      const radius = random.range(10, 30);
      for (let v = 0; v < 3; v++) onSphere(t, v, radius);
    } else if (name === 'crossing') {
      do for (let v = 0; v < 3; v++) corner(t, v, -3, 3);
      while (!isOverlapExit(mollerV1(BOX, 0, positions, 3 * t, 3 * t + 1, 3 * t + 2)) || anyCornerInside(positions, t));
    } else {
      do for (let v = 0; v < 3; v++) corner(t, v, -3, 3);
      while (isOverlapExit(mollerV1(BOX, 0, positions, 3 * t, 3 * t + 1, 3 * t + 2)));
    }
  }
  const indices = new Uint32Array(3 * TRIANGLES);
  for (let i = 0; i < indices.length; i++) indices[i] = i;
  return { name, origin: 'synthetic', positions, indices };
}

/** The real meshes: the terrain's own triangles and the scanned bunny's. */
function sourceMesh(origin: Exclude<Origin, 'synthetic'>): SourceMesh {
  if (origin === 'terrain') {
    const terrain = generateTerrain({ cells: 64, seed: SEED });
    return { positions: terrain.positions, indices: terrain.indices };
  }
  return { positions: new Float32Array(bunny.positions.flat()), indices: new Uint32Array(bunny.cells.flat()) };
}

function runV1(set: TestSet, exits: Uint8Array): number {
  const { positions, indices } = set;
  let hits = 0;
  for (let t = 0; t < TRIANGLES; t++) {
    const exit = mollerV1(BOX, 0, positions, indices[3 * t]!, indices[3 * t + 1]!, indices[3 * t + 2]!);
    exits[t] = exit;
    if (exit === EXIT_OVERLAP) hits++;
  }
  return hits;
}

function runV2(set: TestSet, exits: Uint8Array): number {
  const { positions, indices } = set;
  let hits = 0;
  for (let t = 0; t < TRIANGLES; t++) {
    const exit = mollerV2(BOX, 0, positions, indices[3 * t]!, indices[3 * t + 1]!, indices[3 * t + 2]!);
    exits[t] = exit;
    if (exit === EXIT_OVERLAP) hits++;
  }
  return hits;
}

function runOptimized(set: TestSet, exits: Uint8Array): number {
  return overlapBoxWithTriangles(BOX, 0, set.positions, set.indices, null, 0, TRIANGLES, exits);
}

const oneExit = new Uint8Array(1);
function runOptimizedOneByOne(set: TestSet, exits: Uint8Array): number {
  const { positions, indices } = set;
  let hits = 0;
  for (let t = 0; t < TRIANGLES; t++) {
    hits += overlapBoxWithTriangles(BOX, 0, positions, indices, null, t, 1, oneExit);
    exits[t] = oneExit[0]!;
  }
  return hits;
}

/** Overlap answers (1/0), not exits: the SIMD test runs every axis branch-free and keeps no exit. */
function runSimd(set: TestSet, answers: Uint8Array): number {
  return simd!.overlap(BOX, 0, set.positions, set.indices, null, 0, TRIANGLES, answers);
}

/** The same, through the kernel's float32 triangle rows (the run is the mesh's own order). */
function runSimdRows(set: TestSet, answers: Uint8Array): number {
  return simd!.overlap(BOX, 0, set.positions, set.indices, null, 0, TRIANGLES, answers, false, true);
}

// Each variant is timed from its own timing loop (_pairedCpu.ts): once, a fifth target at one shared
// call site made it megamorphic, and V8 then ran the one-by-one optimized loop 25× slower.
const VARIANTS = [runV1, runV2, runOptimized, runOptimizedOneByOne] as const;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const report = new BenchReport(import.meta.url, { triangles: TRIANGLES, pairs: PAIRS, seed: SEED });

const sets: TestSet[] = [];
for (const origin of origins) {
  const random = new Random(SEED);
  if (origin === 'synthetic') sets.push(...SCENARIOS.map((name) => makeSet(name, random)));
  else {
    const mesh = sourceMesh(origin);
    for (const name of SCENARIOS) sets.push({ name, origin, ...meshScenario(name, mesh, BOX, TRIANGLES, random) });
  }
}
const exitsOf = VARIANTS.map(() => new Uint8Array(TRIANGLES));
const simdAnswers = new Uint8Array(TRIANGLES);
const rowsAnswers = new Uint8Array(TRIANGLES);

// Warm-up, mixed and near first: every variant sees all its paths before V8 first optimizes it (code
// compiled on one scenario's paths deoptimizes on the next; after a few rounds of that V8 may settle
// on worse code, and the table would time the JIT rather than the test).
const warmOrder = [...sets.filter((set) => set.name === 'mixed' || set.name === 'near'), ...sets];
for (let pass = 0; pass < (quick ? 3 : 10); pass++) {
  for (const set of warmOrder) {
    VARIANTS.forEach((run, v) => run(set, exitsOf[v]!));
    runSimd(set, simdAnswers);
    runSimdRows(set, rowsAnswers);
  }
}

const rows: Record<string, string>[] = [];
const exitLines: string[] = [];
let disagreements = 0;
const missed: string[] = [];
for (const set of sets) {
  const where = `${set.origin} ${set.name}`;
  const v1 = timed(`v1 ${where}`, () => runV1(set, exitsOf[0]!));
  const ours = [
    timed(`v2 ${where}`, () => runV2(set, exitsOf[1]!)),
    timed(`optimized ${where}`, () => runOptimized(set, exitsOf[2]!)),
    timed(`optimized one by one ${where}`, () => runOptimizedOneByOne(set, exitsOf[3]!)),
    timed(`SIMD ${where}`, () => runSimd(set, simdAnswers)),
    timed(`SIMD rows ${where}`, () => runSimdRows(set, rowsAnswers)),
  ];
  const paired = pairedCpuMany(
    ours.map((o) => [o, v1] as const),
    { pairs: PAIRS, minChunkMs: quick ? 20 : 150 },
  );
  const unit = `one box against ${TRIANGLES} triangles`;
  const [v2Row, optRow, oneRow, simdRow, rowsRow] = ours.map((o, k) =>
    report.add(pairedRow(`${where}: ${o.label.slice(0, -where.length - 1)}`, o.label, 'v1', paired[k]!, { unit })),
  ) as [PairedRow, PairedRow, PairedRow, PairedRow, PairedRow];
  // Correctness after timing, in a pass of its own.
  const hits = VARIANTS.map((run, v) => run(set, exitsOf[v]!));
  hits.push(runSimd(set, simdAnswers));
  hits.push(runSimdRows(set, rowsAnswers));
  const histogram = new Int32Array(EXIT_COUNT);
  for (let t = 0; t < TRIANGLES; t++) {
    const e1 = exitsOf[0]![t]!,
      e2 = exitsOf[1]![t]!,
      eo = exitsOf[2]![t]!,
      eOne = exitsOf[3]![t]!,
      simdAnswer = simdAnswers[t]!,
      rowsAnswer = rowsAnswers[t]!;
    histogram[eo]!++;
    // v2 tests in another order: only its answer is compared. The optimized test takes v1's exit, but
    // "contained" where v1 runs to its end, and for edge tests the first of its own group.
    const sameExit = eo === EXIT_CONTAINED ? e1 === EXIT_OVERLAP : eo >= EXIT_EDGE_FIRST ? e1 >= EXIT_EDGE_FIRST : eo === e1;
    const same =
      isOverlapExit(e1) === isOverlapExit(e2) && sameExit && eOne === eo && (simdAnswer === 1) === isOverlapExit(e1) && rowsAnswer === simdAnswer;
    if (!same) disagreements++;
  }
  const t1 = median(paired.flatMap((p) => p.peerMs));
  const [t2, to, tSimd] = [v2Row.ourMs, optRow.ourMs, simdRow.ourMs];
  const ns = (ms: number): string => ((ms * 1e6) / TRIANGLES).toFixed(1);
  const speedup = optRow.ratio;
  const target = TARGETS[set.name];
  if (target !== undefined && speedup < target) missed.push(`optimized ${where} ${speedup.toFixed(2)}× < ${target}×`);
  if (target !== undefined && simdRow.ratio < target) missed.push(`SIMD ${where} ${simdRow.ratio.toFixed(2)}× < ${target}×`);
  if (target !== undefined && rowsRow.ratio < target) missed.push(`SIMD rows ${where} ${rowsRow.ratio.toFixed(2)}× < ${target}×`);
  rows.push({
    set: set.origin,
    scenario: set.name,
    'v1 ms': t1.toFixed(3),
    'v2 ms': t2.toFixed(3),
    'opt ms': to.toFixed(3),
    'ns/test v1·v2·opt': `${ns(t1)} · ${ns(t2)} · ${ns(to)}`,
    'hits v1/v2/opt/SIMD/rows': [hits[0], hits[1], hits[2], hits[4], hits[5]].join('/'),
    'opt vs v1': `${speedup.toFixed(2)}× (${formatSpread(optRow.spread)})`,
    'opt vs v2': (t2 / to).toFixed(2) + '×',
    'v2 vs v1': v2Row.ratio.toFixed(2) + '×',
    target: target === undefined ? '–' : `≥ ${target}×`,
    'opt 1-by-1 vs v1': oneRow.ratio.toFixed(2) + '×',
    'SIMD ms': tSimd.toFixed(3),
    'SIMD vs v1': `${simdRow.ratio.toFixed(2)}× (${formatSpread(simdRow.spread)})`,
    'SIMD rows vs v1': `${rowsRow.ratio.toFixed(2)}× (${formatSpread(rowsRow.spread)})`,
  });
  exitLines.push(
    `  ${where.padEnd(18)} ${[...histogram]
      .map((count, e) => (count > 0 ? `${EXIT_NAMES[e]} ${count}` : ''))
      .filter(Boolean)
      .join(', ')}`,
  );
}

console.log(
  `\nBox-triangle overlap: one box, ${TRIANGLES} triangles per scenario and set; CPU ms per pass, medians; × v1: median of ${PAIRS} pairs (spread)`,
);
console.table(rows);
console.log('Exits taken by the optimized test:');
console.log(exitLines.join('\n'));
console.log(disagreements === 0 ? 'Every variant agrees with v1 on every triangle.' : `DISAGREEMENTS: ${disagreements}`);
console.log(missed.length === 0 ? 'All four targets met by both the optimized test and the SIMD test.' : `Targets missed: ${missed.join('; ')}`);

interface QueryScene {
  name: string;
  positions: Float32Array;
  indices: Uint32Array;
  probes: BoxBatch;
  /** What the boxes are, for the table's title. */
  title: string;
}

/** The terrain: boxes of 1..12 cells resting on the surface. */
function terrainQueryScene(boxes: number): QueryScene {
  const cells = quick ? 48 : 256;
  const terrain = generateTerrain({ cells, seed: SEED });
  const probeRandom = new Random(SEED + 1);
  const probes: BoxBatch = { count: boxes, centers: new Float32Array(3 * boxes), halfSizes: new Float32Array(3 * boxes) };
  const half = terrain.params.worldSize / 2;
  const spacing = terrain.params.worldSize / cells;
  for (let i = 0; i < boxes; i++) {
    const x = probeRandom.range(-half, half),
      z = probeRandom.range(-half, half);
    probes.centers.set([x, sampleTerrainHeight(terrain, x, z), z], 3 * i);
    for (let k = 0; k < 3; k++) probes.halfSizes[3 * i + k] = spacing * probeRandom.range(0.5, 6);
  }
  const title = `a ${cells}-cell terrain (${terrain.triangleCount} triangles), ${boxes} boxes of 1..12 cells resting on the surface`;
  return { name: `${cells}-cell terrain`, positions: terrain.positions, indices: terrain.indices, probes, title };
}

/** The bunny: boxes of 1..12 mean edge lengths centred at random points of its surface. */
function bunnyQueryScene(boxes: number): QueryScene {
  const { positions, indices } = sourceMesh('bunny');
  const triangles = indices.length / 3;
  let edgeSum = 0;
  for (let t = 0; t < triangles; t++) {
    for (let e = 0; e < 3; e++) {
      const i = 3 * indices[3 * t + e]!,
        j = 3 * indices[3 * t + ((e + 1) % 3)]!;
      edgeSum += Math.hypot(positions[i]! - positions[j]!, positions[i + 1]! - positions[j + 1]!, positions[i + 2]! - positions[j + 2]!);
    }
  }
  const edge = edgeSum / (3 * triangles);
  const probeRandom = new Random(SEED + 2);
  const probes: BoxBatch = { count: boxes, centers: new Float32Array(3 * boxes), halfSizes: new Float32Array(3 * boxes) };
  for (let i = 0; i < boxes; i++) {
    const t = probeRandom.int(triangles);
    let w0 = probeRandom.next(),
      w1 = probeRandom.next();
    if (w0 + w1 > 1) [w0, w1] = [1 - w0, 1 - w1];
    for (let k = 0; k < 3; k++) {
      const a = positions[3 * indices[3 * t]! + k]!,
        b = positions[3 * indices[3 * t + 1]! + k]!,
        c = positions[3 * indices[3 * t + 2]! + k]!;
      probes.centers[3 * i + k] = (1 - w0 - w1) * a + w0 * b + w1 * c;
      probes.halfSizes[3 * i + k] = edge * probeRandom.range(0.5, 6);
    }
  }
  const title = `the bunny (${triangles} triangles), ${boxes} boxes of 1..12 mean edge lengths centred on its surface`;
  return { name: 'bunny', positions, indices, probes, title };
}

// The query over a BVH of each mesh; true when every variant found the same overlaps.
function queryTable(scene: QueryScene): boolean {
  const { probes } = scene;
  const bvh = buildBVH(scene.positions, scene.indices, { layouts: ['quantized'] });
  const list = createBoxOverlapList(4_000_000);
  const queryRows: Record<string, string>[] = [];
  const queryVariants = [
    ['optimized', true],
    ['optimized', false],
    ['wasm-simd', true],
    ['wasm-simd', false],
    ['v1', true],
    ['v1', false],
  ] as const;
  const peer = queryVariants.length - 1;
  const queryTimed = queryVariants.map(([test, batched]) =>
    timed(`overlapBoxes ${scene.name} ${test} ${batched ? 'batched' : 'per box'}`, () => overlapBoxes(bvh, probes, list, { test, batched })),
  );
  for (let pass = 0; pass < (quick ? 2 : 5); pass++) for (const contender of queryTimed) contender.time(1);
  const queryPairs = pairedCpuMany(
    queryTimed.slice(0, peer).map((contender) => [contender, queryTimed[peer]!] as const),
    { pairs: quick ? 2 : 11, minChunkMs: quick ? 20 : 150 },
  );
  const queryRowsPaired = queryPairs.map((times, v) =>
    report.add(
      pairedRow(`query ${scene.name}: ${queryTimed[v]!.label}`, queryTimed[v]!.label, queryTimed[peer]!.label, times, {
        unit: `${probes.count} boxes on ${scene.name}`,
      }),
    ),
  );
  const queryCounters: BoxQueryCounters[] = queryVariants.map(([test, batched]) => overlapBoxes(bvh, probes, list, { test, batched }));
  const queryMs = [...queryRowsPaired.map((row) => row.ourMs), median(queryPairs.flatMap((p) => p.peerMs))];
  queryVariants.forEach(([test, batched], v) => {
    const c = queryCounters[v]!;
    queryRows.push({
      'leaf test': test,
      walk: batched ? 'batched' : 'per box',
      ms: queryMs[v]!.toFixed(2),
      'vs v1 per box': v === peer ? '1' : `${queryRowsPaired[v]!.ratio.toFixed(2)}× (${formatSpread(queryRowsPaired[v]!.spread)})`,
      'nodes visited': String(c.nodesVisited),
      'child boxes decoded': String(c.childBoxesDecoded),
      'box-node tests': String(c.boxesTested),
      'triangle tests': String(c.trianglesTested),
      overlaps: String(c.hits),
    });
  });
  console.log(`\nBox query on ${scene.title}; CPU ms, median`);
  console.table(queryRows);
  const sameOverlaps = queryCounters.every((c) => c.hits === queryCounters[0]!.hits);
  if (!sameOverlaps) console.error(`the query variants found different overlaps on ${scene.name}`);
  return sameOverlaps;
}
const queryBoxes = quick ? 200 : 4000;
const sameOverlaps = !withQuery || [queryTable(terrainQueryScene(queryBoxes)), queryTable(bunnyQueryScene(queryBoxes))].every(Boolean);
if (disagreements > 0) console.error(`${disagreements} tests where the variants disagree`);
report.note(disagreements === 0 ? 'every variant agrees with v1 on every triangle' : `${disagreements} disagreements`);
report.note(missed.length === 0 ? 'all four targets met by the optimized and the SIMD test' : `targets missed: ${missed.join('; ')}`);
report.finish();
if (disagreements > 0 || !sameOverlaps) process.exit(1);
