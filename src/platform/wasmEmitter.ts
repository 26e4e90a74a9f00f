import { EMPTY_BLOCK, Op, SIMD_PREFIX, SimdOp, ValueType } from './wasmOpcodes';

/**
 * A small WebAssembly binary emitter: enough to generate SIMD kernels at run time, in the page or in
 * Node, without shipping a compiler. A module holds function types, one imported or defined memory,
 * functions with their locals and code, exports and data segments; `build()` lays the sections out in
 * the order the binary format requires. Code is written instruction by instruction through a
 * FunctionBuilder; the caller keeps the stack balanced (WebAssembly.validate says when it is not).
 */

/** Appends bytes: fixed-width little-endian numbers and LEB128 variable-length integers. */
export class ByteWriter {
  readonly bytes: number[] = [];
  private static readonly scratch = new DataView(new ArrayBuffer(8));

  byte(value: number): this {
    this.bytes.push(value & 0xff);
    return this;
  }

  append(bytes: ArrayLike<number>): this {
    for (let i = 0; i < bytes.length; i++) this.bytes.push(bytes[i]! & 0xff);
    return this;
  }

  /** Unsigned LEB128: seven bits per byte, low first, the high bit set on every byte but the last. */
  unsigned(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`not a u32: ${value}`);
    let rest = value;
    do {
      let byte = rest % 128;
      rest = Math.floor(rest / 128);
      if (rest !== 0) byte |= 0x80;
      this.bytes.push(byte);
    } while (rest !== 0);
    return this;
  }

  /** Signed LEB128 of a 32-bit integer (i32.const immediates are signed even when read as unsigned). */
  signed(value: number): this {
    let rest = value | 0;
    for (;;) {
      const byte = rest & 0x7f;
      rest >>= 7;
      const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
      this.bytes.push(done ? byte : byte | 0x80);
      if (done) return this;
    }
  }

  float32(value: number): this {
    ByteWriter.scratch.setFloat32(0, value, true);
    for (let i = 0; i < 4; i++) this.bytes.push(ByteWriter.scratch.getUint8(i));
    return this;
  }

  /** A length-prefixed UTF-8 name. */
  name(text: string): this {
    const encoded = new TextEncoder().encode(text);
    return this.unsigned(encoded.length).append(encoded);
  }

  /** A section: its id, then its contents prefixed by their byte length. */
  section(id: number, contents: ByteWriter): this {
    return this.byte(id).unsigned(contents.bytes.length).append(contents.bytes);
  }
}

export interface FunctionType {
  readonly params: readonly ValueType[];
  readonly results: readonly ValueType[];
}

function typeKey(type: FunctionType): string {
  return `${type.params.join(',')}>${type.results.join(',')}`;
}

/** The code of one function: its locals and its instructions, emitted in order. */
export class FunctionBuilder {
  private readonly code = new ByteWriter();
  private readonly localTypes: ValueType[] = [];

  constructor(
    /** The function's index in the module's function space (what `call` takes). */
    readonly index: number,
    readonly type: FunctionType,
  ) {}

  /** Declares a local and returns its index (parameters come first: 0 … params − 1). */
  local(type: ValueType): number {
    this.localTypes.push(type);
    return this.type.params.length + this.localTypes.length - 1;
  }

  op(opcode: number): this {
    this.code.byte(opcode);
    return this;
  }

  i32Const(value: number): this {
    this.code.byte(Op.i32Const).signed(value);
    return this;
  }

  f32Const(value: number): this {
    this.code.byte(Op.f32Const).float32(value);
    return this;
  }

  localGet(index: number): this {
    this.code.byte(Op.localGet).unsigned(index);
    return this;
  }

  localSet(index: number): this {
    this.code.byte(Op.localSet).unsigned(index);
    return this;
  }

  localTee(index: number): this {
    this.code.byte(Op.localTee).unsigned(index);
    return this;
  }

  /** A memory instruction with its alignment (log2 bytes) and constant offset. */
  memory(opcode: number, alignLog2: number, offset = 0): this {
    this.code.byte(opcode).unsigned(alignLog2).unsigned(offset);
    return this;
  }

  call(functionIndex: number): this {
    this.code.byte(Op.call).unsigned(functionIndex);
    return this;
  }

  block(): this {
    this.code.byte(Op.block).byte(EMPTY_BLOCK);
    return this;
  }

  loop(): this {
    this.code.byte(Op.loop).byte(EMPTY_BLOCK);
    return this;
  }

  if(): this {
    this.code.byte(Op.if).byte(EMPTY_BLOCK);
    return this;
  }

  else(): this {
    this.code.byte(Op.else);
    return this;
  }

  end(): this {
    this.code.byte(Op.end);
    return this;
  }

  /** Branches to the enclosing label `depth` levels out (0 = innermost). */
  br(depth: number): this {
    this.code.byte(Op.br).unsigned(depth);
    return this;
  }

  brIf(depth: number): this {
    this.code.byte(Op.brIf).unsigned(depth);
    return this;
  }

  /** Jump table: the value on the stack picks a depth from `depths`, anything out of range `fallback`. */
  brTable(depths: readonly number[], fallback: number): this {
    this.code.byte(Op.brTable).unsigned(depths.length);
    for (const depth of depths) this.code.unsigned(depth);
    this.code.unsigned(fallback);
    return this;
  }

  /** A SIMD instruction without immediates. */
  simd(opcode: SimdOp): this {
    this.code.byte(SIMD_PREFIX).unsigned(opcode);
    return this;
  }

  /** A SIMD memory instruction (v128.load, v128.store, load32_splat…) with alignment and offset. */
  simdMemory(opcode: SimdOp, alignLog2: number, offset = 0): this {
    this.code.byte(SIMD_PREFIX).unsigned(opcode).unsigned(alignLog2).unsigned(offset);
    return this;
  }

  /** A SIMD lane instruction (extract_lane, replace_lane). */
  simdLane(opcode: SimdOp, lane: number): this {
    this.code.byte(SIMD_PREFIX).unsigned(opcode).byte(lane);
    return this;
  }

  /** A v128 lane load or store: memory immediates, then the lane. */
  simdMemoryLane(opcode: SimdOp, alignLog2: number, offset: number, lane: number): this {
    this.code.byte(SIMD_PREFIX).unsigned(opcode).unsigned(alignLog2).unsigned(offset).byte(lane);
    return this;
  }

  /** v128.const from four float32 lanes. */
  f32x4Const(x: number, y: number, z: number, w: number): this {
    this.code.byte(SIMD_PREFIX).unsigned(SimdOp.v128Const).float32(x).float32(y).float32(z).float32(w);
    return this;
  }

  /** v128.const from four 32-bit integer lanes. */
  i32x4Const(x: number, y: number, z: number, w: number): this {
    this.code.byte(SIMD_PREFIX).unsigned(SimdOp.v128Const);
    for (const lane of [x, y, z, w])
      this.code
        .byte(lane)
        .byte(lane >>> 8)
        .byte(lane >>> 16)
        .byte(lane >>> 24);
    return this;
  }

  /** i8x16.shuffle picking whole 32-bit lanes: 0–3 from the first operand, 4–7 from the second. */
  shuffle32(l0: number, l1: number, l2: number, l3: number): this {
    this.code.byte(SIMD_PREFIX).unsigned(SimdOp.i8x16Shuffle);
    for (const lane of [l0, l1, l2, l3]) for (let b = 0; b < 4; b++) this.code.byte(lane * 4 + b);
    return this;
  }

  /** The body as the code section wants it: locals in runs of one type, instructions, `end`. */
  encode(): number[] {
    const body = new ByteWriter();
    const runs: [ValueType, number][] = [];
    for (const type of this.localTypes) {
      const last = runs[runs.length - 1];
      if (last !== undefined && last[0] === type) last[1]++;
      else runs.push([type, 1]);
    }
    body.unsigned(runs.length);
    for (const [type, count] of runs) body.unsigned(count).byte(type);
    body.append(this.code.bytes).byte(Op.end);
    const sized = new ByteWriter();
    return sized.unsigned(body.bytes.length).append(body.bytes).bytes;
  }
}

interface MemoryDeclaration {
  readonly imported: { readonly module: string; readonly field: string } | undefined;
  readonly minimumPages: number;
  readonly maximumPages: number | undefined;
}

/** A module under construction. Functions are defined, never imported; the memory is imported or defined. */
export class ModuleBuilder {
  private readonly types: FunctionType[] = [];
  private readonly typeIndex = new Map<string, number>();
  private readonly functions: { readonly typeIndex: number; readonly builder: FunctionBuilder }[] = [];
  private readonly exports: { readonly name: string; readonly kind: number; readonly index: number }[] = [];
  private readonly dataSegments: { readonly offset: number; readonly bytes: Uint8Array }[] = [];
  private memoryDeclaration: MemoryDeclaration | undefined;

  /** Memory 0 comes from the importer (e.g. `{ env: { memory } }`), shared with other modules and JS. */
  importMemory(module: string, field: string, minimumPages: number, maximumPages?: number): this {
    this.memoryDeclaration = { imported: { module, field }, minimumPages, maximumPages };
    return this;
  }

  /** Memory 0 belongs to this module. */
  defineMemory(minimumPages: number, maximumPages?: number): this {
    this.memoryDeclaration = { imported: undefined, minimumPages, maximumPages };
    return this;
  }

  exportMemory(name: string): this {
    this.exports.push({ name, kind: 2, index: 0 });
    return this;
  }

  /** Bytes written into memory 0 at instantiation. */
  data(offset: number, bytes: Uint8Array): this {
    this.dataSegments.push({ offset, bytes });
    return this;
  }

  /** Starts a function; exported under `exportName` when given. Write its code through the builder. */
  function(params: readonly ValueType[], results: readonly ValueType[], exportName?: string): FunctionBuilder {
    const type = { params, results };
    const key = typeKey(type);
    let index = this.typeIndex.get(key);
    if (index === undefined) {
      index = this.types.length;
      this.types.push(type);
      this.typeIndex.set(key, index);
    }
    const builder = new FunctionBuilder(this.functions.length, type);
    this.functions.push({ typeIndex: index, builder });
    if (exportName !== undefined) this.exports.push({ name: exportName, kind: 0, index: builder.index });
    return builder;
  }

  build(): Uint8Array<ArrayBuffer> {
    const out = new ByteWriter().append([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

    const types = new ByteWriter().unsigned(this.types.length);
    for (const type of this.types) {
      types.byte(0x60).unsigned(type.params.length).append(type.params).unsigned(type.results.length).append(type.results);
    }
    out.section(1, types);

    const memory = this.memoryDeclaration;
    const limits = (writer: ByteWriter, declaration: MemoryDeclaration): ByteWriter =>
      declaration.maximumPages === undefined
        ? writer.byte(0).unsigned(declaration.minimumPages)
        : writer.byte(1).unsigned(declaration.minimumPages).unsigned(declaration.maximumPages);
    if (memory?.imported !== undefined) {
      const imports = new ByteWriter().unsigned(1).name(memory.imported.module).name(memory.imported.field).byte(2);
      out.section(2, limits(imports, memory));
    }

    const functions = new ByteWriter().unsigned(this.functions.length);
    for (const f of this.functions) functions.unsigned(f.typeIndex);
    out.section(3, functions);

    if (memory !== undefined && memory.imported === undefined) out.section(5, limits(new ByteWriter().unsigned(1), memory));

    const exports = new ByteWriter().unsigned(this.exports.length);
    for (const e of this.exports) exports.name(e.name).byte(e.kind).unsigned(e.index);
    out.section(7, exports);

    const code = new ByteWriter().unsigned(this.functions.length);
    for (const f of this.functions) code.append(f.builder.encode());
    out.section(10, code);

    if (this.dataSegments.length > 0) {
      const data = new ByteWriter().unsigned(this.dataSegments.length);
      for (const segment of this.dataSegments) {
        data.unsigned(0).byte(Op.i32Const).signed(segment.offset).byte(Op.end).unsigned(segment.bytes.length).append(segment.bytes);
      }
      out.section(11, data);
    }
    return new Uint8Array(out.bytes);
  }
}
