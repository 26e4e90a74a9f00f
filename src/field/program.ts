/**
 * A compiled field program: bytecode plus what is needed to patch and run it.
 *
 * Bytecode layout (one ArrayBuffer, read as 32-bit words; `words` and `floats` view the same bytes):
 *
 *   word 0        opcode (see opcodes.ts)
 *   word 1        result register
 *   words 2…      arguments in order: a register index (1 word), an inline float4 constant
 *                 (4 words, IEEE float32, x y z w) or an immediate (1 word, the swizzle pattern)
 *   next instruction follows at once; the program ends with the buffer
 *
 * Registers: r0 is the query position (CHANNEL0, read-only), r1 the wind (CHANNEL1: the incoming
 * value, then what the program adds to it); locals and temporaries follow from r2. Every program adds
 * into r1, so programs superpose by concatenating their bytecode.
 *
 * Patch list: pairs (hash of a global constant's name, word offset of one inline copy of it), so
 * `setConstant` rewrites the constant in place without recompiling.
 */
export const POSITION_REGISTER = 0;
export const WIND_REGISTER = 1;
export const FIRST_FREE_REGISTER = 2;
/** Enough for any sane expression; a limit keeps a pathological program from asking for unbounded scratch. */
export const MAX_REGISTERS = 64;
/**
 * Far above any field worth evaluating per point (the library's programs compile to tens), and low enough
 * that the JIT's generated function stays small: at 200,000 instructions V8 overflows its stack calling it.
 */
export const MAX_INSTRUCTIONS = 4096;

export interface FieldConstant {
  readonly name: string;
  readonly hash: number;
  /** Current value (x, y, z, w), kept in step with every inline copy by `setConstant`. */
  readonly value: Float32Array;
}

export interface FieldProgram {
  /** The entry function's name (`whirl`), or names joined by `+` for a superposition. */
  readonly name: string;
  readonly words: Uint32Array;
  readonly floats: Float32Array;
  /** Registers r0 … r(registerCount-1) are used; the VM's scratch is split among them. */
  readonly registerCount: number;
  readonly instructionCount: number;
  /** Flat pairs (name hash, word offset). */
  readonly patches: Uint32Array;
  /** The patchable globals, in declaration order. */
  readonly constants: readonly FieldConstant[];
  /** Bumped whenever a constant is patched, so caches of derived data can tell. */
  version: number;
}

/** 32-bit FNV-1a over UTF-16 code units: the hash the patch list stores for a constant name. */
export function hashConstantName(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function createProgram(
  name: string,
  words: readonly number[] | Uint32Array,
  registerCount: number,
  instructionCount: number,
  patches: readonly number[] | Uint32Array,
  constants: readonly FieldConstant[],
): FieldProgram {
  const buffer = new ArrayBuffer(words.length * 4);
  const wordView = new Uint32Array(buffer);
  wordView.set(words);
  return {
    name,
    words: wordView,
    floats: new Float32Array(buffer),
    registerCount,
    instructionCount,
    patches: Uint32Array.from(patches),
    constants,
    version: 0,
  };
}
