/**
 * Field evaluation benchmark: whirl + explosion at 20,000 points, in one run, for the hand-written
 * TypeScript version, the bytecode interpreter and the JIT. Same positions and the same work for each;
 * warm-up passes discarded; then (_pairedCpu.ts) every method in back-to-back CPU-time pairs with the
 * hand-written version (the peer), the order alternating, each from its own timing loop; "× hand-written"
 * is the median of the pairs' method / hand-written time ratios (below 1: faster) with its spread. The
 * agreement of the back ends is checked after the timing. Table and JSON from _report.ts.
 *
 *   npx tsx tests/bench/field.ts           full run
 *   npx tsx tests/bench/field.ts --quick   a few-second smoke run
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Random } from '../../src/math/random';
import {
  compileField,
  concatenatePrograms,
  createFieldScratch,
  evaluateField,
  getConstant,
  handWrittenWhirlExplosion,
  handWrittenWhirlExplosionFloat4,
  type ExplosionParameters,
  type FieldProgram,
  type WhirlParameters,
} from '../../src/field/index';
import { median, pairedCpuMany, timed } from './_pairedCpu';
import { BenchReport, formatSpread, pairedRow } from './_report';

const quick = process.argv.includes('--quick');
const POINTS = quick ? 2_000 : 20_000;
const WARMUP_PASSES = quick ? 20 : 300;
const PAIRS = quick ? 2 : 15;
const SEED = 20121017;

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

const smallScratch = createFieldScratch(16 * 1024);
const defaultScratch = createFieldScratch(256 * 1024);

interface Method {
  readonly name: string;
  readonly wind: Float32Array;
  readonly run: (wind: Float32Array) => number;
  scratchBytes: number;
}

const method = (name: string, run: (wind: Float32Array) => number): Method => ({ name, wind: initialWind.slice(), run, scratchBytes: 0 });
const methods: Method[] = [
  method('hand-written TS', (wind) => {
    handWrittenWhirlExplosion(positions, wind, POINTS, whirlParameters, explosionParameters);
    return 0;
  }),
  method('hand-written TS, same float4 formulas', (wind) => {
    handWrittenWhirlExplosionFloat4(positions, wind, POINTS, whirlFloat4, explosionFloat4);
    return 0;
  }),
  method('JIT', (wind) => evaluateField(program, positions, wind, { backend: 'jit' })),
  method('interpreter, 256 KiB scratch', (wind) => evaluateField(program, positions, wind, { backend: 'interpreter', scratch: defaultScratch })),
  method('interpreter, 16 KiB scratch', (wind) => evaluateField(program, positions, wind, { backend: 'interpreter', scratch: smallScratch })),
];

for (const m of methods) for (let i = 0; i < WARMUP_PASSES; i++) m.scratchBytes = m.run(m.wind);
const contenders = methods.map((m) =>
  timed(m.name, () => {
    m.run(m.wind);
  }),
);
const paired = pairedCpuMany(
  contenders.slice(1).map((contender) => [contender, contenders[0]!] as const),
  { pairs: PAIRS, minChunkMs: quick ? 20 : 150, beforePair: () => methods.forEach((m) => m.wind.set(initialWind)) },
);
const report = new BenchReport(import.meta.url, { points: POINTS, pairs: PAIRS, warmUpPasses: WARMUP_PASSES, seed: SEED });
const rows = paired.map((times, k) =>
  report.add(
    pairedRow(methods[k + 1]!.name, methods[k + 1]!.name, 'hand-written TS', times, {
      unit: `one evaluation at ${POINTS} points`,
      ratioOf: 'ours/peer',
    }),
  ),
);
const baseline = median(paired.flatMap((p) => p.peerMs)) * 1000;
console.log(
  `field evaluation: whirl + explosion (${program.instructionCount} instructions, ${program.registerCount} registers), ${POINTS.toLocaleString('en')} points, ${PAIRS} CPU-time pairs with the hand-written version${quick ? ' (quick)' : ''}`,
);
console.log('');
console.log('| method | µs / evaluation | ns / point | × hand-written (spread) | × same-formula hand-written | scratch bytes |');
console.log('|---|---:|---:|---:|---:|---:|');
const sameFormula = rows[0]!.ourMs * 1000;
methods.forEach((m, k) => {
  const us = k === 0 ? baseline : rows[k - 1]!.ourMs * 1000;
  const versus = k === 0 ? '1.00' : `${rows[k - 1]!.ratio.toFixed(2)} (${formatSpread(rows[k - 1]!.spread)})`;
  console.log(
    `| ${m.name} | ${us.toFixed(1)} | ${((us * 1000) / POINTS).toFixed(2)} | ${versus} | ${(us / sameFormula).toFixed(2)} | ${m.scratchBytes.toLocaleString('en')} |`,
  );
});
checkAgreement(program);
report.note('the back ends agree: JIT = interpreter = float4 hand-written bit for bit, hand-written within 1e-4');
console.log('');
console.log('reference (Bitsquid, 2012, C++ SSE VM): 20,000 particles ≈ 400 µs per query; VM 1.16 × native.');
report.finish();

/** Fails the run (after the timing) if the back ends disagree: all must give the same wind. */
function checkAgreement(combined: FieldProgram): void {
  const outputs = [initialWind.slice(), initialWind.slice(), initialWind.slice(), initialWind.slice()];
  handWrittenWhirlExplosionFloat4(positions, outputs[3]!, POINTS, whirlFloat4, explosionFloat4);
  handWrittenWhirlExplosion(positions, outputs[0]!, POINTS, whirlParameters, explosionParameters);
  evaluateField(combined, positions, outputs[1]!, { backend: 'jit' });
  evaluateField(combined, positions, outputs[2]!, { backend: 'interpreter', scratch: smallScratch });
  let worst = 0;
  for (let i = 0; i < POINTS * 4; i++) {
    const reference = outputs[0]![i]!;
    for (const other of [outputs[1]![i]!, outputs[2]![i]!]) {
      worst = Math.max(worst, Math.abs(other - reference) / Math.max(1, Math.abs(reference)));
    }
    if (outputs[1]![i] !== outputs[2]![i]) throw new Error(`JIT and interpreter differ at float ${i}`);
    if (outputs[1]![i] !== outputs[3]![i]) throw new Error(`JIT and the float4 hand-written version differ at float ${i}`);
  }
  if (worst > 1e-4) throw new Error(`hand-written and bytecode disagree by ${worst}`);
}
