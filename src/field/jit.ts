import { fieldNoise } from './noise3';
import { ARGUMENTS_OF_OPCODE, OPERATION_OF_OPCODE, instructionWords } from './opcodes';
import { POSITION_REGISTER, WIND_REGISTER, type FieldProgram } from './program';

/**
 * The JIT back end: turns validated bytecode (never source text) into a JavaScript function that runs
 * the whole program per point with every register component in a local, so the engine's optimiser sees
 * one straight loop like hand-written code. Generation works on scalars: each instruction expands into
 * per-component expressions, moves and swizzles become renamings, components nobody stores are dropped,
 * and expressions that depend only on constants are hoisted out of the loop. Patchable constants are
 * read from the bytecode at each call (so setConstant needs no recompilation); other constants are
 * written in as literals. Formulas are spelt as in semantics.ts so results match the interpreter bit
 * for bit.
 */
export type FieldKernel = (constants: Float32Array, positions: Float32Array, wind: Float32Array, count: number, noise: typeof fieldNoise) => void;

interface ScalarNode {
  readonly code: string;
  readonly dependencies: readonly number[];
  /** False when it depends on constants only, so it can run once before the loop. */
  readonly varying: boolean;
  /** For a comparison `x < y ? 1 : 0`: the test `x < y` and its operands, so select can branch on it directly. */
  readonly condition?: { readonly code: string; readonly args: readonly Scalar[] };
}

/** A value in generated code: a node's variable, or text that needs no evaluation (a literal, a constant). */
interface Scalar {
  readonly text: string;
  /** Index of the node that defines it, or -1. */
  readonly node: number;
  readonly varying: boolean;
}

const ZERO: Scalar = { text: '0', node: -1, varying: false };

function literalText(value: number): string {
  if (Object.is(value, -0)) return '(-0)';
  const text = String(value);
  return value < 0 ? `(${text})` : text;
}

class KernelBuilder {
  readonly nodes: ScalarNode[] = [];
  readonly constantReads: string[] = [];

  /** Same code, same value: identical expressions are computed once (exact, unlike algebraic rewrites). */
  private readonly byCode = new Map<string, Scalar>();

  define(code: string, args: readonly Scalar[], varying?: boolean, condition?: ScalarNode['condition']): Scalar {
    const known = this.byCode.get(code);
    if (known !== undefined) return known;
    const dependencies = args.filter((arg) => arg.node >= 0).map((arg) => arg.node);
    const isVarying = varying ?? args.some((arg) => arg.varying);
    this.nodes.push(condition === undefined ? { code, dependencies, varying: isVarying } : { code, dependencies, varying: isVarying, condition });
    const node = this.nodes.length - 1;
    const scalar = { text: `v${node}`, node, varying: isVarying };
    this.byCode.set(code, scalar);
    return scalar;
  }

  conditionOf(scalar: Scalar): ScalarNode['condition'] {
    return scalar.node >= 0 ? this.nodes[scalar.node]!.condition : undefined;
  }
}

/** Generates the kernel's source text. Exposed for tests and for curious readers of the disassembly. */
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
    registers[words[pc + 1]!] = expand(builder, operation.name, args, immediate);
    pc += instructionWords(opcode);
  }

  // Keep only what the stored wind components need.
  const live = new Uint8Array(builder.nodes.length);
  const stores: string[] = [];
  const wind = registers[WIND_REGISTER];
  const pending: number[] = [];
  for (let k = 0; k < 4; k++) {
    const value = wind[k]!;
    if (value === incomingWind[k]) continue;
    stores.push(`O[${k === 0 ? 'p' : `p + ${k}`}] = ${value.text};`);
    if (value.node >= 0) pending.push(value.node);
  }
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (live[node] === 1) continue;
    live[node] = 1;
    for (const dependency of builder.nodes[node]!.dependencies) pending.push(dependency);
  }
  const hoisted: string[] = [];
  const body: string[] = [];
  builder.nodes.forEach((node, index) => {
    if (live[index] === 0) return;
    (node.varying ? body : hoisted).push(`const v${index} = ${node.code};`);
  });
  const constantReads = [...new Set(builder.constantReads)];
  return [
    '"use strict";',
    ...constantReads,
    ...hoisted,
    'for (let p = 0, end = n * 4; p < end; p += 4) {',
    ...body.map((line) => '  ' + line),
    ...stores.map((line) => '  ' + line),
    '}',
  ].join('\n');
}

function expand(builder: KernelBuilder, operation: string, args: readonly Scalar[][], immediate: number): Scalar[] {
  const a = args[0]!;
  const b = args[1];
  const c = args[2];
  const each = (template: (k: number) => string, operands: readonly Scalar[][]): Scalar[] =>
    [0, 1, 2, 3].map((k) => builder.define(template(k), operands.map((operand) => operand[k]!)));
  const dotText = (x: readonly Scalar[], y: readonly Scalar[]): string =>
    `${x[0]!.text} * ${y[0]!.text} + ${x[1]!.text} * ${y[1]!.text} + ${x[2]!.text} * ${y[2]!.text} + ${x[3]!.text} * ${y[3]!.text}`;
  const binary = (symbol: string): Scalar[] => each((k) => `${a[k]!.text} ${symbol} ${b![k]!.text}`, [a, b!]);
  const compare = (symbol: string): Scalar[] =>
    [0, 1, 2, 3].map((k) => {
      const test = `${a[k]!.text} ${symbol} ${b![k]!.text}`;
      const args = [a[k]!, b![k]!];
      return builder.define(`${test} ? 1 : 0`, args, undefined, { code: test, args });
    });
  const call = (fn: string): Scalar[] => each((k) => `${fn}(${a[k]!.text})`, [a]);
  switch (operation) {
    case 'add': return binary('+');
    case 'sub': return binary('-');
    case 'mul': return binary('*');
    case 'div': return binary('/');
    case 'min': return each((k) => `Math.min(${a[k]!.text}, ${b![k]!.text})`, [a, b!]);
    case 'max': return each((k) => `Math.max(${a[k]!.text}, ${b![k]!.text})`, [a, b!]);
    case 'lt': return compare('<');
    case 'le': return compare('<=');
    case 'gt': return compare('>');
    case 'ge': return compare('>=');
    case 'eq': return compare('===');
    case 'ne': return compare('!==');
    case 'dot': {
      const dot = builder.define(dotText(a, b!), [...a, ...b!]);
      return [dot, dot, dot, dot];
    }
    case 'cross':
      return [
        builder.define(`${a[1]!.text} * ${b![2]!.text} - ${a[2]!.text} * ${b![1]!.text}`, [a[1]!, a[2]!, b![1]!, b![2]!]),
        builder.define(`${a[2]!.text} * ${b![0]!.text} - ${a[0]!.text} * ${b![2]!.text}`, [a[0]!, a[2]!, b![0]!, b![2]!]),
        builder.define(`${a[0]!.text} * ${b![1]!.text} - ${a[1]!.text} * ${b![0]!.text}`, [a[0]!, a[1]!, b![0]!, b![1]!]),
        ZERO,
      ];
    case 'mov': return [...a];
    case 'swizzle': return [0, 1, 2, 3].map((k) => a[(immediate >> (2 * k)) & 3]!);
    case 'neg': return each((k) => `-${a[k]!.text}`, [a]);
    case 'abs': return call('Math.abs');
    case 'floor': return call('Math.floor');
    case 'sqrt': return call('Math.sqrt');
    case 'sin': return call('Math.sin');
    case 'cos': return call('Math.cos');
    case 'frac': return each((k) => `${a[k]!.text} - Math.floor(${a[k]!.text})`, [a]);
    case 'saturate': return each((k) => `Math.min(Math.max(${a[k]!.text}, 0), 1)`, [a]);
    case 'length': {
      const length = builder.define(`Math.sqrt(${dotText(a, a)})`, a);
      return [length, length, length, length];
    }
    case 'normalize': {
      const squared = builder.define(dotText(a, a), a);
      const inverse = builder.define(`${squared.text} > 0 ? 1 / Math.sqrt(${squared.text}) : 0`, [squared]);
      return each((k) => `${a[k]!.text} * ${inverse.text}`, [a, [inverse, inverse, inverse, inverse]]);
    }
    case 'noise': {
      const noise = builder.define(`noise(${a[0]!.text}, ${a[1]!.text}, ${a[2]!.text})`, [a[0]!, a[1]!, a[2]!]);
      return [noise, noise, noise, noise];
    }
    case 'lerp': return each((k) => `${a[k]!.text} + (${b![k]!.text} - ${a[k]!.text}) * ${c![k]!.text}`, [a, b!, c!]);
    case 'clamp': return each((k) => `Math.min(Math.max(${a[k]!.text}, ${b![k]!.text}), ${c![k]!.text})`, [a, b!, c!]);
    case 'select':
      // Branch on the comparison itself when the mask came from one (same outcome, one test fewer).
      return [0, 1, 2, 3].map((k) => {
        const condition = builder.conditionOf(a[k]!);
        if (condition === undefined) return builder.define(`${a[k]!.text} !== 0 ? ${b![k]!.text} : ${c![k]!.text}`, [a[k]!, b![k]!, c![k]!]);
        return builder.define(`${condition.code} ? ${b![k]!.text} : ${c![k]!.text}`, [...condition.args, b![k]!, c![k]!]);
      });
  }
  throw new Error(`the JIT has no expansion for ${operation}`);
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
      jitAvailable = (new Function('return 1') as () => number)() === 1;
    } catch {
      jitAvailable = false;
    }
  }
  return jitAvailable;
}
