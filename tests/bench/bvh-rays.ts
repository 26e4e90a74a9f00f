/**
 * 4-way BVH ray casts against three-mesh-bvh, in one run, on the same terrain meshes and the same rays:
 * 100k incoherent rays (origins above the terrain, random downward directions), a 316×316 camera grid
 * and 100k 20-unit segments starting just above the surface; closest hit, front faces (both sides'
 * default). Build times and memory are measured on the same meshes.
 *
 * Timing (_pairedCpu.ts): CPU time (process.cpuUsage) of back-to-back pairs, the order inside a pair
 * alternating (ours, three-mesh-bvh, then three-mesh-bvh, ours…), each contender from its own timing
 * loop, one discarded warm-up of each; rays/s from the median times, "× three-mesh-bvh" the median of
 * the pair ratios with its spread; table and JSON from _report.ts. Builds the same way, one build per
 * timed run (three-mesh-bvh's index, which it reorders, a fresh copy set untimed before each). The
 * agreement of the hits is checked after the timing.
 * Memory: ours = quantized nodes + triangleOrder + shared-leaf frames; theirs = its _roots buffers
 * (it reorders the geometry's own index in place, so no index copy; we give it its own index copy).
 *
 *   npx tsx tests/bench/bvh-rays.ts            full run (terrain 256, 512, 1024)
 *   npx tsx tests/bench/bvh-rays.ts --quick    smoke run (terrain 64, few rays)
 *   npx tsx tests/bench/bvh-rays.ts --cells 512  one terrain size only
 */
import * as THREE from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import { buildBVH, type BVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { castRays, type RayBatch, type RayHits } from '../../src/query/rays/index';
import { generateTerrain, sampleTerrainHeight, type TerrainMesh } from '../../src/terrain/index';
import { pairedCpu, timed } from './_pairedCpu';
import { BenchReport, formatSpread, pairedRow, type PairedRow } from './_report';

const quick = process.argv.includes('--quick');
const cellsArgument = process.argv.indexOf('--cells');
const SIZES = cellsArgument >= 0 ? [Number(process.argv[cellsArgument + 1])] : quick ? [64] : [256, 512, 1024];
const RAY_COUNT = quick ? 5_000 : 100_000;
const GRID_SIDE = quick ? 70 : 316;
const PAIRS = quick ? 2 : 11;
const BUILD_PAIRS = quick ? 2 : 5;
const SEED = 20170302;

function emptyBatch(count: number): RayBatch {
  return { count, origins: new Float32Array(3 * count), directions: new Float32Array(3 * count), tMax: new Float32Array(count).fill(Infinity) };
}

function setUnitDirection(batch: RayBatch, i: number, x: number, y: number, z: number): void {
  const length = Math.hypot(x, y, z);
  batch.directions[3 * i] = x / length;
  batch.directions[3 * i + 1] = y / length;
  batch.directions[3 * i + 2] = z / length;
}

function incoherentRays(mesh: TerrainMesh, random: Random): RayBatch {
  const half = mesh.params.worldSize / 2;
  const batch = emptyBatch(RAY_COUNT);
  for (let i = 0; i < RAY_COUNT; i++) {
    batch.origins.set([random.range(-half, half), mesh.maxHeight + random.range(1, 40), random.range(-half, half)], 3 * i);
    setUnitDirection(batch, i, random.range(-1, 1), -random.range(0.05, 1), random.range(-1, 1));
  }
  return batch;
}

function cameraGrid(mesh: TerrainMesh): RayBatch {
  const half = mesh.params.worldSize / 2;
  const batch = emptyBatch(GRID_SIDE * GRID_SIDE);
  const eye = [-half * 0.9, mesh.maxHeight + 30, -half * 0.9];
  const target = [half * 0.2, mesh.minHeight, half * 0.2];
  const forward = [target[0]! - eye[0]!, target[1]! - eye[1]!, target[2]! - eye[2]!];
  const fl = Math.hypot(forward[0]!, forward[1]!, forward[2]!);
  for (let k = 0; k < 3; k++) forward[k]! /= fl;
  const right = [-forward[2]!, 0, forward[0]!];
  const rl = Math.hypot(right[0]!, right[2]!);
  right[0]! /= rl;
  right[2]! /= rl;
  const up = [
    right[1]! * forward[2]! - right[2]! * forward[1]!,
    right[2]! * forward[0]! - right[0]! * forward[2]!,
    right[0]! * forward[1]! - right[1]! * forward[0]!,
  ];
  const tanHalf = Math.tan((60 * Math.PI) / 360);
  for (let row = 0; row < GRID_SIDE; row++) {
    for (let col = 0; col < GRID_SIDE; col++) {
      const i = row * GRID_SIDE + col;
      const u = ((col + 0.5) / GRID_SIDE) * 2 - 1;
      const v = ((row + 0.5) / GRID_SIDE) * 2 - 1;
      batch.origins.set(eye, 3 * i);
      setUnitDirection(
        batch,
        i,
        forward[0]! + tanHalf * (u * right[0]! + v * up[0]!),
        forward[1]! + tanHalf * (u * right[1]! + v * up[1]!),
        forward[2]! + tanHalf * (u * right[2]! + v * up[2]!),
      );
    }
  }
  return batch;
}

function surfaceSegments(mesh: TerrainMesh, random: Random): RayBatch {
  const half = mesh.params.worldSize / 2;
  const batch = emptyBatch(RAY_COUNT);
  for (let i = 0; i < RAY_COUNT; i++) {
    const x = random.range(-half * 0.95, half * 0.95);
    const z = random.range(-half * 0.95, half * 0.95);
    batch.origins.set([x, sampleTerrainHeight(mesh, x, z) + 0.5, z], 3 * i);
    // Uniform directions on the sphere: half of the segments start away from the surface.
    const y = random.range(-1, 1);
    const angle = random.range(0, 2 * Math.PI);
    const r = Math.sqrt(1 - y * y);
    setUnitDirection(batch, i, r * Math.cos(angle), y, r * Math.sin(angle));
    batch.tMax[i] = 20;
  }
  return batch;
}

function castThree(bvh: MeshBVH, batch: RayBatch, out: Float32Array): number {
  const ray = new THREE.Ray();
  let hits = 0;
  for (let i = 0; i < batch.count; i++) {
    ray.origin.set(batch.origins[3 * i]!, batch.origins[3 * i + 1]!, batch.origins[3 * i + 2]);
    ray.direction.set(batch.directions[3 * i]!, batch.directions[3 * i + 1]!, batch.directions[3 * i + 2]);
    const hit = bvh.raycastFirst(ray, THREE.FrontSide, 0, batch.tMax[i]);
    out[i] = hit === null ? Infinity : hit.distance;
    if (hit !== null) hits++;
  }
  return hits;
}

const fmt = (value: number, digits = 0): string => value.toFixed(digits);
const millions = (raysPerSecond: number): string => (raysPerSecond / 1e6).toFixed(2) + ' M';

interface Row {
  cells: number;
  set: string;
  ours: number;
  theirs: number;
  paired: PairedRow;
  agree: number;
}

const report = new BenchReport(import.meta.url, {
  sizes: SIZES,
  rays: RAY_COUNT,
  gridSide: GRID_SIDE,
  pairs: PAIRS,
  buildPairs: BUILD_PAIRS,
  seed: SEED,
});

const rows: Row[] = [];
const buildRows: string[][] = [];
for (const cells of SIZES) {
  const mesh = generateTerrain({ cells, seed: SEED });
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));

  let ours: BVH | null = null;
  let theirs: MeshBVH | null = null;
  const build = pairedCpu(
    timed(`buildBVH ${cells}`, () => {
      ours = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
    }),
    timed(`MeshBVH ${cells}`, () => {
      theirs = new MeshBVH(geometry, { strategy: SAH });
    }),
    { pairs: BUILD_PAIRS, beforePeer: () => geometry.setIndex(new THREE.BufferAttribute(mesh.indices.slice(), 1)) },
  );
  const buildRow = report.add(
    pairedRow(`${cells} cells build`, 'buildBVH quantized', 'three-mesh-bvh SAH', build, { unit: `build of ${mesh.triangleCount} triangles` }),
  );
  const theirBytes = (theirs as unknown as { _roots: ArrayBuffer[] })._roots.reduce((sum, root) => sum + root.byteLength, 0);
  const ourBvh = ours!;
  const theirBvh = theirs!;
  const floatBvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['float'] });
  buildRows.push([
    String(cells),
    String(mesh.triangleCount),
    fmt(buildRow.ourMs),
    fmt(buildRow.peerMs),
    `${fmt(buildRow.ratio, 2)} (${formatSpread(buildRow.spread)})`,
    fmt(ourBvh.stats.bytesPerTriangle, 2),
    fmt(floatBvh.stats.floatBytes / mesh.triangleCount, 2),
    fmt(theirBytes / mesh.triangleCount, 2),
    fmt(ourBvh.stats.averageLeafSize, 2),
    fmt(ourBvh.stats.leafFillRate, 3),
  ]);

  const random = new Random(SEED + cells);
  const sets: [string, RayBatch][] = [
    ['incoherent', incoherentRays(mesh, random)],
    ['camera grid', cameraGrid(mesh)],
    ['segments', surfaceSegments(mesh, random)],
  ];
  for (const [name, batch] of sets) {
    const hits: RayHits = { t: new Float32Array(batch.count), triangle: new Int32Array(batch.count) };
    const theirT = new Float32Array(batch.count);
    const times = pairedCpu(
      timed(`castRays ${cells} ${name}`, () => castRays(ourBvh, batch, hits)),
      timed(`three-mesh-bvh ${cells} ${name}`, () => castThree(theirBvh, batch, theirT)),
      { pairs: PAIRS, minChunkMs: quick ? 20 : 150 },
    );
    const paired = report.add(
      pairedRow(`${cells} cells ${name}`, 'castRays quantized watertight', 'three-mesh-bvh raycastFirst', times, {
        unit: `${batch.count} rays (${name})`,
      }),
    );
    let agree = 0;
    for (let i = 0; i < batch.count; i++) {
      const a = hits.t[i]!;
      const b = theirT[i]!;
      if (a === b || Math.abs(a - b) <= 1e-4 * Math.max(1, b)) agree++;
    }
    rows.push({
      cells,
      set: name,
      ours: batch.count / (paired.ourMs / 1000),
      theirs: batch.count / (paired.peerMs / 1000),
      paired,
      agree: agree / batch.count,
    });
  }
}

console.log('\nBuild and memory (CPU ms, medians of paired builds; bytes per triangle beyond the mesh)');
console.table(
  buildRows.map((r) => ({
    cells: r[0],
    triangles: r[1],
    'ours ms': r[2],
    'three-mesh-bvh ms': r[3],
    'build speed ratio (spread)': r[4],
    'ours B/tri (quantized)': r[5],
    'ours B/tri (float)': r[6],
    'three-mesh-bvh B/tri': r[7],
    'avg leaf': r[8],
    'slot fill': r[9],
  })),
);
console.log('Closest-hit rays/s (CPU, median of pairs), ours quantized + watertight vs three-mesh-bvh raycastFirst');
console.table(
  rows.map((r) => ({
    cells: r.cells,
    rays: r.set,
    ours: millions(r.ours),
    'three-mesh-bvh': millions(r.theirs),
    ratio: fmt(r.paired.ratio, 2),
    spread: formatSpread(r.paired.spread),
    'same t': (100 * r.agree).toFixed(2) + ' %',
  })),
);
for (const r of rows) report.addQuality({ name: `${r.cells} cells ${r.set}: same t as three-mesh-bvh`, share: r.agree });
for (const r of buildRows)
  report.addQuality({
    name: `${r[0]} cells memory`,
    triangles: Number(r[1]),
    oursQuantizedBytesPerTriangle: Number(r[5]),
    oursFloatBytesPerTriangle: Number(r[6]),
    threeBytesPerTriangle: Number(r[7]),
    averageLeaf: Number(r[8]),
    slotFill: Number(r[9]),
  });
report.finish();
