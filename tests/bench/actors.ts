/**
 * Actors: a pile dropped on the default terrain (256² cells, 131k triangles, ridged, 512 m) under the
 * explosion's default place, blown by a constant wind, a whirl over the pile and turbulence, stepped at
 * 60 Hz. Two tables:
 *
 * 1. The step, per phase: mean wall ms per step over the run (the world times its phases with
 *    performance.now), and the CPU ms per step of the whole run (process.cpuUsage: the machine is shared,
 *    so wall time counts other processes too), with the awake / asleep counts and contacts at the end.
 *
 * 2. The terrain neighbour query, side by side on the same boxes: the contact boxes of the awake actors
 *    at one frame of the run (grown by the contact reach, as the step grows them), answered by
 *      - TriangleBoxQuery (src/actors): one walk per box, triangles whose bounding box overlaps (what the
 *        actors use: the contact spheres then test the triangles themselves),
 *      - overlapBoxes (src/query/boxes), one batched walk for all boxes, exact box–triangle test at leaves,
 *      - overlapBoxes, one walk per box.
 *    CPU µs per query set (_pairedCpu.ts: each overlapBoxes variant in back-to-back CPU-time pairs with
 *    TriangleBoxQuery, the order alternating, each from its own timing loop, after a discarded warm-up),
 *    triangles reported (counted after the timing), ratio: the median of the pairs' variant /
 *    TriangleBoxQuery time ratios with its spread.
 * Table 1 has no peer: its rows go to the JSON (bench-results/actors.json) as quality rows. The exact test reports fewer triangles (it drops those whose box
 *    merely grazes); both contain every triangle the contact spheres can touch.
 *
 *   npx tsx tests/bench/actors.ts           full run (300 and 2000 actors, 600 frames)
 *   npx tsx tests/bench/actors.ts --quick   smoke run (60 actors, 60 frames)
 */
import { readFileSync } from 'node:fs';
import { ActorWorld } from '../../src/actors/actorWorld';
import { spawnPile } from '../../src/actors/spawnPile';
import { TriangleBoxQuery } from '../../src/actors/triangleBoxQuery';
import { buildBVH, type BVH } from '../../src/bvh/index';
import { createBoxOverlapList, overlapBoxes, type BoxBatch } from '../../src/query/boxes/index';
import { WindField } from '../../src/wind/windField';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../src/terrain/index';
import { cpuMs, median, pairedCpuMany, timed } from './_pairedCpu';
import { BenchReport, formatSpread, pairedRow } from './_report';

const quick = process.argv.includes('--quick');
const sizes = quick ? [60] : [300, 2000];
const frames = quick ? 60 : 600;
const queryFrame = quick ? 30 : 120;
const source = (name: string): string => readFileSync(new URL(`../../scenes/fields/${name}.vf`, import.meta.url), 'utf8');
const report = new BenchReport(import.meta.url, { sizes, frames, queryFrame });

function makeWind(terrain: TerrainMesh, x: number, z: number): WindField {
  const field = new WindField();
  const ground = sampleTerrainHeight(terrain, x, z);
  field.add('constant-wind', source('constant-wind'), [0, 0, 0], Infinity);
  const whirl = field.add('whirl', source('whirl'), [x, ground + 12, z], 110);
  field.setConstant(whirl, 'up', [0, 1, 0, 0]);
  field.setConstant(whirl, 'radius', [40, 40, 40, 40]);
  field.setConstant(whirl, 'speed', [12, 12, 12, 12]);
  const turbulence = field.add('turbulence', source('turbulence'), [0, 0, 0], Infinity);
  field.setConstant(turbulence, 'scale', [0.03, 0.03, 0.03, 0]);
  return field;
}

interface QueryBoxes {
  count: number;
  /** min xyz, max xyz per box. */
  bounds: Float64Array;
}

function contactBoxes(world: ActorWorld, substep: number, margin: number): QueryBoxes {
  const a = world.actors;
  const bounds = new Float64Array(6 * a.count);
  let count = 0;
  for (let i = 0; i < a.count; i++) {
    if (a.awake[i] === 0) continue;
    const v = Math.hypot(a.velocity[3 * i]!, a.velocity[3 * i + 1]!, a.velocity[3 * i + 2]!);
    const w = Math.hypot(a.angularVelocity[3 * i]!, a.angularVelocity[3 * i + 1]!, a.angularVelocity[3 * i + 2]!);
    const reach = (v + w * a.radius[i]!) * substep + margin;
    for (let k = 0; k < 3; k++) {
      bounds[6 * count + k] = a.box[6 * i + k]! - reach;
      bounds[6 * count + 3 + k] = a.box[6 * i + 3 + k]! + reach;
    }
    count++;
  }
  return { count, bounds };
}

function compareQueries(bvh: BVH, boxes: QueryBoxes, actors: number): void {
  const own = new TriangleBoxQuery(bvh);
  const batch: BoxBatch = { count: boxes.count, centers: new Float32Array(3 * boxes.count), halfSizes: new Float32Array(3 * boxes.count) };
  for (let i = 0; i < boxes.count; i++) {
    for (let k = 0; k < 3; k++) {
      const lo = boxes.bounds[6 * i + k]!,
        hi = boxes.bounds[6 * i + 3 + k]!;
      batch.centers[3 * i + k] = (lo + hi) / 2;
      // Rounded up so the float32 box still holds the float64 one.
      batch.halfSizes[3 * i + k] = Math.fround((hi - lo) / 2) * (1 + 2 ** -20);
    }
  }
  const list = createBoxOverlapList(1 << 20);
  const variants: { name: string; run: () => number }[] = [
    {
      name: 'TriangleBoxQuery, walk per box (bbox)',
      run: () => {
        let found = 0;
        for (let i = 0; i < boxes.count; i++) {
          const o = 6 * i;
          found += own.run(
            boxes.bounds[o]!,
            boxes.bounds[o + 1]!,
            boxes.bounds[o + 2]!,
            boxes.bounds[o + 3]!,
            boxes.bounds[o + 4]!,
            boxes.bounds[o + 5]!,
          );
        }
        return found;
      },
    },
    { name: 'overlapBoxes, batched (exact)', run: () => (overlapBoxes(bvh, batch, list, { batched: true }), list.count + list.dropped) },
    { name: 'overlapBoxes, walk per box (exact)', run: () => (overlapBoxes(bvh, batch, list, { batched: false }), list.count + list.dropped) },
  ];
  const contenders = variants.map((variant) =>
    timed(`${variant.name} ${actors}`, () => {
      variant.run();
    }),
  );
  const paired = pairedCpuMany(
    contenders.slice(1).map((contender) => [contender, contenders[0]!] as const),
    { pairs: quick ? 2 : 15, minChunkMs: quick ? 20 : 150 },
  );
  const rows = paired.map((times, k) =>
    report.add(
      pairedRow(`${actors} actors: ${variants[k + 1]!.name}`, variants[k + 1]!.name, variants[0]!.name, times, {
        unit: `query set of ${boxes.count} contact boxes`,
        ratioOf: 'ours/peer',
      }),
    ),
  );
  const found = variants.map((variant) => variant.run());
  const baseUs = 1000 * median(paired.flatMap((p) => p.peerMs));
  console.log(`\nterrain neighbour query: ${boxes.count} awake actors' contact boxes at frame ${queryFrame}`);
  console.log('variant                                   µs/set   triangles   ratio (spread)');
  variants.forEach((variant, v) => {
    const us = v === 0 ? baseUs : 1000 * rows[v - 1]!.ourMs;
    const ratio = v === 0 ? '1.00×' : `${rows[v - 1]!.ratio.toFixed(2)}× (${formatSpread(rows[v - 1]!.spread)})`;
    console.log(`${variant.name.padEnd(40)} ${us.toFixed(0).padStart(8)} ${String(found[v]).padStart(11)}   ${ratio}`);
  });
}

const terrain = generateTerrain({});
const bvh = buildBVH(terrain.positions, terrain.indices);
const size = terrain.params.worldSize;
const center: [number, number] = [0.05 * size, 0.3 * size];
console.log(`terrain: ${terrain.triangleCount.toLocaleString('en')} triangles, BVH ${bvh.stats.nodes} nodes`);

for (const count of sizes) {
  const world = new ActorWorld();
  world.setTerrain(bvh);
  spawnPile(world, { count, center, seed: 1 }, (x, z) => sampleTerrainHeight(terrain, x, z));
  const field = makeWind(terrain, center[0], center[1]);
  const sums = { wind: 0, broadPhase: 0, actorContacts: 0, terrainContacts: 0, solve: 0, integrate: 0 };
  let contacts = 0;
  let boxes: QueryBoxes | null = null;
  const cpuStart = cpuMs();
  let wall = 0;
  for (let frame = 0; frame < frames; frame++) {
    const start = performance.now();
    field.setTime(frame / 60);
    world.applyWind(field, undefined, 1 / 60);
    world.step(1 / 60);
    wall += performance.now() - start;
    for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += world.phaseMs[key];
    contacts += world.counters.terrainContacts + world.counters.actorContacts;
    if (frame === queryFrame) boxes = contactBoxes(world, world.options.substep, world.options.contactMargin);
  }
  const cpu = cpuMs() - cpuStart;
  const census = world.census();
  console.log(`\n${count} actors, ${frames} frames at 60 Hz (wind: constant + whirl + turbulence over the pile)`);
  console.log('phase              ms/step (wall, mean)');
  for (const [key, value] of Object.entries(sums)) console.log(`${key.padEnd(18)} ${(value / frames).toFixed(3).padStart(10)}`);
  console.log(`${'step (wall)'.padEnd(18)} ${(wall / frames).toFixed(3).padStart(10)}`);
  console.log(`${'step (CPU)'.padEnd(18)} ${(cpu / frames).toFixed(3).padStart(10)}`);
  console.log(`contacts/step ${(contacts / frames).toFixed(0)} · at the end: awake ${census.awake}, asleep ${census.sleeping}, lost ${census.lost}`);
  report.addQuality({
    name: `${count} actors, ${frames} frames: step`,
    ...Object.fromEntries(Object.entries(sums).map(([key, value]) => [`${key}WallMs`, value / frames])),
    stepWallMs: wall / frames,
    stepCpuMs: cpu / frames,
    contactsPerStep: contacts / frames,
    awake: census.awake,
    asleep: census.sleeping,
    lost: census.lost,
  });
  if (boxes !== null && boxes.count > 0) compareQueries(bvh, boxes, count);
}
report.finish();
