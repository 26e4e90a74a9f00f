/**
 * Swept capsules against Rapier's shape cast, in one run, on the same terrain and the same sweeps:
 * 10k capsules of random orientation (radius 0.5, half-height 1), centre 5 above the surface, moved
 * 20 units in a direction uniform on the sphere. Ours: sweepCapsules over the quantized 4-way BVH, in
 * TypeScript and through the WebAssembly SIMD kernel (same sweeps, same contacts). Theirs: @dimforge/rapier3d-compat Collider.castShape of a Capsule against a trimesh collider of the
 * same mesh (rotation taking the capsule's +y to its axis), maxToi 1, stopping at penetration.
 *
 * Timing (_pairedCpu.ts): CPU time of back-to-back pairs of each kernel with Rapier, the order
 * alternating, each contender from its own timing loop, after a discarded warm-up of each; "× Rapier"
 * is the median of the pairs' Rapier / ours ratios with its spread (table and JSON from _report.ts).
 * After the timing, hit counts are compared, per sweep the toi (within 1e-3 of the motion) where both hit, and the SIMD
 * kernel's contacts against the TypeScript ones (the same bit for bit but for exact ties).
 *
 *   npx tsx tests/bench/capsule.ts            full run (512 terrain, 10k sweeps)
 *   npx tsx tests/bench/capsule.ts --quick    smoke run (64 terrain, 1k sweeps)
 *   npx tsx tests/bench/capsule.ts --check [N]  no timing: N (100k) random sweeps against the brute-force
 *                                               reference on a terrain and the adversarial heightfields
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { createCapsuleHits, sweepCapsules, type CapsuleBatch, type CapsuleHits, type SweepCounters } from '../../src/query/capsule/index';
import { loadSimdCapsules } from '../../src/query/capsule/simdCapsules';
import { generateTerrain, sampleTerrainHeight } from '../../src/terrain/index';
import { compareWithReference, randomSweeps, type Mesh } from '../unit/capsule/capsuleCheck';
import { pairedCpuMany, timed } from './_pairedCpu';
import { BenchReport, formatSpread, pairedRow } from './_report';
import {
  CAPSULE_HALF_HEIGHT as HALF_HEIGHT,
  CAPSULE_LIFT as LIFT,
  CAPSULE_MOTION as MOTION,
  CAPSULE_RADIUS as RADIUS,
  benchSweeps,
} from './_capsuleSets';
import { coplanarTerraces, flatPlane, heightAt, needles, sharpRidges, spikes } from '../unit/capsule/heightfields';

const quick = process.argv.includes('--quick');
const checkArgument = process.argv.indexOf('--check');
if (checkArgument >= 0) {
  const requested = Number(process.argv[checkArgument + 1]);
  runCheck(Number.isInteger(requested) && requested > 0 ? requested : 100_000);
  process.exit(0);
}
const CELLS = quick ? 64 : 512;
const SWEEPS = quick ? 1_000 : 10_000;
const PAIRS = quick ? 2 : 11;
const SEED = 20170302;

const mesh = generateTerrain({ cells: CELLS, seed: SEED });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });

const makeSweeps = (random: Random): CapsuleBatch => benchSweeps(mesh, SWEEPS, random);

await RAPIER.init();
const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
const collider = world.createCollider(RAPIER.ColliderDesc.trimesh(mesh.positions, mesh.indices));
const capsuleShape = new RAPIER.Capsule(HALF_HEIGHT, RADIUS);

/** Rapier's cast for every sweep: toi into `out` (NaN when missed); returns the hit count. */
function castRapier(batch: CapsuleBatch, out: Float32Array): number {
  const position = { x: 0, y: 0, z: 0 };
  const rotation = { x: 0, y: 0, z: 0, w: 1 };
  const velocity = { x: 0, y: 0, z: 0 };
  const still = { x: 0, y: 0, z: 0 };
  let hits = 0;
  for (let i = 0; i < batch.count; i++) {
    const i3 = 3 * i;
    const p0x = batch.start[i3]!,
      p0y = batch.start[i3 + 1]!,
      p0z = batch.start[i3 + 2]!;
    const p1x = batch.end[i3]!,
      p1y = batch.end[i3 + 1]!,
      p1z = batch.end[i3 + 2]!;
    position.x = 0.5 * (p0x + p1x);
    position.y = 0.5 * (p0y + p1y);
    position.z = 0.5 * (p0z + p1z);
    // Shortest rotation from +y to the axis: q = (y × a, 1 + y·a), normalised.
    let ax = p1x - p0x,
      ay = p1y - p0y,
      az = p1z - p0z;
    const length = Math.sqrt(ax * ax + ay * ay + az * az);
    ax /= length;
    ay /= length;
    az /= length;
    if (ay < -1 + 1e-9) {
      rotation.x = 1;
      rotation.y = 0;
      rotation.z = 0;
      rotation.w = 0;
    } else {
      const qx = az,
        qz = -ax,
        qw = 1 + ay;
      const norm = Math.sqrt(qx * qx + qz * qz + qw * qw);
      rotation.x = qx / norm;
      rotation.y = 0;
      rotation.z = qz / norm;
      rotation.w = qw / norm;
    }
    velocity.x = batch.motion[i3]!;
    velocity.y = batch.motion[i3 + 1]!;
    velocity.z = batch.motion[i3 + 2]!;
    const hit = collider.castShape(still, capsuleShape, position, rotation, velocity, 0, 1, true);
    if (hit !== null) {
      hits++;
      out[i] = hit.time_of_impact;
    } else out[i] = NaN;
  }
  return hits;
}

const kernel = await loadSimdCapsules();
if (kernel === null) throw new Error('the SIMD capsule kernel did not load: run `npm run build:wasm`');
const batch = makeSweeps(new Random(SEED));
const ours: CapsuleHits = createCapsuleHits(SWEEPS);
const simd: CapsuleHits = createCapsuleHits(SWEEPS);
const theirs = new Float32Array(SWEEPS);
let counters!: SweepCounters;
let simdCounters!: SweepCounters;
let theirHits!: number;
const rapier = timed('Rapier castShape', () => {
  theirHits = castRapier(batch, theirs);
});
const paired = pairedCpuMany(
  [
    [
      timed('sweepCapsules TypeScript', () => {
        counters = sweepCapsules(bvh, batch, ours);
      }),
      rapier,
    ],
    [
      timed('sweepCapsules WebAssembly SIMD', () => {
        simdCounters = kernel.sweep(bvh, batch, simd);
      }),
      rapier,
    ],
  ],
  { pairs: PAIRS, minChunkMs: quick ? 20 : 150 },
);
const report = new BenchReport(import.meta.url, {
  cells: CELLS,
  sweeps: SWEEPS,
  pairs: PAIRS,
  radius: RADIUS,
  halfHeight: HALF_HEIGHT,
  motion: MOTION,
  seed: SEED,
});
const unit = `${SWEEPS} capsule sweeps`;
const tsRow = report.add(pairedRow('TypeScript', 'sweepCapsules TypeScript', 'Rapier castShape', paired[0]!, { unit }));
const simdRow = report.add(pairedRow('WebAssembly SIMD', 'sweepCapsules WebAssembly SIMD', 'Rapier castShape', paired[1]!, { unit }));
const theirMs = [...paired[0]!.peerMs, ...paired[1]!.peerMs].sort((a, b) => a - b);
const ourRate = SWEEPS / (tsRow.ourMs / 1000);
const simdRate = SWEEPS / (simdRow.ourMs / 1000);
const theirRate = SWEEPS / (theirMs[theirMs.length >> 1]! / 1000);
// Correctness after the timing, in a pass of its own.
counters = sweepCapsules(bvh, batch, ours);
simdCounters = kernel.sweep(bvh, batch, simd);
theirHits = castRapier(batch, theirs);
// The SIMD kernel against TypeScript: the same contact (toi, triangle, point, normal) bit for bit, or an
// exact tie (same toi, another triangle touched at the same time).
let simdSame = 0,
  simdTies = 0,
  simdOther = 0;
for (let i = 0; i < SWEEPS; i++) {
  const sameTime = ours.triangle[i]! >= 0 === simd.triangle[i]! >= 0 && Object.is(ours.toi[i], simd.toi[i]);
  let same = sameTime && ours.triangle[i] === simd.triangle[i];
  for (let a = 3 * i; a < 3 * i + 3 && same; a++) same = Object.is(ours.point[a], simd.point[a]) && Object.is(ours.normal[a], simd.normal[a]);
  if (same) simdSame++;
  else if (sameTime) simdTies++;
  else simdOther++;
}
let ourHits = 0;
let bothHit = 0;
let sameToi = 0;
let onlyOurs = 0;
let onlyTheirs = 0;
for (let i = 0; i < SWEEPS; i++) {
  const a = ours.triangle[i]! >= 0;
  const b = !Number.isNaN(theirs[i]!);
  if (a) ourHits++;
  if (a && b) {
    bothHit++;
    if (Math.abs(ours.toi[i]! - theirs[i]!) * MOTION <= 1e-3 * MOTION) sameToi++;
  } else if (a) onlyOurs++;
  else if (b) onlyTheirs++;
}
const percent = (x: number): string => (100 * x).toFixed(2) + ' %';
console.log(
  `\nSwept capsules on the ${CELLS} terrain (${mesh.triangleCount.toLocaleString('en')} triangles): ${SWEEPS.toLocaleString('en')} sweeps, r ${RADIUS}, half-height ${HALF_HEIGHT}, motion ${MOTION}, start ${LIFT} above the surface, random orientation and direction; ${PAIRS} CPU-time pairs with Rapier per kernel`,
);
const rate = (x: number): string => Math.round(x).toLocaleString('en');
console.table([
  {
    kernel: 'TypeScript',
    'sweeps/s (CPU)': rate(ourRate),
    '× Rapier (spread)': `${tsRow.ratio.toFixed(2)} (${formatSpread(tsRow.spread)})`,
    '× TypeScript': '1.00',
    hits: ourHits,
  },
  {
    kernel: 'WebAssembly SIMD',
    'sweeps/s (CPU)': rate(simdRate),
    '× Rapier (spread)': `${simdRow.ratio.toFixed(2)} (${formatSpread(simdRow.spread)})`,
    '× TypeScript': (simdRate / ourRate).toFixed(2),
    hits: simdCounters.hits,
  },
  {
    kernel: 'Rapier castShape',
    'sweeps/s (CPU)': rate(theirRate),
    '× Rapier (spread)': '1.00',
    '× TypeScript': (theirRate / ourRate).toFixed(2),
    hits: theirHits,
  },
]);
console.log(
  `SIMD against TypeScript: ${simdSame} of ${SWEEPS} sweeps the same contact bit for bit, ${simdTies} exact ties on another triangle, ${simdOther} different`,
);
console.log('TypeScript against Rapier');
console.table([
  {
    'ours hits': ourHits,
    'Rapier hits': theirHits,
    'hit difference': `${ourHits - theirHits} (${percent(Math.abs(ourHits - theirHits) / Math.max(1, theirHits))})`,
    'same toi (±1e-3)': `${sameToi} / ${bothHit}`,
    'only ours / only Rapier': `${onlyOurs} / ${onlyTheirs}`,
  },
]);
const c = counters;
console.log('Our work per sweep, and the quick cull (the SIMD box test lets a few more boxes through)');
console.table(
  (
    [
      ['TypeScript', counters],
      ['WebAssembly SIMD', simdCounters],
    ] as const
  ).map(([kernel, w]) => ({
    kernel,
    nodes: (w.nodesVisited / SWEEPS).toFixed(1),
    triangles: (w.trianglesTested / SWEEPS).toFixed(1),
    'pairs possible': (w.pairsPossible / SWEEPS).toFixed(1),
    'kept by the cull': (w.pairsKept / SWEEPS).toFixed(1),
    'tested (after edge masks)': (w.pairsTested / SWEEPS).toFixed(1),
    'quick-cull rate': percent(1 - w.pairsKept / Math.max(1, w.pairsPossible)),
    'culled with edge masks': percent(1 - w.pairsTested / Math.max(1, w.pairsPossible)),
  })),
);
console.table([
  {
    'sphere–vertex': c.sphereVertex,
    'sphere–edge': c.sphereEdge,
    'sphere–face': c.sphereFace,
    'cylinder–edge': c.cylinderEdge,
    'cylinder–vertex': c.cylinderVertex,
    'cylinder–face': c.cylinderFace,
  },
]);

report.addQuality({ name: 'SIMD against TypeScript', sameContact: simdSame, exactTies: simdTies, different: simdOther, sweeps: SWEEPS });
report.addQuality({ name: 'TypeScript against Rapier', oursHits: ourHits, rapierHits: theirHits, sameToi: sameToi, bothHit, onlyOurs, onlyTheirs });
report.finish();

/** Random sweeps from above (edge masks on) against the brute-force reference, in chunks per mesh. */
function runCheck(total: number): void {
  const terrain = generateTerrain({ cells: 40, worldSize: 40, heightScale: 10, seed: 71 });
  const meshes: [string, Mesh, (x: number, z: number) => number][] = [
    ['terrain 40', terrain, (x, z) => sampleTerrainHeight(terrain, x, z)],
    ...[sharpRidges(), coplanarTerraces(), needles(31), spikes(32), flatPlane()].map(
      (f) => [f.name, f, (x: number, z: number) => heightAt(f, x, z)] as [string, Mesh, (x: number, z: number) => number],
    ),
  ];
  const shape = { halfLength: [0, 1.5] as [number, number], radius: [0.05, 0.8] as [number, number], motion: [0.5, 8] as [number, number] };
  const rows = [];
  const started = performance.now();
  for (let m = 0; m < meshes.length; m++) {
    const [name, mesh, heightOf] = meshes[m]!;
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const half = m === 0 ? 20 : 12;
    const count = Math.round((m === 0 ? 0.5 : 0.1) * total);
    let sweeps = 0,
      hits = 0,
      starts = 0,
      grazes = 0,
      failures = 0,
      worst = 0;
    for (let chunk = 0; sweeps < count; chunk++) {
      const size = Math.min(5000, count - sweeps);
      const batch = randomSweeps(
        9000 + 100 * m + chunk,
        size,
        shape,
        (random) => {
          const x = random.range(-half * 0.45, half * 0.45),
            z = random.range(-half * 0.45, half * 0.45);
          return [x, heightOf(x, z) + random.range(0, 6), z];
        },
        (b, i) => {
          const i3 = 3 * i,
            reach = b.radius[i]! + 0.01;
          for (const t of [0, 1])
            for (const p of [b.start, b.end])
              if (Math.abs(p[i3]! + t * b.motion[i3]!) > half - reach || Math.abs(p[i3 + 2]! + t * b.motion[i3 + 2]!) > half - reach) return false;
          return 0.5 * (b.start[i3 + 1]! + b.end[i3 + 1]!) > heightOf(0.5 * (b.start[i3]! + b.end[i3]!), 0.5 * (b.start[i3 + 2]! + b.end[i3 + 2]!));
        },
      );
      const result = compareWithReference(mesh, bvh, batch);
      sweeps += size;
      hits += result.hits;
      starts += result.startsInContact;
      grazes += result.grazes;
      failures += result.failures.length;
      for (const line of result.failures.slice(0, 3)) console.log(`  ${name}: ${line}`);
      for (let i = 0; i < size; i++)
        if (result.ours.triangle[i]! >= 0 && result.reference.triangle[i]! >= 0)
          worst = Math.max(worst, Math.abs(result.ours.toi[i]! - result.reference.toi[i]!));
    }
    rows.push({
      mesh: name,
      sweeps,
      hits,
      'starts in contact': starts,
      'missed or false hits': failures,
      grazes,
      'worst toi difference': worst.toExponential(2),
    });
  }
  console.log(
    `\nSwept capsules against the brute-force reference (every triangle, Newton on the convex distance), from above, edge masks on; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.table(rows);
}
