/**
 * Brute-force references for the field tests: a per-point walk of the bytecode (one register file per
 * point, every operation through semantics.ts), and a random program generator that also evaluates its
 * own expression trees directly, without the compiler.
 */
import { Random } from '../../../src/math/random';
import { ARGUMENTS_OF_OPCODE, OPERATION_OF_OPCODE, instructionWords, type OperationName } from '../../../src/field/opcodes';
import type { FieldProgram } from '../../../src/field/program';
import { applyOperation } from '../../../src/field/semantics';

/** Evaluates bytecode one point at a time: the slowest, most obvious VM. */
export function referenceEvaluate(program: FieldProgram, positions: Float32Array, wind: Float32Array, count: number): void {
  const registers = Array.from({ length: program.registerCount }, () => new Float64Array(4));
  const { words, floats } = program;
  for (let point = 0; point < count; point++) {
    for (let k = 0; k < 4; k++) {
      registers[0]![k] = positions[point * 4 + k]!;
      registers[1]![k] = wind[point * 4 + k]!;
    }
    let pc = 0;
    while (pc < words.length) {
      const opcode = words[pc]!;
      const args: Float64Array[] = [];
      let immediate = 0;
      let at = pc + 2;
      for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
        if (kind === 'r') args.push(registers[words[at]!]!.slice());
        else if (kind === 'c') args.push(Float64Array.from(floats.subarray(at, at + 4)));
        else immediate = words[at]!;
        at += kind === 'c' ? 4 : 1;
      }
      const result = new Float64Array(4);
      applyOperation(OPERATION_OF_OPCODE[opcode]!.name, args[0]!, args[1], args[2], immediate, result);
      registers[words[pc + 1]!]!.set(result);
      pc += instructionWords(opcode);
    }
    for (let k = 0; k < 4; k++) wind[point * 4 + k] = registers[1]![k]!;
  }
}

/** Bitwise equality of float arrays, with every NaN equal to every NaN. Returns the first mismatch or -1. */
export function firstMismatch(a: Float32Array, b: Float32Array): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!,
      y = b[i]!;
    if (x === y ? Object.is(x, y) || x !== 0 : Number.isNaN(x) && Number.isNaN(y)) continue;
    return i;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------
// Random programs with a direct tree evaluator.

type Vec = Float64Array;
interface Expression {
  readonly text: string;
  /** Binding strength of the outermost operator: 1 comparison, 2 additive, 3 multiplicative, 4 unary, 5 atom. */
  readonly precedence: number;
  /** Every leaf is a literal number, so the compiler folds it (rounding to float32 at each step). */
  readonly literalOnly: boolean;
  evaluate(environment: Environment): Vec;
}

interface Environment {
  position: Vec;
  wind: Vec;
  readonly locals: Map<string, Vec>;
  readonly globals: Map<string, Vec>;
}

const BINARY: readonly { symbol: string; operation: OperationName; precedence: number }[] = [
  { symbol: '+', operation: 'add', precedence: 2 },
  { symbol: '-', operation: 'sub', precedence: 2 },
  { symbol: '*', operation: 'mul', precedence: 3 },
  { symbol: '/', operation: 'div', precedence: 3 },
  { symbol: '<', operation: 'lt', precedence: 1 },
  { symbol: '<=', operation: 'le', precedence: 1 },
  { symbol: '>', operation: 'gt', precedence: 1 },
  { symbol: '>=', operation: 'ge', precedence: 1 },
  { symbol: '==', operation: 'eq', precedence: 1 },
  { symbol: '!=', operation: 'ne', precedence: 1 },
];
const CALLS: readonly { name: string; operation: OperationName; arity: number }[] = [
  { name: 'dot', operation: 'dot', arity: 2 },
  { name: 'cross', operation: 'cross', arity: 2 },
  { name: 'length', operation: 'length', arity: 1 },
  { name: 'normalize', operation: 'normalize', arity: 1 },
  { name: 'min', operation: 'min', arity: 2 },
  { name: 'max', operation: 'max', arity: 2 },
  { name: 'abs', operation: 'abs', arity: 1 },
  { name: 'floor', operation: 'floor', arity: 1 },
  { name: 'frac', operation: 'frac', arity: 1 },
  { name: 'sqrt', operation: 'sqrt', arity: 1 },
  { name: 'sin', operation: 'sin', arity: 1 },
  { name: 'cos', operation: 'cos', arity: 1 },
  { name: 'lerp', operation: 'lerp', arity: 3 },
  { name: 'clamp', operation: 'clamp', arity: 3 },
  { name: 'saturate', operation: 'saturate', arity: 1 },
  { name: 'select', operation: 'select', arity: 3 },
  { name: 'noise', operation: 'noise', arity: 1 },
];

function rounded(values: Vec): Vec {
  return values.map((v) => Math.fround(v));
}

function operationNode(operation: OperationName, args: readonly Expression[], text: string, precedence: number, immediate = 0): Expression {
  const literalOnly = args.every((arg) => arg.literalOnly);
  return {
    text,
    precedence,
    literalOnly,
    evaluate(environment) {
      const out = new Float64Array(4);
      const values = args.map((arg) => arg.evaluate(environment));
      applyOperation(operation, values[0]!, values[1], values[2], immediate, out);
      return literalOnly ? rounded(out) : out;
    },
  };
}

function smallNumber(random: Random): number {
  return (random.int(41) - 20) / 4;
}

export interface RandomProgram {
  readonly source: string;
  readonly globals: Map<string, Vec>;
  /** Runs the program's statements directly on one point. */
  evaluate(position: Vec, wind: Vec, globals: Map<string, Vec>): Vec;
}

/** A random, valid program over the whole language, with its meaning computed independently. */
export function randomProgram(random: Random): RandomProgram {
  const globalNames: string[] = [];
  const globals = new Map<string, Vec>();
  const lines: string[] = [];
  for (let g = random.int(4); g > 0; g--) {
    const name = `g${globalNames.length}`;
    const value = Float64Array.of(smallNumber(random), smallNumber(random), smallNumber(random), smallNumber(random));
    globalNames.push(name);
    globals.set(name, value);
    lines.push(`const float4 ${name} = float4(${[...value].join(', ')});`);
  }
  lines.push('struct vf_in { float4 position : CHANNEL0; float4 wind : CHANNEL1; };');
  lines.push('struct vf_out { float4 wind : CHANNEL1; };');
  lines.push('void field(in vf_in in, out vf_out out) {');

  const locals: string[] = [];
  let windWritten = false;
  const leaf = (): Expression => {
    const choice = random.int(7);
    if (choice === 0) {
      const value = smallNumber(random);
      return {
        text: value < 0 ? `(${value})` : String(value),
        precedence: 5,
        literalOnly: true,
        evaluate: () => rounded(Float64Array.of(value, value, value, value)),
      };
    }
    if (choice === 1) {
      const value = Float64Array.of(smallNumber(random), smallNumber(random), smallNumber(random), smallNumber(random));
      return { text: `float4(${[...value].join(', ')})`, precedence: 5, literalOnly: true, evaluate: () => rounded(value) };
    }
    if (choice === 2 && globalNames.length > 0) {
      const name = globalNames[random.int(globalNames.length)]!;
      return { text: name, precedence: 5, literalOnly: false, evaluate: (environment) => rounded(environment.globals.get(name)!) };
    }
    if (choice === 3 && locals.length > 0) {
      const name = locals[random.int(locals.length)]!;
      return { text: name, precedence: 5, literalOnly: false, evaluate: (environment) => environment.locals.get(name)!.slice() };
    }
    if (choice === 4 && !windWritten)
      return { text: 'in.wind', precedence: 5, literalOnly: false, evaluate: (environment) => environment.wind.slice() };
    return { text: 'in.position', precedence: 5, literalOnly: false, evaluate: (environment) => environment.position.slice() };
  };
  const expression = (depth: number): Expression => {
    if (depth <= 0 || random.next() < 0.2) return leaf();
    const choice = random.int(10);
    if (choice < 5) {
      const operator = BINARY[random.int(BINARY.length)]!;
      const left = expression(depth - 1);
      const right = expression(depth - 1);
      // Parentheses only where precedence needs them (comparisons never chain, so always there).
      const wrapLeft = left.precedence < operator.precedence || (operator.precedence === 1 && left.precedence === 1);
      const wrapRight = right.precedence <= operator.precedence;
      const text = `${wrapLeft ? `(${left.text})` : left.text} ${operator.symbol} ${wrapRight ? `(${right.text})` : right.text}`;
      return operationNode(operator.operation, [left, right], text, operator.precedence);
    }
    if (choice < 8) {
      const call = CALLS[random.int(CALLS.length)]!;
      const args = Array.from({ length: call.arity }, () => expression(depth - 1));
      return operationNode(call.operation, args, `${call.name}(${args.map((arg) => arg.text).join(', ')})`, 5);
    }
    if (choice === 8) {
      const operand = expression(depth - 1);
      const text = operand.precedence >= 4 ? `-${operand.text}` : `-(${operand.text})`;
      return operationNode('neg', [operand], text, 4);
    }
    const operand = expression(depth - 1);
    const letters = random.next() < 0.5 ? 'xyzw'[random.int(4)]! : Array.from({ length: 4 }, () => 'xyzw'[random.int(4)]!).join('');
    const pattern = [0, 1, 2, 3].reduce((bits, k) => bits | ('xyzw'.indexOf(letters[letters.length === 1 ? 0 : k]!) << (2 * k)), 0);
    const text = operand.precedence === 5 && !/^[\d(-]/.test(operand.text) ? `${operand.text}.${letters}` : `(${operand.text}).${letters}`;
    return operationNode('swizzle', [operand], text, 5, pattern);
  };

  type Step = (environment: Environment) => void;
  const steps: Step[] = [];
  for (let s = 1 + random.int(5); s > 0; s--) {
    const value = expression(1 + random.int(4));
    const kind = random.int(4);
    if (kind <= 1 || locals.length === 0) {
      const name = `t${locals.length}`;
      lines.push(`  float4 ${name} = ${value.text};`);
      steps.push((environment) => environment.locals.set(name, value.evaluate(environment)));
      locals.push(name);
    } else {
      const name = locals[random.int(locals.length)]!;
      const compound = kind === 3 ? BINARY[random.int(4)]! : undefined;
      lines.push(`  ${name} ${compound === undefined ? '=' : compound.symbol + '='} ${value.text};`);
      steps.push((environment) => {
        const result = value.evaluate(environment);
        if (compound === undefined) {
          environment.locals.set(name, result);
          return;
        }
        const out = new Float64Array(4);
        applyOperation(compound.operation, environment.locals.get(name)!, result, undefined, 0, out);
        environment.locals.set(name, out);
      });
    }
  }
  const first = expression(1 + random.int(3));
  if (random.next() < 0.5) {
    lines.push(`  out.wind = in.wind + ${first.precedence >= 3 ? first.text : `(${first.text})`};`);
    steps.push((environment) => {
      const out = new Float64Array(4);
      applyOperation('add', environment.wind, first.evaluate(environment), undefined, 0, out);
      environment.wind = out;
    });
  } else {
    lines.push(`  out.wind += ${first.text};`);
    steps.push((environment) => {
      const out = new Float64Array(4);
      applyOperation('add', environment.wind, first.evaluate(environment), undefined, 0, out);
      environment.wind = out;
    });
  }
  windWritten = true;
  if (random.next() < 0.3) {
    const second = expression(2);
    lines.push(`  out.wind *= ${second.text};`);
    steps.push((environment) => {
      const out = new Float64Array(4);
      applyOperation('mul', environment.wind, second.evaluate(environment), undefined, 0, out);
      environment.wind = out;
    });
  }
  lines.push('}');
  return {
    source: lines.join('\n'),
    globals,
    evaluate(position, wind, globalValues) {
      const environment: Environment = { position, wind, locals: new Map(), globals: globalValues };
      for (const step of steps) step(environment);
      return environment.wind;
    },
  };
}
