/**
 * Actors on every preset terrain: the pile of scenes/actors.json (300 actors of size 0.8 around [0, 0],
 * the same seed) dropped on each distinct terrain section of the presets in scenes/index.json, stepped
 * by the headless sandbox (the runner's code path: Sandbox.step → ActorSystem.step → ActorWorld.step) in
 * fixed 1/60 s steps, timing the actor system's own step (ActorSystem.step, wrapped here: the sandbox's
 * step also applies the scene's terrain edits, whose refit is the terrain's cost, not the actors'; its
 * CPU is printed beside as "frame"). (No forced garbage collection between terrains: a forced full GC
 * made V8 drop compiled code, and the next terrain's landing then paid 1–3 ms per step recompiling it.)
 * Per terrain, three windows of the run:
 *   - run: all FRAMES steps (the drop, the landing, the tumbling and the rest),
 *   - busiest: the BUSY_FRAMES consecutive steps with the highest mean (usually the pile tumbling
 *     just after it lands, when most actors are awake and touching),
 *   - settled: the last SETTLED_FRAMES steps (what stays awake once the pile has come to rest),
 * each with the mean CPU ms per step of the step's own thread (/proc/thread-self/schedstat on Linux,
 * else process.cpuUsage: the machine is shared, so wall time counts other processes too; that clock
 * may lag by a scheduler tick at a reading, which the mean over a window averages out but a single
 * step's figure does not, so p95 and max are the process's), the process's CPU meanwhile ("proc": V8's helper threads too, compiling hot code and marking garbage
 * concurrently) and wall beside it, and at the end of the window the awake / asleep / lost counts,
 * contacts (of the step's last substep) and substeps per step.
 * The target: mean CPU ≤ 2 ms per step over the run and once settled on every terrain; the busiest
 * second is judged beside it (its own column), since a pile landing at once is the worst case a scene
 * can make. No peer, so no pairs: a
 * quality report of CPU per step (one call site), its rows written to
 * bench-results/actors-presets.json (_report.ts).
 *
 *   npx tsx tests/bench/actors-presets.ts                 full run (600 steps per terrain)
 *   npx tsx tests/bench/actors-presets.ts --quick         smoke run (60 steps, three terrains)
 *   npx tsx tests/bench/actors-presets.ts --only mesa     terrains whose preset names contain the text
 */
import { createHeadlessSandbox, loadSimdBoxTriangles, loadWasmBuilder, parseScene, sceneToJson } from '../../src/core';
import type { ActorSystem } from '../../src/actors/actorSystem';
import type { TerrainParams } from '../../src/terrain/params';
import { loadSceneFile, presetNames, readField, SCENES_DIR } from '../../tools/sceneFiles';
import { cpuMs, quantile, threadCpuMs } from './_pairedCpu';
import { BenchReport } from './_report';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const only = option('--only');
const FRAMES = quick ? 60 : 600;
/** One second of steps: the busiest window's length. */
const BUSY_FRAMES = quick ? 20 : 60;
const SETTLED_FRAMES = quick ? 30 : 240;
const DT = 1 / 60;
/** Warm-up steps per terrain: past every pile's landing (the last, on alpine-512, ends near step 200). */
const WARM_FRAMES = 240;
/** The step's own thread's CPU clock where the system has one (Linux), else the process's. */
const threadCpu: () => number = threadCpuMs() === null ? cpuMs : () => threadCpuMs()!;

interface WindowResult {
  /** The window's first step (0-based) and its length. */
  from: number;
  frames: number;
  cpuMean: number;
  /** p95 and max of the process's CPU per step (the thread's clock advances by scheduler ticks, so only its mean is precise). */
  cpuP95: number;
  cpuMax: number;
  wallMean: number;
  /** Mean process CPU ms per actor step: the step's thread plus V8's helpers (compiling, concurrent GC) meanwhile. */
  processCpuMean: number;
  /** Mean CPU ms of the whole sandbox step (the actors, plus the terrain edits due). */
  frameCpuMean: number;
  awake: number;
  asleep: number;
  lost: number;
  contacts: number;
  substeps: number;
  /** Mean wall ms per step of each of the world's phases (ActorWorld.phaseMs). */
  phases: Record<PhaseName, number>;
}

const PHASES = ['broadPhase', 'actorContacts', 'terrainContacts', 'solve', 'integrate'] as const;
type PhaseName = (typeof PHASES)[number];

interface TerrainResult {
  presets: string[];
  terrain: string;
  triangles: number;
  run: WindowResult;
  busiest: WindowResult;
  settled: WindowResult;
}

function describeTerrain({ kind, cells, worldSize, heightScale }: TerrainParams): string {
  return `${kind} ${cells}² ${worldSize} m h${heightScale}`;
}

/** Per step of a run: what each window summarizes. */
interface StepSeries {
  cpu: number[];
  wall: number[];
  processCpu: number[];
  frameCpu: number[];
  contacts: number[];
  substeps: number[];
  awake: number[];
  asleep: number[];
  lost: number[];
  phases: Record<PhaseName, number[]>;
}

const mean = (values: number[], from: number, to: number): number => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += values[i]!;
  return sum / (to - from);
};

/** Steps from..to−1; the counts are those after the window's last step. */
function summarize(series: StepSeries, from: number, to: number): WindowResult {
  const processCpu = series.processCpu.slice(from, to);
  const last = to - 1;
  return {
    from,
    frames: to - from,
    cpuMean: mean(series.cpu, from, to),
    cpuP95: quantile(processCpu, 0.95),
    cpuMax: Math.max(...processCpu),
    wallMean: mean(series.wall, from, to),
    processCpuMean: mean(series.processCpu, from, to),
    frameCpuMean: mean(series.frameCpu, from, to),
    awake: series.awake[last]!,
    asleep: series.asleep[last]!,
    lost: series.lost[last]!,
    contacts: mean(series.contacts, from, to),
    substeps: mean(series.substeps, from, to),
    phases: Object.fromEntries(PHASES.map((name) => [name, mean(series.phases[name], from, to)])) as Record<PhaseName, number>,
  };
}

/** The first step of the `length` consecutive steps with the highest mean thread CPU. */
function busiestStart(cpu: number[], length: number): number {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += cpu[i]!;
  let best = sum;
  let at = 0;
  for (let i = length; i < cpu.length; i++) {
    sum += cpu[i]! - cpu[i - length]!;
    if (sum > best) {
      best = sum;
      at = i - length + 1;
    }
  }
  return at;
}

function run(terrain: Record<string, unknown>, presets: string[], frames = FRAMES): TerrainResult {
  const pile = sceneToJson(loadSceneFile(`${SCENES_DIR}actors.json`));
  const scene = parseScene({ ...pile, terrain }, `actors-on-${presets[0]!}.json`);
  const sandbox = createHeadlessSandbox(scene, { readField });
  const system = sandbox.systems.find((s) => s.name === 'actors') as ActorSystem | undefined;
  if (system === undefined) throw new Error('scenes/actors.json installs no actors system');
  const series: StepSeries = {
    cpu: [],
    wall: [],
    processCpu: [],
    frameCpu: [],
    contacts: [],
    substeps: [],
    awake: [],
    asleep: [],
    lost: [],
    phases: Object.fromEntries(PHASES.map((name) => [name, [] as number[]])) as Record<PhaseName, number[]>,
  };
  const actorStep = system.step.bind(system);
  let stepCpu = 0;
  let stepProcessCpu = 0;
  let stepWall = 0;
  system.step = (dt, world) => {
    const wallStart = performance.now();
    const threadStart = threadCpu();
    const cpuStart = cpuMs();
    actorStep(dt, world);
    stepProcessCpu = cpuMs() - cpuStart;
    stepCpu = threadCpu() - threadStart;
    stepWall = performance.now() - wallStart;
  };
  const counters = system.world.counters;
  for (let frame = 0; frame < frames; frame++) {
    const frameStart = cpuMs();
    sandbox.step(DT);
    series.frameCpu.push(cpuMs() - frameStart);
    series.cpu.push(stepCpu);
    series.processCpu.push(stepProcessCpu);
    series.wall.push(stepWall);
    series.contacts.push(counters.terrainContacts + counters.actorContacts);
    series.substeps.push(counters.substeps);
    const census = system.world.census();
    series.awake.push(census.awake);
    series.asleep.push(census.sleeping);
    series.lost.push(census.lost);
    for (const name of PHASES) series.phases[name].push(system.world.phaseMs[name]);
  }
  const busy = Math.min(BUSY_FRAMES, frames);
  const busiestFrom = busiestStart(series.cpu, busy);
  return {
    presets,
    terrain: describeTerrain(sandbox.terrain.params),
    triangles: sandbox.terrain.triangleCount,
    run: summarize(series, 0, frames),
    busiest: summarize(series, busiestFrom, busiestFrom + busy),
    settled: summarize(series, Math.max(0, frames - SETTLED_FRAMES), frames),
  };
}

await Promise.all([loadWasmBuilder(), loadSimdBoxTriangles()]);

// Distinct terrain sections, each named by the presets that share it.
const terrains = new Map<string, { section: Record<string, unknown>; presets: string[] }>();
for (const name of presetNames()) {
  const section = sceneToJson(loadSceneFile(`${SCENES_DIR}${name}.json`)).terrain as Record<string, unknown>;
  const key = JSON.stringify(section);
  const entry = terrains.get(key);
  if (entry === undefined) terrains.set(key, { section, presets: [name] });
  else entry.presets.push(name);
}
let selected = [...terrains.values()];
if (only !== undefined) selected = selected.filter((t) => t.presets.some((p) => p.includes(only)));
if (quick) selected = selected.slice(0, 3);

// JIT warm-up, discarded: WARM_FRAMES steps on every terrain, past its pile's landing, so that no
// terrain measured pays for compiling the code paths its shape is the first to make hot (steep slopes,
// boxes on folds…); a page running actors has long compiled them.
for (const { section } of quick ? selected.slice(-1) : selected) run(section, ['warm-up'], quick ? 20 : WARM_FRAMES);

console.log(
  `300 actors (scenes/actors.json's pile) on each preset terrain, ${FRAMES} steps of 1/60 s; run: every step, busiest: the ${BUSY_FRAMES} consecutive steps of the highest mean, settled: the last ${SETTLED_FRAMES}`,
);
console.log(
  "CPU ms per actor step (its thread's CPU around ActorSystem.step); beside it the process's CPU (proc), wall, and the whole sandbox step's process CPU (frame: with terrain edits);",
);
console.log(
  'counts at the end of each window (contacts: mean per step); target: mean ≤ 2 ms over the run and settled; the busiest second judged apart\n',
);
const windowHeader = (name: string): string => `${name}: cpu mean  p95   max  proc  wall frame | awake sleep lost contacts sub`;
console.log(
  `${'terrain (presets)'.padEnd(50)} | ${windowHeader('run'.padStart(8))} | ${windowHeader('busiest')} | ${windowHeader('settled')} | run+settled ≤2 | busiest ≤2`,
);
const results: TerrainResult[] = [];
const cell = (w: WindowResult): string =>
  `${w.cpuMean.toFixed(2).padStart(17)} ${w.cpuP95.toFixed(2).padStart(5)} ${w.cpuMax.toFixed(1).padStart(5)} ${w.processCpuMean.toFixed(2).padStart(5)} ${w.wallMean.toFixed(2).padStart(5)} ${w.frameCpuMean.toFixed(2).padStart(5)} | ` +
  `${String(w.awake).padStart(5)} ${String(w.asleep).padStart(5)} ${String(w.lost).padStart(4)} ${w.contacts.toFixed(0).padStart(8)} ${w.substeps.toFixed(1).padStart(3)}`;
for (const { section, presets } of selected) {
  const result = run(section, presets);
  results.push(result);
  const label = `${result.terrain} (${presets.join(', ')})`;
  const ok = result.run.cpuMean <= 2 && result.settled.cpuMean <= 2;
  const busyOk = result.busiest.cpuMean <= 2;
  console.log(
    `${label.slice(0, 50).padEnd(50)} | ${cell(result.run)} | ${cell(result.busiest)} | ${cell(result.settled)} | ${(ok ? 'yes' : 'NO').padStart(14)} | ${(busyOk ? 'yes' : 'NO').padStart(10)} (steps ${result.busiest.from + 1}–${result.busiest.from + result.busiest.frames})`,
  );
}
console.log(`\nwhere the step goes: mean wall ms per step of each phase (run / busiest / settled)`);
console.log(`${'terrain'.padEnd(28)} ${PHASES.map((name) => name.padStart(20)).join(' ')}`);
for (const result of results) {
  const phase = (name: PhaseName): string =>
    `${result.run.phases[name].toFixed(2)} / ${result.busiest.phases[name].toFixed(2)} / ${result.settled.phases[name].toFixed(2)}`;
  console.log(`${result.terrain.padEnd(28)} ${PHASES.map((name) => phase(name).padStart(20)).join(' ')}`);
}
const report = new BenchReport(import.meta.url, { frames: FRAMES, busyFrames: BUSY_FRAMES, settledFrames: SETTLED_FRAMES, only: only ?? null });
for (const result of results) report.addQuality({ name: `${result.terrain} (${result.presets.join(', ')})`, ...result });
report.finish();
