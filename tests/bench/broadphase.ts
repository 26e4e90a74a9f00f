/**
 * Broad-phases on the CDTestFramework scene (8,192 boxes, half-extents in [2, 4], orbits with A = 100),
 * at 10% and at 100% of the boxes moving, in one run: every strategy of src/broadphase, box-intersect
 * (npm: full recompute of all pairs each frame) and Rapier (@dimforge/rapier3d-compat: a cuboid sensor
 * collider per box on a kinematic body moved each frame; its profiler's broad-phase time and its whole
 * world.step).
 *
 * Same work for everyone: each frame the scene moves its boxes (not timed), then the contender takes the
 * moved boxes and produces the overlapping pairs (timed: our update calls + step; box-intersect's input
 * refresh + sweep; Rapier's setNextKinematicTranslation + step). First frames are discarded (JIT warm-up
 * and initial insertion, reported separately as "first step"). Pair sets are checked against brute force
 * at checkpoint frames (count and an order-free checksum); Rapier's exact cuboid intersections are counted.
 *
 *   npx tsx tests/bench/broadphase.ts            full run (8,192 boxes, 300 timed frames per contender)
 *   npx tsx tests/bench/broadphase.ts --quick    smoke run (1,024 boxes, 30 frames)
 *   npx tsx tests/bench/broadphase.ts --count 32768 --frames 100
 */
import RAPIER from '@dimforge/rapier3d-compat';
import boxIntersect from 'box-intersect';
import { BROAD_PHASE_NAMES, OrbitScene, applySceneMoves, createBroadPhase, populateBroadPhase, type BroadPhaseName, type PairList } from '../../src/broadphase/index';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const COUNT = option('--count', quick ? 1024 : 8192);
const FRAMES = option('--frames', quick ? 30 : 300);
const WARMUP = quick ? 5 : 30;
const CHECK_EVERY = quick ? 10 : 50;
const PERCENTS = [10, 100];
const SEED = 2011;

interface Row {
  percent: number;
  name: string;
  /** Milliseconds per frame (median, mean) over the timed frames. */
  median: number;
  mean: number;
  firstStep: number;
  pairs: number;
  agrees: string;
  extra?: string;
  /** For Rapier: the whole step. */
  stepMedian?: number;
}

const pairHash = (a: number, b: number): number => (Math.imul(a + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35)) >>> 0;

/** An order-free fingerprint of a pair set. */
function checksum(list: PairList): number {
  let sum = 0;
  for (let i = 0; i < list.count; i++) sum = (sum + pairHash(list.a[i]!, list.b[i]!)) >>> 0;
  return sum;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const mean = (values: number[]): number => values.reduce((s, v) => s + v, 0) / values.length;
const totalFrames = WARMUP + FRAMES;
const isCheckpoint = (frame: number): boolean => frame % CHECK_EVERY === 0 || frame === totalFrames - 1;

/** Brute-force pair counts and checksums at the checkpoint frames (the boxes are updated every frame). */
function reference(percent: number): Map<number, [number, number]> {
  const scene = new OrbitScene({ count: COUNT, movingPercent: percent, seed: SEED });
  const bp = createBroadPhase('brute-force');
  populateBroadPhase(bp, scene);
  const expected = new Map<number, [number, number]>();
  for (let frame = 0; frame < totalFrames; frame++) {
    if (frame > 0) {
      scene.advance();
      applySceneMoves(bp, scene);
    }
    if (isCheckpoint(frame)) {
      const step = bp.step();
      expected.set(frame, [step.pairs.count, checksum(step.pairs)]);
    }
  }
  return expected;
}

function runStrategy(name: BroadPhaseName, percent: number, expected: Map<number, [number, number]>): Row {
  const scene = new OrbitScene({ count: COUNT, movingPercent: percent, seed: SEED });
  const bp = createBroadPhase(name);
  const frames = name === 'brute-force' ? Math.min(FRAMES, quick ? 5 : 10) : FRAMES;
  const times: number[] = [];
  let firstStep = 0;
  let pairs = 0;
  let mismatches = 0;
  let last = 0;
  for (let frame = 0; frame < WARMUP + frames; frame++) {
    if (frame > 0) scene.advance();
    const t0 = performance.now();
    if (frame === 0) populateBroadPhase(bp, scene);
    else applySceneMoves(bp, scene);
    const step = bp.step();
    const t1 = performance.now();
    if (frame === 0) firstStep = t1 - t0;
    if (frame >= WARMUP) times.push(t1 - t0);
    pairs = step.pairs.count;
    const want = expected.get(frame);
    if (want !== undefined && (want[0] !== step.pairs.count || want[1] !== checksum(step.pairs))) mismatches++;
    last = frame;
  }
  const counters = bp.counters();
  const extra = Object.entries(counters)
    .slice(0, 3)
    .map(([key, value]) => `${key} ${Math.round(value)}`)
    .join(', ');
  void last;
  return { percent, name, median: median(times), mean: mean(times), firstStep, pairs, agrees: mismatches === 0 ? 'yes' : `NO (${mismatches})`, extra };
}

function runBoxIntersect(percent: number, expected: Map<number, [number, number]>): Row {
  const scene = new OrbitScene({ count: COUNT, movingPercent: percent, seed: SEED });
  const boxes: number[][] = [];
  const times: number[] = [];
  let firstStep = 0;
  let pairs = 0;
  let mismatches = 0;
  for (let frame = 0; frame < totalFrames; frame++) {
    if (frame > 0) scene.advance();
    const b = scene.boxes;
    const t0 = performance.now();
    if (frame === 0) {
      // Same float32 boxes as ours, rounded outward, so the pair sets can be compared exactly.
      for (let i = 0; i < COUNT; i++) boxes.push(Array.from({ length: 6 }, (_, k) => outward(b[6 * i + k]!, k >= 3)));
    } else {
      for (let k = 0; k < scene.movedCount; k++) {
        const i = scene.moved[k]!;
        const box = boxes[i]!;
        for (let c = 0; c < 6; c++) box[c] = outward(b[6 * i + c]!, c >= 3);
      }
    }
    let count = 0;
    let sum = 0;
    const check = expected.has(frame);
    boxIntersect(boxes, (i: number, j: number) => {
      count++;
      if (check) {
        const a = Math.min(i, j);
        const c = Math.max(i, j);
        sum = (sum + pairHash(a, c)) >>> 0;
      }
    });
    const t1 = performance.now();
    if (frame === 0) firstStep = t1 - t0;
    if (frame >= WARMUP) times.push(t1 - t0);
    pairs = count;
    const want = expected.get(frame);
    if (want !== undefined && (want[0] !== count || want[1] !== sum)) mismatches++;
  }
  return { percent, name: 'box-intersect (npm)', median: median(times), mean: mean(times), firstStep, pairs, agrees: mismatches === 0 ? 'yes' : `NO (${mismatches})` };
}

const f32 = new Float32Array(1);
/** The float32 our table stores for a coordinate (rounded outward). */
function outward(value: number, up: boolean): number {
  f32[0] = value;
  let stored = f32[0]!;
  if (up ? stored < value : stored > value) {
    const bits = new Uint32Array(f32.buffer);
    const towardsZero = up ? stored < 0 : stored > 0;
    if (stored === 0) f32[0] = up ? 1.401298464324817e-45 : -1.401298464324817e-45;
    else bits[0] = towardsZero ? bits[0]! - 1 : bits[0]! + 1;
    stored = f32[0]!;
  }
  return stored === 0 ? 0 : stored;
}

function runRapier(percent: number, expected: Map<number, [number, number]>): Row[] {
  const scene = new OrbitScene({ count: COUNT, movingPercent: percent, seed: SEED });
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  world.profilerEnabled = true;
  const b = scene.boxes;
  const bodies: RAPIER.RigidBody[] = [];
  const colliders: RAPIER.Collider[] = [];
  const centre = { x: 0, y: 0, z: 0 };
  const setCentre = (i: number): void => {
    centre.x = (b[6 * i]! + b[6 * i + 3]!) / 2;
    centre.y = (b[6 * i + 1]! + b[6 * i + 4]!) / 2;
    centre.z = (b[6 * i + 2]! + b[6 * i + 5]!) / 2;
  };
  const broad: number[] = [];
  const steps: number[] = [];
  const walls: number[] = [];
  let firstStep = 0;
  let pairs = 0;
  let mismatches = 0;
  for (let frame = 0; frame < totalFrames; frame++) {
    if (frame > 0) scene.advance();
    const t0 = performance.now();
    if (frame === 0) {
      for (let i = 0; i < COUNT; i++) {
        setCentre(i);
        const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(centre.x, centre.y, centre.z));
        const desc = RAPIER.ColliderDesc.cuboid((b[6 * i + 3]! - b[6 * i]!) / 2, (b[6 * i + 4]! - b[6 * i + 1]!) / 2, (b[6 * i + 5]! - b[6 * i + 2]!) / 2)
          .setSensor(true)
          .setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.ALL);
        bodies.push(body);
        colliders.push(world.createCollider(desc, body));
      }
    } else {
      for (let k = 0; k < scene.movedCount; k++) {
        const i = scene.moved[k]!;
        setCentre(i);
        bodies[i]!.setNextKinematicTranslation(centre);
      }
    }
    world.step();
    const t1 = performance.now();
    if (frame === 0) firstStep = t1 - t0;
    if (frame >= WARMUP) {
      broad.push(world.timingBroadPhase());
      steps.push(world.timingStep());
      walls.push(t1 - t0);
    }
    const want = expected.get(frame);
    if (want !== undefined) {
      let count = 0;
      for (const collider of colliders) world.intersectionPairsWith(collider, () => void count++);
      pairs = count / 2;
      // Rapier tests the exact cuboids (its own rounding), so only the count is compared.
      if (pairs !== want[0]) mismatches++;
    }
  }
  world.free();
  const agrees = mismatches === 0 ? 'yes (count)' : `count off at ${mismatches} checks`;
  return [
    { percent, name: 'Rapier broad-phase (profiler)', median: median(broad), mean: mean(broad), firstStep, pairs, agrees },
    { percent, name: 'Rapier world.step (profiler)', median: median(steps), mean: mean(steps), firstStep, pairs, agrees, extra: `wall incl. body updates ${median(walls).toFixed(2)} ms` },
  ];
}

await RAPIER.init();
const rows: Row[] = [];
console.log(`Broad-phase benchmark: CDTestFramework orbits, ${COUNT} boxes, ${FRAMES} timed frames after ${WARMUP} warm-up frames, brute-force checks every ${CHECK_EVERY} frames${quick ? ' (quick)' : ''}`);
for (const percent of PERCENTS) {
  const expected = reference(percent);
  for (const name of BROAD_PHASE_NAMES) {
    rows.push(runStrategy(name, percent, expected));
    process.stdout.write('.');
  }
  rows.push(runBoxIntersect(percent, expected));
  rows.push(...runRapier(percent, expected));
  process.stdout.write('\n');
}

const pad = (text: string, width: number): string => (text.length >= width ? text : text + ' '.repeat(width - text.length));
const lpad = (text: string, width: number): string => (text.length >= width ? text : ' '.repeat(width - text.length) + text);
for (const percent of PERCENTS) {
  const group = rows.filter((row) => row.percent === percent);
  const rapier = group.find((row) => row.name.startsWith('Rapier broad'))!;
  const peer = group.find((row) => row.name.startsWith('box-intersect'))!;
  const ours = group.filter((row) => BROAD_PHASE_NAMES.includes(row.name as BroadPhaseName) && row.name !== 'brute-force');
  const best = ours.reduce((a, b) => (b.median < a.median ? b : a));
  console.log(`\n${COUNT} boxes, ${percent}% moving — ms per frame (median of ${FRAMES}; mean), pairs at the last frame`);
  console.log(`${pad('contender', 31)} ${lpad('median', 8)} ${lpad('mean', 8)} ${lpad('1st step', 9)} ${lpad('pairs', 7)} ${pad('= brute', 12)} ${lpad('÷ Rapier bp', 11)} ${lpad('box-int. ÷', 10)}  counters`);
  for (const row of group) {
    const vsRapier = (row.median / rapier.median).toFixed(2) + '×';
    const vsPeer = (peer.median / row.median).toFixed(2) + '×';
    console.log(
      `${pad(row.name + (row === best ? ' *' : ''), 31)} ${lpad(row.median.toFixed(3), 8)} ${lpad(row.mean.toFixed(3), 8)} ${lpad(row.firstStep.toFixed(1), 9)} ${lpad(String(row.pairs), 7)} ${pad(row.agrees, 12)} ${lpad(vsRapier, 11)} ${lpad(vsPeer, 10)}  ${row.extra ?? ''}`,
    );
  }
  const okRapier = best.median <= 0.5 * rapier.median;
  const okPeer = peer.median >= 2 * best.median;
  console.log(`best: ${best.name} — ${(best.median / rapier.median).toFixed(2)}× Rapier's broad-phase (target ≤ 0.5×: ${okRapier ? 'met' : 'NOT met'}), ${(peer.median / best.median).toFixed(2)}× faster than box-intersect (target ≥ 2×: ${okPeer ? 'met' : 'NOT met'})`);
}
