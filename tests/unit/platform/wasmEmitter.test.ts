import { describe, expect, it } from 'vitest';
import { ByteWriter, ModuleBuilder } from '../../../src/platform/wasmEmitter';
import { isWasmSimdSupported } from '../../../src/platform/simdSupport';
import { Op, SimdOp, ValueType } from '../../../src/platform/wasmOpcodes';

function instantiate(bytes: Uint8Array<ArrayBuffer>, imports: WebAssembly.Imports = {}): WebAssembly.Exports {
  expect(WebAssembly.validate(bytes)).toBe(true);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports;
}

describe('LEB128', () => {
  it('encodes unsigned and signed numbers as the spec examples do', () => {
    expect(new ByteWriter().unsigned(0).bytes).toEqual([0]);
    expect(new ByteWriter().unsigned(127).bytes).toEqual([0x7f]);
    expect(new ByteWriter().unsigned(128).bytes).toEqual([0x80, 0x01]);
    expect(new ByteWriter().unsigned(624485).bytes).toEqual([0xe5, 0x8e, 0x26]);
    expect(new ByteWriter().unsigned(0xffffffff).bytes).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(new ByteWriter().signed(-1).bytes).toEqual([0x7f]);
    expect(new ByteWriter().signed(63).bytes).toEqual([0x3f]);
    expect(new ByteWriter().signed(64).bytes).toEqual([0xc0, 0x00]);
    expect(new ByteWriter().signed(-64).bytes).toEqual([0x40]);
    expect(new ByteWriter().signed(-123456).bytes).toEqual([0xc0, 0xbb, 0x78]);
    expect(new ByteWriter().signed(-2147483648).bytes).toEqual([0x80, 0x80, 0x80, 0x80, 0x78]);
    expect(() => new ByteWriter().unsigned(-1)).toThrow(RangeError);
  });
});

describe('modules', () => {
  it('an empty module validates', () => {
    expect(WebAssembly.validate(new ModuleBuilder().build())).toBe(true);
  });

  it('scalar code: a loop summing 1 … n with locals, branches and signed constants', () => {
    const module = new ModuleBuilder();
    const f = module.function([ValueType.i32], [ValueType.i32], 'sum');
    const total = f.local(ValueType.i32);
    f.block().loop();
    f.localGet(0).op(Op.i32Eqz).brIf(1);
    f.localGet(total).localGet(0).op(Op.i32Add).localSet(total);
    f.localGet(0).i32Const(-1).op(Op.i32Add).localSet(0);
    f.br(0).end().end();
    f.localGet(total);
    const sum = instantiate(module.build()).sum as (n: number) => number;
    expect(sum(100)).toBe(5050);
    expect(sum(0)).toBe(0);
  });

  it('calls between functions and a jump table', () => {
    const module = new ModuleBuilder();
    const double = module.function([ValueType.i32], [ValueType.i32]);
    double.localGet(0).localGet(0).op(Op.i32Add);
    const pick = module.function([ValueType.i32], [ValueType.i32], 'pick');
    pick.block().block().block();
    pick.localGet(0).brTable([0, 1], 2);
    pick.end().i32Const(10).call(double.index).op(Op.return);
    pick.end().i32Const(200).op(Op.return);
    pick.end().i32Const(-7);
    const run = instantiate(module.build()).pick as (n: number) => number;
    expect([run(0), run(1), run(2), run(99)]).toEqual([20, 200, -7, -7]);
  });

  it('an imported memory is shared with JS and survives growth; data segments land in it', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const module = new ModuleBuilder().importMemory('env', 'memory', 1);
    module.data(8, Uint8Array.of(42));
    const f = module.function([ValueType.i32, ValueType.f32], [], 'store');
    f.localGet(0).localGet(1).memory(Op.f32Store, 2);
    const g = module.function([ValueType.i32], [ValueType.i32], 'load8');
    g.localGet(0).memory(Op.i32Load8U, 0);
    const exports = instantiate(module.build(), { env: { memory } });
    expect((exports.load8 as (at: number) => number)(8)).toBe(42);
    memory.grow(1);
    (exports.store as (at: number, value: number) => void)(65536 + 4, 1.5);
    expect(new Float32Array(memory.buffer)[(65536 + 4) / 4]).toBe(1.5);
  });

  it('a defined, exported memory', () => {
    const module = new ModuleBuilder().defineMemory(2, 4).exportMemory('memory');
    module.function([], [], 'nothing');
    const exports = instantiate(module.build());
    expect((exports.memory as WebAssembly.Memory).buffer.byteLength).toBe(2 * 65536);
  });
});

describe.runIf(isWasmSimdSupported())('SIMD', () => {
  it('f32x4 arithmetic, shuffles, lanes, splats and constants over memory', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const module = new ModuleBuilder().importMemory('env', 'memory', 1);
    const f = module.function([ValueType.i32, ValueType.i32], [], 'kernel');
    // out[0..3] = sqrt(a * a + (1, 2, 3, 4)); out[4..7] = a shuffled (w z y x); out[8..11] = splat(a.z)
    f.localGet(1);
    f.localGet(0).simdMemory(SimdOp.v128Load, 4).localGet(0).simdMemory(SimdOp.v128Load, 4).simd(SimdOp.f32x4Mul);
    f.f32x4Const(1, 2, 3, 4).simd(SimdOp.f32x4Add).simd(SimdOp.f32x4Sqrt);
    f.simdMemory(SimdOp.v128Store, 4, 0);
    f.localGet(1).localGet(0).simdMemory(SimdOp.v128Load, 4).localGet(0).simdMemory(SimdOp.v128Load, 4).shuffle32(3, 2, 1, 0);
    f.simdMemory(SimdOp.v128Store, 4, 16);
    f.localGet(1).localGet(0).simdMemory(SimdOp.v128Load, 4).simdLane(SimdOp.f32x4ExtractLane, 2).simd(SimdOp.f32x4Splat);
    f.simdMemory(SimdOp.v128Store, 4, 32);
    const exports = instantiate(module.build(), { env: { memory } });
    const floats = new Float32Array(memory.buffer);
    floats.set([1, 2, 3, 4], 0);
    (exports.kernel as (a: number, out: number) => void)(0, 64);
    expect([...floats.subarray(16, 28)]).toEqual([
      Math.fround(Math.sqrt(2)),
      Math.fround(Math.sqrt(6)),
      Math.fround(Math.sqrt(12)),
      Math.fround(Math.sqrt(20)),
      4,
      3,
      2,
      1,
      3,
      3,
      3,
      3,
    ]);
  });

  it('integer lanes: a table lookup per lane (byte load, replace_lane) and lane arithmetic', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    new Uint8Array(memory.buffer).set([0, 10, 20, 30, 40, 50, 60, 70, 80], 0);
    const module = new ModuleBuilder().importMemory('env', 'memory', 1);
    const f = module.function([], [ValueType.i32], 'run');
    const index = f.local(ValueType.v128);
    const looked = f.local(ValueType.v128);
    f.i32x4Const(5, 6, 7, 8).localSet(index);
    f.localGet(index).localSet(looked);
    for (let lane = 0; lane < 4; lane++) {
      f.localGet(looked)
        .localGet(index)
        .simdLane(SimdOp.i32x4ExtractLane, lane)
        .memory(Op.i32Load8U, 0)
        .simdLane(SimdOp.i32x4ReplaceLane, lane)
        .localSet(looked);
    }
    // (50, 60, 70, 80) + (5, 6, 7, 8): lane 3 is 88, lane 0 is 55.
    f.localGet(looked).localGet(index).simd(SimdOp.i32x4Add).localTee(looked).simdLane(SimdOp.i32x4ExtractLane, 3);
    f.localGet(looked).simdLane(SimdOp.i32x4ExtractLane, 0).op(Op.i32Add);
    const exports = instantiate(module.build(), { env: { memory } });
    expect((exports.run as () => number)()).toBe(88 + 55);
  });
});
