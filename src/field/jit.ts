import { fieldNoise } from './noise3';
import { expandInstruction } from './jit-expand';
import { KernelBuilder, literalText, type Scalar } from './jit-scalar';
import { scheduleKernel } from './jit-schedule';
import { ARGUMENTS_OF_OPCODE, OPERATION_OF_OPCODE, instructionWords } from './opcodes';
import { POSITION_REGISTER, WIND_REGISTER, type FieldProgram } from './program';

/**
 * The JIT back end: turns validated bytecode (never source text) into a JavaScript function that runs
 * the whole program per point with every register component in a local, so the engine's optimiser sees
 * one straight loop like hand-written code. Generation works on scalars (jit-scalar.ts): each
 * instruction expands into per-component expressions (jit-expand.ts), moves and swizzles become
 * renamings, repeated expressions are shared, a select branches on its comparison directly; then
 * jit-schedule.ts drops what nobody stores and hoists constant-only work out of the loop. Patchable constants are
 * read from the bytecode at each call (so setConstant needs no recompilation); other constants are
 * written in as literals. Formulas are spelt as in semantics.ts so results match the interpreter bit
 * for bit.
 */
export type FieldKernel = (constants: Float32Array, positions: Float32Array, wind: Float32Array, count: number, noise: typeof fieldNoise) => void;

/** The kernel's source text, the body of `function (K, P, O, n, noise)`; shown beside the disassembly. */
export function generateKernelSource(program: FieldProgram): string {
  const { words, floats, patches } = program;
  const patched = new Set<number>();
  for (let i = 1; i < patches.length; i += 2) patched.add(patches[i]!);
  const builder = new KernelBuilder();
  const registers: Scalar[][] = [];
  const load = (array: string, k: number): Scalar => builder.define(k === 0 ? `${array}[p]` : `${array}[p + ${k}]`, [], true);
  registers[POSITION_REGISTER] = [0, 1, 2, 3].map((k) => load('P', k));
  const incomingWind = [0, 1, 2, 3].map((k) => load('O', k));
  registers[WIND_REGISTER] = incomingWind;

  const constantAt = (at: number): Scalar[] =>
    [0, 1, 2, 3].map((k) => {
      if (!patched.has(at)) return { text: literalText(floats[at + k]!), node: -1, varying: false };
      const name = `k${at + k}`;
      builder.constantReads.push(`const ${name} = K[${at + k}];`);
      return { text: name, node: -1, varying: false };
    });

  let pc = 0;
  while (pc < words.length) {
    const opcode = words[pc]!;
    const operation = OPERATION_OF_OPCODE[opcode]!;
    const args: Scalar[][] = [];
    let immediate = 0;
    let at = pc + 2;
    for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
      if (kind === 'r') args.push(registers[words[at]!]!);
      else if (kind === 'c') args.push(constantAt(at));
      else immediate = words[at]!;
      at += kind === 'c' ? 4 : 1;
    }
    registers[words[pc + 1]!] = expandInstruction(builder, operation.name, args, immediate);
    pc += instructionWords(opcode);
  }

  const stored = [0, 1, 2, 3].map((k) => (registers[WIND_REGISTER]![k] === incomingWind[k] ? undefined : registers[WIND_REGISTER]![k]));
  return scheduleKernel(builder, stored);
}

const kernelsBySource = new Map<string, FieldKernel>();
const kernelsByProgram = new WeakMap<FieldProgram, FieldKernel>();
/** Distinct generated sources kept; beyond this the cache starts over (programs recompile on next use). */
const MAX_CACHED_KERNELS = 256;

/** The compiled kernel for a program (validated beforehand), generated once and cached by its source. */
export function jitKernel(program: FieldProgram): FieldKernel {
  const known = kernelsByProgram.get(program);
  if (known !== undefined) return known;
  const source = generateKernelSource(program);
  let kernel = kernelsBySource.get(source);
  if (kernel === undefined) {
    if (kernelsBySource.size >= MAX_CACHED_KERNELS) kernelsBySource.clear();
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the JIT compiles generated source on purpose
    kernel = new Function('K', 'P', 'O', 'n', 'noise', source) as FieldKernel;
    kernelsBySource.set(source, kernel);
  }
  kernelsByProgram.set(program, kernel);
  return kernel;
}

let jitAvailable: boolean | undefined;

/** Whether this environment lets code be generated at run time (a Content-Security-Policy may not). */
export function isJitAvailable(): boolean {
  if (jitAvailable === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- probes whether the JIT above may run
      jitAvailable = (new Function('return 1') as () => number)() === 1;
    } catch {
      jitAvailable = false;
    }
  }
  return jitAvailable;
}
