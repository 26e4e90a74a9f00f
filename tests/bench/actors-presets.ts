/**
 * Actors on every preset terrain: the pile of scenes/actors.json (300 actors of size 0.8 around [0, 0],
 * the same seed) dropped on each distinct terrain section of the presets in scenes/index.json, stepped
 * by the headless sandbox (the runner's code path: Sandbox.step → ActorSystem.step → ActorWorld.step) in
 * fixed 1/60 s steps, timing the actor system's own step (ActorSystem.step, wrapped here: the sandbox's
 * step also applies the scene's terrain edits, whose refit is the terrain's cost, not the actors'; its
 * CPU is printed beside as "frame"). (No forced garbage collection between terrains: a forced full GC
 * made V8 drop compiled code, and the next terrain's landing then paid 1–3 ms per step recompiling it.)
 * Per terrain, two windows of the run:
 *   - falling: the first FALL_FRAMES steps (the pile drops, lands and tumbles),
 *   - settled: the last SETTLED_FRAMES steps (what stays awake once the pile has come to rest),
 * each with the mean CPU ms per step of the step's own thread (/proc/thread-self/schedstat on Linux,
 * else process.cpuUsage: the machine is shared, so wall time counts other processes too; that clock
 * may lag by a scheduler tick at a reading, which the mean over a window averages out but a single
 * step's figure does not, so p95 and max are the process's), the process's CPU meanwhile ("proc": V8's helper threads too, compiling hot code and marking garbage
 * concurrently) and wall beside it, and at the end of the window the awake / asleep / lost counts,
 * contacts (of the step's last substep) and substeps per step.
 * The target: mean CPU ≤ 2 ms per step in both windows on every terrain. No peer, so no pairs: a
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
const FALL_FRAMES = quick ? 30 : 180;
const SETTLED_FRAMES = quick ? 30 : 240;
const DT = 1 / 60;
/** Warm-up steps per terrain: past every pile's landing (the last, on alpine-512, ends near step 200). */
const WARM_FRAMES = 240;
/** The step's own thread's CPU clock where the system has one (Linux), else the process's. */
const threadCpu: () => number = threadCpuMs() === null ? cpuMs : () => threadCpuMs()!;

interface WindowResult {
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
  falling: WindowResult;
  settled: WindowResult;
  /** Mean CPU ms per step over the whole run. */
  cpuMeanAll: number;
}

function describeTerrain({ kind, cells, worldSize, heightScale }: TerrainParams): string {
  return `${kind} ${cells}² ${worldSize} m h${heightScale}`;
}

function summarize(
  cpu: number[],
  wall: number[],
  processCpu: number[],
  frameCpu: number[],
  system: ActorSystem,
  contacts: number[],
  substeps: number[],
  phases: Record<PhaseName, number[]>,
): WindowResult {
  const census = system.world.census();
  const mean = (values: number[]): number => values.reduce((s, x) => s + x, 0) / values.length;
  return {
    frames: cpu.length,
    cpuMean: cpu.reduce((s, x) => s + x, 0) / cpu.length,
    cpuP95: quantile(processCpu, 0.95),
    cpuMax: Math.max(...processCpu),
    wallMean: wall.reduce((s, x) => s + x, 0) / wall.length,
    processCpuMean: mean(processCpu),
    frameCpuMean: mean(frameCpu),
    awake: census.awake,
    asleep: census.sleeping,
    lost: census.lost,
    contacts: contacts.reduce((s, x) => s + x, 0) / contacts.length,
    substeps: substeps.reduce((s, x) => s + x, 0) / substeps.length,
    phases: Object.fromEntries(PHASES.map((name) => [name, mean(phases[name])])) as Record<PhaseName, number>,
  };
}

function run(terrain: Record<string, unknown>, presets: string[], frames = FRAMES): TerrainResult {
  const pile = sceneToJson(loadSceneFile(`${SCENES_DIR}actors.json`));
  const scene = parseScene({ ...pile, terrain }, `actors-on-${presets[0]!}.json`);
  const sandbox = createHeadlessSandbox(scene, { readField });
  const system = sandbox.systems.find((s) => s.name === 'actors') as ActorSystem | undefined;
  if (system === undefined) throw new Error('scenes/actors.json installs no actors system');
  const cpu: number[] = [];
  const wall: number[] = [];
  const processCpu: number[] = [];
  const frameCpu: number[] = [];
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
  const contacts: number[] = [];
  const substeps: number[] = [];
  const phases = Object.fromEntries(PHASES.map((name) => [name, [] as number[]])) as Record<PhaseName, number[]>;
  const slice = (from: number): Record<PhaseName, number[]> =>
    Object.fromEntries(PHASES.map((name) => [name, phases[name].slice(from)])) as Record<PhaseName, number[]>;
  let falling: WindowResult | null = null;
  const counters = system.world.counters;
  for (let frame = 0; frame < frames; frame++) {
    const frameStart = cpuMs();
    sandbox.step(DT);
    frameCpu.push(cpuMs() - frameStart);
    cpu.push(stepCpu);
    processCpu.push(stepProcessCpu);
    wall.push(stepWall);
    contacts.push(counters.terrainContacts + counters.actorContacts);
    substeps.push(counters.substeps);
    for (const name of PHASES) phases[name].push(system.world.phaseMs[name]);
    if (frame === FALL_FRAMES - 1) falling = summarize(cpu, wall, processCpu, frameCpu, system, contacts, substeps, phases);
  }
  const from = Math.max(0, frames - SETTLED_FRAMES);
  const settled = summarize(
    cpu.slice(from),
    wall.slice(from),
    processCpu.slice(from),
    frameCpu.slice(from),
    system,
    contacts.slice(from),
    substeps.slice(from),
    slice(from),
  );
  return {
    presets,
    terrain: describeTerrain(sandbox.terrain.params),
    triangles: sandbox.terrain.triangleCount,
    falling: falling ?? summarize(cpu, wall, processCpu, frameCpu, system, contacts, substeps, phases),
    settled,
    cpuMeanAll: cpu.reduce((s, x) => s + x, 0) / cpu.length,
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
  `300 actors (scenes/actors.json's pile) on each preset terrain, ${FRAMES} steps of 1/60 s; falling: steps 1–${FALL_FRAMES}, settled: the last ${SETTLED_FRAMES}`,
);
console.log(
  "CPU ms per actor step (its thread's CPU around ActorSystem.step); beside it the process's CPU (proc), wall, and the whole sandbox step's process CPU (frame: with terrain edits);",
);
console.log('counts at the end of each window; target: mean ≤ 2 ms\n');
const header =
  'terrain (presets)                                  | falling: cpu mean  p95   max  proc  wall frame | awake sleep lost contacts sub | settled: cpu mean  p95   max  proc  wall frame | awake sleep lost contacts sub | ≤2ms';
console.log(header);
const results: TerrainResult[] = [];
const cell = (w: WindowResult): string =>
  `${w.cpuMean.toFixed(2).padStart(17)} ${w.cpuP95.toFixed(2).padStart(5)} ${w.cpuMax.toFixed(1).padStart(5)} ${w.processCpuMean.toFixed(2).padStart(5)} ${w.wallMean.toFixed(2).padStart(5)} ${w.frameCpuMean.toFixed(2).padStart(5)} | ` +
  `${String(w.awake).padStart(5)} ${String(w.asleep).padStart(5)} ${String(w.lost).padStart(4)} ${w.contacts.toFixed(0).padStart(8)} ${w.substeps.toFixed(1).padStart(3)}`;
for (const { section, presets } of selected) {
  const result = run(section, presets);
  results.push(result);
  const label = `${result.terrain} (${presets.join(', ')})`;
  const ok = result.falling.cpuMean <= 2 && result.settled.cpuMean <= 2;
  console.log(`${label.slice(0, 50).padEnd(50)} | ${cell(result.falling)} | ${cell(result.settled)} | ${ok ? 'yes' : 'NO'}`);
}
console.log(`\nwhere the step goes: mean wall ms per step of each phase (falling / settled)`);
console.log(`${'terrain'.padEnd(28)} ${PHASES.map((name) => name.padStart(17)).join(' ')}`);
for (const result of results) {
  const phase = (name: PhaseName): string => `${result.falling.phases[name].toFixed(2)} / ${result.settled.phases[name].toFixed(2)}`;
  console.log(`${result.terrain.padEnd(28)} ${PHASES.map((name) => phase(name).padStart(17)).join(' ')}`);
}
const report = new BenchReport(import.meta.url, { frames: FRAMES, fallFrames: FALL_FRAMES, settledFrames: SETTLED_FRAMES, only: only ?? null });
for (const result of results) report.addQuality({ name: `${result.terrain} (${result.presets.join(', ')})`, ...result });
report.finish();
