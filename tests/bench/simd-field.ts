/**
 * Field evaluation on WebAssembly SIMD: whirl + explosion at 20,000 points, in one run, for the
 * hand-written TypeScript version (idiomatic, and spelt with the programs' float4 formulas), the JS JIT, the SIMD interpreter and the SIMD JIT (points in the
 * module memory, nothing copied; and from ordinary arrays, copied in and out). Same positions, same
 * program for all. Warm-up passes discarded; rounds alternate the contenders and the table reports
 * each one's minimum round (the least disturbed by the other processes of a shared machine).
 *
 * First, before any correctness check: CPU time (process.cpuUsage) in back-to-back pairs, each SIMD JIT
 * layout against the hand-written TypeScript (float4 rows, transposed in the kernel; component planes,
 * no transposes), the median of the pair ratios and their spread (min–max).
 *
 *   npx tsx tests/bench/simd-field.ts           full run
 *   npx tsx tests/bench/simd-field.ts --quick   a few-second smoke run
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Random } from '../../src/math/random';
import { median as medianOf, pairedRounds } from './_pairedCpu';
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

const quick = process.argv.includes('--quick');
const POINTS = quick ? 2_000 : 20_000;
const WARMUP_PASSES = quick ? 20 : 400;
const ROUNDS = quick ? 5 : 31;
const PASSES_PER_ROUND = quick ? 10 : 40;
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

// CPU-time pairs before anything else runs: each contender from its own closure.
const PAIRS = quick ? 5 : 21;
const pairedWind = initialWind.slice();
const runHandWritten = (): void => handWrittenWhirlExplosion(positions, pairedWind, POINTS, whirlParameters, explosionParameters);
const runRowsJit = (): void => void evaluateField(program, inPlace.positions, inPlace.wind, { backend: 'simd-jit' });
const runPlanesJit = (): void => void evaluateFieldPlanes(program, planes, { backend: 'simd-jit', count: POINTS });
for (let i = 0; i < WARMUP_PASSES; i++) {
  runHandWritten();
  runRowsJit();
  runPlanesJit();
}
const pairRatios = (runA: () => void, runB: () => void): number[] => {
  const { aMs, bMs } = pairedRounds(runA, runB, PAIRS);
  return bMs.map((b, i) => b / aMs[i]!);
};
const pairedTable: [string, number[]][] = [
  ['SIMD JIT, float4 rows (transposes) / hand-written TS', pairRatios(runHandWritten, runRowsJit)],
  ['SIMD JIT, component planes / hand-written TS', pairRatios(runHandWritten, runPlanesJit)],
  ['SIMD JIT, component planes / float4 rows', pairRatios(runRowsJit, runPlanesJit)],
];
console.log(
  `CPU time, ${PAIRS} back-to-back pairs (order alternating), ${POINTS.toLocaleString('en')} points, whirl + explosion${quick ? ' (quick)' : ''}`,
);
console.log('');
console.log('| ratio of CPU time | median of pairs | spread (min–max) |');
console.log('|---|---:|---:|');
for (const [name, ratios] of pairedTable)
  console.log(`| ${name} | ${medianOf(ratios).toFixed(3)} | ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)} |`);
const planesRatio = medianOf(pairedTable[1]![1]);
console.log('');
console.log(
  `target: SIMD JIT ≤ 0.25 × hand-written TS (CPU time, median of pairs) — planes ${planesRatio <= 0.25 ? 'met' : 'NOT met'} (${planesRatio.toFixed(3)} ×)`,
);
console.log('');
resetPlanesWind();

interface Contender {
  readonly name: string;
  readonly wind: () => Float32Array;
  readonly run: (wind: Float32Array) => void;
  readonly samples: number[];
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
    samples: [],
  },
  {
    name: 'hand-written TS, same float4 formulas (4 divisions per point)',
    wind: ownWind(),
    run: (wind) => handWrittenWhirlExplosionFloat4(positions, wind, POINTS, whirlFloat4, explosionFloat4),
    samples: [],
  },
  { name: 'JS JIT', wind: ownWind(), run: (wind) => void evaluateField(program, positions, wind, { backend: 'jit' }), samples: [] },
  {
    name: 'SIMD interpreter (in place)',
    wind: () => inPlace.wind,
    run: (wind) => void evaluateField(program, inPlace.positions, wind, { backend: 'simd-interpreter' }),
    samples: [],
  },
  {
    name: 'SIMD JIT (in place)',
    wind: () => inPlace.wind,
    run: (wind) => void evaluateField(program, inPlace.positions, wind, { backend: 'simd-jit' }),
    samples: [],
  },
  {
    // Reset each round from the first three quarters of the rows' initial wind as it lies: other values, the same work.
    name: 'SIMD JIT (component planes, in place)',
    wind: () => planes.wind,
    run: () => void evaluateFieldPlanes(program, planes, { backend: 'simd-jit', count: POINTS }),
    samples: [],
  },
  {
    name: 'SIMD JIT (arrays copied in and out)',
    wind: ownWind(),
    run: (wind) => void evaluateField(program, positions, wind, { backend: 'simd-jit' }),
    samples: [],
  },
];

checkAgreement();

for (const contender of contenders) for (let i = 0; i < WARMUP_PASSES; i++) contender.run(contender.wind());
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order too, so no contender always runs right after the same one.
  const order = round % 2 === 0 ? contenders : [...contenders].reverse();
  for (const contender of order) {
    const wind = contender.wind();
    wind.set(initialWind.subarray(0, wind.length)); // planes hold three quarters of it
    const start = process.hrtime.bigint();
    for (let i = 0; i < PASSES_PER_ROUND; i++) contender.run(wind);
    const elapsed = Number(process.hrtime.bigint() - start) / 1e3;
    contender.samples.push(elapsed / PASSES_PER_ROUND);
  }
}

const minimum = (values: readonly number[]): number => Math.min(...values);
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const baseline = minimum(contenders[0]!.samples);
console.log(
  `field evaluation on WebAssembly SIMD: whirl + explosion (${program.instructionCount} instructions, ${program.registerCount} registers), ${POINTS.toLocaleString('en')} points, min (and median) of ${ROUNDS} alternating rounds × ${PASSES_PER_ROUND} passes${quick ? ' (quick)' : ''}`,
);
console.log('');
const sameFormula = minimum(contenders[1]!.samples);
console.log('| contender | µs / evaluation (min) | median | ns / point | × hand-written TS | × same-formula hand-written |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const contender of contenders) {
  const us = minimum(contender.samples);
  console.log(
    `| ${contender.name} | ${us.toFixed(1)} | ${median(contender.samples).toFixed(1)} | ${((us * 1000) / POINTS).toFixed(2)} | ${(us / baseline).toFixed(3)} | ${(us / sameFormula).toFixed(3)} |`,
  );
}
const simdJit = minimum(contenders[4]!.samples) / baseline;
console.log('');
console.log(`target: SIMD JIT ≤ 0.3 × hand-written TS — ${simdJit <= 0.3 ? 'met' : 'NOT met'} (${simdJit.toFixed(3)} ×)`);

/** Refuses to time contenders that disagree: float32 SIMD within 1e-5 × (1 + |value|) of the float64 ones. */
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
