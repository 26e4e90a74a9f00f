import { emitTrigFunction } from '../platform/f32x4Trig';
import { emitLoad4, emitStore4, emitTranspose4 } from '../platform/f32x4Transpose';
import { ModuleBuilder, type FunctionBuilder } from '../platform/wasmEmitter';
import { Op, SimdOp, ValueType } from '../platform/wasmOpcodes';
import { ARGUMENTS_OF_OPCODE, OPCODE_COUNT, OPERATION_OF_OPCODE, instructionWords } from './opcodes';
import { WIND_REGISTER } from './program';
import { LanePool, emitLaneOperation, type LaneFunctions } from './simd-lanes';
import { PERMUTATION_AT } from './simd-memory';
import { emitNoiseFunction } from './simd-noise';

/**
 * The SIMD interpreter: one WebAssembly function that walks the bytecode (in the module memory) and
 * runs each instruction as a v128 loop over a chunk of points before decoding the next, like
 * interpreter.ts does in TypeScript. Registers are structure of arrays in the scratch: component k of
 * register r is `points` float32s at scratch + (r·4 + k)·stride, so one v128 holds one component of
 * four points and every operation is lane-wise (simd-lanes.ts).
 *
 *   run(codeAt, codeEnd, positionsAt, windAt, points, scratchAt, stride)
 *
 * `points` is a multiple of 4 and at most stride / 4; positions and wind are float4 per point (array
 * of structures) and are transposed into r0 and r1 on the way in, r1 back into the wind on the way out.
 *
 * Dispatch is a br_table over every opcode, each case generated for its argument shapes: a register
 * argument is loaded per group of four points, a constant argument is splat once before the loop.
 */
export function buildInterpreterModule(): Uint8Array<ArrayBuffer> {
  const module = new ModuleBuilder().importMemory('env', 'memory', 1);
  const functions: LaneFunctions = { trig: emitTrigFunction(module), noise: emitNoiseFunction(module, PERMUTATION_AT) };
  const i32 = ValueType.i32;
  const f = module.function([i32, i32, i32, i32, i32, i32, i32], [], 'run');
  const [codeAt, codeEnd, positionsAt, windAt, points, scratchAt, stride] = [0, 1, 2, 3, 4, 5, 6];
  const pc = f.local(i32);
  const offset = f.local(i32);
  const groupEnd = f.local(i32);
  const aos = f.local(i32);
  /** Component base addresses: [0] the result, [1…3] the register arguments. */
  const bases = [0, 1, 2, 3].map(() => [0, 1, 2, 3].map(() => f.local(i32)));
  const pool = new LanePool(f);

  f.localGet(points).i32Const(4).op(Op.i32Mul).localSet(groupEnd);

  /** `for (offset = 0; offset < groupEnd; offset += 16) body()`, offset being the byte offset into a component array. */
  const forEachGroup = (body: () => void): void => {
    f.i32Const(0).localSet(offset);
    f.block().loop();
    f.localGet(offset).localGet(groupEnd).op(Op.i32GeU).brIf(1);
    body();
    f.localGet(offset).i32Const(16).op(Op.i32Add).localSet(offset);
    f.br(0).end().end();
  };
  /** bases[slot][k] = scratch + (register·4 + k)·stride, the register number read from the word at pc + wordOffset·4. */
  const registerBases = (slot: number, wordOffset: number): void => {
    for (let k = 0; k < 4; k++) {
      f.localGet(pc)
        .memory(Op.i32Load, 2, wordOffset * 4)
        .i32Const(4)
        .op(Op.i32Mul);
      if (k > 0) f.i32Const(k).op(Op.i32Add);
      f.localGet(stride).op(Op.i32Mul).localGet(scratchAt).op(Op.i32Add).localSet(bases[slot]![k]!);
    }
  };
  const fixedRegisterBases = (slot: number, register: number): void => {
    for (let k = 0; k < 4; k++)
      f.localGet(scratchAt)
        .localGet(stride)
        .i32Const(register * 4 + k)
        .op(Op.i32Mul)
        .op(Op.i32Add)
        .localSet(bases[slot]![k]!);
  };
  const loadComponent = (base: number): number => {
    const local = pool.take();
    f.localGet(base).localGet(offset).op(Op.i32Add).simdMemory(SimdOp.v128Load, 4).localSet(local);
    return local;
  };
  const storeComponent = (base: number, value: number): void => {
    f.localGet(base).localGet(offset).op(Op.i32Add).localGet(value).simdMemory(SimdOp.v128Store, 4);
  };

  // Positions → r0, wind → r1 (array of structures to structure of arrays).
  const transposeIn = (from: number, register: number): void => {
    fixedRegisterBases(0, register);
    f.localGet(from).localSet(aos);
    forEachGroup(() => {
      pool.release();
      const rows = [pool.take(), pool.take(), pool.take(), pool.take()];
      const columns = [pool.take(), pool.take(), pool.take(), pool.take()];
      emitLoad4(f, aos, 0, rows);
      emitTranspose4(f, rows, columns, [pool.take(), pool.take(), pool.take(), pool.take()]);
      columns.forEach((column, k) => storeComponent(bases[0]![k]!, column));
      f.localGet(aos).i32Const(64).op(Op.i32Add).localSet(aos);
    });
  };
  transposeIn(positionsAt, 0);
  transposeIn(windAt, WIND_REGISTER);

  // The dispatch loop: block(exit) loop(next) block(case N−1) … block(case 0) br_table.
  f.localGet(codeAt).localSet(pc);
  f.block().loop();
  f.localGet(pc).localGet(codeEnd).op(Op.i32GeU).brIf(1);
  f.block(); // the default: unreachable for validated bytecode
  for (let opcode = OPCODE_COUNT - 1; opcode >= 0; opcode--) f.block();
  f.localGet(pc).memory(Op.i32Load, 2, 0);
  f.brTable(
    Array.from({ length: OPCODE_COUNT }, (_, opcode) => opcode),
    OPCODE_COUNT,
  );
  for (let opcode = 0; opcode < OPCODE_COUNT; opcode++) {
    f.end();
    emitCase(f, opcode);
    f.localGet(pc)
      .i32Const(instructionWords(opcode) * 4)
      .op(Op.i32Add)
      .localSet(pc);
    // Still open: the later cases' blocks, the default block, then the loop.
    f.br(OPCODE_COUNT - opcode);
  }
  f.end().op(Op.unreachable);
  f.end().end();

  // r1 → wind.
  fixedRegisterBases(1, WIND_REGISTER);
  f.localGet(windAt).localSet(aos);
  forEachGroup(() => {
    pool.release();
    const columns = [0, 1, 2, 3].map((k) => loadComponent(bases[1]![k]!));
    const rows = [pool.take(), pool.take(), pool.take(), pool.take()];
    emitTranspose4(f, columns, rows, [pool.take(), pool.take(), pool.take(), pool.take()]);
    emitStore4(f, aos, 0, rows);
    f.localGet(aos).i32Const(64).op(Op.i32Add).localSet(aos);
  });
  return module.build();

  function emitCase(g: FunctionBuilder, opcode: number): void {
    pool.release();
    const operation = OPERATION_OF_OPCODE[opcode]!;
    registerBases(0, 1);
    let word = 2;
    let slot = 1;
    const shapes = ARGUMENTS_OF_OPCODE[opcode]!;
    const argumentSlots: (number | number[])[] = [];
    for (const kind of shapes) {
      if (kind === 'r') {
        registerBases(slot, word);
        argumentSlots.push(slot++);
        word += 1;
      } else if (kind === 'c') {
        const splats = [0, 1, 2, 3].map((k) => {
          const local = pool.take();
          g.localGet(pc)
            .simdMemory(SimdOp.v128Load32Splat, 2, (word + k) * 4)
            .localSet(local);
          return local;
        });
        argumentSlots.push(splats);
        word += 4;
      } else {
        word += 1; // the swizzle pattern: handled below
      }
    }
    if (operation.name === 'swizzle') {
      // Result component k reads argument component (pattern >> 2k) & 3: pick the base addresses once.
      for (let k = 0; k < 4; k++) {
        g.localGet(scratchAt).localGet(pc).memory(Op.i32Load, 2, 8).i32Const(4).op(Op.i32Mul);
        g.localGet(pc)
          .memory(Op.i32Load, 2, 12)
          .i32Const(2 * k)
          .op(Op.i32ShrU)
          .i32Const(3)
          .op(Op.i32And)
          .op(Op.i32Add);
        g.localGet(stride).op(Op.i32Mul).op(Op.i32Add).localSet(bases[1]![k]!);
      }
      forEachGroup(() => {
        const values = [0, 1, 2, 3].map((k) => loadComponent(bases[1]![k]!));
        values.forEach((value, k) => storeComponent(bases[0]![k]!, value));
      });
      return;
    }
    forEachGroup(() => {
      const args = argumentSlots.map((source) => (typeof source === 'number' ? [0, 1, 2, 3].map((k) => loadComponent(bases[source]![k]!)) : source));
      const result = emitLaneOperation(g, pool, functions, operation.name, args, 0);
      result.forEach((value, k) => storeComponent(bases[0]![k]!, value));
    });
  }
}
