/**
 * The three.js adapter against three-mesh-bvh, both through three's own entry: Raycaster.intersectObject
 * on a Mesh whose raycast is each library's acceleratedRaycast, the same meshes, the same incoherent
 * rays, the same work (FrontSide material; firstHitOnly, then every hit).
 *
 * Meshes: the ridged terrain (seed 20170302; 512 cells: 524,288 triangles) with _raySets.ts' incoherent
 * rays (origins above the terrain, random downward directions), and a TorusKnotGeometry(10, 3, 1500,
 * 200) (600,000 triangles) with rays from random points of a sphere around it towards random points
 * of its bounding box. Each contender has its own Mesh and BufferGeometry (sharing the position
 * attribute) and its own tree: ours from computeBoundsTree (defaults), three-mesh-bvh's MeshBVH with
 * the SAH strategy (its best for rays).
 *
 * Timing (_pairedCpu.ts): CPU time (process.cpuUsage) of back-to-back pairs, the order inside a pair
 * alternating (ours, peer, then peer, ours…), each contender from its own timing loop, a discarded
 * warm-up of each first; each timed chunk casts every ray of the set, repeated until it takes ≥ 150 ms
 * of CPU. Per row: the median of the pairs' peer/ours time ratios (how many times faster ours is) and
 * their spread (min–max, p10–p90 from 10 pairs on); table and JSON from _report.ts. Only then the
 * correctness sweep: per ray, the same number of hits and the same closest distance (1e-9 relative)
 * and face (by its corners) from both.
 *
 *   npx tsx tests/bench/adapter-raycast.ts            full run (512 terrain, 600k-triangle knot, 20k rays, 11 pairs)
 *   npx tsx tests/bench/adapter-raycast.ts --quick    smoke run (64 terrain, small knot, 500 rays, 2 pairs)
 *   options: --cells N  --rays N  --pairs N
 */
import { BufferAttribute, BufferGeometry, FrontSide, Mesh, MeshBasicMaterial, Raycaster, TorusKnotGeometry, Vector3, type Intersection } from 'three';
import { MeshBVH, SAH, acceleratedRaycast as peerRaycast } from 'three-mesh-bvh';
import { acceleratedRaycast, computeBoundsTree, loadRaycastKernel, raycastKernelUnavailableReason } from '../../src/adapters/three/index';
import { Random } from '../../src/math/random';
import type { RayBatch } from '../../src/query/rays/index';
import { generateTerrain } from '../../src/terrain/index';
import { pairedCpu, timed } from './_pairedCpu';
import { emptyRayBatch, incoherentRays } from './_raySets';
import { BenchReport, formatSpread, pairedRow, type PairedRow } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CELLS = Number(option('--cells') ?? (quick ? 64 : 512));
const RAYS = Number(option('--rays') ?? (quick ? 500 : 20_000));
const PAIRS = Number(option('--pairs') ?? (quick ? 2 : 11));
const KNOT_TUBULAR = quick ? 150 : 1500;
const KNOT_RADIAL = quick ? 40 : 200;
const SEED = 20170302;

if ((await loadRaycastKernel()) === null) {
  console.error(`WebAssembly SIMD rays unavailable: ${raycastKernelUnavailableReason()}`);
  process.exit(1);
}

interface Contest {
  name: string;
  ours: Mesh;
  peer: Mesh;
  rays: RayBatch;
}

/** Two meshes over one position attribute: ours with our tree and raycast, the peer's with its own. */
function contest(name: string, positions: BufferAttribute, index: Uint32Array, rays: RayBatch): Contest {
  const material = new MeshBasicMaterial({ side: FrontSide });
  const ourGeometry = new BufferGeometry();
  ourGeometry.setAttribute('position', positions);
  ourGeometry.setIndex(new BufferAttribute(index.slice(), 1));
  let start = performance.now();
  computeBoundsTree.call(ourGeometry);
  const oursMs = performance.now() - start;
  const peerGeometry = new BufferGeometry();
  peerGeometry.setAttribute('position', positions);
  peerGeometry.setIndex(new BufferAttribute(index.slice(), 1)); // MeshBVH reorders its index in place
  start = performance.now();
  peerGeometry.boundsTree = new MeshBVH(peerGeometry, { strategy: SAH });
  const peerMs = performance.now() - start;
  const ours = new Mesh(ourGeometry, material);
  ours.raycast = acceleratedRaycast;
  const peer = new Mesh(peerGeometry, material);
  peer.raycast = peerRaycast;
  console.log(
    `${name}: ${(index.length / 3).toLocaleString('en')} triangles; build ours ${oursMs.toFixed(0)} ms, three-mesh-bvh (SAH) ${peerMs.toFixed(0)} ms`,
  );
  return { name, ours, peer, rays };
}

const terrain = generateTerrain({ cells: CELLS, seed: SEED });
const terrainRays = incoherentRays(terrain, RAYS, new Random(SEED + CELLS));

const knot = new TorusKnotGeometry(10, 3, KNOT_TUBULAR, KNOT_RADIAL);
knot.computeBoundingBox();
const knotRays = emptyRayBatch(RAYS);
{
  const random = new Random(SEED + 1);
  const box = knot.boundingBox!;
  const origin = new Vector3();
  const target = new Vector3();
  for (let i = 0; i < RAYS; i++) {
    origin.set(random.range(-1, 1), random.range(-1, 1), random.range(-1, 1)).normalize().multiplyScalar(40);
    target.set(random.range(box.min.x, box.max.x), random.range(box.min.y, box.max.y), random.range(box.min.z, box.max.z));
    target.sub(origin).normalize();
    knotRays.origins.set([origin.x, origin.y, origin.z], 3 * i);
    knotRays.directions.set([target.x, target.y, target.z], 3 * i);
  }
}

const contests = [
  contest(`ridged terrain ${CELLS}`, new BufferAttribute(terrain.positions, 3), terrain.indices, terrainRays),
  contest('TorusKnotGeometry', knot.getAttribute('position') as BufferAttribute, new Uint32Array(knot.getIndex()!.array), knotRays),
];

const raycaster = new Raycaster();
const found: Intersection[] = [];
let hitsSeen = 0;

/** Every ray of the set through raycaster.intersectObject; the hit count keeps the work observable. */
function castSet(mesh: Mesh, rays: RayBatch, firstHitOnly: boolean): void {
  raycaster.firstHitOnly = firstHitOnly;
  for (let i = 0; i < rays.count; i++) {
    raycaster.ray.origin.fromArray(rays.origins, 3 * i);
    raycaster.ray.direction.fromArray(rays.directions, 3 * i);
    found.length = 0;
    raycaster.intersectObject(mesh, false, found);
    hitsSeen += found.length;
  }
}
// Each contender from its own call site.
function castOurs(c: Contest, firstHitOnly: boolean): void {
  castSet(c.ours, c.rays, firstHitOnly);
}
function castPeer(c: Contest, firstHitOnly: boolean): void {
  castSet(c.peer, c.rays, firstHitOnly);
}

const report = new BenchReport(import.meta.url, { cells: CELLS, rays: RAYS, pairs: PAIRS, knot: [KNOT_TUBULAR, KNOT_RADIAL], seed: SEED });
const rows: PairedRow[] = [];
for (const c of contests) {
  for (const firstHitOnly of [true, false]) {
    const name = `${c.name}, ${firstHitOnly ? 'firstHitOnly' : 'all hits'}`;
    const times = pairedCpu(
      timed(`ours ${name}`, () => castOurs(c, firstHitOnly)),
      timed(`three-mesh-bvh ${name}`, () => castPeer(c, firstHitOnly)),
      { pairs: PAIRS, minChunkMs: quick ? 20 : 150 },
    );
    rows.push(
      report.add(
        pairedRow(name, 'ours acceleratedRaycast', 'three-mesh-bvh acceleratedRaycast', times, {
          unit: `${RAYS} rays through Raycaster.intersectObject`,
        }),
      ),
    );
  }
}

const pad = (text: string, width: number): string => text.padStart(width);
const nameWidth = Math.max(...rows.map((row) => row.name.length)) + 2;
console.log(`\n${RAYS.toLocaleString('en')} incoherent rays per set through Raycaster.intersectObject; median of ${PAIRS} CPU-time pairs`);
console.log(`${'set'.padEnd(nameWidth)}${pad('ours µs/ray', 13)}${pad('peer µs/ray', 13)}${pad('× peer', 9)}  spread`);
for (const row of rows) {
  const perRay = (ms: number): string => ((1000 * ms) / RAYS).toFixed(2);
  console.log(
    `${row.name.padEnd(nameWidth)}${pad(perRay(row.ourMs), 13)}${pad(perRay(row.peerMs), 13)}${pad(row.ratio.toFixed(2), 9)}  ${formatSpread(row.spread)}`,
  );
}

// Correctness after timing: per ray, the same hits from both.
let failures = 0;
for (const c of contests) {
  let sameCount = 0;
  let sameFirst = 0;
  for (let i = 0; i < c.rays.count; i++) {
    raycaster.ray.origin.fromArray(c.rays.origins, 3 * i);
    raycaster.ray.direction.fromArray(c.rays.directions, 3 * i);
    raycaster.firstHitOnly = false;
    const ours = raycaster.intersectObject(c.ours, false);
    const peer = raycaster.intersectObject(c.peer, false);
    if (ours.length === peer.length) sameCount++;
    raycaster.firstHitOnly = true;
    const [a] = raycaster.intersectObject(c.ours, false);
    const [b] = raycaster.intersectObject(c.peer, false);
    // Faces by their corners: three-mesh-bvh's faceIndex counts triangles in the index it reordered.
    const sameFace = a?.face?.a === b?.face?.a && a?.face?.b === b?.face?.b && a?.face?.c === b?.face?.c;
    if (
      (a === undefined && b === undefined) ||
      (a !== undefined && b !== undefined && Math.abs(a.distance - b.distance) <= 1e-9 * b.distance && sameFace)
    )
      sameFirst++;
  }
  const share = (n: number): string => `${((100 * n) / c.rays.count).toFixed(2)} %`;
  const verdict = `${c.name}: same hit count ${share(sameCount)}, same first hit ${share(sameFirst)}`;
  console.log(verdict);
  report.note(verdict);
  if (sameCount < c.rays.count || sameFirst < c.rays.count) failures++;
}
console.log(hitsSeen > 0 ? '' : 'no hits at all: the rays miss the meshes');
report.finish();
process.exit(failures === 0 && hitsSeen > 0 ? 0 : 1);
