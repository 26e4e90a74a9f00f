/**
 * A streaming 64-bit hash of simulation state, for the determinism check: two runs of the same scene
 * reach the same hash exactly when every value fed in has the same bits. Two 32-bit lanes, each a
 * multiply–rotate mix per 32-bit word (murmur3's body) with its own seed, finalised together. Not a
 * cryptographic hash; it only has to make accidental equality of different states vanishingly unlikely.
 */
export class StateHasher {
  private a = 0x9e3779b9;
  private b = 0x85ebca6b;
  private words = 0;
  private readonly scratch = new DataView(new ArrayBuffer(8));

  /** One 32-bit word (its low 32 bits if larger). */
  word(value: number): this {
    let k = Math.imul(value | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    let a = this.a ^ k;
    a = (a << 13) | (a >>> 19);
    this.a = (Math.imul(a, 5) + 0xe6546b64) | 0;
    let b = this.b ^ Math.imul(k, 0x27d4eb2f);
    b = (b << 17) | (b >>> 15);
    this.b = (Math.imul(b, 9) + 0x165667b1) | 0;
    this.words++;
    return this;
  }

  /** A number by its float64 bits (integers and floats alike). */
  number(value: number): this {
    this.scratch.setFloat64(0, value, true);
    return this.word(this.scratch.getUint32(0, true)).word(this.scratch.getUint32(4, true));
  }

  boolean(value: boolean): this {
    return this.word(value ? 1 : 0);
  }

  /** A string by its UTF-16 code units, with its length so "ab"+"c" differs from "a"+"bc". */
  string(value: string): this {
    this.word(value.length);
    for (let i = 0; i < value.length; i++) this.word(value.charCodeAt(i));
    return this;
  }

  /** The first `count` elements of a typed array (all by default), by their bits. */
  array(values: ArrayBufferView & { readonly length: number; readonly BYTES_PER_ELEMENT: number }, count = values.length): this {
    const bytes = Math.min(count, values.length) * values.BYTES_PER_ELEMENT;
    this.word(bytes);
    const offset = values.byteOffset;
    const whole = bytes >>> 2;
    if ((offset & 3) === 0) {
      const words = new Int32Array(values.buffer, offset, whole);
      for (let i = 0; i < whole; i++) this.word(words[i]!);
    } else {
      const view = new DataView(values.buffer, offset, bytes);
      for (let i = 0; i < whole; i++) this.word(view.getInt32(4 * i, true));
    }
    const tail = bytes & 3;
    if (tail > 0) {
      const view = new Uint8Array(values.buffer, offset + 4 * whole, tail);
      let last = 0;
      for (let i = 0; i < tail; i++) last |= view[i]! << (8 * i);
      this.word(last);
    }
    return this;
  }

  /**
   * Any plain state by structure: numbers, booleans, strings, typed arrays, arrays, Maps, and objects by
   * their keys in sorted order (so the order properties were created in does not matter). A system's
   * snapshot for stepping back hashes as it is.
   */
  value(value: unknown): this {
    if (typeof value === 'number') return this.word(1).number(value);
    if (typeof value === 'boolean') return this.word(2).boolean(value);
    if (typeof value === 'string') return this.word(3).string(value);
    if (value === null || value === undefined) return this.word(value === null ? 4 : 5);
    if (ArrayBuffer.isView(value)) return this.word(6).array(value as ArrayBufferView & { length: number; BYTES_PER_ELEMENT: number });
    if (Array.isArray(value)) {
      this.word(7).word(value.length);
      for (const item of value) this.value(item);
      return this;
    }
    if (value instanceof Map) {
      this.word(8).word(value.size);
      for (const [key, item] of value) this.value(key).value(item);
      return this;
    }
    if (typeof value === 'object') {
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).sort();
      this.word(9).word(keys.length);
      for (const key of keys) this.string(key).value(object[key]);
      return this;
    }
    throw new TypeError(`StateHasher.value: cannot hash a ${typeof value}`);
  }

  /** The hash so far as 16 hex digits. */
  digest(): string {
    let a = this.a ^ this.words;
    let b = this.b ^ Math.imul(this.words, 0x9e3779b1);
    a = (a + b) | 0;
    b = (b + a) | 0;
    a = fmix(a);
    b = fmix(b);
    a = (a + b) | 0;
    b = (b + a) | 0;
    return hex(a) + hex(b);
  }
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
