/**
 * The tree walks before and after a change, in one process: every query of this checkout ("after")
 * against the same query of an older commit ("before", by default the commit before the shared walk and
 * the collision masks), on the same terrain, the same rays, capsules and boxes, the same work.
 *
 * Contenders (each version's own module, each run from its own function):
 *   rays TS        castRays, closest hit, one ray at a time (TypeScript)
 *   rays SIMD      the WebAssembly SIMD ray kernel, one ray at a time
 *   capsules TS    sweepCapsules (TypeScript)
 *   capsules SIMD  the WebAssembly SIMD capsule kernel
 *   boxes          overlapBoxes, one batched walk, exact box-triangle test at the leaves
 *   actors         the actors' TriangleBoxQuery, one walk per box
 * Timing (_pairedCpu.ts): CPU time (process.cpuUsage) of back-to-back pairs, the order inside a pair
 * alternating (after, before, then before, after…) so drift hits both alike, each contender from its own
 * timing loop, a discarded warm-up of each first. Per row: the median of the pairs' after/before time
 * ratios (below 1: after is faster) and their spread (min–max, and p10–p90 from 10 pairs on); the table
 * and bench-results/walk-before-after.json come from _report.ts. Only then the correctness sweep: every
 * result of "after" must equal "before".
 * Last, "after" only: nodes visited per ray with filters that reject half or more of the terrain's
 * materials, for rays from above and for short segments near the surface. A closest-hit ray that no
 * longer stops on a filtered triangle flies on, so it can visit more nodes, not fewer; the table says so.
 *
 *   npx tsx tests/bench/walk-before-after.ts                 (before = 4310cbf, checked out once into /tmp)
 *   npx tsx tests/bench/walk-before-after.ts --quick         smoke run: small terrain, 2 pairs
 *   options: --ref REV | --baseline DIR (a checkout with node_modules and built wasm)  --cells N  --pairs N
 */
import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Random } from '../../src/math/random';
import type { RayBatch, RayHits } from '../../src/query/rays/index';
import { pairedCpu, timed } from './_pairedCpu';
import { incoherentRays, surfaceSegments } from './_raySets';
import { BenchReport, pairedRow } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = Number(option('--cells') ?? (quick ? 64 : 256));
const PAIRS = Number(option('--pairs') ?? (quick ? 2 : 15));
const RAYS = quick ? 2_000 : 40_000;
const CAPSULES = quick ? 300 : 4_000;
const BOXES = quick ? 300 : 4_000;
const SEED = 20170302;
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** A checkout of `ref` beside the system's temp files, with this checkout's node_modules and its wasm built. */
function baselineCheckout(ref: string): string {
  const dir = `/tmp/colliderscope-baseline-${ref}`;
  if (!existsSync(join(dir, 'src'))) execFileSync('git', ['-C', root, 'worktree', 'add', '--force', '--detach', dir, ref], { stdio: 'inherit' });
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  if (!existsSync(join(dir, 'src/platform/generated/rays.wasm'))) execFileSync('npm', ['run', '-s', 'build:wasm'], { cwd: dir, stdio: 'inherit' });
  return dir;
}
const before = option('--baseline') ?? baselineCheckout(option('--ref') ?? '4310cbf');

/** The loose shape both versions share; each version's modules are loaded from its own tree. */
interface Version {
  name: 'before' | 'after';
  bvh: unknown;
  castRaysTS: (rays: RayBatch, hits: RayHits) => void;
  castRaysSimd: (rays: RayBatch, hits: RayHits) => void;
  sweepTS: (capsules: unknown, hits: unknown) => void;
  sweepSimd: (capsules: unknown, hits: unknown) => void;
  overlap: (boxes: unknown, out: unknown) => void;
  actorQuery: (boxes: Float32Array, count: number) => number;
  capsuleBatch: unknown;
  capsuleHits: unknown;
  boxBatch: unknown;
  overlapList: { count: number; box: Int32Array; triangle: Int32Array };
  nodesPerRay?: (rays: RayBatch, hits: RayHits, filter: number) => number;
}

type Loose = Record<string, (...parameters: never[]) => unknown>;
async function load(name: Version['name'], dir: string): Promise<Version> {
  const module = async (path: string): Promise<Loose> => (await import(join(dir, path))) as Loose;
  const core = await module('src/core.ts');
  const terrain = await module('src/terrain/index.ts');
  const boxes = await module('src/query/boxes/index.ts');
  const actors = (await import(join(dir, 'src/actors/triangleBoxQuery.ts'))) as {
    TriangleBoxQuery: new (bvh: unknown) => { run(a: number, b: number, c: number, d: number, e: number, f: number): number };
  };
  const call = <T>(fn: string, ...parameters: unknown[]): T => (core[fn] as unknown as (...p: unknown[]) => T)(...parameters);
  const mesh = call<{ positions: Float32Array; indices: Uint32Array; materials?: Uint8Array }>('generateTerrain', { cells: CELLS, seed: SEED });
  const materials = terrain.terrainMaterialInput === undefined ? null : (terrain.terrainMaterialInput as unknown as (m: unknown) => unknown)(mesh);
  const bvh = call<unknown>('buildBVH', mesh.positions, mesh.indices, { layouts: ['quantized', 'float'] }, materials);
  await call<Promise<unknown>>('loadSimdRays');
  await call<Promise<unknown>>('loadSimdCapsules');
  // The single ray entry point (after) names its kernel; before, the kernels had entry points of their own.
  const unified = core.castRaysSimd === undefined;
  const castRays = core.castRays as unknown as (bvh: unknown, rays: RayBatch, hits: RayHits, options?: object) => { nodesVisited: number };
  const castRaysSimd = unified ? undefined : (core.castRaysSimd as unknown as (bvh: unknown, rays: RayBatch, hits: RayHits) => void);
  const sweepCapsules = core.sweepCapsules as unknown as (bvh: unknown, capsules: unknown, hits: unknown, options?: object) => void;
  const sweepCapsulesSimd = core.sweepCapsulesSimd as unknown as ((bvh: unknown, capsules: unknown, hits: unknown) => void) | undefined;
  const overlapBoxes = boxes.overlapBoxes as unknown as (bvh: unknown, boxes: unknown, out: unknown, options?: object) => void;
  const query = new actors.TriangleBoxQuery(bvh);

  const capsuleBatch = call<{ start: Float32Array; end: Float32Array; radius: Float32Array; motion: Float32Array }>('createCapsuleBatch', CAPSULES);
  const random = new Random(7);
  const half = CELLS / 2;
  for (let i = 0; i < CAPSULES; i++) {
    const x = random.range(-half, half) * 1.8,
      z = random.range(-half, half) * 1.8;
    const y = call<number>('sampleTerrainHeight', mesh, x, z) + 3;
    capsuleBatch.start.set([x, y - 1, z], 3 * i);
    capsuleBatch.end.set([x + 0.3, y + 1, z], 3 * i);
    capsuleBatch.radius[i] = 0.5;
    capsuleBatch.motion.set([random.range(-8, 8), random.range(-12, 2), random.range(-8, 8)], 3 * i);
  }
  const boxBatch = { count: BOXES, centers: new Float32Array(3 * BOXES), halfSizes: new Float32Array(3 * BOXES) };
  const boxRandom = new Random(11);
  for (let i = 0; i < BOXES; i++) {
    const x = boxRandom.range(-half, half) * 1.8,
      z = boxRandom.range(-half, half) * 1.8;
    boxBatch.centers.set([x, call<number>('sampleTerrainHeight', mesh, x, z), z], 3 * i);
    boxBatch.halfSizes.set([boxRandom.range(0.3, 3), boxRandom.range(0.3, 3), boxRandom.range(0.3, 3)], 3 * i);
  }
  const overlapList = call<{ count: number; box: Int32Array; triangle: Int32Array }>('createBoxOverlapList', 400_000);
  return {
    name,
    bvh,
    castRaysTS: unified ? (rays, hits) => castRays(bvh, rays, hits, { kernel: 'typescript' }) : (rays, hits) => castRays(bvh, rays, hits),
    castRaysSimd: unified ? (rays, hits) => castRays(bvh, rays, hits, { kernel: 'wasm-simd' }) : (rays, hits) => castRaysSimd!(bvh, rays, hits),
    sweepTS: (capsules, hits) => sweepCapsules(bvh, capsules, hits, { kernel: 'typescript' }),
    sweepSimd:
      sweepCapsulesSimd !== undefined
        ? (capsules, hits) => sweepCapsulesSimd(bvh, capsules, hits)
        : (capsules, hits) => sweepCapsules(bvh, capsules, hits, { kernel: 'wasm-simd' }),
    overlap: (batch, out) => overlapBoxes(bvh, batch, out),
    actorQuery: (centersAndHalves, count) => {
      let found = 0;
      for (let i = 0; i < count; i++) {
        const o = 6 * i;
        found += query.run(
          centersAndHalves[o]! - centersAndHalves[o + 3]!,
          centersAndHalves[o + 1]! - centersAndHalves[o + 4]!,
          centersAndHalves[o + 2]! - centersAndHalves[o + 5]!,
          centersAndHalves[o]! + centersAndHalves[o + 3]!,
          centersAndHalves[o + 1]! + centersAndHalves[o + 4]!,
          centersAndHalves[o + 2]! + centersAndHalves[o + 5]!,
        );
      }
      return found;
    },
    capsuleBatch,
    capsuleHits: call<unknown>('createCapsuleHits', CAPSULES),
    boxBatch,
    overlapList,
    nodesPerRay:
      materials === null ? undefined : (rays, hits, filter) => castRays(bvh, rays, hits, { kernel: 'typescript', filter }).nodesVisited / rays.count,
  };
}

const old = await load('before', before);
const now = await load('after', root);
const terrainForRays = (await import(join(root, 'src/terrain/index.ts'))) as { generateTerrain: (p: object) => Parameters<typeof incoherentRays>[0] };
const rays = incoherentRays(terrainForRays.generateTerrain({ cells: CELLS, seed: SEED }), RAYS, new Random(3));
const hitsOf = (): RayHits => ({ t: new Float32Array(RAYS), triangle: new Int32Array(RAYS) });
const actorBoxes = new Float32Array(6 * BOXES);
{
  const batch = old.boxBatch as { centers: Float32Array; halfSizes: Float32Array };
  for (let i = 0; i < BOXES; i++) {
    actorBoxes.set(batch.centers.subarray(3 * i, 3 * i + 3), 6 * i);
    actorBoxes.set(batch.halfSizes.subarray(3 * i, 3 * i + 3), 6 * i + 3);
  }
}

const report = new BenchReport(import.meta.url, {
  before,
  after: root,
  cells: CELLS,
  rays: RAYS,
  capsules: CAPSULES,
  boxes: BOXES,
  pairs: PAIRS,
  seed: SEED,
});

/** after/before CPU time per pair: below 1, after is faster. */
function pairRow(name: string, unit: string, runBefore: () => void, runAfter: () => void): void {
  const times = pairedCpu(timed(`${name} after`, runAfter), timed(`${name} before`, runBefore), { pairs: PAIRS, minChunkMs: quick ? 20 : 150 });
  report.add(pairedRow(name, `${name} after`, `${name} before`, times, { unit, ratioOf: 'ours/peer' }));
}

// Each contender from its own call site.
const raysBeforeHits = hitsOf();
const raysAfterHits = hitsOf();
const simdBeforeHits = hitsOf();
const simdAfterHits = hitsOf();
function raysTsBefore(): void {
  old.castRaysTS(rays, raysBeforeHits);
}
function raysTsAfter(): void {
  now.castRaysTS(rays, raysAfterHits);
}
function raysSimdBefore(): void {
  old.castRaysSimd(rays, simdBeforeHits);
}
function raysSimdAfter(): void {
  now.castRaysSimd(rays, simdAfterHits);
}
function capsulesTsBefore(): void {
  old.sweepTS(old.capsuleBatch, old.capsuleHits);
}
function capsulesTsAfter(): void {
  now.sweepTS(now.capsuleBatch, now.capsuleHits);
}
function capsulesSimdBefore(): void {
  old.sweepSimd(old.capsuleBatch, old.capsuleHits);
}
function capsulesSimdAfter(): void {
  now.sweepSimd(now.capsuleBatch, now.capsuleHits);
}
function boxesBefore(): void {
  old.overlap(old.boxBatch, old.overlapList);
}
function boxesAfter(): void {
  now.overlap(now.boxBatch, now.overlapList);
}
let actorsFoundBefore = 0;
let actorsFoundAfter = 0;
function actorsBefore(): void {
  actorsFoundBefore = old.actorQuery(actorBoxes, BOXES);
}
function actorsAfter(): void {
  actorsFoundAfter = now.actorQuery(actorBoxes, BOXES);
}

console.log(
  `before: ${before}\nafter:  ${root}\nterrain ${CELLS} cells (${2 * CELLS * CELLS} triangles), ${RAYS} rays, ${CAPSULES} capsules, ${BOXES} boxes, ${PAIRS} pairs`,
);
pairRow('rays TS', `${RAYS} rays`, raysTsBefore, raysTsAfter);
pairRow('rays SIMD', `${RAYS} rays`, raysSimdBefore, raysSimdAfter);
pairRow('capsules TS', `${CAPSULES} capsule sweeps`, capsulesTsBefore, capsulesTsAfter);
pairRow('capsules SIMD', `${CAPSULES} capsule sweeps`, capsulesSimdBefore, capsulesSimdAfter);
pairRow('boxes', `${BOXES} boxes`, boxesBefore, boxesAfter);
pairRow('actors', `${BOXES} boxes`, actorsBefore, actorsAfter);

// Correctness after timing: the same answers from both versions.
let failures = 0;
const expectSame = (what: string, a: ArrayLike<number>, b: ArrayLike<number>): void => {
  let differing = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) differing++;
  if (differing > 0) {
    failures++;
    console.error(`${what}: ${differing} of ${a.length} differ between before and after`);
  }
};
expectSame('rays TS triangles', raysBeforeHits.triangle, raysAfterHits.triangle);
expectSame('rays TS t', raysBeforeHits.t, raysAfterHits.t);
expectSame('rays SIMD triangles', simdBeforeHits.triangle, simdAfterHits.triangle);
const capsuleHits = (version: Version): Int32Array => (version.capsuleHits as { triangle: Int32Array }).triangle;
expectSame('capsule triangles', capsuleHits(old), capsuleHits(now));
expectSame('capsule toi', (old.capsuleHits as { toi: Float32Array }).toi, (now.capsuleHits as { toi: Float32Array }).toi);
if (old.overlapList.count !== now.overlapList.count) {
  failures++;
  console.error(`box overlaps: ${old.overlapList.count} before, ${now.overlapList.count} after`);
}
if (actorsFoundBefore !== actorsFoundAfter) {
  failures++;
  console.error(`actors' triangles: ${actorsFoundBefore} before, ${actorsFoundAfter} after`);
}
const verdict = failures === 0 ? 'same results before and after: yes' : `${failures} result differences`;
console.log(`\n${verdict}`);
report.note(verdict);

let filterReport: Record<string, Record<string, number>> | null = null;
if (now.nodesPerRay !== undefined) {
  const materials = (await import(join(root, 'src/terrain/materials.ts'))) as { materialFilter: (names: string[]) => number };
  const terrain = terrainForRays.generateTerrain({ cells: CELLS, seed: SEED });
  const sets: Record<string, RayBatch> = { 'incoherent rays': rays, '20-unit segments': surfaceSegments(terrain, RAYS, new Random(5)) };
  const filters: Record<string, number> = {
    'no filter': 0xffffffff,
    'keep grass+rock': materials.materialFilter(['grass', 'rock']),
    'keep snow+water': materials.materialFilter(['snow', 'water']),
    'keep water': materials.materialFilter(['water']),
  };
  filterReport = {};
  console.log(`\nnodes visited per ray (after, TypeScript walk), filters rejecting half or more of the terrain's materials:`);
  for (const [setName, set] of Object.entries(sets)) {
    const hits = { t: new Float32Array(set.count), triangle: new Int32Array(set.count) };
    const perFilter: Record<string, number> = {};
    for (const [filterName, filter] of Object.entries(filters)) perFilter[filterName] = now.nodesPerRay(set, hits, filter);
    filterReport[setName] = perFilter;
    const all = perFilter['no filter']!;
    console.log(`  ${setName}`);
    for (const [filterName, value] of Object.entries(perFilter))
      console.log(
        `    ${filterName.padEnd(17)} ${value.toFixed(2).padStart(7)}  ${filterName === 'no filter' ? '' : `(${(100 * (value / all - 1)).toFixed(1)}%)`}`,
      );
  }
}

report.finish({ filterReport, failures });
process.exit(failures === 0 ? 0 : 1);
