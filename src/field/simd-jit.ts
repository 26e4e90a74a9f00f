import { emitTrigFunction } from '../simd/f32x4Trig';
import { emitLoad4, emitStore4, emitTranspose4 } from '../simd/f32x4Transpose';
import { ModuleBuilder } from '../simd/wasmEmitter';
import { Op, SimdOp, ValueType } from '../simd/wasmOpcodes';
import { ARGUMENTS_OF_OPCODE, OPERATION_OF_OPCODE, instructionWords, type OperationName } from './opcodes';
import { POSITION_REGISTER, WIND_REGISTER, type FieldProgram } from './program';
import { LanePool, emitLaneOperation, type LaneFunctions } from './simd-lanes';
import { PERMUTATION_AT } from './simd-memory';
import { emitNoiseFunction } from './simd-noise';

/**
 * The SIMD JIT: turns validated bytecode into one WebAssembly function with a single fused loop over
 * the points, four per iteration, every register component in a v128 local (structure of arrays, see
 * simd-lanes.ts):
 *
 *   kernel(codeAt, positionsAt, windAt, count)     count a multiple of 4
 *
 * Each iteration loads four positions and four winds (float4 each), transposes them into component
 * vectors, runs the program, transposes the wind back and stores it. Before the loop: instructions
 * whose result is never used by the final wind are dropped, and instructions that read only constants
 * (such as `radius * radius`) run once. Patchable constants are read from the bytecode copy in memory
 * at each call (setConstant needs no recompilation); the others are baked in as v128 constants. Noise,
 * sin and cos are functions of the module, emitted only when the program uses them.
 */
interface Instruction {
  readonly operation: OperationName;
  readonly result: number;
  /** A register number, or the word offset of an inline constant (marked by `constant`). */
  readonly args: readonly { readonly register: number; readonly constantAt: number }[];
  readonly immediate: number;
}

function decode(program: FieldProgram): Instruction[] {
  const { words } = program;
  const list: Instruction[] = [];
  for (let pc = 0; pc < words.length; pc += instructionWords(words[pc]!)) {
    const opcode = words[pc]!;
    const args: { register: number; constantAt: number }[] = [];
    let immediate = 0;
    let at = pc + 2;
    for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
      if (kind === 'r') args.push({ register: words[at]!, constantAt: -1 });
      else if (kind === 'c') args.push({ register: -1, constantAt: at });
      else immediate = words[at]!;
      at += kind === 'c' ? 4 : 1;
    }
    list.push({ operation: OPERATION_OF_OPCODE[opcode]!.name, result: words[pc + 1]!, args, immediate });
  }
  return list;
}

/** Which instructions the final wind depends on (register granularity, walking backwards). */
function liveInstructions(instructions: readonly Instruction[]): boolean[] {
  const live = new Set<number>([WIND_REGISTER]);
  const keep = new Array<boolean>(instructions.length).fill(false);
  for (let i = instructions.length - 1; i >= 0; i--) {
    const instruction = instructions[i]!;
    if (!live.has(instruction.result)) continue;
    keep[i] = true;
    live.delete(instruction.result);
    for (const arg of instruction.args) if (arg.register >= 0) live.add(arg.register);
  }
  return keep;
}

export function buildJitModule(program: FieldProgram): Uint8Array<ArrayBuffer> {
  const instructions = decode(program);
  const keep = liveInstructions(instructions);
  const used = new Set(instructions.filter((_, i) => keep[i]).map((instruction) => instruction.operation));
  const module = new ModuleBuilder().importMemory('env', 'memory', 1);
  const functions: LaneFunctions = {
    trig: used.has('sin') || used.has('cos') ? emitTrigFunction(module) : -1,
    noise: used.has('noise') ? emitNoiseFunction(module, PERMUTATION_AT) : -1,
  };
  const i32 = ValueType.i32;
  const f = module.function([i32, i32, i32, i32], [], 'kernel');
  const [codeAt, positionsAt, windAt, count] = [0, 1, 2, 3];
  const position = f.local(i32);
  const wind = f.local(i32);
  const end = f.local(i32);
  const pool = new LanePool(f);

  const patched = new Set<number>();
  for (let i = 1; i < program.patches.length; i += 2) patched.add(program.patches[i]!);
  const constantLocals = new Map<number, number[]>();
  const constant = (at: number): number[] => {
    let locals = constantLocals.get(at);
    if (locals === undefined) {
      locals = [0, 1, 2, 3].map((k) => {
        const local = pool.take();
        if (patched.has(at)) f.localGet(codeAt).simdMemory(SimdOp.v128Load32Splat, 2, (at + k) * 4);
        else f.f32x4Const(program.floats[at + k]!, program.floats[at + k]!, program.floats[at + k]!, program.floats[at + k]!);
        f.localSet(local);
        return local;
      });
      constantLocals.set(at, locals);
    }
    return locals;
  };
  const zero = [0, 1, 2, 3].map(() => pool.take());
  f.f32x4Const(0, 0, 0, 0);
  zero.forEach((local, k) => (k === 0 ? f.localSet(local) : f.localGet(zero[0]!).localSet(local)));

  // Pass 1, before the loop: constant-only instructions. A register never written reads as zero.
  const resultOf: (number[] | undefined)[] = [];
  const invariantRegisters = new Map<number, number[]>();
  const argumentsFrom = (instruction: Instruction, registers: (register: number) => number[] | undefined): number[][] | undefined => {
    const args: number[][] = [];
    for (const arg of instruction.args) {
      const value = arg.register >= 0 ? registers(arg.register) : constant(arg.constantAt);
      if (value === undefined) return undefined;
      args.push(value);
    }
    return args;
  };
  const varying = new Set<number>([POSITION_REGISTER, WIND_REGISTER]);
  instructions.forEach((instruction, i) => {
    if (!keep[i]) return;
    const args = argumentsFrom(instruction, (register) => (varying.has(register) ? undefined : (invariantRegisters.get(register) ?? zero)));
    if (args === undefined) {
      varying.add(instruction.result);
      invariantRegisters.delete(instruction.result);
      return;
    }
    const result = emitLaneOperation(f, pool, functions, instruction.operation, args, instruction.immediate);
    resultOf[i] = result;
    varying.delete(instruction.result);
    invariantRegisters.set(instruction.result, result);
  });

  // Pass 2: the loop over groups of four points.
  f.localGet(count).op(Op.i32Eqz).op(Op.i32Eqz).if();
  f.localGet(positionsAt).localSet(position);
  f.localGet(windAt).localSet(wind);
  f.localGet(positionsAt).localGet(count).i32Const(16).op(Op.i32Mul).op(Op.i32Add).localSet(end);
  f.loop();
  const take4 = (): number[] => [pool.take(), pool.take(), pool.take(), pool.take()];
  const transposeTemporaries = take4();
  const loadColumns = (address: number): number[] => {
    const rows = take4();
    const columns = take4();
    emitLoad4(f, address, 0, rows);
    emitTranspose4(f, rows, columns, transposeTemporaries);
    return columns;
  };
  const registers = new Map<number, number[]>([
    [POSITION_REGISTER, loadColumns(position)],
    [WIND_REGISTER, loadColumns(wind)],
  ]);
  instructions.forEach((instruction, i) => {
    if (!keep[i]) return;
    const hoisted = resultOf[i];
    if (hoisted !== undefined) {
      registers.set(instruction.result, hoisted);
      return;
    }
    const args = argumentsFrom(instruction, (register) => registers.get(register) ?? zero)!;
    registers.set(instruction.result, emitLaneOperation(f, pool, functions, instruction.operation, args, instruction.immediate));
  });
  const rows = take4();
  emitTranspose4(f, registers.get(WIND_REGISTER)!, rows, transposeTemporaries);
  emitStore4(f, wind, 0, rows);
  f.localGet(position).i32Const(64).op(Op.i32Add).localSet(position);
  f.localGet(wind).i32Const(64).op(Op.i32Add).localSet(wind);
  f.localGet(position).localGet(end).op(Op.i32LtU).brIf(0);
  f.end().end();
  return module.build();
}
