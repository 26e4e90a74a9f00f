/**
 * Broad-phases on the CDTestFramework scene (8,192 boxes, half-extents in [2, 4], orbits with A = 100),
 * at 10% and at 100% of the boxes moving, in one run: every strategy of src/broadphase, box-intersect
 * (npm: full recompute of all pairs each frame) and Rapier (@dimforge/rapier3d-compat: a cuboid sensor
 * collider per box on a kinematic body moved each frame; its profiler's broad-phase time and its whole
 * world.step).
 *
 * Same work for everyone: each frame the scene moves its boxes (not timed), then the contender takes the
 * moved boxes and produces the overlapping pairs (timed: our update calls + step; box-intersect's input
 * refresh + sweep; Rapier's setNextKinematicTranslation + world.step, whose broad-phase share its own
 * profiler reports). Each contender has its own copy of the scene. Contenders take turns in blocks of
 * frames, the order rotating per round, so load from other processes hits them alike; the first block is
 * a discarded warm-up, the initial insertion is reported as "1st step". Times are CPU time
 * (process.cpuUsage), each contender's timed part run from its own timing loop (_pairedCpu.ts). The
 * stateful scenes cannot repeat a frame, so a pair is the contender's block and the peer's block of the
 * same round: per row the median of those pair ratios (box-intersect / ours; Rapier world.step / ours)
 * and their spread (table and JSON from _report.ts). Rapier's broad-phase share is its own profiler's
 * (wall) figure and cannot be paired: it is printed, and kept in the JSON as a quality row. Pair sets are checked against brute force at checkpoint
 * frames (count and an order-free checksum); Rapier tests exact cuboids with its own rounding, so only its
 * pair count is compared.
 *
 *   npx tsx tests/bench/broadphase.ts            full run (8,192 boxes, 300 timed frames per contender)
 *   npx tsx tests/bench/broadphase.ts --quick    smoke run (1,024 boxes, 30 frames)
 *   npx tsx tests/bench/broadphase.ts --count 32768 --frames 100
 */
import RAPIER from '@dimforge/rapier3d-compat';
import boxIntersect from 'box-intersect';
import {
  BROAD_PHASE_NAMES,
  OrbitScene,
  applySceneMoves,
  createBroadPhase,
  populateBroadPhase,
  type BroadPhase,
  type BroadPhaseName,
  type PairList,
} from '../../src/broadphase/index';
import { timed, type PairTimes } from './_pairedCpu';
import { BenchReport, pairedRow } from './_report';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const COUNT = option('--count', quick ? 1024 : 8192);
const FRAMES = option('--frames', quick ? 30 : 300);
const BLOCK = quick ? 5 : 10;
const BLOCKS = Math.max(1, Math.ceil(FRAMES / BLOCK));
const TOTAL_FRAMES = (BLOCKS + 1) * BLOCK;
const BRUTE_FRAMES = quick ? 3 : 5;
const CHECK_EVERY = quick ? 10 : 50;
const PERCENTS = [10, 100];
const SEED = 2011;

const pairHash = (a: number, b: number): number => (Math.imul(a + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35)) >>> 0;

/** An order-free fingerprint of a pair set. */
function checksum(list: PairList): number {
  let sum = 0;
  for (let i = 0; i < list.count; i++) sum = (sum + pairHash(list.a[i]!, list.b[i]!)) >>> 0;
  return sum;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const mean = (values: number[]): number => values.reduce((s, v) => s + v, 0) / values.length;
const isCheckpoint = (frame: number): boolean => frame % CHECK_EVERY === 0 || frame === TOTAL_FRAMES - 1;

type Expected = Map<number, [number, number]>;

/** One contender: runs frame `frame` of its own scene copy and says how long the timed part took. */
interface Contender {
  name: string;
  frame(frame: number): number;
  pairs: number;
  mismatches: number;
  firstStep: number;
  times: number[];
  /** CPU ms per frame of each timed block (the block's mean). */
  blocks: number[];
  /** Extra series (Rapier's profiler figures). */
  series?: Record<string, number[]>;
  notes(): string;
  compareCountOnly?: boolean;
}

/** Brute-force pair counts and checksums at the checkpoint frames (the boxes are updated every frame). */
function reference(percent: number): Expected {
  const scene = new OrbitScene({ count: COUNT, movingPercent: percent, seed: SEED });
  const bp = createBroadPhase('brute-force');
  populateBroadPhase(bp, scene);
  const expected: Expected = new Map();
  for (let frame = 0; frame < TOTAL_FRAMES; frame++) {
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

function strategy(name: BroadPhaseName, percent: number, expected: Expected): Contender {
  const scene = new OrbitScene({ count: COUNT, movingPercent: percent, seed: SEED });
  const bp: BroadPhase = createBroadPhase(name);
  let current = 0;
  let step!: ReturnType<BroadPhase['step']>;
  const timer = timed(name, () => {
    if (current === 0) populateBroadPhase(bp, scene);
    else applySceneMoves(bp, scene);
    step = bp.step();
  });
  const contender: Contender = {
    name,
    pairs: 0,
    mismatches: 0,
    firstStep: 0,
    times: [],
    blocks: [],
    frame(frame) {
      if (frame > 0) scene.advance();
      current = frame;
      const elapsed = timer.time(1);
      if (frame === 0) contender.firstStep = elapsed;
      contender.pairs = step.pairs.count;
      const want = expected.get(frame);
      if (want !== undefined && (want[0] !== step.pairs.count || want[1] !== checksum(step.pairs))) contender.mismatches++;
      return elapsed;
    },
    notes() {
      return Object.entries(bp.counters())
        .slice(0, 4)
        .map(([key, value]) => `${key} ${Math.round(value)}`)
        .join(', ');
    },
  };
  void bp;
  return contender;
}

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
/** The float32 our table stores for a coordinate (rounded outward), so box-intersect sees the same boxes. */
function outward(value: number, up: boolean): number {
  f32[0] = value;
  const nearest = f32[0];
  if (up ? nearest >= value : nearest <= value) return nearest === 0 ? 0 : nearest;
  if (nearest === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
  f32Bits[0] = nearest > 0 === up ? f32Bits[0]! + 1 : f32Bits[0]! - 1;
  return f32[0];
}

function boxIntersectPeer(percent: number, expected: Expected): Contender {
  const scene = new OrbitScene({ count: COUNT, movingPercent: percent, seed: SEED });
  const boxes: number[][] = [];
  let current = 0;
  let count = 0;
  let sum = 0;
  let check = false;
  const timer = timed('box-intersect', () => {
    const b = scene.boxes;
    if (current === 0) {
      for (let i = 0; i < COUNT; i++) boxes.push(Array.from({ length: 6 }, (_, k) => outward(b[6 * i + k]!, k >= 3)));
    } else {
      for (let k = 0; k < scene.movedCount; k++) {
        const i = scene.moved[k]!;
        const box = boxes[i]!;
        for (let c = 0; c < 6; c++) box[c] = outward(b[6 * i + c]!, c >= 3);
      }
    }
    boxIntersect(boxes, (i: number, j: number) => {
      count++;
      if (check) sum = (sum + pairHash(Math.min(i, j), Math.max(i, j))) >>> 0;
    });
  });
  const contender: Contender = {
    name: 'box-intersect (npm)',
    pairs: 0,
    mismatches: 0,
    firstStep: 0,
    times: [],
    blocks: [],
    frame(frame) {
      if (frame > 0) scene.advance();
      current = frame;
      count = 0;
      sum = 0;
      check = expected.has(frame);
      const elapsed = timer.time(1);
      if (frame === 0) contender.firstStep = elapsed;
      contender.pairs = count;
      const want = expected.get(frame);
      if (want !== undefined && (want[0] !== count || want[1] !== sum)) contender.mismatches++;
      return elapsed;
    },
    notes: () => '',
  };
  return contender;
}

function rapierPeer(percent: number, expected: Expected): Contender {
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
  let current = 0;
  const timer = timed('Rapier', () => {
    if (current === 0) {
      for (let i = 0; i < COUNT; i++) {
        setCentre(i);
        const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(centre.x, centre.y, centre.z));
        const desc = RAPIER.ColliderDesc.cuboid(
          (b[6 * i + 3]! - b[6 * i]!) / 2,
          (b[6 * i + 4]! - b[6 * i + 1]!) / 2,
          (b[6 * i + 5]! - b[6 * i + 2]!) / 2,
        )
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
  });
  const contender: Contender = {
    name: 'Rapier',
    pairs: 0,
    mismatches: 0,
    firstStep: 0,
    times: [],
    blocks: [],
    series: { broad, steps },
    compareCountOnly: true,
    frame(frame) {
      if (frame > 0) scene.advance();
      current = frame;
      const elapsed = timer.time(1);
      if (frame === 0) contender.firstStep = elapsed;
      broad.push(world.timingBroadPhase());
      steps.push(world.timingStep());
      const want = expected.get(frame);
      if (want !== undefined) {
        let count = 0;
        for (const collider of colliders) world.intersectionPairsWith(collider, () => void count++);
        contender.pairs = count / 2;
        if (contender.pairs !== want[0]) contender.mismatches++;
      }
      return elapsed;
    },
    notes: () => '',
  };
  return contender;
}

interface Row {
  name: string;
  median: number;
  mean: number;
  firstStep: number;
  pairs: number;
  agrees: string;
  notes: string;
}

/** Each of our strategies against box-intersect and against Rapier's world.step, block by block. */
function pairRows(percent: number, contenders: Contender[]): void {
  const boxIntersectContender = contenders.find((c) => c.name.startsWith('box-intersect'))!;
  const rapierContender = contenders.find((c) => c.name === 'Rapier')!;
  const unit = `one frame of ${COUNT} boxes, ${percent}% moving (mean over a block of ${BLOCK})`;
  for (const ours of contenders.filter((c) => c !== boxIntersectContender && c !== rapierContender)) {
    for (const peer of [boxIntersectContender, rapierContender]) {
      const times: PairTimes = { oursMs: ours.blocks, peerMs: peer.blocks, repeats: 1 };
      report.add(
        pairedRow(
          `${percent}%: ${ours.name} vs ${peer.name === 'Rapier' ? 'Rapier step' : 'box-intersect'}`,
          ours.name,
          peer.name === 'Rapier' ? 'Rapier world.step' : peer.name,
          times,
          { unit },
        ),
      );
    }
  }
}

function run(percent: number): Row[] {
  const expected = reference(percent);
  const names = BROAD_PHASE_NAMES.filter((name) => name !== 'brute-force');
  const contenders = [...names.map((name) => strategy(name, percent, expected)), boxIntersectPeer(percent, expected), rapierPeer(percent, expected)];
  // Blocks of frames in turn; block 0 (frames 0..BLOCK−1) is the warm-up.
  for (let block = 0; block <= BLOCKS; block++) {
    for (let c = 0; c < contenders.length; c++) {
      const contender = contenders[(c + block) % contenders.length]!;
      let blockMs = 0;
      for (let k = 0; k < BLOCK; k++) {
        const frame = block * BLOCK + k;
        const elapsed = contender.frame(frame);
        if (block === 0) {
          if (contender.series !== undefined) for (const values of Object.values(contender.series)) values.length = 0;
          continue;
        }
        contender.times.push(elapsed);
        blockMs += elapsed;
      }
      if (block > 0) contender.blocks.push(blockMs / BLOCK);
    }
    process.stdout.write('.');
  }
  process.stdout.write('\n');
  pairRows(percent, contenders);
  // The reference itself, on a few frames of its own.
  const brute = strategy('brute-force', percent, expected);
  for (let frame = 0; frame < 1 + BRUTE_FRAMES; frame++) {
    const elapsed = brute.frame(frame);
    if (frame > 0) brute.times.push(elapsed);
  }
  const rows: Row[] = [];
  for (const contender of [brute, ...contenders]) {
    const agrees =
      contender.mismatches === 0
        ? contender.compareCountOnly
          ? 'yes (count)'
          : 'yes'
        : contender.compareCountOnly
          ? `count ≠ ×${contender.mismatches}`
          : `NO ×${contender.mismatches}`;
    const base = { firstStep: contender.firstStep, pairs: contender.pairs, agrees };
    if (contender.series !== undefined) {
      const { broad, steps } = contender.series as { broad: number[]; steps: number[] };
      rows.push({ name: 'Rapier broad-phase (profiler)', median: median(broad), mean: mean(broad), ...base, notes: '' });
      rows.push({
        name: 'Rapier world.step (profiler)',
        median: median(steps),
        mean: mean(steps),
        ...base,
        notes: `CPU incl. body updates ${median(contender.times).toFixed(2)} ms`,
      });
    } else {
      rows.push({ name: contender.name, median: median(contender.times), mean: mean(contender.times), ...base, notes: contender.notes() });
    }
  }
  return rows;
}

const report = new BenchReport(import.meta.url, { count: COUNT, frames: FRAMES, block: BLOCK, blocks: BLOCKS, percents: PERCENTS, seed: SEED });
await RAPIER.init();
console.log(
  `Broad-phase benchmark: CDTestFramework orbits, ${COUNT} boxes, ${BLOCKS * BLOCK} timed frames per contender in blocks of ${BLOCK} taken in turn, ` +
    `brute-force checks every ${CHECK_EVERY} frames${quick ? ' (quick)' : ''}`,
);
const pad = (text: string, width: number): string => (text.length >= width ? text : text + ' '.repeat(width - text.length));
const lpad = (text: string, width: number): string => (text.length >= width ? text : ' '.repeat(width - text.length) + text);
const verdicts: string[] = [];
for (const percent of PERCENTS) {
  const rows = run(percent);
  const rapier = rows.find((row) => row.name.startsWith('Rapier broad'))!;
  const peer = rows.find((row) => row.name.startsWith('box-intersect'))!;
  const ours = rows.filter((row) => BROAD_PHASE_NAMES.includes(row.name as BroadPhaseName) && row.name !== 'brute-force');
  const best = ours.reduce((a, b) => (b.median < a.median ? b : a));
  console.log(`\n${COUNT} boxes, ${percent}% moving — CPU ms per frame (median; mean), pairs at the last frame`);
  console.log(
    `${pad('contender', 31)} ${lpad('median', 8)} ${lpad('mean', 8)} ${lpad('1st step', 9)} ${lpad('pairs', 6)} ${pad('= brute', 12)} ${lpad('÷ Rapier bp', 11)} ${lpad('box-int. ÷', 10)}  counters`,
  );
  for (const row of rows) {
    const vsRapier = (row.median / rapier.median).toFixed(2) + '×';
    const vsPeer = (peer.median / row.median).toFixed(2) + '×';
    console.log(
      `${pad(row.name + (row === best ? ' *' : ''), 31)} ${lpad(row.median.toFixed(3), 8)} ${lpad(row.mean.toFixed(3), 8)} ${lpad(row.firstStep.toFixed(1), 9)} ${lpad(String(row.pairs), 6)} ${pad(row.agrees, 12)} ${lpad(vsRapier, 11)} ${lpad(vsPeer, 10)}  ${row.notes}`,
    );
  }
  for (const row of rows) report.addQuality({ percent, ...row });
  const okRapier = best.median <= 0.5 * rapier.median;
  const okPeer = peer.median >= 2 * best.median;
  const verdict = `${percent}% moving: best is ${best.name} at ${(best.median / rapier.median).toFixed(2)}× Rapier's broad-phase (target ≤ 0.5×: ${okRapier ? 'met' : 'NOT met'}) and ${(peer.median / best.median).toFixed(2)}× faster than box-intersect (target ≥ 2×: ${okPeer ? 'met' : 'NOT met'})`;
  console.log(verdict);
  verdicts.push(verdict);
}
console.log('\n' + verdicts.join('\n'));
for (const verdict of verdicts) report.note(verdict);
report.finish();
