/**
 * Crack count of every ray-triangle test: rays aimed exactly through the shared edges and vertices of
 * the default float32 terrain grid (see src/query/rayTriangle/crackRays.ts), in batches of 200k, for
 * float64 rays (passing within rounding of the target) and float32-rounded rays. Not a timed test: no
 * peer, no pairs; a quality report whose rows _report.ts writes to bench-results/cracks.json.
 *
 *   npx tsx tests/bench/cracks.ts             1.2M rays per precision
 *   npx tsx tests/bench/cracks.ts --quick     200k
 */
import { generateTerrain } from '../../src/terrain/index';
import { RAY_TRIANGLE_KERNELS, exploreCracks, generateCrackRays, type CrackTargetKind } from '../../src/query/rayTriangle/index';
import { BenchReport } from './_report';

const quick = process.argv.includes('--quick');
const BATCH = 200_000;
const BATCHES = quick ? 1 : 6;
const terrain = generateTerrain({ cells: 256 });
const kinds: CrackTargetKind[] = ['vertex', 'edge-x', 'edge-z', 'diagonal'];
const bench = new BenchReport(import.meta.url, { cells: 256, rays: BATCH * BATCHES, batch: BATCH });

console.log(`terrain ${terrain.params.kind} ${terrain.params.cells}² cells, ${terrain.triangleCount} triangles; ${BATCH * BATCHES} rays per row`);
console.log('precision  kernel           sides   misses   rate      ' + kinds.map((k) => k.padEnd(16)).join(''));
for (const rayPrecision of ['float64', 'float32'] as const) {
  const totals = new Map<string, { misses: number; rays: number; byKind: number[]; raysByKind: number[] }>();
  for (let batch = 0; batch < BATCHES; batch++) {
    const rays = generateCrackRays(terrain, BATCH, { seed: 1000 + batch, rayPrecision });
    for (const kernel of Object.values(RAY_TRIANGLE_KERNELS)) {
      for (const doubleSided of [false, true]) {
        const key = `${kernel.name}|${doubleSided ? 'double' : 'single'}`;
        const report = exploreCracks(terrain, rays, kernel, { doubleSided, maxMissedRays: 0 });
        const total = totals.get(key) ?? { misses: 0, rays: 0, byKind: [0, 0, 0, 0], raysByKind: [0, 0, 0, 0] };
        total.misses += report.misses;
        total.rays += report.rays;
        kinds.forEach((kind, k) => {
          total.byKind[k]! += report.byTarget[kind].misses;
          total.raysByKind[k]! += report.byTarget[kind].rays;
        });
        totals.set(key, total);
      }
    }
  }
  for (const [key, total] of totals) {
    const [name, sides] = key.split('|');
    const cells = kinds.map((_, k) => `${total.byKind[k]}/${total.raysByKind[k]}`.padEnd(16)).join('');
    bench.addQuality({
      name: `${rayPrecision} ${name!} ${sides!}`,
      misses: total.misses,
      rays: total.rays,
      ...Object.fromEntries(kinds.map((kind, k) => [kind, { misses: total.byKind[k], rays: total.raysByKind[k] }])),
    });
    console.log(
      `${rayPrecision.padEnd(11)}${name!.padEnd(17)}${sides!.padEnd(8)}${String(total.misses).padEnd(9)}${((100 * total.misses) / total.rays).toFixed(3).padStart(6)}%   ${cells}`,
    );
  }
}
bench.finish();
