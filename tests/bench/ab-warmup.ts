/**
 * Does the ray emitters' first A/B result tell the truth?
 *
 *   A/B first-trace ratio vs steady state · 20,000 rays · 128² terrain · 6 processes per mode (2 busy cores)
 *   cold    first B/A 0.90× (0.60–1.67) · steady B/A 0.26× · first / steady 4.31 (2.17–7.05)
 *   warmed  first B/A 0.22× (0.14–0.53) · steady B/A 0.24× · first / steady 0.89 (0.58–2.86)
 * The page shows the B/A time ratio of one
 * trace of each strategy; a cold first trace (code not yet compiled by the JIT, tree not in cache) can
 * misstate it badly. This measures, each in fresh Node processes (JIT state is per process):
 *   cold     the first trace of A, then of B, each timed once (what the system did before warming up)
 *   warmed   the first A/B result of a RayEmitterSystem: WARMUP_TRACES untimed traces of each, then
 *            the median of FIRST_PAIRS timed pairs (what the page shows first)
 * and, in every process, the steady state: the median B/A of back-to-back pairs (A, B, then B, A…)
 * after both ran many times. Per mode: the median first ratio over the processes, its spread (min–max),
 * and how far it lands from that process's steady ratio (first / steady). The world is ray-lab's
 * emitters (a fan, A the binary tree, B the 4-way tree batched, both asking for SIMD) on a 128-cell
 * fBm terrain. The first traces: wall time (performance.now), as the page times the traces it shows.
 * The steady state: CPU-time pairs from _pairedCpu.ts (A and B each from its own timing loop, the order
 * alternating, one run per timed chunk). Each process is a fresh worker by design, so the figures are a
 * quality report across processes (median, min–max), written to bench-results/ab-warmup.json. The
 * ratios (B/A, first / steady) are unitless; "A first / A steady" sets a wall time over a CPU time, so
 * on a loaded machine it reads high by the load too.
 *
 *   npx tsx tests/bench/ab-warmup.ts               6 processes per mode, 20,000 rays
 *   npx tsx tests/bench/ab-warmup.ts --quick       2 processes per mode, 2,000 rays
 *   options: --processes N  --rays N  --cells N
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pairedCpu, timed } from './_pairedCpu';
import { BenchReport } from './_report';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const PROCESSES = Number(option('--processes') ?? (quick ? 2 : 6));
const RAYS = Number(option('--rays') ?? (quick ? 2_000 : 20_000));
const CELLS = Number(option('--cells') ?? (quick ? 64 : 128));
const STEADY_PAIRS = quick ? 4 : 15;

const median = (values: number[]): number => [...values].sort((p, q) => p - q)[values.length >> 1]!;

interface ChildResult {
  first: number;
  steady: number;
  /** A's and B's first timed trace over their steady medians: > 1 where a trace was timed cold. */
  aFirstOverSteady: number;
  bFirstOverSteady: number;
  kernels: string;
}

/** One process: the first ratio in `mode`, then the steady one. */
async function child(mode: 'cold' | 'warmed'): Promise<void> {
  const core = await import('../../src/core');
  const { readField } = await import('../../tools/sceneFiles');
  await core.loadSimdRays();
  const emitters = { rays: RAYS, x: -20, z: 30, height: 25, pitch: -20, spread: 70, ab: true };
  const scene = core.parseScene(
    {
      name: 'ab-warmup',
      seed: 5,
      terrain: { seed: 7, kind: 'fbm', octaves: 6, H: 1.1, baseFrequency: 2, heightScale: 40, worldSize: 256, cells: CELLS },
      systems: { rayEmitters: emitters },
    },
    'ab-warmup.json',
  );
  const sandbox = core.createHeadlessSandbox(scene, { readField });
  const system = sandbox.system('rayEmitters') as InstanceType<typeof core.RayEmitterSystem>;
  const bvh = sandbox.bvh!;
  core.prepareRayStrategies(bvh);
  const s = system.settings;
  const options = (strategy: typeof s.a): Parameters<typeof core.castRays>[3] => ({
    kernel: strategy.kernel,
    tree: strategy.tree,
    layout: strategy.layout,
    sorting: strategy.sorting,
    batchSize: strategy.batching ? (strategy.batchSize === 'all' ? Infinity : strategy.batchSize) : 0,
    triangleTest: strategy.triangleTest,
    triangles: strategy.triangles,
  });
  const y = core.sampleTerrainHeight(sandbox.terrain, s.x, s.z) + s.height;
  const rays = core.emitRays({
    kind: 'fan',
    x: s.x,
    y,
    z: s.z,
    yaw: s.yaw,
    pitch: s.pitch,
    spread: s.spread,
    count: RAYS,
    length: Infinity,
    seed: s.seed,
  });
  const hits = { t: new Float32Array(RAYS), triangle: new Int32Array(RAYS) };
  const time = (strategy: typeof s.a): number => {
    const start = performance.now();
    core.castRays(bvh, rays, hits, options(strategy));
    return performance.now() - start;
  };
  let firstA: number;
  let firstB: number;
  if (mode === 'cold') {
    firstA = time(s.a);
    firstB = time(s.b);
  } else {
    sandbox.step(1 / 60);
    firstA = system.resultA!.ms;
    firstB = system.resultB!.ms;
  }
  for (let k = 0; k < 3; k++) {
    time(s.a);
    time(s.b);
  }
  const castA = options(s.a);
  const castB = options(s.b);
  const steady = pairedCpu(
    timed('B', () => void core.castRays(bvh, rays, hits, castB)),
    timed('A', () => void core.castRays(bvh, rays, hits, castA)),
    { pairs: STEADY_PAIRS, repeats: 1, warmUp: false },
  );
  const timesA = steady.peerMs;
  const timesB = steady.oursMs;
  const ratios = timesB.map((b, k) => b / timesA[k]!);
  const kernels = mode === 'warmed' ? `A ${system.resultA!.walk} · B ${system.resultB!.walk}` : '';
  const result: ChildResult = {
    first: firstB / firstA,
    steady: median(ratios),
    aFirstOverSteady: firstA / median(timesA),
    bFirstOverSteady: firstB / median(timesB),
    kernels,
  };
  process.stdout.write(JSON.stringify(result));
}

if (args[0] === '--child') {
  await child(args[1] as 'cold' | 'warmed');
} else {
  const self = fileURLToPath(import.meta.url);
  console.log(`A/B first-trace ratio vs steady state · ${RAYS.toLocaleString('en')} rays · ${CELLS}² terrain · ${PROCESSES} processes per mode`);
  const rows: string[] = [];
  const report = new BenchReport(import.meta.url, { processes: PROCESSES, rays: RAYS, cells: CELLS, steadyPairs: STEADY_PAIRS });
  let kernels = '';
  for (const mode of ['cold', 'warmed'] as const) {
    const results: ChildResult[] = [];
    for (let p = 0; p < PROCESSES; p++) {
      const out = execFileSync(
        'npx',
        ['tsx', self, '--child', mode, '--rays', String(RAYS), '--cells', String(CELLS), ...(quick ? ['--quick'] : [])],
        {
          encoding: 'utf8',
        },
      );
      results.push(JSON.parse(out.slice(out.indexOf('{'))) as ChildResult);
    }
    if (results[0]!.kernels !== '') kernels = results[0]!.kernels;
    results.forEach((result, p) => report.addQuality({ name: `${mode} process ${p + 1}`, ...result }));
    const firsts = results.map((r) => r.first);
    const off = results.map((r) => r.first / r.steady);
    rows.push(
      `${mode.padEnd(7)} first B/A ${median(firsts).toFixed(2)}× (${Math.min(...firsts).toFixed(2)}–${Math.max(...firsts).toFixed(2)})` +
        ` · steady B/A ${median(results.map((r) => r.steady)).toFixed(2)}×` +
        ` · first / steady ${median(off).toFixed(2)} (${Math.min(...off).toFixed(2)}–${Math.max(...off).toFixed(2)})` +
        ` · A first / A steady ${median(results.map((r) => r.aFirstOverSteady)).toFixed(2)}` +
        ` · B first / B steady ${median(results.map((r) => r.bFirstOverSteady)).toFixed(2)}`,
    );
  }
  console.log(kernels);
  for (const row of rows) console.log(row);
  for (const row of rows) report.note(row);
  report.finish({ kernels });
}
