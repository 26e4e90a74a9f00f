/**
 * Field evaluation on WebAssembly SIMD: whirl + explosion at 20,000 points, in one run, for the
 * hand-written TypeScript version (idiomatic, and spelt with the programs' float4 formulas), the JS JIT,
 * the SIMD interpreter and the SIMD JIT (points in the module memory as float4 rows, transposed in the
 * kernel, or as component planes, no transposes; and from ordinary arrays, copied in and out). Same positions, same
 * program for all. Warm-up passes discarded; then (_pairedCpu.ts) every contender in back-to-back
 * CPU-time pairs with the hand-written TS version (the peer), the order alternating, each from its own
 * timing loop; "× hand-written TS" is the median of the pairs' contender / hand-written time ratios
 * (below 1: faster) with its spread. The agreement with the hand-written version is checked after the
 * timing. Table and JSON from _report.ts.
 *
 *   npx tsx tests/bench/simd-field.ts           full run
 *   npx tsx tests/bench/simd-field.ts --quick   a few-second smoke run
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Random } from '../../src/math/random';
import {
  compileField,
  concatenatePrograms,
  evaluateField,
  evaluateFieldPlanes,
  fieldPointPlanes,
  getConstant,
  handWrittenWhirlExplosion,
  handWrittenWhirlExplosionFloat4,
  isWasmSimdSupported,
  simdFieldPointBuffers,
  type ExplosionParameters,
  type WhirlParameters,
} from '../../src/field/index';
import { median, pairedCpuMany, timed } from './_pairedCpu';
import { BenchReport, formatSpread, pairedRow } from './_report';

const quick = process.argv.includes('--quick');
const POINTS = quick ? 2_000 : 20_000;
const WARMUP_PASSES = quick ? 20 : 400;
const PAIRS = quick ? 2 : 15;
const SEED = 20121017;

if (!isWasmSimdSupported()) {
  console.log('skipped: this engine has no WebAssembly SIMD');
  process.exit(0);
}

const fieldsFolder = fileURLToPath(new URL('../../scenes/fields/', import.meta.url));
const whirl = compileField(readFileSync(fieldsFolder + 'whirl.vf', 'utf8'), { file: 'whirl.vf' });
const explosion = compileField(readFileSync(fieldsFolder + 'explosion.vf', 'utf8'), { file: 'explosion.vf' });
const program = concatenatePrograms([whirl, explosion]);
// The same parameters the .vf files declare.
const whirlParameters: WhirlParameters = { center: [0, 10, 0], axis: [0, 0, 1], speed: 10, radius: 5 };
const explosionParameters: ExplosionParameters = { center: [2, 4, 0], strength: 50, radius: 5 };
const whirlFloat4 = {
  center: getConstant(whirl, 'center'),
  up: getConstant(whirl, 'up'),
  speed: getConstant(whirl, 'speed'),
  radius: getConstant(whirl, 'radius'),
};
const explosionFloat4 = {
  center: getConstant(explosion, 'center'),
  strength: getConstant(explosion, 'strength'),
  radius: getConstant(explosion, 'radius'),
};

const random = new Random(SEED);
const positions = new Float32Array(POINTS * 4);
for (let i = 0; i < POINTS; i++) {
  positions[i * 4] = random.range(-12, 14);
  positions[i * 4 + 1] = random.range(-6, 20);
  positions[i * 4 + 2] = random.range(-8, 8);
}
const initialWind = new Float32Array(POINTS * 4);
for (let i = 0; i < POINTS * 4; i++) initialWind[i] = random.range(-1, 1);

// Points in the SIMD module memory: read and written in place. Allocated before anything else can
// grow the memory, and re-read per pass anyway (a view is cheap to fetch).
const inPlace = simdFieldPointBuffers(POINTS)!;
inPlace.positions.set(positions);
// The same points as component planes (x of every point, then y, z; w is 0), also in the module memory.
const planes = fieldPointPlanes(POINTS);
for (let i = 0; i < POINTS; i++) for (let k = 0; k < 3; k++) planes.positions[k * planes.stride + i] = positions[i * 4 + k]!;
const resetPlanesWind = (): void => {
  for (let i = 0; i < POINTS; i++) for (let k = 0; k < 3; k++) planes.wind[k * planes.stride + i] = initialWind[i * 4 + k]!;
};
resetPlanesWind();

interface Contender {
  readonly name: string;
  readonly wind: () => Float32Array;
  readonly run: (wind: Float32Array) => void;
}

const ownWind = (): (() => Float32Array) => {
  const wind = initialWind.slice();
  return () => wind;
};
const contenders: Contender[] = [
  {
    name: 'hand-written TS',
    wind: ownWind(),
    run: (wind) => handWrittenWhirlExplosion(positions, wind, POINTS, whirlParameters, explosionParameters),
  },
  {
    name: 'hand-written TS, same float4 formulas (4 divisions per point)',
    wind: ownWind(),
    run: (wind) => handWrittenWhirlExplosionFloat4(positions, wind, POINTS, whirlFloat4, explosionFloat4),
  },
  { name: 'JS JIT', wind: ownWind(), run: (wind) => void evaluateField(program, positions, wind, { backend: 'jit' }) },
  {
    name: 'SIMD interpreter (in place)',
    wind: () => inPlace.wind,
    run: (wind) => void evaluateField(program, inPlace.positions, wind, { backend: 'simd-interpreter' }),
  },
  {
    name: 'SIMD JIT (in place)',
    wind: () => inPlace.wind,
    run: (wind) => void evaluateField(program, inPlace.positions, wind, { backend: 'simd-jit' }),
  },
  {
    // Reset each round from the first three quarters of the rows' initial wind as it lies: other values, the same work.
    name: 'SIMD JIT (component planes, in place)',
    wind: () => planes.wind,
    run: () => void evaluateFieldPlanes(program, planes, { backend: 'simd-jit', count: POINTS }),
  },
  {
    name: 'SIMD JIT (arrays copied in and out)',
    wind: ownWind(),
    run: (wind) => void evaluateField(program, positions, wind, { backend: 'simd-jit' }),
  },
];

for (const contender of contenders) for (let i = 0; i < WARMUP_PASSES; i++) contender.run(contender.wind());
const timedContenders = contenders.map((contender) => {
  const wind = contender.wind();
  return timed(contender.name, () => contender.run(wind));
});
const paired = pairedCpuMany(
  timedContenders.slice(1).map((contender) => [contender, timedContenders[0]!] as const),
  {
    pairs: PAIRS,
    minChunkMs: quick ? 20 : 150,
    beforePair: () => contenders.forEach((contender) => contender.wind().set(initialWind.subarray(0, contender.wind().length))),
  },
);
const report = new BenchReport(import.meta.url, { points: POINTS, pairs: PAIRS, warmUpPasses: WARMUP_PASSES, seed: SEED });
const rows = paired.map((times, k) =>
  report.add(
    pairedRow(contenders[k + 1]!.name, contenders[k + 1]!.name, 'hand-written TS', times, {
      unit: `one evaluation at ${POINTS} points`,
      ratioOf: 'ours/peer',
    }),
  ),
);
const baseline = median(paired.flatMap((p) => p.peerMs)) * 1000;
console.log(
  `field evaluation on WebAssembly SIMD: whirl + explosion (${program.instructionCount} instructions, ${program.registerCount} registers), ${POINTS.toLocaleString('en')} points, ${PAIRS} CPU-time pairs with the hand-written TS version${quick ? ' (quick)' : ''}`,
);
console.log('');
const sameFormula = rows[0]!.ourMs * 1000;
console.log('| contender | µs / evaluation (median) | ns / point | × hand-written TS (spread) | × same-formula hand-written |');
console.log('|---|---:|---:|---:|---:|');
contenders.forEach((contender, k) => {
  const us = k === 0 ? baseline : rows[k - 1]!.ourMs * 1000;
  const versus = k === 0 ? '1.000' : `${rows[k - 1]!.ratio.toFixed(3)} (${formatSpread(rows[k - 1]!.spread, 3)})`;
  console.log(`| ${contender.name} | ${us.toFixed(1)} | ${((us * 1000) / POINTS).toFixed(2)} | ${versus} | ${(us / sameFormula).toFixed(3)} |`);
});
const rowsJit = rows[3]!;
const planesJit = rows[4]!;
console.log('');
const verdict =
  `target: SIMD JIT ≤ 0.25 × hand-written TS — component planes ${planesJit.ratio <= 0.25 ? 'met' : 'NOT met'} ` +
  `(${planesJit.ratio.toFixed(3)} ×, spread ${formatSpread(planesJit.spread, 3)}); float4 rows ${rowsJit.ratio.toFixed(3)} × (spread ${formatSpread(rowsJit.spread, 3)})`;
console.log(verdict);
report.note(verdict);
checkAgreement();
report.note('every contender agrees with the hand-written version within 1e-4 × (1 + |value|)');
report.finish();

/** Fails the run (after the timing) if a contender disagrees: float32 SIMD within 1e-5 × (1 + |value|) of the float64 ones. */
function checkAgreement(): void {
  const handWritten = initialWind.slice();
  handWrittenWhirlExplosion(positions, handWritten, POINTS, whirlParameters, explosionParameters);
  const jit = initialWind.slice();
  evaluateField(program, positions, jit, { backend: 'jit' });
  const outputs: [string, Float32Array][] = [['JS JIT', jit]];
  for (const backend of ['simd-interpreter', 'simd-jit'] as const) {
    inPlace.wind.set(initialWind);
    evaluateField(program, inPlace.positions, inPlace.wind, { backend });
    outputs.push([backend, inPlace.wind.slice()]);
    const copied = initialWind.slice();
    evaluateField(program, positions, copied, { backend });
    outputs.push([`${backend} copied`, copied]);
  }
  resetPlanesWind();
  evaluateFieldPlanes(program, planes, { backend: 'simd-jit', count: POINTS });
  const fromPlanes = new Float32Array(POINTS * 4);
  // Planes keep no w: compare x, y, z.
  for (let i = 0; i < POINTS; i++)
    for (let k = 0; k < 4; k++) fromPlanes[i * 4 + k] = k < 3 ? planes.wind[k * planes.stride + i]! : handWritten[i * 4 + k]!;
  outputs.push(['simd-jit planes', fromPlanes]);
  for (const [name, output] of outputs) {
    let worst = 0;
    for (let i = 0; i < POINTS * 4; i++) worst = Math.max(worst, Math.abs(output[i]! - handWritten[i]!) / (1 + Math.abs(handWritten[i]!)));
    if (worst > 1e-4) throw new Error(`${name} and the hand-written version disagree by ${worst}`);
  }
}
