import { FieldSemanticError } from './errors';
import type { Token } from './lexer';
import { operationNamed, type OperationName } from './opcodes';
import { FIRST_FREE_REGISTER, MAX_REGISTERS, hashConstantName } from './program';
import { applyOperation } from './semantics';

/** A value on the shunting-yard's value stack: a register, or a float4 constant (named if patchable). */
export type Operand =
  | { readonly kind: 'register'; readonly register: number; readonly temporary: boolean }
  | { readonly kind: 'constant'; readonly value: Float64Array; readonly global: string | undefined };

export function literal(x: number, y: number, z: number, w: number): Operand {
  return { kind: 'constant', value: Float64Array.of(Math.fround(x), Math.fround(y), Math.fround(z), Math.fround(w)), global: undefined };
}

const floatBits = new Float32Array(1);
const floatWord = new Uint32Array(floatBits.buffer);

/**
 * Writes bytecode and hands out registers. Temporaries come from the lowest free register, a result
 * register is taken before its operands are released (so an instruction never overwrites an argument it
 * is still reading in the reference numbering), and operations on literals alone are folded here.
 * Patchable globals are never folded: their inline copies are listed for `setConstant`.
 */
export class BytecodeEmitter {
  readonly words: number[] = [];
  readonly patches: number[] = [];
  instructionCount = 0;
  /** One past the highest register ever used. */
  registerCount = FIRST_FREE_REGISTER;
  private readonly busy: boolean[] = [];
  private lastInstruction = -1;

  constructor(private readonly file: string | undefined) {}

  allocate(at: Token): number {
    let register = FIRST_FREE_REGISTER;
    while (this.busy[register] === true) register++;
    if (register >= MAX_REGISTERS) {
      throw new FieldSemanticError(
        `this needs more than ${MAX_REGISTERS} registers; split the expression into several statements or reuse locals`,
        at.line,
        at.column,
        this.file,
      );
    }
    this.busy[register] = true;
    if (register + 1 > this.registerCount) this.registerCount = register + 1;
    return register;
  }

  release(operand: Operand): void {
    if (operand.kind === 'register' && operand.temporary) this.busy[operand.register] = false;
  }

  /** Applies an operation: folded when every argument is a literal, otherwise emitted into a temporary. */
  apply(operation: OperationName, args: readonly Operand[], immediate: number, at: Token): Operand {
    if (args.every((arg) => arg.kind === 'constant' && arg.global === undefined)) {
      const out = new Float64Array(4);
      const values = args.map((arg) => (arg as { value: Float64Array }).value);
      applyOperation(operation, values[0]!, values[1], values[2], immediate, out);
      for (let k = 0; k < 4; k++) out[k] = Math.fround(out[k]!);
      return { kind: 'constant', value: out, global: undefined };
    }
    const kind = operationNamed(operation).kind;
    // Three-argument ops and swizzles read registers only: load any constant argument first.
    const loaded = kind === 'ternary' || kind === 'swizzle' ? args.map((arg) => (arg.kind === 'constant' ? this.load(arg, at) : arg)) : args;
    const result = this.allocate(at);
    this.emit(operation, result, loaded, immediate);
    for (const arg of loaded) this.release(arg);
    return { kind: 'register', register: result, temporary: true };
  }

  /** Stores an operand into a destination register: by retargeting the instruction that made it, or a `mov`. */
  assign(destination: number, value: Operand): void {
    if (value.kind === 'register' && value.temporary && this.lastInstruction >= 0 && this.words[this.lastInstruction + 1] === value.register) {
      this.words[this.lastInstruction + 1] = destination;
      this.release(value);
      return;
    }
    if (value.kind === 'register' && value.register === destination) return;
    this.emit('mov', destination, [value], 0);
    this.release(value);
  }

  /** `destination = destination (op) value`, written straight into the destination. */
  update(operation: OperationName, destination: number, value: Operand): void {
    this.emit(operation, destination, [{ kind: 'register', register: destination, temporary: false }, value], 0);
    this.release(value);
  }

  private load(constant: Operand, at: Token): Operand {
    const register = this.allocate(at);
    this.emit('mov', register, [constant], 0);
    return { kind: 'register', register, temporary: true };
  }

  private emit(operation: OperationName, result: number, args: readonly Operand[], immediate: number): void {
    const { kind, base } = operationNamed(operation);
    let opcode = base;
    if (kind === 'binary') opcode += (args[0]!.kind === 'constant' ? 2 : 0) + (args[1]!.kind === 'constant' ? 1 : 0);
    else if (kind === 'unary') opcode += args[0]!.kind === 'constant' ? 1 : 0;
    this.lastInstruction = this.words.length;
    this.instructionCount++;
    this.words.push(opcode, result);
    for (const arg of args) {
      if (arg.kind === 'register') {
        this.words.push(arg.register);
        continue;
      }
      if (arg.global !== undefined) this.patches.push(hashConstantName(arg.global), this.words.length);
      for (let k = 0; k < 4; k++) {
        floatBits[0] = arg.value[k]!;
        this.words.push(floatWord[0]!);
      }
    }
    if (kind === 'swizzle') this.words.push(immediate);
  }
}
